import { createHash, randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { BA_ROLES, REVIEW_STAGE_ROLES, type Role } from '../../../domain/src/identity/roles';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { itemRefusals } from '../../../domain/src/onboarding/decide-items';
import {
  bankAccountSchema,
  concessionSchema,
  documentMetaSchema,
  gstRegistrationSchema,
  verticalMappingSchema,
} from '../../../domain/src/onboarding/items-schema';
import { itemsOf, type OnboardingState } from '../../../domain/src/onboarding/state';
import { DomainError } from '../../../domain/src/shared/errors';
import type { StoredFile } from '../../../domain/src/shared/files';
import { fieldErrors } from '../../../domain/src/validation/fields';
import type { BlobStore } from '../../../platform/src/files';
import {
  getBankAccount,
  getCompanyApplication,
  getConcession,
  getDocument,
  getGstRegistration,
  getVerticalMapping,
} from '../../../projections/src/onboarding-items/items.queries';
import { sendOnboardingAction } from '../../../workflows/src/onboarding/client';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../../workflows/src/shared/command-deadline';
import {
  masterLookup,
  resolveCompany,
  resolveDocumentType,
  resolveExemptionReason,
  resolveGstReferences,
  resolveVerticalMappingReferences,
} from '../../../workflows/src/shared/master-references';
import { principalOf, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { HttpError, messages } from '../http/problem';
import { receiveUpload, type UploadedFile } from '../http/uploads';
import { baIdParam, isBaCaller, mayAccessBa, notFound, requestIds } from './access';
import { claimPan, releaseClaims } from './pan-claims';
import { loadOnboardingStateFrom } from '../../../workflows/src/onboarding/activities';

/**
 * The onboarding items over HTTP (issue 8): bank accounts, GST places of business, documents, concessions,
 * the vertical mapping and applications for other company codes, each a command through the BA's onboarding
 * workflow (the generic `command` update). Like the company details: parsed and checked against the masters
 * here first (so a bad form costs no workflow round trip; the activity checks again), the item id chosen here
 * (uuid v5 of the caller and Idempotency-Key, so a retry names the same item), the answer the item's read-model
 * row once the projections include the write (or the workflow's state after the bounded wait).
 */
export type ItemCommandRoutesDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  /** The worker's task queue: a lifecycle that completed at verification (before issue 8) is resumed there. */
  taskQueue?: string;
  blobStore: BlobStore;
  /** UPLOAD_MAX_BYTES. */
  maxBytes: number;
  waitForProjections: (position: number, timeoutMs: number) => Promise<boolean>;
  projectionWaitMs: number;
  commandTimeoutMs?: number;
};

export const itemMessages = {
  bankAccountSaved: 'Bank details saved successfully',
  bankAccountUpdated: 'Bank details updated successfully',
  bankAccountDeleted: 'Bank account deleted successfully',
  bankAccountApproved: 'Bank account approved successfully',
  bankAccountRejected: 'Bank account rejected successfully',
  gstSaved: 'Place of business saved successfully',
  gstUpdated: 'Place of business updated successfully',
  gstDeleted: 'Place of business deleted successfully',
  documentUploaded: 'File uploaded successfully',
  documentDeleted: 'File deleted successfully',
  documentApproved: 'Document Approved successfully',
  documentRejected: 'Document Rejected successfully',
  concessionSaved: 'Concession details saved successfully',
  concessionUpdated: 'Concession details updated successfully',
  concessionDeleted: 'Concession details deleted successfully',
  concessionApproved: 'Concession document approved successfully!!',
  concessionRejected: 'Concession document rejected successfully!!',
  verticalMappingSaved: 'Vertical mapping saved successfully',
  verticalMappingApproved: 'Vertical mapping approved successfully',
  verticalMappingRejected: 'Vertical mapping rejected successfully',
  companyCodeApplied: 'Application for the company code submitted successfully',
  remarksRequired: 'Remarks are required to reject',
} as const;

const CORRECT_FIELDS = 'Please correct the highlighted fields';
export const REVIEWERS: readonly Role[] = [...new Set([...REVIEW_STAGE_ROLES[1], ...REVIEW_STAGE_ROLES[2]])];
const BA_OR_REVIEWER: readonly Role[] = [...BA_ROLES, ...REVIEWERS];

/** Namespaces of item ids made from (caller, Idempotency-Key): a retried create lands on the same item. */
const ITEM_ID_NAMESPACE = {
  bank: '6f1d7d0e-2c7a-4c1f-9a43-1b8f3e0d2a11',
  gst: '8a2e4b1c-7d3f-4e59-b6a0-2c9d1e4f5a22',
  document: '3c5f7a9b-1d2e-4f60-8b7c-9e0a1b2c3d33',
  concession: '5e7a9c1b-3f4d-4a62-9c8e-0f1a2b3c4d44',
} as const;

const invalid = (errors: Record<string, string>) => new DomainError('validation', CORRECT_FIELDS, errors);

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw invalid(fieldErrors(parsed.error));
  return parsed.data;
}

