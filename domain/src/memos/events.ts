import type { Actor, DomainEvent } from '../shared/events';

/**
 * Bill-Hub memos (issue 11). A memo groups a BA's submitted invoices of one company code and one from/to GST
 * state. Three kinds of streams, names are wire contracts:
 *
 * - `memo-claims-<baId>`: which of the BA's invoices are in which memo. Appended with the read version as
 *   expected version, so two memos racing for one invoice cannot both claim it.
 * - `memo-seq-<companyCode>-<fy>`: the gap-free memo numbers of a company code and financial year. A number is
 *   taken only after the claim succeeded, so a refused memo consumes none.
 * - `memo-<memoId>`: the memo itself (MemoSubmitted) and the advance payments recorded against it.
 */
export type MemoTotals = {
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  totalAmount: string;
  netPayable: string;
};

export type MemoInvoicesClaimed = DomainEvent<'MemoInvoicesClaimed', { memoId: string; baId: string; invoiceIds: string[] }>;
export type MemoNumberAssigned = DomainEvent<
  'MemoNumberAssigned',
  { memoId: string; companyCode: string; financialYear: string; sequence: number; memoNumber: string }
>;
export type MemoSubmitted = DomainEvent<
  'MemoSubmitted',
  {
    memoId: string;
    memoNumber: string;
    baId: string;
    companyCode: string;
    financialYear: string;
    fromStateId: number;
    toStateId: number;
    invoiceIds: string[];
    totals: MemoTotals;
    comments: string | null;
    submittedBy: Actor;
  }
>;
export type AdvancePaymentRecorded = DomainEvent<
  'AdvancePaymentRecorded',
  { memoId: string; baId: string; advanceId: string; amount: string; reference: string; paidOn: string; by: Actor }
>;

export type MemoClaimsEvent = MemoInvoicesClaimed;
export type MemoSequenceEvent = MemoNumberAssigned;
export type MemoEvent = MemoSubmitted | AdvancePaymentRecorded;

export const MEMO_EVENT_TYPES = ['MemoSubmitted', 'AdvancePaymentRecorded'] as const satisfies readonly MemoEvent['type'][];

export const memoStreamId = (memoId: string): string => `memo-${memoId}`;
export const memoClaimsStreamId = (baId: string): string => `memo-claims-${baId}`;
export const memoSequenceStreamId = (companyCode: string, financialYear: string): string => `memo-seq-${companyCode}-${financialYear}`;
