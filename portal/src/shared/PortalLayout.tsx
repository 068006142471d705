import { useId, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import BadgeIcon from '@mui/icons-material/Badge';
import DomainAddIcon from '@mui/icons-material/DomainAdd';
import EditIcon from '@mui/icons-material/Edit';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import KeyIcon from '@mui/icons-material/Key';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import LogoutIcon from '@mui/icons-material/Logout';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { isBaRole } from '../../../domain/src/identity/roles';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf, type Me } from '../api/client';
import {
  ALL_COMPANIES,
  billHubOnly,
  hasApp,
  isBaAdmin,
  mustChangePassword,
  paths,
  showsCompanySelector,
} from '../identity/routing';
import { useSession, useUser } from '../identity/session';
import { PO_POLICY_PATH } from '../annexures/AnnexuresPage';
import { ADDITIONAL_DOCS_PATH } from '../onboarding/AdditionalDocumentsPage';
import { BaProvider, useOptionalBa } from '../onboarding/BaContext';
import { COMPANY_CODES_PATH, EDIT_PROFILE_PATH } from '../onboarding/ProfilePages';
import { RFP_BA_DASHBOARD_PATH } from '../rfp/paths';
import { PERFORMANCE_PATH } from '../performance/paths';
import { NotificationBell } from '../notifications/NotificationBell';
import { ComplaintsButton } from '../complaints/ComplaintsButton';
import { HelpDialog } from '../help/HelpDialog';
import { WhatsNew } from '../releases/WhatsNew';
import { BlockedBanner } from '../vendor-code/BlockedBanner';
import { useFeedback } from './feedback';


/** `newWindow`: opened in a new browser window (its session is restored there from the refresh cookie). */
type NavItem = { label: string; to: string; newWindow?: boolean };
type MenuEntry = { label: string; to?: string; icon: ReactNode; action?: 'help' | 'logout' };

/**
 * What the BA header offers (spec 000 §2 "Header"), from the user and the BA's status. The onboarding status
 * is read from the loaded BA record when there is one: it changes while the session's copy does not.
 */
export function headerFor(user: Me, baStatus: Me['baStatus']) {
  const verified = baStatus === 'verified';
  const admin = isBaAdmin(user);
  const restricted = mustChangePassword(user);
  const nav: NavItem[] = [];
  const menu: MenuEntry[] = [
    { label: 'Change Password', to: paths.changePassword, icon: <KeyIcon fontSize="small" /> },
  ];
  if (!restricted && billHubOnly(user)) nav.push({ label: 'Bill Hub', to: paths.billHub });
  else if (!restricted && user.roles.some(isBaRole)) {
    if (verified) nav.push({ label: 'Home', to: paths.home });
    // Spec 000 §2 "Header": Onboard (BA admin not yet verified) or Additional Documents.
    if (admin && !verified) nav.push({ label: 'Onboard', to: paths.status });
    else if (verified) nav.push({ label: 'Additional Documents', to: ADDITIONAL_DOCS_PATH });
    // Spec 001 §2: the verified BA's RFPs.
    if (verified) nav.push({ label: 'RFP', to: RFP_BA_DASHBOARD_PATH });
    if (verified) nav.push({ label: 'Performance', to: PERFORMANCE_PATH });
    // Spec 001 §2: "The header button opens Bill-Hub in a new window" (Bill-Hub-only users above stay in this one).
    if (hasApp(user, 'BillHub')) nav.push({ label: 'Bill Hub', to: paths.billHub, newWindow: true });
    // Spec 001 §6: PO Annexures appears in the header for BAs.
    nav.push({ label: 'PO Annexures', to: PO_POLICY_PATH });
    if (admin && verified) {
      menu.push({ label: 'View Profile', to: paths.viewProfile, icon: <BadgeIcon fontSize="small" /> });
      menu.push({ label: 'Edit Profile', to: EDIT_PROFILE_PATH, icon: <EditIcon fontSize="small" /> });
      menu.push({
        label: 'Apply for another company code',
        to: COMPANY_CODES_PATH,
        icon: <DomainAddIcon fontSize="small" />,
      });
      menu.push({ label: 'Add New User', to: paths.baUsers, icon: <GroupAddIcon fontSize="small" /> });
    }
    if (admin)
      menu.push({
        label: 'Add GST-State BA for Billhub',
        to: paths.billHubUsers,
        icon: <ReceiptLongIcon fontSize="small" />,
      });
  }
  menu.push({ label: 'Help', action: 'help', icon: <HelpOutlineIcon fontSize="small" /> });
  menu.push({ label: 'Logout', action: 'logout', icon: <LogoutIcon fontSize="small" /> });
  return { nav, menu, companySelector: !restricted && showsCompanySelector(user) };
}

