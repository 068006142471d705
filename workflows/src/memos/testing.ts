import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { Actor, EventMetadata } from '../../../domain/src/shared/events';
import type { MemoInput } from './messages';

/** Test helpers for memos (integration tests only): submitted invoices written as the contract's events. */
export const memoActors = {
  ba: { userId: 'u-ba', role: 'BA Admin', name: 'Bala BA' } satisfies Actor,
  accounts: { userId: 'u-accounts', role: 'MLL Accounts', name: 'Asha Accounts' } satisfies Actor,
};

export type TestInvoice = {
  baId: string;
  invoiceNumber?: string;
  companyCode?: string;
  fromStateId?: number;
  toStateId?: number;
  taxableAmount?: string;
  cgst?: string;
  sgst?: string;
  igst?: string;
  td?: string;
  /** 'S' (default), or 'draft' to leave it unsubmitted, 'A'/'V' to move it further. */
  status?: 'draft' | 'S' | 'A' | 'V' | 'B';
};

let counter = 0;
/** Writes an invoice stream (drafted, submitted, …) and returns its id. */
export async function seedInvoice(store: EventStore, t: TestInvoice): Promise<string> {
  counter += 1;
  const invoiceId = randomUUID();
  const companyCode = t.companyCode ?? '1000';
  const fields = {
    invoiceNumber: t.invoiceNumber ?? `INV-${counter}-${invoiceId.slice(0, 6)}`,
    invoiceDate: '2026-11-10',
    taxableAmount: t.taxableAmount ?? '1000.00',
    cgst: t.cgst ?? '90.00',
    sgst: t.sgst ?? '90.00',
    igst: t.igst ?? '0',
    td: t.td ?? '10.00',
    hsnCode: '996511',
    comments: 'Transport',
    submitToUserId: 'u-commercial',
    billingFromCode: 'C100',
    billingToCode: 'CHK',
    submitToName: 'Chitra',
    companyCode,
    fromStateId: t.fromStateId ?? 27,
    billingToName: 'Chakan',
    toStateId: t.toStateId ?? 27,
    financialYear: '2026-27',
  };
  const metadata: EventMetadata = {
    actor: memoActors.ba,
    companyCode,
    correlationId: invoiceId,
    causationId: null,
    workflowId: null,
    requestId: null,
    at: new Date().toISOString(),
  };
  const base = { invoiceId, baId: t.baId };
  const status = t.status ?? 'S';
  const events: { type: string; data: unknown }[] = [{ type: 'InvoiceDrafted', data: { ...base, companyCode, fields, createdBy: memoActors.ba } }];
  if (status !== 'draft')
    events.push({
      type: 'InvoiceSubmitted',
      data: { ...base, companyCode, invoiceNumber: fields.invoiceNumber, financialYear: fields.financialYear, fields, resubmission: false, by: memoActors.ba },
    });
  if (status === 'A' || status === 'V' || status === 'B') events.push({ type: 'InvoiceAcknowledged', data: { ...base, by: memoActors.ba } });
  if (status === 'V' || status === 'B') events.push({ type: 'InvoiceVerified', data: { ...base, by: memoActors.ba } });
  if (status === 'B') events.push({ type: 'InvoiceBooked', data: { ...base, erpDocumentNumber: 'DOC-1' } });
  await store.appendToStream(
    `invoice-${invoiceId}`,
    events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata })),
    { expectedVersion: 'no_stream' },
  );
  return invoiceId;
}

export const memoInput = (baId: string, invoiceIds: string[], over: Partial<MemoInput> = {}): MemoInput => ({
  memoId: randomUUID(),
  baId,
  invoiceIds,
  comments: 'November trips',
  submittedBy: memoActors.ba,
  correlationId: randomUUID(),
  ...over,
});

/** A company code no other test of the run uses: its memo numbers start at 1. */
export const uniqueCompanyCode = (): string => `T${String(process.pid % 1000).padStart(3, '0')}${String(++counter).padStart(3, '0')}${Math.floor(Math.random() * 100)}`;