const remarksText = z.string().max(260, { error: 'Maximum 260 characters allowed' });
const approveBody = z.object({ remarks: remarksText.nullish() });
const rejectBody = z.object({
  remarks: z
    .string({ error: itemMessages.remarksRequired })
    .max(260, { error: 'Maximum 260 characters allowed' })
    .refine((v) => v.trim() !== '', { error: itemMessages.remarksRequired }),
});
const approveDocumentBody = z.object({ approvedTill: z.string().max(10).nullish(), remarks: remarksText.nullish() });
const companyCodeBody = z.object({
  companyCode: z
    .string({ error: 'Please select a company from the list' })
    .trim()
    .regex(/^[A-Za-z0-9]{1,10}$/, { error: 'Please select a company from the list' }),
});

/** Item ids in paths: the API's uuids (test data may use other plain ids); anything else is not found. */
const itemIdSchema = z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/);
function itemIdParam(req: Request, name: string, missing: string): string {
  const parsed = itemIdSchema.safeParse(req.params[name]);
  if (!parsed.success) throw new DomainError('not_found', missing);
  return parsed.data;
}

/** The caller's role that the action is taken in: the first of theirs that the action allows. */
export function actingRole(p: Principal, allowed: readonly string[]): string {
  const role = p.roles.find((r) => allowed.includes(r));
  if (!role) throw new HttpError(403, messages.forbidden);
  return role;
}

/**
 * The BA as its stream says now, if the caller may act on it: a BA user its own, staff the BAs of their
 * company codes, or (with `companyCode`) a BA's application for one of their codes. 404 otherwise.
 */
export async function loadBaForCaller(store: EventStore, p: Principal, baId: string, companyCode?: string): Promise<OnboardingState> {
  const { state } = await loadOnboardingStateFrom(store, baId);
  if (state.status === 'none') throw notFound();
  if (mayAccessBa(p, { id: baId, companyCode: state.companyCode })) return state;
  const applied = companyCode !== undefined && itemsOf(state).otherApplications[companyCode] !== undefined;
  if (!isBaCaller(p) && applied && p.companyCodes.includes(companyCode)) return state;
  throw notFound();
}

/** sha256 of a multipart request (its fields and file), binding an Idempotency-Key to it. */
function multipartFingerprint(req: Request, fields: Record<string, string>, file: UploadedFile | null): string {
  const sorted = Object.keys(fields)
    .sort()
    .map((k) => [k, fields[k]]);
  return createHash('sha256')
    .update(JSON.stringify([req.method, req.originalUrl.split('?')[0], sorted, file?.name ?? null, file?.sha256 ?? null]))
    .digest('hex');
}

const storedFileOf = (file: UploadedFile): StoredFile => ({ name: file.name, size: file.size, type: file.type, sha256: file.sha256 });

/** Multipart text: '' is absent. */
const field = (fields: Record<string, string>, name: string): string | undefined => {
  const v = fields[name];
  return v === undefined || v.trim() === '' ? undefined : v;
};

