import type { ReferenceRow } from './types';

export type AdditionalDocumentTypeRow = ReferenceRow<{ name: string; needsValidityDate: boolean }>;

/** Documents a verified BA may add later (the Additional Documents page). */
const DOCS: readonly (readonly [string, boolean])[] = [
  ['Lower TDS Deduction Certificate (Section 197)', true],
  ['ISO 9001 Certificate', true],
  ['ISO 14001 Certificate', true],
  ['Audited Financial Statements', false],
  ['Income Tax Return Acknowledgement', false],
  ['National Permit', true],
  ['Vehicle Fitness Certificate', true],
  ['Pollution Under Control Certificate', true],
  ['Vehicle Insurance Policy', true],
  ['Driving Licence of Driver', true],
  ['PF Registration Certificate', false],
  ['ESIC Registration Certificate', false],
  ['Board Resolution or Authorisation Letter', false],
];

export const ADDITIONAL_DOCUMENT_TYPES: readonly AdditionalDocumentTypeRow[] = DOCS.map(([name, needsValidityDate], i) => ({
  id: i + 1,
  name,
  needsValidityDate,
}));
