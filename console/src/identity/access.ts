import { AUDITOR_ROLE } from '../../../domain/src/identity/roles';

/**
 * The header's company-code selector (spec 000 §2 "Header": "shown only to users who do not hold three
 * particular roles", which it does not name). Our reading, the same as the portal's: BA Admin, BA User and
 * Auditor. BAs never reach the console, so here it is hidden for auditors, whose reads are not narrowed by a
 * chosen company; every other staff member with company codes sees it.
 */
export const NO_COMPANY_SELECTOR_ROLES: readonly string[] = ['BA Admin', 'BA User', AUDITOR_ROLE];

export const showsCompanySelector = (user: { roles: readonly string[]; companyCodes: readonly string[] }): boolean =>
  !user.roles.some((r) => NO_COMPANY_SELECTOR_ROLES.includes(r)) && user.companyCodes.length > 0;
