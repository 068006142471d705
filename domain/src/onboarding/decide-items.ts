import { SYSTEM_ROLE } from '../identity/roles';
import type { ReferencedItem } from '../masters/references';
import type { CommandMetadata } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { messages } from '../validation/fields';
import { uploadMessages } from '../validation/files';
import type {
  DeleteBankAccount,
  DeleteConcession,
  DeleteDocument,
  DeleteGstRegistration,
  DocumentTypeRef,
  MarkDocumentExpired,
  MarkDocumentExpiring,
  ReviewBankAccount,
  ReviewConcession,
  ReviewDocument,
  ReviewVerticalMapping,
  SaveBankAccount,
  SaveConcession,
  SaveGstRegistration,
  SaveVerticalMapping,
  UploadDocument,
} from './commands';
import {
  actsForBa,
  changesOf,
  dayOf,
  invalid,
  isItemReviewer,
  parseOrRefuse,
  parseRemarks,
} from './decide-support';
import { referenceMessages } from './details';
import type { OnboardingEvent } from './events';
import type { BaDocument, Concession, ItemReview } from './items';
import {
  bankAccountSchema,
  concessionCommandSchema,
  documentUploadSchema,
  gstinPanMismatch,
  gstRegistrationSchema,
  gstStateCodeOf,
  itemMessages,
  verticalMappingSchema,
} from './items-schema';
import { itemsOf, type OnboardingState } from './state';

/**
 * Decisions on the onboarding items (issue 8): the BA edits them while its first application is a draft or
 * rejected, staff review them one by one, timers mark documents expiring and expired. Refusal messages are
 * shown to people as they are (the API passes them through).
 */
export const itemRefusals = {
  notFound: 'Business associate not found',
  baOnly: 'Only the business associate may do this',
  notEditable: 'Onboarding details can only be changed before submission or after a rejection',
  locked: 'This item was approved and cannot be changed',
  notReviewer: 'Your role may not review onboarding items',
  notReviewable: 'This item is not waiting for a review',
  bankAccountNotFound: 'Bank account not found',
  primaryUndeletable: 'The primary bank account cannot be deleted',
  primaryExists: 'A primary bank account already exists',
  primaryByChangeRequest: 'The primary bank account of a verified business associate changes through a change request',
  tooManyAccounts: 'At most 5 additional bank accounts may be added',
  accountInUse: 'This bank account is used by a place of business; choose another account there first',
  unknownBankAccount: 'Please select one of your bank accounts',
  gstNotFound: 'Place of business not found',
  gstStateTaken: 'A place of business for this state already exists',
  documentNotFound: 'Document not found',
  documentIdTaken: 'A different document was already uploaded under this id',
  additionalOnlyVerified: 'Additional documents can be uploaded once the business associate is verified',
  gstDocumentState: 'Please select the state of one of your GST registrations',
  approvedTillRequired: 'Please enter the approved till date',
  approvedTillPast: 'The approved till date must be today or later',
  concessionNotFound: 'Concession not found',
  concessionFileRequired: uploadMessages.noFile,
  verticalMappingNotFound: 'Vertical mapping not found',
  systemOnly: 'Only the system may do this',
} as const;

/** At most this many accounts beside the primary one. */
export const MAX_ADDITIONAL_BANK_ACCOUNTS = 5;

type Decision = OnboardingEvent[] | DomainError;

const notFound = (): DomainError => new DomainError('not_found', itemRefusals.notFound);

/** The first application is a draft or was rejected: the BA may change its items. */
const isDraft = (state: OnboardingState): boolean => state.status === 'pending' || state.status === 'rejected';

/**
 * Who edits: the BA (or system) while the first application is a draft. `alsoWhenVerified`: items a verified
 * BA may still change (additional bank accounts and documents, concessions).
 */
function mayEdit(state: OnboardingState, meta: CommandMetadata, alsoWhenVerified = false): DomainError | null {
  if (state.status === 'none') return notFound();
  if (!actsForBa(meta)) return new DomainError('forbidden', itemRefusals.baOnly);
  if (isDraft(state) || (alsoWhenVerified && state.status === 'verified')) return null;
  return new DomainError('rule', itemRefusals.notEditable);
}

