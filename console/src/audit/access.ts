import { AUDITOR_ROLE } from '../../../domain/src/identity/roles';

/** Who reads the raw event history with its hashes (the API enforces the same list). */
export const EVENT_HISTORY_ROLES: readonly string[] = [AUDITOR_ROLE, 'MLL-ADMIN'];

export const mayReadEventHistory = (roles: readonly string[] | undefined): boolean =>
  (roles ?? []).some((r) => EVENT_HISTORY_ROLES.includes(r));
