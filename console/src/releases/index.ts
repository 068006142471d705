import NewReleasesIcon from '@mui/icons-material/NewReleases';
import { ReleaseCreate } from './ReleaseCreate';
import { ReleaseEdit } from './ReleaseEdit';
import { ReleaseList } from './ReleaseList';

/** Release notes (react-admin resource `releases`), MLL-ADMIN only: list, create, edit, withdraw. */
export const releases = {
  name: 'releases',
  list: ReleaseList,
  create: ReleaseCreate,
  edit: ReleaseEdit,
  icon: NewReleasesIcon,
  options: { label: 'Releases' },
  recordRepresentation: 'versionReleased',
} as const;

export { ReleaseCreate, ReleaseEdit, ReleaseList };
export { WhatsNew } from './WhatsNew';
export { WithdrawButton } from './WithdrawButton';
export { mayManageReleases } from './access';
