import { INVOICE_ACCOUNTS, INVOICE_COMMERCIAL, isBaRole } from '../identity/roles';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { indiaDateAt } from '../shared/india-date';
import type { Actor } from '../shared/events';
import type { InvoiceAction, InvoiceCommand, SubmitInvoice } from './commands';
import type { InvoiceAttachment, InvoiceEvent, InvoiceNumberReserved, InvoiceRecord, InvoiceStatus } from './events';
import { normaliseInvoiceNumber } from './events';
import { financialYearOf, invoiceFieldErrors, type InvoiceValidationContext } from './fields';
import { MAX_INVOICE_ATTACHMENTS, invoiceMessages as m, notAllowedMessage } from './messages';

export type InvoiceState = {
  /** 'none' before the draft exists. */
  status: InvoiceStatus | 'none';
  invoiceId: string | null;
  baId: string | null;
  companyCode: string | null;
  record: InvoiceRecord | null;
  attachments: InvoiceAttachment[];
  /** Submitted at least once: the number is reserved and may no longer change. */
  submittedOnce: boolean;
  /** Verified and sent to the ERP, waiting for its answer. */
  booking: boolean;
  erpRequestKey: string | null;
  erpRequestId: string | null;
  erpAttempts: number;
  lastErpError: string | null;
  erpDocumentNumber: string | null;
  remarks: string | null;
  /** The SLA of the current status was breached (recorded once per status entered). */
  slaBreached: boolean;
};

export const initialInvoiceState: InvoiceState = {
  status: 'none',
  invoiceId: null,
  baId: null,
  companyCode: null,
  record: null,
  attachments: [],
  submittedOnce: false,
  booking: false,
  erpRequestKey: null,
  erpRequestId: null,
  erpAttempts: 0,
  lastErpError: null,
  erpDocumentNumber: null,
  remarks: null,
  slaBreached: false,
};

const enter = (state: InvoiceState, status: InvoiceStatus): InvoiceState => ({ ...state, status, slaBreached: false });

export function evolveInvoice(state: InvoiceState, event: InvoiceEvent): InvoiceState {
  switch (event.type) {
    case 'InvoiceDrafted':
      return {
        ...initialInvoiceState,
        status: 'draft',
        invoiceId: event.data.invoiceId,
        baId: event.data.baId,
        companyCode: event.data.companyCode,
        record: event.data.fields,
      };
    case 'InvoiceDraftSaved':
      return { ...state, companyCode: event.data.companyCode, record: event.data.fields };
    case 'InvoiceDiscarded':
      return enter(state, 'discarded');
    case 'InvoiceAttachmentAdded':
      return { ...state, attachments: [...state.attachments, event.data.attachment] };
    case 'InvoiceAttachmentRemoved':
      return { ...state, attachments: state.attachments.filter((a) => a.attachmentId !== event.data.attachmentId) };
    case 'InvoiceSubmitted':
      return { ...enter(state, 'S'), companyCode: event.data.companyCode, record: event.data.fields, submittedOnce: true, remarks: null };
    case 'InvoiceAcknowledged':
      return enter(state, 'A');
    case 'InvoiceVerified':
      return enter(state, 'V');
    case 'InvoiceBookingRequested':
      return { ...state, booking: true, lastErpError: null, erpRequestKey: null, erpRequestId: null, erpAttempts: 0 };
    case 'InvoiceErpRequestSubmitted':
      return { ...state, erpRequestKey: event.data.requestKey, erpRequestId: event.data.erpRequestId };
    case 'InvoiceErpCallFailed':
      return { ...state, erpRequestKey: event.data.requestKey, erpAttempts: event.data.attempt, lastErpError: event.data.error };
    case 'InvoiceErpRefused':
      return { ...state, booking: false, lastErpError: event.data.message };
    case 'InvoiceBooked':
      return { ...enter(state, 'B'), booking: false, lastErpError: null, erpDocumentNumber: event.data.erpDocumentNumber };
    case 'InvoiceReleased':
      return enter(state, 'P');
    case 'InvoiceRejected':
      return { ...enter(state, 'C'), remarks: event.data.remarks };
    case 'InvoiceRevoked':
      return { ...enter(state, 'R'), remarks: event.data.remarks };
    case 'InvoiceSlaBreached':
      return state.status === event.data.status ? { ...state, slaBreached: true } : state;
    default: {
      const never: never = event;
      return never;
    }
  }
}

