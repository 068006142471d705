import { INVOICE_ACCOUNTS } from '../identity/roles';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { Actor } from '../shared/events';
import { indiaDateAt } from '../shared/india-date';
import { MAX_TEXT_LENGTH, messages as fieldMessages, patterns } from '../validation/fields';
import { AMOUNT_PATTERN, fromPaise, toPaise } from './amounts';
import type { AdvancePaymentRecorded, MemoClaimsEvent, MemoEvent, MemoSequenceEvent, MemoSubmitted, MemoTotals } from './events';
import type { MemoInvoiceStatus, MemoInvoiceView } from './invoice-view';

/** The user-facing messages of memos (the contract gives the first and the advance cap; the rest are ours). */
export const memoMessages = {
  alreadyInMemo: (invoiceNumber: string, memoNumber: string) => `Invoice ${invoiceNumber} is already in memo ${memoNumber}`,
  noInvoices: 'Please select at least one invoice',
  invoiceNotFound: 'Invoice not found',
  notSubmitted: (invoiceNumber: string, label: string) => `Invoice ${invoiceNumber} cannot be added to a memo while it is ${label}`,
  oneCompanyCode: 'All invoices of a memo must belong to the same company code',
  oneStatePair: 'All invoices of a memo must be billed from the same state to the same state',
  submitted: 'Memo submitted successfully.',
  alreadySubmitted: 'This memo has already been submitted',
  memoNotFound: 'Memo not found',
  advanceAmount: 'Please enter a valid amount',
  advancePositive: 'The advance must be greater than zero',
  advanceTooHigh: 'The advance cannot exceed the memo balance',
  paidOn: 'Please enter the payment date (YYYY-MM-DD)',
  paidOnFuture: 'The payment date cannot be in the future',
  reference: 'Please enter the payment reference',
  advanceRole: 'Only MLL Accounts can record an advance payment',
  advanceRecorded: 'Advance payment recorded',
} as const;

/** Labels of invoice statuses as the contract writes them (for "cannot be added ... while it is Booked"). */
const STATUS_LABELS: Record<MemoInvoiceStatus, string> = {
  none: 'unknown',
  draft: 'Draft',
  S: 'Submitted',
  A: 'Acknowledged',
  V: 'Verified',
  B: 'Booked',
  P: 'Released',
  C: 'Rejected',
  R: 'Revoked',
  discarded: 'Discarded',
};
/** Only invoices still on their way to booking can be grouped: a memo is what the BA sends with them. */
export const MEMO_INVOICE_STATUSES: readonly MemoInvoiceStatus[] = ['S', 'A', 'V'];

/** `MEMO/<companyCode>/<fy>/<000001>`. */
export const formatMemoNumber = (companyCode: string, financialYear: string, sequence: number): string =>
  `MEMO/${companyCode}/${financialYear}/${String(sequence).padStart(6, '0')}`;

// ---------------------------------------------------------------------------------------------------------
// Claims: memo-claims-<baId>

export type MemoClaimsState = { claimedBy: Record<string, string> };
export type ClaimMemoInvoices = {
  type: 'ClaimMemoInvoices';
  memoId: string;
  baId: string;
  /** The invoices with their numbers (for the refusal's words). */
  invoices: { invoiceId: string; invoiceNumber: string }[];
  /** Numbers of the memos that already hold some of them (resolved by the caller), else their id is shown. */
  memoNumbers?: Record<string, string>;
};

export const memoClaimsDecider: Decider<ClaimMemoInvoices, MemoClaimsEvent, MemoClaimsState> = {
  initialState: { claimedBy: {} },
  evolve: (state, event) => {
    const claimedBy = { ...state.claimedBy };
    for (const id of event.data.invoiceIds) claimedBy[id] = event.data.memoId;
    return { claimedBy };
  },
  decide: (command, state) => {
    const mine = command.invoices.filter((i) => state.claimedBy[i.invoiceId] === command.memoId);
    // The same memo claiming again (a retried activity): already done.
    if (mine.length === command.invoices.length && mine.length > 0) return [];
    for (const invoice of command.invoices) {
      const holder = state.claimedBy[invoice.invoiceId];
      if (holder !== undefined && holder !== command.memoId) {
        return new DomainError('conflict', memoMessages.alreadyInMemo(invoice.invoiceNumber, command.memoNumbers?.[holder] ?? holder));
      }
    }
    if (command.invoices.length === 0) return new DomainError('validation', memoMessages.noInvoices);
    return [{ type: 'MemoInvoicesClaimed', data: { memoId: command.memoId, baId: command.baId, invoiceIds: command.invoices.map((i) => i.invoiceId) } }];
  },
};

// ---------------------------------------------------------------------------------------------------------
// Numbers: memo-seq-<companyCode>-<fy>

