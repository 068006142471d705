import { LEGACY_COMPANY_CODES } from './legacy-catalog';

/**
 * How a decider learns about master items a command refers to (a company, a service, a city): the deciding
 * activity, which may read the database, resolves them from the masters (master_items) and passes them with
 * the command. The decider stays pure, and a workflow replays from its history whatever the masters say now.
 */

/** A referenced item as the masters hold it: its id, whether it is active, and for a city its state. */
export type ReferencedItem = { id: number | string; status: 'active' | 'inactive'; stateId?: number | null };

/** Spec 000 §5 "Registration: the chosen company must be in the company list". */
export const UNKNOWN_COMPANY = 'Please select a company from the list';

/**
 * Why a company code may not be used, or null: it must be an active item of the Companies master. `company`
 * undefined means the command was decided before the masters existed (a replay): the frozen catalogue decides.
 */
export function companyRefusal(companyCode: string, company: ReferencedItem | null | undefined): string | null {
  const known =
    company === undefined
      ? LEGACY_COMPANY_CODES.includes(companyCode)
      : company !== null && String(company.id) === companyCode && company.status === 'active';
  return known ? null : UNKNOWN_COMPANY;
}
