import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { AuditSearch, AUDIT_SEARCH_RESOURCE } from './AuditSearch';

export { EventHistory } from './EventHistory';
export { EVENT_HISTORY_ROLES, mayReadEventHistory } from './access';
export { AuditSearch, AUDIT_SEARCH_RESOURCE } from './AuditSearch';
export { AuditPanel } from './AuditPanel';
export { VerifyChainButton } from './VerifyChainButton';

/** "Audit search" (Auditor, MLL-ADMIN): the activity of every BA, as a list-only resource. */
export const auditSearch = {
  name: AUDIT_SEARCH_RESOURCE,
  list: AuditSearch,
  icon: ManageSearchIcon,
  options: { label: 'Audit search' },
} as const;