/**
 * After a rejection, what staff approved stays as approved (the BA changes only what was rejected); once
 * verified, an approved item is the BA's record and changes only by a new item or a change request.
 */
function lockedIfApproved(state: OnboardingState, review: ItemReview | undefined): DomainError | null {
  if (review?.status !== 'approved') return null;
  return state.status === 'rejected' || state.status === 'verified' ? new DomainError('rule', itemRefusals.locked) : null;
}

/** Who reviews, and the remarks the verdict needs (required to reject). */
function reviewVerdict(
  state: OnboardingState,
  meta: CommandMetadata,
  decision: 'approved' | 'rejected',
  rawRemarks: string | null | undefined,
): { remarks: string | null; reviewedBy: string; role: string; at: string } | DomainError {
  if (state.status === 'none') return notFound();
  if (!isItemReviewer(meta)) return new DomainError('forbidden', itemRefusals.notReviewer);
  const remarks = parseRemarks(rawRemarks, decision === 'rejected');
  if (remarks instanceof DomainError) return remarks;
  return { remarks, reviewedBy: meta.actor.userId, role: meta.actor.role, at: meta.at };
}

/** The same verdict again (a retried request) records nothing. */
const sameVerdict = (review: ItemReview, decision: 'approved' | 'rejected', remarks: string | null): boolean =>
  review.status === decision && review.remarks === remarks;

/** A master item the command names must be that item and active. Undefined: not resolved, nothing to check. */
const usable = (id: number, ref: ReferencedItem | null | undefined): boolean =>
  ref === undefined || (ref !== null && String(ref.id) === String(id) && ref.status === 'active');

// Bank accounts ------------------------------------------------------------------------------------------------

export function decideSaveBankAccount(command: SaveBankAccount, state: OnboardingState, meta: CommandMetadata): Decision {
  const refused = mayEdit(state, meta, true);
  if (refused) return refused;
  const { bankAccounts } = itemsOf(state);
  const existing = bankAccounts[command.accountId];
  const primaryId = Object.keys(bankAccounts).find((id) => bankAccounts[id]?.primary) ?? null;
  // The first account is the primary one whatever the caller asked; later ones are additional.
  const primary = existing ? existing.primary : primaryId === null;
  if (!existing && command.primary && primaryId !== null) return new DomainError('conflict', itemRefusals.primaryExists);
  if (state.status === 'verified' && primary) return new DomainError('rule', itemRefusals.primaryByChangeRequest);
  const locked = lockedIfApproved(state, existing?.review);
  if (locked) return locked;
  if (!existing && !primary) {
    const additional = Object.values(bankAccounts).filter((a) => !a.primary).length;
    if (additional >= MAX_ADDITIONAL_BANK_ACCOUNTS) return new DomainError('rule', itemRefusals.tooManyAccounts);
  }
  const account = parseOrRefuse(bankAccountSchema, command.account);
  if (account instanceof DomainError) return account;
  const changes = changesOf(existing?.account, account);
  if (existing && Object.keys(changes).length === 0) return [];
  return [{ type: 'BankAccountSaved', data: { baId: state.baId ?? '', accountId: command.accountId, primary, account, changes } }];
}

export function decideDeleteBankAccount(command: DeleteBankAccount, state: OnboardingState, meta: CommandMetadata): Decision {
  const refused = mayEdit(state, meta, true);
  if (refused) return refused;
  const { bankAccounts, gstRegistrations } = itemsOf(state);
  const existing = bankAccounts[command.accountId];
  if (!existing) return new DomainError('not_found', itemRefusals.bankAccountNotFound);
  if (existing.primary) return new DomainError('rule', itemRefusals.primaryUndeletable);
  const locked = lockedIfApproved(state, existing.review);
  if (locked) return locked;
  if (Object.values(gstRegistrations).some((g) => g.bankAccountId === command.accountId))
    return new DomainError('rule', itemRefusals.accountInUse);
  return [{ type: 'BankAccountDeleted', data: { baId: state.baId ?? '', accountId: command.accountId } }];
}

