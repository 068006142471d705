import { useState, type ReactElement } from 'react';
import { Collapse, Divider, ListSubheader, MenuItem, ListItemIcon, ListItemText } from '@mui/material';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import CategoryIcon from '@mui/icons-material/Category';
import CollectionsIcon from '@mui/icons-material/Collections';
import DashboardIcon from '@mui/icons-material/Dashboard';
import EmailIcon from '@mui/icons-material/Email';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import GavelIcon from '@mui/icons-material/Gavel';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import LocationCityIcon from '@mui/icons-material/LocationCity';
import MapIcon from '@mui/icons-material/Map';
import PaymentsIcon from '@mui/icons-material/Payments';
import PercentIcon from '@mui/icons-material/Percent';
import PlaceIcon from '@mui/icons-material/Place';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { Menu, useLocation, usePermissions, useSidebarState } from 'react-admin';
import { mayUseMasters } from './access';
import { MASTERS_DASHBOARD_PATH, MORE_MASTERS, SIDEBAR_MASTERS, masterListPath, type SidebarEntry } from './paths';

const ICONS: Record<string, ReactElement> = {
  'bank-keys': <AccountBalanceIcon />,
  cities: <LocationCityIcon />,
  collections: <CollectionsIcon />,
  'email-templates': <EmailIcon />,
  locations: <PlaceIcon />,
  'payment-terms': <PaymentsIcon />,
  'section-codes': <GavelIcon />,
  services: <LocalShippingIcon />,
  states: <MapIcon />,
  'tax-types': <PercentIcon />,
  'vehicle-types': <LocalShippingIcon />,
  'vendor-recon-accounts': <ReceiptLongIcon />,
  'vendor-types': <CategoryIcon />,
};

const Entry = ({ entry }: { entry: SidebarEntry }) => (
  <Menu.Item
    to={masterListPath(entry.def)}
    primaryText={entry.label}
    leftIcon={ICONS[entry.def.resource] ?? <ListAltIcon />}
  />
);

/** Open by default when the page shown is one of the "More masters" (a reload keeps it in view). */
function useMoreOpen() {
  const { pathname } = useLocation();
  const onMore = MORE_MASTERS.some(({ def }) => pathname.startsWith(masterListPath(def)));
  return useState(onMore);
}

/**
 * The Masters section of the sidebar (spec 000 §2 "Sidebars": Dashboard, Bank, City, … Vendor Type), for
 * MLL-ADMIN and MDM; the masters the spec's sidebar does not name follow under a collapsible "More masters".
 */
export const MastersMenu = () => {
  const { permissions } = usePermissions<string[]>();
  const [sidebarOpen] = useSidebarState();
  const [moreOpen, setMoreOpen] = useMoreOpen();
  if (!mayUseMasters(permissions)) return null;
  return (
    <>
      <Divider sx={{ my: 1 }} />
      {sidebarOpen && (
        <ListSubheader component="div" disableSticky sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>
          Masters
        </ListSubheader>
      )}
      <Menu.Item to={MASTERS_DASHBOARD_PATH} primaryText="Dashboard" leftIcon={<DashboardIcon />} />
      {SIDEBAR_MASTERS.map((entry) => (
        <Entry key={entry.def.resource} entry={entry} />
      ))}
      <MenuItem
        onClick={() => setMoreOpen((open) => !open)}
        aria-expanded={moreOpen}
        aria-controls="more-masters"
        sx={{ color: 'text.secondary' }}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>{moreOpen ? <ExpandLessIcon /> : <ExpandMoreIcon />}</ListItemIcon>
        <ListItemText primary="More masters" slotProps={{ primary: { sx: { fontSize: '0.875rem' } } }} />
      </MenuItem>
      <Collapse in={moreOpen} timeout="auto" unmountOnExit id="more-masters">
        {MORE_MASTERS.map((entry) => (
          <Entry key={entry.def.resource} entry={entry} />
        ))}
      </Collapse>
    </>
  );
};
