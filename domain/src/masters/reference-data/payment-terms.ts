import type { ReferenceRow } from './types';

export type PaymentTermRow = ReferenceRow<{ paymentTermCode: string; description: string; days: number }>;

/** SAP payment terms for vendors: due net within so many days of the invoice. */
const term = (id: number, days: number, description: string): PaymentTermRow => ({
  id,
  paymentTermCode: `Z${String(days).padStart(3, '0')}`,
  description,
  days,
});

export const PAYMENT_TERMS: readonly PaymentTermRow[] = [
  term(1, 0, 'Payable immediately, due net'),
  term(2, 7, 'Within 7 days, due net'),
  term(3, 15, 'Within 15 days, due net'),
  term(4, 30, 'Within 30 days, due net'),
  term(5, 45, 'Within 45 days, due net (MSME limit)'),
  term(6, 60, 'Within 60 days, due net'),
  term(7, 90, 'Within 90 days, due net'),
];
