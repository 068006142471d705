import type { ReferenceRow } from './types';

export type DocumentTypeRow = ReferenceRow<{
  name: string;
  mandatoryServiceIds: number[];
  needsValidityDate: boolean;
  isGstDocument: boolean;
}>;

/** Every service of ./services.ts: documents every BA must upload whatever it offers. */
const ALL = [1, 2, 3, 4, 5, 6];
const TRANSPORTATION = 1;
const WAREHOUSING = 2;
const FREIGHT_FORWARDING = 3;
const LAST_MILE = 4;
const MANPOWER = 5;

const doc = (id: number, name: string, mandatoryServiceIds: number[], needsValidityDate = false, isGstDocument = false): DocumentTypeRow => ({
  id,
  name,
  mandatoryServiceIds,
  needsValidityDate,
  isGstDocument,
});

/**
 * The documents of the onboarding form: which are mandatory for which service, and which expire (a validity
 * date is asked for and watched). The GST certificate is asked only of GST-registered BAs (isGstDocument).
 */
export const DOCUMENT_TYPES: readonly DocumentTypeRow[] = [
  doc(1, 'PAN Card', ALL),
  doc(2, 'GST Registration Certificate', ALL, false, true),
  doc(3, 'Cancelled Cheque', ALL),
  doc(4, 'Certificate of Incorporation', []),
  doc(5, 'MSME Udyam Registration Certificate', []),
  doc(6, 'Vehicle Registration Certificate (RC)', [TRANSPORTATION, LAST_MILE], true),
  doc(7, 'Transporter Licence', [TRANSPORTATION], true),
  doc(8, 'Goods in Transit Insurance', [TRANSPORTATION], true),
  doc(9, 'Warehouse Trade Licence', [WAREHOUSING], true),
  doc(10, 'Fire NOC', [WAREHOUSING], true),
  doc(11, 'Customs Broker Licence', [FREIGHT_FORWARDING], true),
  doc(12, 'Import Export Code (IEC)', [FREIGHT_FORWARDING]),
  doc(13, 'Contract Labour Licence', [MANPOWER], true),
  doc(14, 'Shop and Establishment Certificate', [], true),
  doc(15, 'Partnership Deed or LLP Agreement', []),
  doc(16, 'Section 194C(6) Declaration', [], true),
];
