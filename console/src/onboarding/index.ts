import BusinessIcon from '@mui/icons-material/Business';
import { BusinessAssociateList } from './BusinessAssociateList';
import { BusinessAssociateShow } from './BusinessAssociateShow';

/** The react-admin resource of the onboarding capability (style.md: one folder per resource). */
export const businessAssociates = {
  name: 'business-associates',
  list: BusinessAssociateList,
  show: BusinessAssociateShow,
  icon: BusinessIcon,
  options: { label: 'Business Associates' },
  recordRepresentation: 'companyName',
} as const;

export { BusinessAssociateList, BusinessAssociateShow };
export { ApproveButton } from './ApproveButton';
export { RejectButton } from './RejectButton';
export { BA_VIEWS, viewOfFilter, filterForView } from './views';
