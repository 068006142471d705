import { AUDITOR_ROLE, type Role } from '../../../domain/src/identity/roles';
import { requireAuth } from '../http/auth';

/** Who reads what auditors read (raw events, the search across BAs, a BA as of a date, exports): console only. */
export const AUDIT_READERS: readonly Role[] = [AUDITOR_ROLE, 'MLL-ADMIN'];

export const auditReaders = () => requireAuth({ roles: AUDIT_READERS, app: 'console' });
