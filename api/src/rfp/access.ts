import type { Request } from 'express';
import { AUDITOR_ROLE, type Role } from '../../../domain/src/identity/roles';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { RFP_ACTION_ROLES, RFP_BIDDERS, RFP_DECIDERS, RFP_STAFF, type RfpAction } from '../../../domain/src/rfp/roles';
import { RFP_CODE_PATTERN } from '../../../domain/src/rfp/rules';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { ALL_COMPANIES } from '../contract';
import { requireAuth, type Principal } from '../http/auth';
import { isBaCaller } from '../onboarding/access';

/**
 * Who may call the RFP routes (domain/src/rfp/roles.ts RFP_ACTION_ROLES) and whose RFP a caller reaches. Staff
 * routes belong to the console, BA routes to the portal; the reads both use (the list, one RFP, its lanes, the
 * T&C) admit both and answer each from its own scope.
 */
export const rfpAccess = {
  /** Staff (console) and BAs (portal) alike; a BA is answered only about RFPs floated to it. */
  read: () => requireAuth({ roles: RFP_ACTION_ROLES.read as Role[] }),
  /** Staff reads of responses and downloads: the six RFP staff roles and the auditor. */
  staffRead: () => requireAuth({ roles: [...RFP_STAFF, AUDITOR_ROLE], app: 'console' }),
  /** Drafts, lanes, float, T&C and backhaul: the six RFP staff roles. */
  staff: () => requireAuth({ roles: RFP_STAFF, app: 'console' }),
  /** Close bidding, award, close and reopen: MLL Procurement and MLL-ADMIN. */
  deciders: () => requireAuth({ roles: RFP_DECIDERS, app: 'console' }),
  /** A BA's own bids. */
  bidders: () => requireAuth({ roles: RFP_BIDDERS, app: 'portal' }),
};

export const notFound = () => new DomainError('not_found', rfpMessages.notFound);

/** The RFP code of the path; anything that cannot be a code is simply not found (and never reaches SQL). */
export function rfpCodeParam(req: Request): string {
  const code = String(req.params['code'] ?? '').trim();
  if (!RFP_CODE_PATTERN.test(code)) throw notFound();
  return code;
}

/** The role the caller acts in for `action`: the first of its roles the action admits. */
export function actorFor(p: Principal, action: RfpAction): Actor {
  const allowed = RFP_ACTION_ROLES[action];
  return { userId: p.userId, role: p.roles.find((r) => allowed.includes(r)) ?? p.roles[0] ?? 'unknown', name: p.name };
}

/** The BA a portal caller acts for; a BA user without a BA reaches nothing. */
export function baIdOf(p: Principal): string {
  if (!p.baId) throw notFound();
  return p.baId;
}

export const isBa = isBaCaller;

/**
 * The company code a new RFP belongs to: the one the staff member is working in (spec 000 §6). With 'All'
 * chosen it is their only code; with several and none chosen, they must choose one first.
 */
export function companyCodeForNewRfp(p: Principal): string {
  if (p.activeCompanyCode !== ALL_COMPANIES && p.companyCodes.includes(p.activeCompanyCode)) return p.activeCompanyCode;
  const codes = p.companyCodes.filter((c) => c !== ALL_COMPANIES);
  if (codes.length === 1) return codes[0] as string;
  throw new DomainError('validation', rfpRouteMessages.chooseCompany, { companyCode: rfpRouteMessages.chooseCompany });
}

/** Texts of the RFP routes that are ours (the spec's are in domain/src/rfp/messages.ts). */
export const rfpRouteMessages = {
  chooseCompany: 'Please choose the company code you are working in before creating an RFP',
  noColumns: 'Please save step 2 (the RFP type and properties) first',
  unknownProperty: (key: string) => `${key} is not an RFP property of this RFP type`,
  wrongOwner: (key: string, list: string) => `${key} cannot be chosen as ${list}`,
  noTerms: 'No terms and conditions file has been uploaded for this RFP',
  noAvailability: 'This RFP does not ask BAs for the vehicles available',
  noLanes: 'The RFP has no lanes yet',
  noBas: 'There is no verified BA to float this RFP to',
  invalidLaneQuery: 'Invalid lane query',
  comparisonBy: 'Please choose all, location, vehicle or location-vehicle',
  dueDate: 'Please enter the new due date',
} as const;
