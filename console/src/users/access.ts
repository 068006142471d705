import { AUDITOR_ROLE, STAFF_ROLES } from '../../../domain/src/identity/roles';

/** Staff accounts are managed by MLL-ADMIN alone (the API enforces the same rule). */
export const USER_ADMIN_ROLE = 'MLL-ADMIN';

export const mayManageUsers = (roles: readonly string[] | undefined): boolean =>
  (roles ?? []).includes(USER_ADMIN_ROLE);

/** The roles a staff account can be given per application: staff roles and our read-only auditor. */
export const ASSIGNABLE_ROLES: readonly string[] = [...STAFF_ROLES, AUDITOR_ROLE];