const DOCUMENT_FIELDS = ['documentTypeId', 'kind', 'documentNumber', 'validTill', 'stateId'] as const;
const CONCESSION_FIELDS = [
  'exemptionNumber',
  'exemptionRate',
  'exemptionFrom',
  'exemptionTo',
  'exemptionReasonId',
  'exemptionThreshold',
  'withHoldingTaxType',
  'withHoldingTaxCode',
  'sectionCode',
] as const;

export function itemCommandRoutes(deps: ItemCommandRoutesDeps): Router {
  const { pool, store, temporal, blobStore } = deps;
  const masters = masterLookup(pool);
  const router = Router();
  const baUsers = requireAuth({ roles: BA_ROLES, app: 'portal' });
  const baAdmin = requireAuth({ roles: ['BA Admin'], app: 'portal' });
  const reviewers = requireAuth({ roles: REVIEWERS, app: 'console' });
  const baOrReviewers = requireAuth({ roles: BA_OR_REVIEWER });
  const base = '/business-associates/:id';

  type Sent = { state: OnboardingState; caughtUp: boolean };

  /**
   * Sends the command as the caller and waits (bounded) for the projections to include it. The update id is
   * the caller's Idempotency-Key (bound to this request's fingerprint), so a retry is the same update.
   */
  async function send(
    res: Response,
    req: Request,
    baId: string,
    command: OnboardingCommand,
    role: string,
    fingerprint?: string,
  ): Promise<Sent> {
    const p = principalOf(res);
    const ids = requestIds(req);
    const bound = fingerprint ?? ids.fingerprint;
    if (ids.key !== null && bound !== null) await bindIdempotencyKey(pool, p.userId, ids.key, bound);
    // Scoped to the caller, so two users who happen to pick the same key never share a request id.
    const requestId = ids.key !== null ? `${p.userId}:${ids.key}` : ids.requestId;
    const result = await sendOnboardingAction(
      temporal,
      baId,
      { kind: 'command', command },
      {
        actor: { userId: p.userId, role, name: p.name },
        requestId,
        correlationId: ids.correlationId,
        timeoutMs: deps.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}),
      },
    );
    const position = result.lastGlobalPosition;
    const caughtUp = position === 0 || (await deps.waitForProjections(position, deps.projectionWaitMs));
    return { state: result.state, caughtUp };
  }

  /** A new item's id: from the caller's Idempotency-Key when there is one, so a retry names the same item. */
  function newItemId(req: Request, res: Response, kind: keyof typeof ITEM_ID_NAMESPACE): string {
    const key = requestIds(req).key;
    return key === null ? randomUUID() : uuidv5(`${principalOf(res).userId}:${key}`, ITEM_ID_NAMESPACE[kind]);
  }

  // Bank accounts ------------------------------------------------------------------------------------------

  async function bankRow(baId: string, accountId: string, sent: Sent) {
    const row = sent.caughtUp ? await getBankAccount(pool, baId, accountId) : null;
    if (row) return row;
    const account = itemsOf(sent.state).bankAccounts[accountId];
    if (!account) return { id: accountId, baId };
    return {
      id: accountId,
      baId,
      primary: account.primary,
      ...account.account,
      reviewStatus: account.review.status,
      reviewRemarks: account.review.remarks,
      reviewedBy: account.review.reviewedBy,
      reviewedAt: account.review.at,
    };
  }

  const existingAccount = (state: OnboardingState, accountId: string) => {
    if (!itemsOf(state).bankAccounts[accountId]) throw new DomainError('not_found', itemRefusals.bankAccountNotFound);
  };

  router.post(`${base}/bank-accounts`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    await loadBaForCaller(store, p, baId);
    const account = parseBody(bankAccountSchema, req.body);
    const accountId = newItemId(req, res, 'bank');
    // The decider makes the first account the primary one whatever is asked.
    const command: OnboardingCommand = { type: 'SaveBankAccount', accountId, primary: false, account };
    const sent = await send(res, req, baId, command, actingRole(p, BA_ROLES));
    res.status(201).json({ ...(await bankRow(baId, accountId, sent)), message: itemMessages.bankAccountSaved });
  });

  router.put(`${base}/bank-accounts/:accountId`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const accountId = itemIdParam(req, 'accountId', itemRefusals.bankAccountNotFound);
    const state = await loadBaForCaller(store, p, baId);
    existingAccount(state, accountId);
    const account = parseBody(bankAccountSchema, req.body);
    const primary = itemsOf(state).bankAccounts[accountId]?.primary ?? false;
    const sent = await send(res, req, baId, { type: 'SaveBankAccount', accountId, primary, account }, actingRole(p, BA_ROLES));
    res.json({ ...(await bankRow(baId, accountId, sent)), message: itemMessages.bankAccountUpdated });
  });

  router.delete(`${base}/bank-accounts/:accountId`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const accountId = itemIdParam(req, 'accountId', itemRefusals.bankAccountNotFound);
    existingAccount(await loadBaForCaller(store, p, baId), accountId);
    await send(res, req, baId, { type: 'DeleteBankAccount', accountId }, actingRole(p, BA_ROLES));
    res.json({ id: accountId, message: itemMessages.bankAccountDeleted });
  });

  for (const verdict of ['approve', 'reject'] as const) {
    router.post(`${base}/bank-accounts/:accountId/${verdict}`, reviewers, async (req, res) => {
      const p = principalOf(res);
      const baId = baIdParam(req);
      const accountId = itemIdParam(req, 'accountId', itemRefusals.bankAccountNotFound);
      const body = verdict === 'approve' ? parseBody(approveBody, req.body) : parseBody(rejectBody, req.body);
      existingAccount(await loadBaForCaller(store, p, baId), accountId);
      const decision = verdict === 'approve' ? 'approved' : 'rejected';
      const command: OnboardingCommand = { type: 'ReviewBankAccount', accountId, decision, remarks: body.remarks ?? null };
      const sent = await send(res, req, baId, command, actingRole(p, REVIEWERS));
      const message = verdict === 'approve' ? itemMessages.bankAccountApproved : itemMessages.bankAccountRejected;
      res.json({ ...(await bankRow(baId, accountId, sent)), message });
    });
  }

  // GST registrations / places of business -------------------------------------------------------------------

  async function gstRow(baId: string, gstId: string, sent: Sent) {
    const row = sent.caughtUp ? await getGstRegistration(pool, baId, gstId) : null;
    if (row) return row;
    const registration = itemsOf(sent.state).gstRegistrations[gstId];
    return registration ? { id: gstId, baId, ...registration } : { id: gstId, baId };
  }

  /** The row parsed and its state and city checked against the masters; both travel with the command. */
  async function gstCommand(gstId: string, body: unknown): Promise<OnboardingCommand> {
    const registration = parseBody(gstRegistrationSchema, body);
    const references = await resolveGstReferences(masters, registration);
    const usable = (id: number, ref: { id: number | string; status: string } | null) =>
      ref !== null && String(ref.id) === String(id) && ref.status === 'active';
    const errors: Record<string, string> = {};
    if (!usable(registration.stateId, references.state)) errors.stateId = 'Please select a state';
    if (!usable(registration.cityId, references.city)) errors.cityId = 'Please select a city';
    else if (references.city?.stateId != null && references.city.stateId !== registration.stateId)
      errors.cityId = 'The city does not belong to the selected state';
    if (Object.keys(errors).length > 0) throw invalid(errors);
    return { type: 'SaveGstRegistration', gstId, registration, ...references };
  }

  const existingGst = (state: OnboardingState, gstId: string) => {
    if (!itemsOf(state).gstRegistrations[gstId]) throw new DomainError('not_found', itemRefusals.gstNotFound);
  };

  router.post(`${base}/gst-registrations`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    await loadBaForCaller(store, p, baId);
    const gstId = newItemId(req, res, 'gst');
    const sent = await send(res, req, baId, await gstCommand(gstId, req.body), actingRole(p, BA_ROLES));
    res.status(201).json({ ...(await gstRow(baId, gstId, sent)), message: itemMessages.gstSaved });
  });

  router.put(`${base}/gst-registrations/:gstId`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const gstId = itemIdParam(req, 'gstId', itemRefusals.gstNotFound);
    existingGst(await loadBaForCaller(store, p, baId), gstId);
    const sent = await send(res, req, baId, await gstCommand(gstId, req.body), actingRole(p, BA_ROLES));
    res.json({ ...(await gstRow(baId, gstId, sent)), message: itemMessages.gstUpdated });
  });

  router.delete(`${base}/gst-registrations/:gstId`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const gstId = itemIdParam(req, 'gstId', itemRefusals.gstNotFound);
    existingGst(await loadBaForCaller(store, p, baId), gstId);
    await send(res, req, baId, { type: 'DeleteGstRegistration', gstId }, actingRole(p, BA_ROLES));
    res.json({ id: gstId, message: itemMessages.gstDeleted });
  });

  // Documents ----------------------------------------------------------------------------------------------------

  async function documentRow(baId: string, docId: string, sent: Sent) {
    const row = sent.caughtUp ? await getDocument(pool, baId, docId) : null;
    if (row) return row;
    const current = itemsOf(sent.state).documents[docId];
    if (!current) return { id: docId, baId };
    const { file, ...document } = current.document;
    return {
      id: docId,
      baId,
      ...document,
      fileName: file.name,
      fileSize: file.size,
      fileType: file.type,
      reviewStatus: current.review.status,
      reviewRemarks: current.review.remarks,
      reviewedAt: current.review.at,
      expired: current.expired,
    };
  }

  const existingDocument = (state: OnboardingState, docId: string) => {
    if (!itemsOf(state).documents[docId]) throw new DomainError('not_found', itemRefusals.documentNotFound);
  };

  // Multipart: the file is stored in the BlobStore first (content-addressed), then the event names it.
  router.post(`${base}/documents`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    // Checked before the body is read: nothing is stored for a BA the caller may not see.
    await loadBaForCaller(store, p, baId);
    const { fields, file } = await receiveUpload(req, {
      blobStore,
      kinds: 'document',
      maxBytes: deps.maxBytes,
      textFields: DOCUMENT_FIELDS,
    });
    const meta = parseBody(
      documentMetaSchema,
      Object.fromEntries(DOCUMENT_FIELDS.map((f) => [f, field(fields, f)]).filter(([, v]) => v !== undefined)),
    );
    const document = { ...meta, file: storedFileOf(file) };
    const documentType = await resolveDocumentType(masters, document);
    if (!documentType || documentType.status !== 'active') throw invalid({ documentTypeId: 'Please select a document type' });
    const docId = newItemId(req, res, 'document');
    const command: OnboardingCommand = { type: 'UploadDocument', docId, document, documentType };
    const sent = await send(res, req, baId, command, actingRole(p, BA_ROLES), multipartFingerprint(req, fields, file));
    res.status(201).json({ ...(await documentRow(baId, docId, sent)), message: itemMessages.documentUploaded });
  });

  router.delete(`${base}/documents/:docId`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const docId = itemIdParam(req, 'docId', itemRefusals.documentNotFound);
    existingDocument(await loadBaForCaller(store, p, baId), docId);
    await send(res, req, baId, { type: 'DeleteDocument', docId }, actingRole(p, BA_ROLES));
    res.json({ id: docId, message: itemMessages.documentDeleted });
  });

  for (const verdict of ['approve', 'reject'] as const) {
    router.post(`${base}/documents/:docId/${verdict}`, reviewers, async (req, res) => {
      const p = principalOf(res);
      const baId = baIdParam(req);
      const docId = itemIdParam(req, 'docId', itemRefusals.documentNotFound);
      const body = verdict === 'approve' ? parseBody(approveDocumentBody, req.body) : parseBody(rejectBody, req.body);
      existingDocument(await loadBaForCaller(store, p, baId), docId);
      const command: OnboardingCommand =
        verdict === 'approve'
          ? { type: 'ReviewDocument', docId, decision: 'approved', approvedTill: (body as z.output<typeof approveDocumentBody>).approvedTill ?? null, remarks: body.remarks ?? null }
          : { type: 'ReviewDocument', docId, decision: 'rejected', remarks: body.remarks };
      const sent = await send(res, req, baId, command, actingRole(p, REVIEWERS));
      const message = verdict === 'approve' ? itemMessages.documentApproved : itemMessages.documentRejected;
      res.json({ ...(await documentRow(baId, docId, sent)), message });
    });
  }

  // Concessions ---------------------------------------------------------------------------------------------------

  async function concessionRow(baId: string, concessionId: string, sent: Sent) {
    const row = sent.caughtUp ? await getConcession(pool, baId, concessionId) : null;
    if (row) return row;
    const current = itemsOf(sent.state).concessions[concessionId];
    if (!current) return { id: concessionId, baId };
    const { file, ...concession } = current.concession;
    return { id: concessionId, baId, ...concession, fileName: file.name, reviewStatus: current.review.status, reviewRemarks: current.review.remarks };
  }

  const existingConcession = (state: OnboardingState, concessionId: string) => {
    if (!itemsOf(state).concessions[concessionId]) throw new DomainError('not_found', itemRefusals.concessionNotFound);
  };

  /**
   * A concession from a multipart form: a BA's own, or staff's on the BA's behalf (the decider records that as
   * an internal upload). A new one needs its certificate; an update may keep the one on file.
   */
  async function saveConcession(req: Request, res: Response, update: boolean): Promise<void> {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const concessionId = update ? itemIdParam(req, 'concessionId', itemRefusals.concessionNotFound) : newItemId(req, res, 'concession');
    const state = await loadBaForCaller(store, p, baId);
    if (update) existingConcession(state, concessionId);
    const upload = await receiveUpload(req, {
      blobStore,
      kinds: 'imageOrPdf',
      maxBytes: deps.maxBytes,
      textFields: CONCESSION_FIELDS,
      optional: true,
    });
    const { fields, file } = upload;
    if (!file && !update) throw invalid({ file: 'Please choose a file' });
    const values = parseBody(concessionSchema, Object.fromEntries(CONCESSION_FIELDS.map((f) => [f, fields[f]])));
    const exemptionReason = await resolveExemptionReason(masters, values);
    if (!exemptionReason || exemptionReason.status !== 'active') throw invalid({ exemptionReasonId: 'Please select an exemption reason' });
    const concession = { ...values, ...(file ? { file: storedFileOf(file) } : {}) };
    const command: OnboardingCommand = { type: 'SaveConcession', concessionId, concession, exemptionReason };
    const role = actingRole(p, BA_OR_REVIEWER);
    const sent = await send(res, req, baId, command, role, multipartFingerprint(req, fields, file));
    const row = await concessionRow(baId, concessionId, sent);
    res.status(update ? 200 : 201).json({ ...row, message: update ? itemMessages.concessionUpdated : itemMessages.concessionSaved });
  }

  router.post(`${base}/concessions`, baOrReviewers, (req, res) => saveConcession(req, res, false));
  router.put(`${base}/concessions/:concessionId`, baOrReviewers, (req, res) => saveConcession(req, res, true));

  router.delete(`${base}/concessions/:concessionId`, baOrReviewers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const concessionId = itemIdParam(req, 'concessionId', itemRefusals.concessionNotFound);
    existingConcession(await loadBaForCaller(store, p, baId), concessionId);
    await send(res, req, baId, { type: 'DeleteConcession', concessionId }, actingRole(p, BA_OR_REVIEWER));
    res.json({ id: concessionId, message: itemMessages.concessionDeleted });
  });

  for (const verdict of ['approve', 'reject'] as const) {
    router.post(`${base}/concessions/:concessionId/${verdict}`, reviewers, async (req, res) => {
      const p = principalOf(res);
      const baId = baIdParam(req);
      const concessionId = itemIdParam(req, 'concessionId', itemRefusals.concessionNotFound);
      const body = verdict === 'approve' ? parseBody(approveBody, req.body) : parseBody(rejectBody, req.body);
      existingConcession(await loadBaForCaller(store, p, baId), concessionId);
      const decision = verdict === 'approve' ? 'approved' : 'rejected';
      const command: OnboardingCommand = { type: 'ReviewConcession', concessionId, decision, remarks: body.remarks ?? null };
      const sent = await send(res, req, baId, command, actingRole(p, REVIEWERS));
      const message = verdict === 'approve' ? itemMessages.concessionApproved : itemMessages.concessionRejected;
      res.json({ ...(await concessionRow(baId, concessionId, sent)), message });
    });
  }

  // Vertical mapping ------------------------------------------------------------------------------------------

  async function mappingRow(baId: string, sent: Sent) {
    if (sent.caughtUp) return getVerticalMapping(pool, baId);
    const current = itemsOf(sent.state).verticalMapping;
    return {
      baId,
      ...(current?.mapping ?? {}),
      reviewStatus: current?.review.status ?? null,
      reviewRemarks: current?.review.remarks ?? null,
    };
  }

  router.post(`${base}/vertical-mapping`, baUsers, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    await loadBaForCaller(store, p, baId);
    const mapping = parseBody(verticalMappingSchema, req.body);
    const references = await resolveVerticalMappingReferences(masters, mapping);
    const errors: Record<string, string> = {};
    for (const [name, refs] of Object.entries(references)) {
      const ids = (mapping as Record<string, number[]>)[name] ?? [];
      if (!ids.every((id) => refs.some((r) => String(r.id) === String(id) && r.status === 'active'))) errors[name] = 'Please select from the list';
    }
    if (Object.keys(errors).length > 0) throw invalid(errors);
    const sent = await send(res, req, baId, { type: 'SaveVerticalMapping', mapping, references }, actingRole(p, BA_ROLES));
    res.json({ ...(await mappingRow(baId, sent)), message: itemMessages.verticalMappingSaved });
  });

  for (const verdict of ['approve', 'reject'] as const) {
    router.post(`${base}/vertical-mapping/${verdict}`, reviewers, async (req, res) => {
      const p = principalOf(res);
      const baId = baIdParam(req);
      const body = verdict === 'approve' ? parseBody(approveBody, req.body) : parseBody(rejectBody, req.body);
      const state = await loadBaForCaller(store, p, baId);
      if (!itemsOf(state).verticalMapping) throw new DomainError('not_found', itemRefusals.verticalMappingNotFound);
      const decision = verdict === 'approve' ? 'approved' : 'rejected';
      const sent = await send(res, req, baId, { type: 'ReviewVerticalMapping', decision, remarks: body.remarks ?? null }, actingRole(p, REVIEWERS));
      const message = verdict === 'approve' ? itemMessages.verticalMappingApproved : itemMessages.verticalMappingRejected;
      res.json({ ...(await mappingRow(baId, sent)), message });
    });
  }

  // Other company codes ---------------------------------------------------------------------------------------

  router.post(`${base}/company-codes`, baAdmin, async (req, res) => {
    const p = principalOf(res);
    const baId = baIdParam(req);
    const state = await loadBaForCaller(store, p, baId);
    const { companyCode } = parseBody(companyCodeBody, req.body);
    const company = await resolveCompany(masters, companyCode);
    // The same PAN may not be registered twice under one company code: claimed before the application.
    const pan = state.details?.panNumber ?? null;
    const claimed = pan ? await claimPan(pool, baId, pan, [companyCode]) : [];
    let sent: Sent;
    try {
      sent = await send(res, req, baId, { type: 'ApplyForCompanyCode', companyCode, company }, actingRole(p, ['BA Admin']));
    } catch (error) {
      await releaseClaims(pool, baId, claimed);
      throw error;
    }
    const row = sent.caughtUp ? await getCompanyApplication(pool, baId, companyCode) : null;
    const application = itemsOf(sent.state).otherApplications[companyCode];
    res.status(201).json({ ...(row ?? { id: companyCode, ...application }), message: itemMessages.companyCodeApplied });
  });

  return router;
}