/** Who may do what, in which status (contract "Statuses and transitions"). */
type Party = 'ba' | 'commercial' | 'accounts';
const RULES: Record<InvoiceAction, { parties: readonly Party[]; statuses: (s: InvoiceState, party: Party) => boolean }> = {
  edit: { parties: ['ba'], statuses: (s) => s.status === 'draft' || s.status === 'C' },
  attach: { parties: ['ba'], statuses: (s) => s.status === 'draft' || s.status === 'C' },
  submit: { parties: ['ba'], statuses: (s) => s.status === 'draft' || s.status === 'C' },
  discard: { parties: ['ba'], statuses: (s) => s.status === 'draft' },
  acknowledge: { parties: ['commercial'], statuses: (s) => s.status === 'S' },
  verify: { parties: ['commercial'], statuses: (s) => s.status === 'A' },
  book: { parties: ['accounts'], statuses: (s) => s.status === 'V' && !s.booking },
  release: { parties: ['accounts'], statuses: (s) => s.status === 'B' },
  // While the ERP is booking, the outcome is not ours to overrule: reject and revoke wait for its answer.
  reject: { parties: ['commercial', 'accounts'], statuses: (s) => ['S', 'A', 'V'].includes(s.status) && !s.booking },
  revoke: {
    parties: ['ba', 'accounts'],
    statuses: (s, party) => (party === 'ba' ? s.status === 'S' : ['S', 'A', 'V', 'C'].includes(s.status) && !s.booking),
  },
};

export type InvoicePrincipal = { roles: readonly string[]; baId: string | null; userId?: string };

const partiesOf = (p: InvoicePrincipal): Party[] => {
  const out: Party[] = [];
  if (p.baId !== null && p.roles.some(isBaRole)) out.push('ba');
  if (p.roles.some((r) => INVOICE_COMMERCIAL.includes(r as never))) out.push('commercial');
  if (p.roles.some((r) => INVOICE_ACCOUNTS.includes(r as never))) out.push('accounts');
  return out;
};

/**
 * Whether `who` may take `action` now: null when yes, else why not. A BA asking about another BA's invoice gets
 * not_found (existence does not leak); a wrong role forbidden; a wrong status the rule message with the label.
 */
export function actionProblem(action: InvoiceAction, state: InvoiceState, who: InvoicePrincipal): DomainError | null {
  if (state.status === 'none') return new DomainError('not_found', m.notFound);
  const rule = RULES[action];
  const mine = partiesOf(who).filter((p) => rule.parties.includes(p));
  if (mine.includes('ba') && who.baId !== state.baId) return new DomainError('not_found', m.notFound);
  if (mine.length === 0) {
    if (who.baId !== null && who.baId !== state.baId) return new DomainError('not_found', m.notFound);
    return new DomainError('forbidden', m.forbidden);
  }
  if (!mine.some((p) => rule.statuses(state, p))) return new DomainError('rule', notAllowedMessage(state.status));
  return null;
}

/** The actions the read API offers the caller on this invoice. */
export const allowedActions = (state: InvoiceState, who: InvoicePrincipal): InvoiceAction[] =>
  (Object.keys(RULES) as InvoiceAction[]).filter((a) => actionProblem(a, state, who) === null);

const principalOf = (actor: Actor, actorBaId: string | null): InvoicePrincipal => ({ roles: [actor.role], baId: actorBaId, userId: actor.userId });

type Edit = Extract<InvoiceCommand, { record: InvoiceRecord }>;

/** The record as stored: the financial year computed here, never trusted from the caller. */
const withYear = (record: InvoiceRecord): InvoiceRecord => ({
  ...record,
  financialYear: /^\d{4}-\d{2}-\d{2}$/.test(record.invoiceDate) ? financialYearOf(record.invoiceDate) : null,
});

function editProblem(command: Edit, state: InvoiceState, ctx: InvoiceValidationContext, mode: 'draft' | 'submit'): DomainError | null {
  const r = command.record;
  const errors = invoiceFieldErrors(r, ctx, mode);
  if (!errors.billingFromCode && r.billingFromCode !== '' && (r.companyCode === null || r.fromStateId === null)) errors.billingFromCode = m.billingFromInvalid;
  if (!errors.billingFromCode && command.billHubStateId !== null && r.fromStateId !== null && r.fromStateId !== command.billHubStateId)
    errors.billingFromCode = m.billingFromState;
  if (!errors.billingToCode && r.billingToCode !== '' && r.toStateId === null) errors.billingToCode = m.billingToInvalid;
  if (!errors.submitToUserId && r.submitToUserId !== '' && r.submitToName === null) errors.submitToUserId = m.submitToInvalid;
  const first = Object.values(errors)[0];
  if (first !== undefined) return new DomainError('validation', first, errors);
  if (state.submittedOnce && state.record && normaliseInvoiceNumber(state.record.invoiceNumber) !== normaliseInvoiceNumber(r.invoiceNumber))
    return new DomainError('rule', m.numberChanged);
  if (command.numberTaken) return new DomainError('conflict', mode === 'submit' ? m.duplicate : m.alreadyExists);
  return null;
}

