import type { InvoiceFields, InvoiceRecord } from '../../../domain/src/invoices/events';
import { EMPTY_INVOICE_FIELDS } from '../../../domain/src/invoices/fields';
import type { Actor } from '../../../domain/src/shared/events';
import type { InvoiceLookups } from './activities';

/** Test helpers for the invoice lifecycle (integration tests only). */
export const invoiceActors = {
  ba: { userId: 'u-ba', role: 'BA Admin', name: 'Bina BA' } satisfies Actor,
  commercial: { userId: 'u-com', role: 'MLL Commercial', name: 'Chetan Commercial' } satisfies Actor,
  accounts: { userId: 'u-acc', role: 'MLL Accounts', name: 'Anil Accounts' } satisfies Actor,
};

/** India's date `daysAgo` days before now. */
export const indiaDaysAgo = (daysAgo: number): string => new Date(Date.now() + 5.5 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);

export const invoiceFields = (over: Partial<InvoiceFields> = {}): InvoiceFields => ({
  ...EMPTY_INVOICE_FIELDS,
  invoiceNumber: 'INV-001',
  invoiceDate: indiaDaysAgo(3),
  taxableAmount: '12500.00',
  cgst: '312.50',
  sgst: '312.50',
  hsnCode: '996511',
  comments: 'Trips of the month',
  submitToUserId: 'u-com',
  billingFromCode: '2000000027',
  billingToCode: 'CHK',
  ...over,
});

/** Fixed look-ups: child code 2000000027 in company 1000 (Maharashtra), location CHK, commercial user u-com. */
export function fixedLookups(flags: { blocked?: Set<string>; onHold?: Set<string> } = {}): InvoiceLookups {
  return {
    async resolve(_baId, f): Promise<InvoiceRecord> {
      const from = f.billingFromCode === '2000000027';
      return {
        ...f,
        submitToName: f.submitToUserId === 'u-com' && from ? 'Chetan Commercial' : null,
        companyCode: from ? '1000' : null,
        fromStateId: from ? 27 : null,
        billingToName: f.billingToCode === 'CHK' ? 'Chakan Warehouse' : null,
        toStateId: f.billingToCode === 'CHK' ? 27 : null,
        financialYear: null,
      };
    },
    numberUsedElsewhere: async () => false,
    vendorBlocked: async (baId) => flags.blocked?.has(baId) ?? false,
    paymentsOnHold: async (baId) => flags.onHold?.has(baId) ?? false,
  };
}
