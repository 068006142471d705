import { Box } from '@mui/material';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import AllInboxIcon from '@mui/icons-material/AllInbox';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import LooksOneIcon from '@mui/icons-material/LooksOne';
import LooksTwoIcon from '@mui/icons-material/LooksTwo';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import BlockIcon from '@mui/icons-material/Block';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import NoteAddIcon from '@mui/icons-material/NoteAdd';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import MailOutlineIcon from '@mui/icons-material/EmailOutlined';
import { ListItemIcon, ListItemText, ListSubheader, MenuItem } from '@mui/material';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import PolicyIcon from '@mui/icons-material/Policy';
import NewReleasesIcon from '@mui/icons-material/NewReleases';
import type { ReactElement } from 'react';
import { Menu, useLocation, usePermissions } from 'react-admin';
import { hasReviewerRole } from '../tasks/access';
import { mayManageUsers } from '../users/access';
import { AUDIT_SEARCH_RESOURCE, mayReadEventHistory } from '../audit';
import { mayManageAnnexures } from '../annexures/access';
import { mayManageReleases } from '../releases/access';
import { MastersMenu } from '../masters/MastersMenu';
import { OnboardSapEntries, SapMenu } from '../vendor-code';
import { RfpMenu } from '../rfp';
import { BillHubMenu } from '../bill-hub';
import {
  SIDEBAR_EXTRA_VIEWS,
  SIDEBAR_VIEW_ORDER,
  viewByKey,
  viewOfFilter,
  viewSearch,
  type BaViewKey,
} from '../onboarding/views';
import { ADDITIONAL_DOCUMENTS_RESOURCE } from '../onboarding/additional-documents/access';
import { useHelp } from '../help/useHelp';
import { CountBadge } from './CountBadge';
import { useBaCounts } from './useBaCounts';

const ICONS: Record<BaViewKey, ReactElement> = {
  all: <AllInboxIcon />,
  verified: <HowToRegIcon />,
  pendingOnboarding: <HourglassTopIcon />,
  firstStage: <LooksOneIcon />,
  secondStage: <LooksTwoIcon />,
  registered: <PersonAddIcon />,
  rejected: <BlockIcon />,
  documentsExpired: <EventBusyIcon />,
};

const Label = ({ text, count }: { text: string; count: number | undefined }) => (
  <Box
    component="span"
    sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', width: '100%' }}
  >
    <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', fontSize: '0.875rem' }}>
      {text}
    </Box>
    <CountBadge count={count} label={text} />
  </Box>
);

/** Every BA entry points at the same path, so "active" is decided by the list filter in the URL. */
function useActiveView(): BaViewKey | 'blocked' | null {
  const location = useLocation();
  const onList = /^\/business-associates\/?$/.test(location.pathname);
  if (!onList) return null;
  const raw = new URLSearchParams(location.search).get('filter');
  try {
    const filter = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    // Blocked Users (issue 9) is a list filter of its own, not one of the list's tabs.
    if (filter['status'] === 'blocked') return 'blocked';
    return viewOfFilter(filter);
  } catch {
    return 'all';
  }
}

/** Inactive entries must not look active just because react-router matched the shared pathname. */
const inactiveSx = { '&.RaMenuItemLink-active': { color: 'text.secondary', fontWeight: 'normal' } };
const activeSx = { '&.RaMenuItemLink-active': { color: 'text.primary', fontWeight: 'bold' } };

/** Spec 000 §2: the Onboard sidebar ends with Help, the user manual (a server-given link) and the support mailbox. */
const HelpEntries = () => {
  const { data: help } = useHelp();
  return (
    <>
      <ListSubheader sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>Help</ListSubheader>
      <MenuItem component="a" href={help?.userManualUrl} target="_blank" rel="noopener" disabled={!help}>
        <ListItemIcon>
          <MenuBookIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary="User Manual" sx={{ '& .MuiListItemText-primary': { fontSize: '0.875rem' } }} />
      </MenuItem>
      <MenuItem component="a" href={help ? `mailto:${help.supportEmail}` : undefined} disabled={!help}>
        <ListItemIcon>
          <MailOutlineIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary="Support" sx={{ '& .MuiListItemText-primary': { fontSize: '0.875rem' } }} />
      </MenuItem>
    </>
  );
};

/**
 * The onboarding sidebar of spec 000 §2 ("Sidebars"): My Pending Task, then the BA list views, each with its
 * count badge from GET /api/ba-counts; then the Additional Documents queue and the BAs with expired documents;
 * for MLL-ADMIN, the staff users; for auditors and MLL-ADMIN, the audit search; Help last.
 */
export const ConsoleMenu = () => {
  const counts = useBaCounts();
  const { permissions } = usePermissions<string[]>();
  const active = useActiveView();
  const viewItem = (key: BaViewKey) => {
    const view = viewByKey(key);
    return (
      <Menu.Item
        key={key}
        to={{ pathname: '/business-associates', search: viewSearch(key) }}
        primaryText={<Label text={view.label} count={counts?.[view.countKey]} />}
        leftIcon={ICONS[key]}
        sx={active === key ? activeSx : inactiveSx}
      />
    );
  };
  return (
    <Menu>
      {hasReviewerRole(permissions ?? []) && (
        <Menu.Item
          to="/tasks"
          primaryText={<Label text="My Pending Task" count={counts?.myPendingTasks} />}
          leftIcon={<AssignmentIndIcon />}
        />
      )}
      {SIDEBAR_VIEW_ORDER.map(viewItem)}
      <OnboardSapEntries
        blockedUsers={(counts as Record<string, number | undefined> | undefined)?.['blockedUsers']}
        blockedSx={active === 'blocked' ? activeSx : inactiveSx}
      />
      <Menu.Item
        to={`/${ADDITIONAL_DOCUMENTS_RESOURCE}`}
        primaryText={<Label text="Additional Documents" count={counts?.additionalDocumentsPending} />}
        leftIcon={<NoteAddIcon />}
      />
      {SIDEBAR_EXTRA_VIEWS.map(viewItem)}
      {mayManageUsers(permissions) && (
        <Menu.Item to="/users" primaryText="Users" leftIcon={<ManageAccountsIcon />} />
      )}
      {mayReadEventHistory(permissions) && (
        <Menu.Item to={`/${AUDIT_SEARCH_RESOURCE}`} primaryText="Audit search" leftIcon={<ManageSearchIcon />} />
      )}
      {mayManageAnnexures(permissions) && (
        <Menu.Item to="/annexures" primaryText="PO Annexures" leftIcon={<PolicyIcon />} />
      )}
      {mayManageReleases(permissions) && (
        <Menu.Item to="/releases" primaryText="Releases" leftIcon={<NewReleasesIcon />} />
      )}
      <SapMenu />
      <RfpMenu />
      <BillHubMenu />
      <MastersMenu />
      <HelpEntries />
    </Menu>
  );
};