export type MemoSequenceState = { last: number; byMemo: Record<string, string> };
export type AssignMemoNumber = { type: 'AssignMemoNumber'; memoId: string; companyCode: string; financialYear: string };

export const memoSequenceDecider: Decider<AssignMemoNumber, MemoSequenceEvent, MemoSequenceState> = {
  initialState: { last: 0, byMemo: {} },
  evolve: (state, event) => ({
    last: Math.max(state.last, event.data.sequence),
    byMemo: { ...state.byMemo, [event.data.memoId]: event.data.memoNumber },
  }),
  decide: (command, state) => {
    // The same memo again (retry after a lost answer) gets its number back: never a second one.
    if (state.byMemo[command.memoId] !== undefined) return [];
    const sequence = state.last + 1;
    return [
      {
        type: 'MemoNumberAssigned',
        data: {
          memoId: command.memoId,
          companyCode: command.companyCode,
          financialYear: command.financialYear,
          sequence,
          memoNumber: formatMemoNumber(command.companyCode, command.financialYear, sequence),
        },
      },
    ];
  },
};

// ---------------------------------------------------------------------------------------------------------
// The memo's invoices: one BA, one company code, one state pair, all still in S/A/V

export type MemoGroup = {
  invoiceIds: string[];
  companyCode: string;
  fromStateId: number;
  toStateId: number;
  totals: MemoTotals;
};

/** Sums in paise: total = taxable + cgst + sgst + igst, net payable = total − TD (as on the invoice rows). */
export function memoTotals(invoices: readonly Pick<MemoInvoiceView, 'taxableAmount' | 'cgst' | 'sgst' | 'igst' | 'td'>[]): MemoTotals {
  const sum = (key: 'taxableAmount' | 'cgst' | 'sgst' | 'igst' | 'td') => invoices.reduce((acc, i) => acc + (toPaise(i[key]) ?? 0), 0);
  const taxable = sum('taxableAmount');
  const cgst = sum('cgst');
  const sgst = sum('sgst');
  const igst = sum('igst');
  const td = sum('td');
  const total = taxable + cgst + sgst + igst;
  return {
    taxableAmount: fromPaise(taxable),
    cgst: fromPaise(cgst),
    sgst: fromPaise(sgst),
    igst: fromPaise(igst),
    td: fromPaise(td),
    totalAmount: fromPaise(total),
    netPayable: fromPaise(total - td),
  };
}

/**
 * Checks the invoices a BA picked (views folded from their streams, in the order asked; duplicates removed):
 * 400 none picked, 404 unknown or another BA's (never say which exists), 422 wrong status or mixed company
 * code / state pair.
 */
export function groupMemoInvoices(baId: string, invoices: readonly MemoInvoiceView[]): MemoGroup | DomainError {
  const unique = invoices.filter((v, i) => invoices.findIndex((w) => w.invoiceId === v.invoiceId) === i);
  const first = unique[0];
  if (!first) return new DomainError('validation', memoMessages.noInvoices, { invoiceIds: memoMessages.noInvoices });
  for (const invoice of unique) {
    if (invoice.status === 'none' || invoice.baId !== baId) return new DomainError('not_found', memoMessages.invoiceNotFound);
    if (!MEMO_INVOICE_STATUSES.includes(invoice.status)) {
      return new DomainError('rule', memoMessages.notSubmitted(invoice.invoiceNumber, STATUS_LABELS[invoice.status]));
    }
  }
  if (unique.some((i) => i.companyCode !== first.companyCode) || !first.companyCode) return new DomainError('rule', memoMessages.oneCompanyCode);
  if (unique.some((i) => i.fromStateId !== first.fromStateId || i.toStateId !== first.toStateId) || first.fromStateId === null || first.toStateId === null) {
    return new DomainError('rule', memoMessages.oneStatePair);
  }
  return {
    invoiceIds: unique.map((i) => i.invoiceId),
    companyCode: first.companyCode,
    fromStateId: first.fromStateId,
    toStateId: first.toStateId,
    totals: memoTotals(unique),
  };
}