export function decideReviewBankAccount(command: ReviewBankAccount, state: OnboardingState, meta: CommandMetadata): Decision {
  const verdict = reviewVerdict(state, meta, command.decision, command.remarks);
  if (verdict instanceof DomainError) return verdict;
  const existing = itemsOf(state).bankAccounts[command.accountId];
  if (!existing) return new DomainError('not_found', itemRefusals.bankAccountNotFound);
  // In review: every account. Verified: the additional accounts the BA adds later.
  const reviewable = state.status === 'inprogress' || (state.status === 'verified' && !existing.primary);
  if (!reviewable) return new DomainError('rule', itemRefusals.notReviewable);
  if (sameVerdict(existing.review, command.decision, verdict.remarks)) return [];
  return [
    { type: 'BankAccountReviewed', data: { baId: state.baId ?? '', accountId: command.accountId, decision: command.decision, ...verdict } },
  ];
}

// GST registrations / places of business ------------------------------------------------------------------

export function decideSaveGstRegistration(command: SaveGstRegistration, state: OnboardingState, meta: CommandMetadata): Decision {
  const refused = mayEdit(state, meta);
  if (refused) return refused;
  const registration = parseOrRefuse(gstRegistrationSchema, command.registration);
  if (registration instanceof DomainError) return registration;
  const { gstRegistrations, bankAccounts } = itemsOf(state);
  const errors: Record<string, string> = {};
  if (!usable(registration.stateId, command.state)) errors.stateId = referenceMessages.stateId;
  if (!usable(registration.cityId, command.city)) errors.cityId = referenceMessages.cityId;
  else if (command.city && command.city.stateId != null && command.city.stateId !== registration.stateId)
    errors.cityId = referenceMessages.mismatch;
  if (registration.gstNo !== null) {
    const code = gstStateCodeOf(registration.stateId, command.state?.gstStateCode);
    const panMismatch = gstinPanMismatch(registration.gstNo, state.details?.panNumber ?? null);
    if (!registration.gstNo.startsWith(code)) errors.gstNo = itemMessages.gstinState;
    else if (panMismatch) errors.gstNo = panMismatch;
  }
  if (registration.bankAccountId !== null && !bankAccounts[registration.bankAccountId])
    errors.bankAccountId = itemRefusals.unknownBankAccount;
  if (Object.keys(errors).length > 0) return invalid(errors);
  const sameState = Object.entries(gstRegistrations).find(([id, g]) => id !== command.gstId && g.stateId === registration.stateId);
  if (sameState) return new DomainError('conflict', itemRefusals.gstStateTaken, { stateId: itemRefusals.gstStateTaken });
  const existing = gstRegistrations[command.gstId];
  const changes = changesOf(existing, registration);
  if (existing && Object.keys(changes).length === 0) return [];
  return [{ type: 'GstRegistrationSaved', data: { baId: state.baId ?? '', gstId: command.gstId, registration, changes } }];
}

export function decideDeleteGstRegistration(command: DeleteGstRegistration, state: OnboardingState, meta: CommandMetadata): Decision {
  const refused = mayEdit(state, meta);
  if (refused) return refused;
  if (!itemsOf(state).gstRegistrations[command.gstId]) return new DomainError('not_found', itemRefusals.gstNotFound);
  return [{ type: 'GstRegistrationDeleted', data: { baId: state.baId ?? '', gstId: command.gstId } }];
}

// Documents ----------------------------------------------------------------------------------------------------

/** The current document a new upload of this type (and state, for GST documents) takes the place of. */
function documentReplaced(state: OnboardingState, document: Pick<BaDocument, 'kind' | 'documentTypeId' | 'stateId'>): string | null {
  const { documents } = itemsOf(state);
  const found = Object.entries(documents).find(
    ([, d]) =>
      d.document.kind === document.kind &&
      d.document.documentTypeId === document.documentTypeId &&
      d.document.stateId === document.stateId,
  );
  return found ? found[0] : null;
}

/**
 * An upload. Onboarding documents while the application is a draft; once verified, only as a renewal of a
 * document the BA already has (an expired or expiring certificate). Additional documents once verified. A
 * document of the same type (and state) is replaced, unless staff approved it and the application is
 * rejected: then it stays (lockedIfApproved).
 */
