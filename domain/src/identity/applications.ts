import type { Role } from './roles';

/**
 * The applications a user may be given access to (spec 000 §1: "Application ids used in role records include
 * onboard, RFP, BillHub, Complaint, Dashboard, Masters and SAP"). A user holds a role per application, as the
 * old portal's `userApps [{appId, roleName}]`.
 */
export const APPLICATIONS = ['onboard', 'RFP', 'BillHub', 'Complaint', 'Dashboard', 'Masters', 'SAP'] as const;
export type AppId = (typeof APPLICATIONS)[number];

export type AppAccess = { appId: AppId; roleName: Role };

export const isAppId = (value: string): value is AppId => (APPLICATIONS as readonly string[]).includes(value);

/** The distinct role names of an access list, in first-seen order. */
export const rolesOf = (access: readonly AppAccess[]): Role[] => [...new Set(access.map((a) => a.roleName))];

/**
 * Users created before roles were held per application (the first seed) hold each role on the onboarding
 * application: that is the only one that existed.
 */
export const defaultAccess = (roles: readonly Role[]): AppAccess[] => roles.map((roleName) => ({ appId: 'onboard', roleName }));

/** A Bill-Hub-only user signs in to the Bill-Hub area and nowhere else (spec 000 §2 post-login routing). */
export const isBillHubOnly = (access: readonly AppAccess[]): boolean =>
  access.length > 0 && access.every((a) => a.appId === 'BillHub');
