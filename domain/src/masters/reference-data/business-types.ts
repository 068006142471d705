import type { ReferenceRow } from './types';

export type BusinessTypeRow = ReferenceRow<{ name: string }>;

/** The legal form of a BA's business (what the PAN's fourth letter and the CIN tell apart). */
const NAMES = [
  'Proprietorship',
  'Partnership Firm',
  'Limited Liability Partnership',
  'Private Limited Company',
  'Public Limited Company',
  'One Person Company',
  'Hindu Undivided Family',
  'Trust or Society',
  'Co-operative Society',
  'Government or PSU',
] as const;

export const BUSINESS_TYPES: readonly BusinessTypeRow[] = NAMES.map((name, i) => ({ id: i + 1, name }));