export function decideUploadDocument(command: UploadDocument, state: OnboardingState, meta: CommandMetadata): Decision {
  if (state.status === 'none') return notFound();
  if (!actsForBa(meta)) return new DomainError('forbidden', itemRefusals.baOnly);
  const parsed = parseOrRefuse(documentUploadSchema, command.document);
  if (parsed instanceof DomainError) return parsed;
  const type = command.documentType;
  if (!type || String(type.id) !== String(parsed.documentTypeId) || type.status !== 'active' || type.kind !== parsed.kind)
    return invalid({ documentTypeId: itemMessages.documentTypeId });
  const stateId = type.isGstDocument ? parsed.stateId : null;
  const replaces = documentReplaced(state, { kind: parsed.kind, documentTypeId: parsed.documentTypeId, stateId });
  if (parsed.kind === 'additional') {
    if (state.status !== 'verified') return new DomainError('rule', itemRefusals.additionalOnlyVerified);
  } else if (!(isDraft(state) || (state.status === 'verified' && replaces !== null))) {
    return new DomainError('rule', itemRefusals.notEditable);
  }
  const current = itemsOf(state).documents;
  if (replaces) {
    const locked = state.status === 'rejected' ? lockedIfApproved(state, current[replaces]?.review) : null;
    if (locked) return locked;
  }
  const errors = documentFieldErrors(parsed.validTill, stateId, type, state, meta);
  if (Object.keys(errors).length > 0) return invalid(errors);
  const document: BaDocument = {
    kind: parsed.kind,
    documentTypeId: parsed.documentTypeId,
    documentTypeName: type.name,
    documentNumber: parsed.documentNumber,
    validTill: parsed.validTill,
    stateId,
    file: parsed.file,
  };
  const same = current[command.docId];
  if (same) {
    // A retried request names the same document: nothing new. Anything else under that id is a mistake.
    return JSON.stringify(same.document) === JSON.stringify(document) ? [] : new DomainError('conflict', itemRefusals.documentIdTaken);
  }
  return [
    {
      type: 'DocumentUploaded',
      data: { baId: state.baId ?? '', docId: command.docId, document, replaces, uploadedBy: meta.actor.userId, role: meta.actor.role },
    },
  ];
}

function documentFieldErrors(
  validTill: string | null,
  stateId: number | null,
  type: DocumentTypeRef,
  state: OnboardingState,
  meta: CommandMetadata,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (validTill === null && type.needsValidityDate) errors.validTill = itemMessages.validTillRequired;
  if (validTill !== null && validTill < dayOf(meta)) errors.validTill = itemMessages.validTillPast;
  if (type.isGstDocument) {
    const registered = Object.values(itemsOf(state).gstRegistrations).filter((g) => g.gstType !== '0');
    if (stateId === null || !registered.some((g) => g.stateId === stateId)) errors.stateId = itemRefusals.gstDocumentState;
  }
  return errors;
}

export function decideDeleteDocument(command: DeleteDocument, state: OnboardingState, meta: CommandMetadata): Decision {
  if (state.status === 'none') return notFound();
  if (!actsForBa(meta)) return new DomainError('forbidden', itemRefusals.baOnly);
  const existing = itemsOf(state).documents[command.docId];
  if (!existing) return new DomainError('not_found', itemRefusals.documentNotFound);
  const editable = existing.document.kind === 'additional' ? state.status === 'verified' : isDraft(state);
  if (!editable) return new DomainError('rule', itemRefusals.notEditable);
  const locked = lockedIfApproved(state, existing.review);
  if (locked) return locked;
  return [{ type: 'DocumentDeleted', data: { baId: state.baId ?? '', docId: command.docId } }];
}

/**
 * A verdict on a document: while the application is in review, or, once verified, on documents uploaded since
 * (additional ones and renewals). A document with a validity date is approved with the date staff confirm.
 */
