import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { Actor } from '../../../domain/src/shared/events';
import type { InvoiceRecordData, MemoTotalsData } from './invoice-events';

/**
 * Appends invoice and memo events as the contract names them (test-only), with a clock moving a minute per
 * event, so the read models can be tested without the workflows. Every append checks the stream version, as
 * the deciders' appends do.
 */
export const testActors = {
  ba: (baId: string): Actor => ({ userId: `ba-user-${baId}`, role: 'BA Admin', name: `Admin of ${baId}` }),
  commercial: { userId: 'u-commercial', role: 'MLL Commercial', name: 'Chitra Commercial' } as Actor,
  accounts: { userId: 'u-accounts', role: 'MLL Accounts', name: 'Anil Accounts' } as Actor,
  system: { userId: 'system', role: 'system' } as Actor,
};

export const invoiceFields = (overrides: Partial<InvoiceRecordData> = {}): InvoiceRecordData => ({
  invoiceNumber: 'INV-001',
  invoiceDate: '2026-11-10',
  taxableAmount: '10000.00',
  cgst: '900.00',
  sgst: '900.00',
  igst: '',
  td: '200.00',
  hsnCode: '996511',
  comments: 'November trips',
  submitToUserId: 'u-commercial',
  billingFromCode: '2000000101',
  billingToCode: 'CHK',
  submitToName: 'Chitra Commercial',
  companyCode: '1000',
  fromStateId: 27,
  billingToName: 'Chakan plant',
  toStateId: 27,
  financialYear: '2026-27',
  ...overrides,
});

export function createInvoiceEvents(store: EventStore, options: { start?: string } = {}) {
  let clock = Date.parse(options.start ?? '2026-11-12T09:00:00.000Z');
  const versions = new Map<string, number>();

  async function append(streamId: string, type: string, data: Record<string, unknown>, actor: Actor, companyCode: string | null): Promise<number> {
    clock += 60_000;
    const expected = versions.get(streamId) ?? 'no_stream';
    const result = await store.appendToStream(
      streamId,
      [
        {
          eventId: randomUUID(),
          type,
          data,
          metadata: { actor, companyCode, correlationId: randomUUID(), causationId: null, workflowId: null, requestId: null, at: new Date(clock).toISOString() },
        },
      ],
      { expectedVersion: expected },
    );
    versions.set(streamId, result.nextExpectedVersion);
    return result.lastGlobalPosition;
  }

  const companies = new Map<string, string>();
  const bas = new Map<string, string>();
  const on = (invoiceId: string, type: string, data: Record<string, unknown> = {}, actor: Actor = testActors.system) =>
    append(`invoice-${invoiceId}`, type, { invoiceId, baId: bas.get(invoiceId), ...data }, actor, companies.get(invoiceId) ?? null);

  return {
    now: () => new Date(clock).toISOString(),
    append,
    draft: (invoiceId: string, baId: string, fields: Partial<InvoiceRecordData> = {}) => {
      const f = invoiceFields(fields);
      companies.set(invoiceId, f.companyCode ?? '1000');
      bas.set(invoiceId, baId);
      return on(invoiceId, 'InvoiceDrafted', { companyCode: f.companyCode, fields: f, createdBy: testActors.ba(baId) }, testActors.ba(baId));
    },
    save: (invoiceId: string, fields: Partial<InvoiceRecordData>) => {
      const f = invoiceFields(fields);
      return on(invoiceId, 'InvoiceDraftSaved', { companyCode: f.companyCode, fields: f }, testActors.ba(bas.get(invoiceId) ?? ''));
    },
    submit: (invoiceId: string, fields: Partial<InvoiceRecordData> = {}, resubmission = false) => {
      const f = invoiceFields(fields);
      const ba = testActors.ba(bas.get(invoiceId) ?? '');
      return on(
        invoiceId,
        'InvoiceSubmitted',
        { companyCode: f.companyCode, invoiceNumber: f.invoiceNumber, financialYear: f.financialYear, fields: f, resubmission, by: ba },
        ba,
      );
    },
    on,
    /** A draft submitted in one go (fields as given). */
    submitted: async (invoiceId: string, baId: string, fields: Partial<InvoiceRecordData> = {}) => {
      const f = invoiceFields(fields);
      companies.set(invoiceId, f.companyCode ?? '1000');
      bas.set(invoiceId, baId);
      await on(invoiceId, 'InvoiceDrafted', { companyCode: f.companyCode, fields: f, createdBy: testActors.ba(baId) }, testActors.ba(baId));
      const ba = testActors.ba(baId);
      return on(
        invoiceId,
        'InvoiceSubmitted',
        { companyCode: f.companyCode, invoiceNumber: f.invoiceNumber, financialYear: f.financialYear, fields: f, resubmission: false, by: ba },
        ba,
      );
    },
    memo: (
      memoId: string,
      d: { memoNumber: string; baId: string; companyCode: string; fromStateId: number; toStateId: number; invoiceIds: string[]; totals: MemoTotalsData },
    ) =>
      append(
        `memo-${memoId}`,
        'MemoSubmitted',
        { memoId, financialYear: '2026-27', comments: 'Memo of November', submittedBy: testActors.ba(d.baId), ...d },
        testActors.ba(d.baId),
        d.companyCode,
      ),
    advance: (memoId: string, baId: string, companyCode: string, advanceId: string, amount: string) =>
      append(
        `memo-${memoId}`,
        'AdvancePaymentRecorded',
        { memoId, baId, advanceId, amount, reference: `UTR-${advanceId}`, paidOn: '2026-11-20', by: testActors.accounts },
        testActors.accounts,
        companyCode,
      ),
  };
}
