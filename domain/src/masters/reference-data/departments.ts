import type { ReferenceRow } from './types';

export type DepartmentRow = ReferenceRow<{ name: string }>;

/**
 * The departments a BA user belongs to (spec 000 §3 "BA users table columns": department). Ids 1–8 are those
 * of the fixed BA_DEPARTMENTS before the Masters capability; events store the name.
 */
const NAMES = ['Operations', 'Accounts', 'Finance', 'Sales', 'Management', 'Fleet', 'Compliance', 'IT'] as const;

export const DEPARTMENTS: readonly DepartmentRow[] = NAMES.map((name, i) => ({ id: i + 1, name }));