export function decideReviewDocument(command: ReviewDocument, state: OnboardingState, meta: CommandMetadata): Decision {
  const verdict = reviewVerdict(state, meta, command.decision, command.remarks);
  if (verdict instanceof DomainError) return verdict;
  const existing = itemsOf(state).documents[command.docId];
  if (!existing) return new DomainError('not_found', itemRefusals.documentNotFound);
  const reviewable =
    state.status === 'inprogress' || (state.status === 'verified' && existing.review.status === 'pending');
  if (!reviewable) return new DomainError('rule', itemRefusals.notReviewable);
  let approvedTill: string | null = null;
  if (command.decision === 'approved') {
    const raw = typeof command.approvedTill === 'string' ? command.approvedTill.trim() : '';
    if (raw === '') {
      if (existing.document.validTill !== null)
        return new DomainError('validation', itemRefusals.approvedTillRequired, { approvedTill: itemRefusals.approvedTillRequired });
    } else {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`)))
        return invalid({ approvedTill: messages.date });
      if (raw < dayOf(meta))
        return new DomainError('validation', itemRefusals.approvedTillPast, { approvedTill: itemRefusals.approvedTillPast });
      approvedTill = raw;
    }
  }
  if (sameVerdict(existing.review, command.decision, verdict.remarks) && (approvedTill ?? existing.document.validTill) === existing.document.validTill)
    return [];
  return [
    {
      type: 'DocumentReviewed',
      data: { baId: state.baId ?? '', docId: command.docId, decision: command.decision, approvedTill, ...verdict },
    },
  ];
}

/** The approved, current document a timer was started for, still with the date it watches; else null. */
function watchedDocument(state: OnboardingState, docId: string, validTill: string) {
  const current = itemsOf(state).documents[docId];
  return current && current.review.status === 'approved' && current.document.validTill === validTill ? current : null;
}

/** Timers fire late, twice, or after a replacement: each of those records nothing. */
export function decideMarkDocumentExpiring(command: MarkDocumentExpiring, state: OnboardingState, meta: CommandMetadata): Decision {
  if (state.status === 'none') return notFound();
  if (meta.actor.role !== SYSTEM_ROLE) return new DomainError('forbidden', itemRefusals.systemOnly);
  const current = watchedDocument(state, command.docId, command.validTill);
  if (!current || current.expired || current.remindedDays.includes(command.daysBefore)) return [];
  const { documentTypeName } = current.document;
  return [
    {
      type: 'DocumentExpiryReminded',
      data: { baId: state.baId ?? '', docId: command.docId, documentTypeName, validTill: command.validTill, daysBefore: command.daysBefore },
    },
  ];
}

export function decideMarkDocumentExpired(command: MarkDocumentExpired, state: OnboardingState, meta: CommandMetadata): Decision {
  if (state.status === 'none') return notFound();
  if (meta.actor.role !== SYSTEM_ROLE) return new DomainError('forbidden', itemRefusals.systemOnly);
  const current = watchedDocument(state, command.docId, command.validTill);
  if (!current || current.expired) return [];
  const { documentTypeName } = current.document;
  return [{ type: 'DocumentExpired', data: { baId: state.baId ?? '', docId: command.docId, documentTypeName, validTill: command.validTill } }];
}

// Concessions --------------------------------------------------------------------------------------------------

/**
 * A concession (lower-deduction certificate): the BA while its application is a draft or once verified, staff
 * reviewers on the BA's behalf at any time (isInternalUpload). An update may keep the certificate on file.
 */
export function decideSaveConcession(command: SaveConcession, state: OnboardingState, meta: CommandMetadata): Decision {
  if (state.status === 'none') return notFound();
  const internal = isItemReviewer(meta);
  if (!internal) {
    const refused = mayEdit(state, meta, true);
    if (refused) return refused;
  }
  const { concessions } = itemsOf(state);
  const existing = concessions[command.concessionId];
  const locked = lockedIfApproved(state, existing?.review);
  if (locked && !internal) return locked;
  const parsed = parseOrRefuse(concessionCommandSchema, command.concession);
  if (parsed instanceof DomainError) return parsed;
  if (!usable(parsed.exemptionReasonId, command.exemptionReason)) return invalid({ exemptionReasonId: itemMessages.exemptionReasonId });
  const file = parsed.file ?? existing?.concession.file;
  if (!file) return invalid({ file: itemRefusals.concessionFileRequired });
  const concession: Concession = {
    exemptionNumber: parsed.exemptionNumber,
    exemptionRate: parsed.exemptionRate,
    exemptionFrom: parsed.exemptionFrom,
    exemptionTo: parsed.exemptionTo,
    exemptionReasonId: parsed.exemptionReasonId,
    exemptionThreshold: parsed.exemptionThreshold,
    withHoldingTaxType: parsed.withHoldingTaxType,
    withHoldingTaxCode: parsed.withHoldingTaxCode,
    sectionCode: parsed.sectionCode,
    file,
    // Who uploaded it first: a BA's later correction does not make a staff upload the BA's own.
    isInternalUpload: existing ? existing.concession.isInternalUpload || internal : internal,
  };
  const changes = changesOf(existing?.concession, concession);
  if (existing && Object.keys(changes).length === 0) return [];
  return [{ type: 'ConcessionSaved', data: { baId: state.baId ?? '', concessionId: command.concessionId, concession, changes } }];
}

export function decideDeleteConcession(command: DeleteConcession, state: OnboardingState, meta: CommandMetadata): Decision {
  if (state.status === 'none') return notFound();
  const internal = isItemReviewer(meta);
  if (!internal) {
    const refused = mayEdit(state, meta, true);
    if (refused) return refused;
  }
  const existing = itemsOf(state).concessions[command.concessionId];
  if (!existing) return new DomainError('not_found', itemRefusals.concessionNotFound);
  const locked = lockedIfApproved(state, existing.review);
  if (locked && !internal) return locked;
  return [{ type: 'ConcessionDeleted', data: { baId: state.baId ?? '', concessionId: command.concessionId } }];
}

export function decideReviewConcession(command: ReviewConcession, state: OnboardingState, meta: CommandMetadata): Decision {
  const verdict = reviewVerdict(state, meta, command.decision, command.remarks);
  if (verdict instanceof DomainError) return verdict;
  const existing = itemsOf(state).concessions[command.concessionId];
  if (!existing) return new DomainError('not_found', itemRefusals.concessionNotFound);
  if (state.status !== 'inprogress' && state.status !== 'verified') return new DomainError('rule', itemRefusals.notReviewable);
  if (sameVerdict(existing.review, command.decision, verdict.remarks)) return [];
  return [
    {
      type: 'ConcessionReviewed',
      data: { baId: state.baId ?? '', concessionId: command.concessionId, decision: command.decision, ...verdict },
    },
  ];
}

// Vertical mapping ---------------------------------------------------------------------------------------------

export function decideSaveVerticalMapping(command: SaveVerticalMapping, state: OnboardingState, meta: CommandMetadata): Decision {
  const refused = mayEdit(state, meta);
  if (refused) return refused;
  const existing = itemsOf(state).verticalMapping;
  const locked = lockedIfApproved(state, existing?.review);
  if (locked) return locked;
  const mapping = parseOrRefuse(verticalMappingSchema, command.mapping);
  if (mapping instanceof DomainError) return mapping;
  // `references`: per field, the master items the activity resolved for its ids; each id must be one, active.
  const errors: Record<string, string> = {};
  for (const [field, refs] of Object.entries(command.references ?? {})) {
    const ids = (mapping as Record<string, number[]>)[field] ?? [];
    if (!ids.every((id) => refs.some((r) => String(r.id) === String(id) && r.status === 'active')))
      errors[field] = itemMessages.masterIds;
  }
  if (Object.keys(errors).length > 0) return invalid(errors);
  const changes = changesOf(existing?.mapping, mapping);
  if (existing && Object.keys(changes).length === 0) return [];
  return [{ type: 'VerticalMappingSaved', data: { baId: state.baId ?? '', mapping, changes } }];
}

export function decideReviewVerticalMapping(command: ReviewVerticalMapping, state: OnboardingState, meta: CommandMetadata): Decision {
  const verdict = reviewVerdict(state, meta, command.decision, command.remarks);
  if (verdict instanceof DomainError) return verdict;
  const existing = itemsOf(state).verticalMapping;
  if (!existing) return new DomainError('not_found', itemRefusals.verticalMappingNotFound);
  if (state.status !== 'inprogress') return new DomainError('rule', itemRefusals.notReviewable);
  if (sameVerdict(existing.review, command.decision, verdict.remarks)) return [];
  return [{ type: 'VerticalMappingReviewed', data: { baId: state.baId ?? '', decision: command.decision, ...verdict } }];
}
