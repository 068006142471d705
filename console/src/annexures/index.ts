import PolicyIcon from '@mui/icons-material/Policy';
import { AnnexureCreate } from './AnnexureCreate';
import { AnnexureList } from './AnnexureList';

/** PO annexures (react-admin resource `annexures`), MLL-ADMIN and MDM: list, upload, replace, withdraw. */
export const annexures = {
  name: 'annexures',
  list: AnnexureList,
  create: AnnexureCreate,
  icon: PolicyIcon,
  options: { label: 'PO Annexures' },
  recordRepresentation: 'title',
} as const;

export { AnnexureCreate, AnnexureList };
export { ANNEXURE_ROLES, mayManageAnnexures } from './access';
export { ANNEXURE_MESSAGES } from './useAnnexureCommand';
export { annexureMethods, type AnnexureDataProvider } from './dataProvider';
