import { Divider, ListSubheader } from '@mui/material';
import DashboardIcon from '@mui/icons-material/Dashboard';
import { Menu, usePermissions, useSidebarState } from 'react-admin';
import { mayReadRfps } from './access';
import { RFP_DASHBOARD_PATH } from './paths';

/**
 * The RFP section of the sidebar (spec 001 §2 "The RFP sidebar shows Dashboard"), for the RFP staff roles and the
 * Auditor. Named "RFP Dashboard": the masters section has a "Dashboard" of its own, and a collapsed sidebar shows
 * only the entry's name.
 */
export const RfpMenu = () => {
  const { permissions } = usePermissions<string[]>();
  const [sidebarOpen] = useSidebarState();
  if (!mayReadRfps(permissions)) return null;
  return (
    <>
      <Divider sx={{ my: 1 }} />
      {sidebarOpen && (
        <ListSubheader component="div" disableSticky sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>
          RFP
        </ListSubheader>
      )}
      <Menu.Item to={RFP_DASHBOARD_PATH} primaryText="RFP Dashboard" leftIcon={<DashboardIcon />} />
    </>
  );
};