/** Optional memo comments: the project's free-text rule (≤260, no formula-leading character). */
export function memoCommentsProblem(comments: string | null | undefined): DomainError | null {
  const v = comments?.trim() ?? '';
  if (v.length > MAX_TEXT_LENGTH) return new DomainError('validation', fieldMessages.tooLong, { comments: fieldMessages.tooLong });
  if (patterns.forbiddenLeading.test(v)) return new DomainError('validation', fieldMessages.leadingCharacter, { comments: fieldMessages.leadingCharacter });
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// The memo: memo-<memoId>

export type MemoState = {
  status: 'none' | 'submitted';
  memoId: string | null;
  memoNumber: string | null;
  baId: string | null;
  companyCode: string | null;
  netPayablePaise: number;
  advancesPaise: number;
  advanceIds: string[];
};

export const initialMemoState: MemoState = {
  status: 'none',
  memoId: null,
  memoNumber: null,
  baId: null,
  companyCode: null,
  netPayablePaise: 0,
  advancesPaise: 0,
  advanceIds: [],
};

export type SubmitMemo = { type: 'SubmitMemo'; memo: MemoSubmitted['data'] };
export type RecordAdvancePayment = { type: 'RecordAdvancePayment'; advanceId: string; amount: string; reference: string; paidOn: string };
export type MemoCommand = SubmitMemo | RecordAdvancePayment;

export const memoBalancePaise = (state: MemoState): number => state.netPayablePaise - state.advancesPaise;

export function evolveMemo(state: MemoState, event: MemoEvent): MemoState {
  switch (event.type) {
    case 'MemoSubmitted':
      return {
        ...state,
        status: 'submitted',
        memoId: event.data.memoId,
        memoNumber: event.data.memoNumber,
        baId: event.data.baId,
        companyCode: event.data.companyCode,
        netPayablePaise: toPaise(event.data.totals.netPayable) ?? 0,
      };
    case 'AdvancePaymentRecorded':
      return {
        ...state,
        advancesPaise: state.advancesPaise + (toPaise(event.data.amount) ?? 0),
        advanceIds: [...state.advanceIds, event.data.advanceId],
      };
    default:
      return state;
  }
}

const isValidDate = (v: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/** Field rules of an advance (400), then the balance (422). Amounts compared in paise. */
export function advanceProblem(command: RecordAdvancePayment, state: MemoState, at: string): DomainError | null {
  const amount = (command.amount ?? '').trim();
  if (!AMOUNT_PATTERN.test(amount)) return new DomainError('validation', memoMessages.advanceAmount, { amount: memoMessages.advanceAmount });
  const paise = toPaise(amount) ?? 0;
  if (paise <= 0) return new DomainError('validation', memoMessages.advancePositive, { amount: memoMessages.advancePositive });
  const reference = (command.reference ?? '').trim();
  if (!reference) return new DomainError('validation', memoMessages.reference, { reference: memoMessages.reference });
  if (reference.length > MAX_TEXT_LENGTH) return new DomainError('validation', fieldMessages.tooLong, { reference: fieldMessages.tooLong });
  if (patterns.forbiddenLeading.test(reference)) return new DomainError('validation', fieldMessages.leadingCharacter, { reference: fieldMessages.leadingCharacter });
  const paidOn = (command.paidOn ?? '').trim();
  if (!isValidDate(paidOn)) return new DomainError('validation', memoMessages.paidOn, { paidOn: memoMessages.paidOn });
  if (paidOn > indiaDateAt(at)) return new DomainError('validation', memoMessages.paidOnFuture, { paidOn: memoMessages.paidOnFuture });
  if (paise > memoBalancePaise(state)) return new DomainError('rule', memoMessages.advanceTooHigh);
  return null;
}

const mayRecordAdvance = (actor: Actor): boolean => (INVOICE_ACCOUNTS as readonly string[]).includes(actor.role);

export function decideMemo(command: MemoCommand, state: MemoState, meta: Pick<CommandMetadata, 'at' | 'actor'>): MemoEvent[] | DomainError {
  switch (command.type) {
    case 'SubmitMemo': {
      if (state.status === 'submitted') return state.memoId === command.memo.memoId ? [] : new DomainError('conflict', memoMessages.alreadySubmitted);
      const comments = memoCommentsProblem(command.memo.comments);
      if (comments) return comments;
      return [{ type: 'MemoSubmitted', data: { ...command.memo, comments: command.memo.comments?.trim() || null } }];
    }
    case 'RecordAdvancePayment': {
      if (state.status !== 'submitted' || !state.memoId || !state.baId) return new DomainError('not_found', memoMessages.memoNotFound);
      if (!mayRecordAdvance(meta.actor)) return new DomainError('forbidden', memoMessages.advanceRole);
      // The same advance again (a retried request): recorded once.
      if (state.advanceIds.includes(command.advanceId)) return [];
      const problem = advanceProblem(command, state, meta.at);
      if (problem) return problem;
      const event: AdvancePaymentRecorded = {
        type: 'AdvancePaymentRecorded',
        data: {
          memoId: state.memoId,
          baId: state.baId,
          advanceId: command.advanceId,
          amount: fromPaise(toPaise(command.amount.trim()) ?? 0),
          reference: command.reference.trim(),
          paidOn: command.paidOn.trim(),
          by: meta.actor,
        },
      };
      return [event];
    }
  }
}

export const memoDecider: Decider<MemoCommand, MemoEvent, MemoState> = {
  initialState: initialMemoState,
  evolve: evolveMemo,
  decide: decideMemo,
};