function decideSubmit(command: SubmitInvoice, state: InvoiceState, meta: Pick<CommandMetadata, 'at' | 'actor'>): InvoiceEvent[] | DomainError {
  const problem = actionProblem('submit', state, principalOf(meta.actor, command.actorBaId));
  if (problem) return problem;
  if (command.vendorBlocked) return new DomainError('forbidden', m.vendorBlocked);
  const invalid = editProblem(command, state, { today: indiaDateAt(meta.at) }, 'submit');
  if (invalid) return invalid;
  const record = withYear(command.record);
  return [
    {
      type: 'InvoiceSubmitted',
      data: {
        invoiceId: state.invoiceId ?? '',
        baId: state.baId ?? '',
        companyCode: record.companyCode ?? '',
        invoiceNumber: record.invoiceNumber,
        financialYear: record.financialYear ?? '',
        fields: record,
        resubmission: state.status === 'C',
        by: meta.actor,
      },
    },
  ];
}

const remarksOf = (raw: string | null | undefined): string | null => {
  const v = (raw ?? '').trim();
  return v === '' ? null : v;
};
const badRemarks = (v: string | null): DomainError | null =>
  v !== null && (v.length > 1000 || /^[-=@#&^+|%<'"\t\r\n\0]/.test(v)) ? new DomainError('validation', m.remarks, { remarks: m.remarks }) : null;

const isSystem = (a: Actor) => a.role === 'system';

export function decideInvoice(command: InvoiceCommand, state: InvoiceState, meta: Pick<CommandMetadata, 'at' | 'actor'>): InvoiceEvent[] | DomainError {
  const ids = { invoiceId: state.invoiceId ?? '', baId: state.baId ?? '' };
  const staff = (action: InvoiceAction) => actionProblem(action, state, principalOf(meta.actor, null));
  switch (command.type) {
    case 'CreateInvoiceDraft': {
      if (state.status !== 'none') return state.invoiceId === command.invoiceId ? [] : new DomainError('conflict', 'This invoice already exists');
      if (!isBaRole(meta.actor.role) || command.actorBaId !== command.baId) return new DomainError('forbidden', m.forbidden);
      if (command.vendorBlocked) return new DomainError('forbidden', m.vendorBlocked);
      const invalid = editProblem(command, state, { today: indiaDateAt(meta.at) }, 'draft');
      if (invalid) return invalid;
      const record = withYear(command.record);
      return [
        {
          type: 'InvoiceDrafted',
          data: { invoiceId: command.invoiceId, baId: command.baId, companyCode: record.companyCode, fields: record, createdBy: meta.actor },
        },
      ];
    }
    case 'SaveInvoiceDraft': {
      const problem = actionProblem('edit', state, principalOf(meta.actor, command.actorBaId));
      if (problem) return problem;
      const invalid = editProblem(command, state, { today: indiaDateAt(meta.at) }, 'draft');
      if (invalid) return invalid;
      const record = withYear(command.record);
      return [{ type: 'InvoiceDraftSaved', data: { ...ids, companyCode: record.companyCode, fields: record } }];
    }
    case 'SubmitInvoice':
      return decideSubmit(command, state, meta);
    case 'DiscardInvoice':
      return actionProblem('discard', state, principalOf(meta.actor, command.actorBaId)) ?? [{ type: 'InvoiceDiscarded', data: ids }];
    case 'AddInvoiceAttachment': {
      const problem = actionProblem('attach', state, principalOf(meta.actor, command.actorBaId));
      if (problem) return problem;
      if (state.attachments.some((a) => a.attachmentId === command.attachment.attachmentId)) return [];
      if (state.attachments.length >= MAX_INVOICE_ATTACHMENTS) return new DomainError('validation', m.tooManyFiles);
      return [{ type: 'InvoiceAttachmentAdded', data: { ...ids, attachment: command.attachment } }];
    }
    case 'RemoveInvoiceAttachment': {
      const problem = actionProblem('attach', state, principalOf(meta.actor, command.actorBaId));
      if (problem) return problem;
      if (!state.attachments.some((a) => a.attachmentId === command.attachmentId)) return new DomainError('not_found', m.attachmentNotFound);
      return [{ type: 'InvoiceAttachmentRemoved', data: { ...ids, attachmentId: command.attachmentId } }];
    }
    case 'AcknowledgeInvoice':
      return staff('acknowledge') ?? [{ type: 'InvoiceAcknowledged', data: { ...ids, by: meta.actor } }];
    case 'VerifyInvoice':
      return staff('verify') ?? [{ type: 'InvoiceVerified', data: { ...ids, by: meta.actor } }];
    case 'RequestInvoiceBooking':
      return staff('book') ?? [{ type: 'InvoiceBookingRequested', data: { ...ids, by: meta.actor } }];
    case 'ReleaseInvoice': {
      const problem = staff('release');
      if (problem) return problem;
      if (command.paymentsOnHold) return new DomainError('rule', m.paymentsOnHold);
      if (command.vendorBlocked) return new DomainError('rule', m.releaseBlocked);
      return [{ type: 'InvoiceReleased', data: { ...ids, by: meta.actor } }];
    }
    case 'RejectInvoice': {
      const problem = staff('reject');
      if (problem) return problem;
      const remarks = remarksOf(command.remarks);
      if (remarks === null) return new DomainError('validation', m.remarks, { remarks: m.remarks });
      const bad = badRemarks(remarks);
      if (bad) return bad;
      return [{ type: 'InvoiceRejected', data: { ...ids, by: meta.actor, remarks, fromStatus: state.status as InvoiceStatus } }];
    }
    case 'RevokeInvoice': {
      const problem = actionProblem('revoke', state, principalOf(meta.actor, command.actorBaId));
      if (problem) return problem;
      const remarks = remarksOf(command.remarks);
      const bad = badRemarks(remarks);
      if (bad) return bad;
      return [{ type: 'InvoiceRevoked', data: { ...ids, by: meta.actor, remarks } }];
    }
    case 'RecordInvoiceErpSubmitted':
      if (!state.booking) return [];
      if (state.erpRequestId === command.erpRequestId) return [];
      return [{ type: 'InvoiceErpRequestSubmitted', data: { ...ids, requestKey: command.requestKey, erpRequestId: command.erpRequestId } }];
    case 'RecordInvoiceErpCallFailed':
      if (!state.booking) return [];
      return [
        {
          type: 'InvoiceErpCallFailed',
          data: { ...ids, requestKey: command.requestKey, error: command.error.slice(0, 500), attempt: command.attempt, retryAt: command.retryAt },
        },
      ];
    case 'RecordInvoiceErpRefused':
      if (!state.booking) return [];
      return [{ type: 'InvoiceErpRefused', data: { ...ids, message: command.message.slice(0, 500) } }];
    case 'RecordInvoiceBooked':
      if (!state.booking) return [];
      return [{ type: 'InvoiceBooked', data: { ...ids, erpDocumentNumber: command.erpDocumentNumber } }];
    case 'RecordInvoiceSlaBreach':
      if (!isSystem(meta.actor)) return new DomainError('forbidden', 'Only the SLA timer records a breach');
      if (state.status !== command.status || state.slaBreached) return [];
      return [{ type: 'InvoiceSlaBreached', data: { ...ids, status: command.status, since: command.since, dueAt: command.dueAt } }];
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const invoiceDecider: Decider<InvoiceCommand, InvoiceEvent, InvoiceState> = {
  initialState: initialInvoiceState,
  evolve: evolveInvoice,
  decide: (command, state, meta) => decideInvoice(command, state, meta),
};

/**
 * The reservation stream's decision: the first invoice to reserve a number for the BA and year holds it
 * forever; the same invoice again is an idempotent success; any other gets "Duplicate Invoice".
 */
export function decideReservation(
  existing: InvoiceNumberReserved | null,
  request: { baId: string; financialYear: string; invoiceNumber: string; invoiceId: string },
): InvoiceNumberReserved[] | DomainError {
  if (existing === null) return [{ type: 'InvoiceNumberReserved', data: { ...request, invoiceNumber: request.invoiceNumber.trim() } }];
  return existing.data.invoiceId === request.invoiceId ? [] : new DomainError('conflict', m.duplicate);
}