/**
 * Everything a signed-in page sits in: the BA's record (for BA screens) and the header. A session that must
 * change its password, or a Bill-Hub-only user, has no BA screens to load a record for.
 */
export function PortalShell({ children }: { children: ReactNode }) {
  const user = useUser();
  const layout = <PortalLayout>{children}</PortalLayout>;
  const baScreens =
    user.baId !== null && user.roles.some(isBaRole) && !billHubOnly(user) && !mustChangePassword(user);
  return baScreens && user.baId ? <BaProvider baId={user.baId}>{layout}</BaProvider> : layout;
}

/** The BA header (spec 000 §2 "Header") over the page. */
export function PortalLayout({ children }: { children: ReactNode }) {
  const user = useUser();
  const ba = useOptionalBa();
  const companyName = ba?.companyName ?? ba?.details?.companyName ?? null;
  const { nav, menu, companySelector } = headerFor(user, ba?.status ?? user.baStatus);
  // Inside the Bill-Hub's own window its header entry stays there rather than opening yet another window.
  const inBillHub = useLocation().pathname.startsWith(paths.billHub);

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky" elevation={0}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 }, flexWrap: 'wrap', py: { xs: 1, md: 0 } }}>
          <LocalShippingIcon aria-hidden sx={{ display: { xs: 'none', sm: 'block' } }} />
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <Typography variant="caption" component="div" sx={{ opacity: 0.85, lineHeight: 1.2 }}>
              Business Partner Onboarding
            </Typography>
            <Typography
              variant="h6"
              component="div"
              noWrap
              data-testid="header-company-name"
              sx={{ lineHeight: 1.3, fontSize: { xs: '1rem', sm: '1.15rem' } }}
            >
              {companyName ?? (ba ? 'Your company' : 'BA Portal')}
            </Typography>
          </Box>
          {nav.length > 0 && (
            <Stack component="nav" aria-label="Main" direction="row" spacing={0.5}>
              {nav.map((item) => (
                <Button
                  key={item.to}
                  component={RouterLink}
                  to={item.to}
                  color="inherit"
                  {...(item.newWindow && !inBillHub ? { target: '_blank', rel: 'noopener' } : {})}
                >
                  {item.label}
                </Button>
              ))}
            </Stack>
          )}
          <Stack direction="row" spacing={0.5}>
            {!mustChangePassword(user) && <ComplaintsButton />}
            <WhatsNew />
          </Stack>
          {/* The notification routes refuse change-required sessions and Bill-Hub-only users: no bell for them. */}
          {!mustChangePassword(user) && !billHubOnly(user) && <NotificationBell />}
          {companySelector && <CompanySelector user={user} />}
          <ProfileMenu user={user} entries={menu} />
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ py: { xs: 2, sm: 4 }, flexGrow: 1 }}>
        <BlockedBanner blocked={ba?.blocked === true} />
        {children}
      </Container>
    </Box>
  );
}

/** Switches the active company code: the API answers with a new session narrowed to it. */
function CompanySelector({ user }: { user: Me }) {
  const client = useApi();
  const { replace } = useSession();
  const { showError, withLoading } = useFeedback();
  const id = useId();

  const onChange = async (companyCode: string) => {
    try {
      replace(await withLoading(() => client.setActiveCompany(companyCode)));
    } catch (e) {
      if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
    }
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography component="label" htmlFor={id} variant="body2">
        Company
      </Typography>
      <Box
        component="select"
        id={id}
        value={user.activeCompanyCode}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => void onChange(e.target.value)}
        sx={{ bgcolor: 'background.paper', color: 'text.primary', borderRadius: 1, px: 1, py: 0.5, border: 0 }}
      >
        <option value={ALL_COMPANIES}>All</option>
        {user.companyCodes.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </Box>
    </Box>
  );
}

function ProfileMenu({ user, entries }: { user: Me; entries: MenuEntry[] }) {
  const { logout } = useSession();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const menuId = useId();

  const choose = async (entry: MenuEntry) => {
    setAnchor(null);
    if (entry.action === 'help') setHelpOpen(true);
    else if (entry.action === 'logout') {
      await logout();
      navigate(paths.login, { replace: true });
    } else if (entry.to) navigate(entry.to);
  };

  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircleIcon />}
        data-testid="profile-menu"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ maxWidth: 220 }}
      >
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {user.name}
        </Box>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {entries.flatMap((entry) => [
          ...(entry.action === 'logout' ? [<Divider key="divider" />] : []),
          <MenuItem key={entry.label} onClick={() => void choose(entry)}>
            <ListItemIcon>{entry.icon}</ListItemIcon>
            {entry.label}
          </MenuItem>,
        ])}
      </Menu>
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </>
  );
}

