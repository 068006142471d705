import { isBillHubOnly } from '../../../domain/src/identity/applications';
import { AUDITOR_ROLE } from '../../../domain/src/identity/roles';
import { errorTexts, type AppId, type Me } from '../api/client';

/**
 * Spec 000 §2 "Post-login routing". The API decides where a user belongs (`Me.home`); the portal only maps
 * that onto its routes, the staff console, or a refusal in the spec's words.
 */
export const paths = {
  login: '/',
  signup: '/signup',
  verifyRegistration: '/signup/verify-registration',
  forgotPassword: '/forgot-password',
  changePassword: '/change-password',
  status: '/onboard/status',
  home: '/home',
  billHub: '/bill-hub',
  baUsers: '/onboard/BA/add-new-ba-user',
  billHubUsers: '/onboard/BA/add-childBillHub-user',
  viewProfile: '/onboard/ba-details/view',
  unauthorised: '/401',
  workInProgress: '/workInProgress',
} as const;

/**
 * The "All" company selection (spec 000 §9, a sentinel): api/src/contract.ts ALL_COMPANIES, repeated as a
 * value here because the portal imports the contract's types only.
 */
export const ALL_COMPANIES = 'All';

/** Where the staff console lives; staff who sign in here are sent there. */
export const CONSOLE_URL = '/console/';

/** The homes the portal itself serves. */
const PORTAL_HOMES: readonly string[] = [paths.status, paths.home, paths.billHub, paths.changePassword];

/** Spec 000 §8 code 1: the user's home is no application this portal knows. */
export const unableToGrantAccess =
  'Sorry for the inconvenience, we are unable grant access. Please contact MLL support team';

export type Destination =
  | { kind: 'portal'; path: string }
  | { kind: 'console' }
  | { kind: 'refused'; message: string; code: number };

export function destinationOf(user: Me): Destination {
  if (user.applications.length === 0) return { kind: 'refused', message: errorTexts.noAccess, code: 101 };
  if (user.home === '/console') return { kind: 'console' };
  if (PORTAL_HOMES.includes(user.home)) return { kind: 'portal', path: user.home };
  return { kind: 'refused', message: unableToGrantAccess, code: 1 };
}

/** A first login or an expired password: the session may do nothing but change it (and sign out). */
export const mustChangePassword = (user: Me): boolean =>
  user.home === paths.changePassword || user.firstLogin || user.passwordExpired;

export const isBaAdmin = (user: Me): boolean => user.roles.includes('BA Admin');
export const hasApp = (user: Me, appId: AppId): boolean =>
  user.applications.some((a) => a.appId === appId);
export const billHubOnly = (user: Me): boolean => isBillHubOnly(user.applications);

/**
 * The header's company-code selector (spec 000 §2 "Header": hidden for three roles it does not name). We hide
 * it for BA Admin, BA User and Auditor: a BA has one company per registration, and the auditor's reads are
 * not narrowed by company.
 */
const NO_COMPANY_SELECTOR: readonly string[] = ['BA Admin', 'BA User', AUDITOR_ROLE];
export const showsCompanySelector = (user: Me): boolean =>
  !user.roles.some((r) => NO_COMPANY_SELECTOR.includes(r)) && user.companyCodes.length > 0;
