import { forwardRef } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ListItemIcon, ListItemText, ListSubheader, MenuItem } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import EmailIcon from '@mui/icons-material/Email';
import { Logout, UserMenu, useUserMenu } from 'react-admin';
import { CHANGE_PASSWORD_PATH } from '../layout/SessionGate';
import { useHelp } from '../help/useHelp';


const ChangePasswordItem = forwardRef<HTMLAnchorElement>((props, ref) => {
  const { onClose } = useUserMenu() ?? {};
  return (
    <MenuItem ref={ref} {...props} component={RouterLink} to={CHANGE_PASSWORD_PATH} onClick={onClose}>
      <ListItemIcon>
        <LockResetIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>Change Password</ListItemText>
    </MenuItem>
  );
});
ChangePasswordItem.displayName = 'ChangePasswordItem';

/**
 * Spec 000 §2 "Help": the user manual (a link the server gives, opened in a new tab) and the support mailbox
 * (GET /api/help, configured by USER_MANUAL_URL and SUPPORT_EMAIL). Disabled until the answer is there.
 */
const HelpItems = () => {
  const { onClose } = useUserMenu() ?? {};
  const { data: help } = useHelp();
  return (
    <>
      <ListSubheader sx={{ lineHeight: '32px' }}>Help</ListSubheader>
      <MenuItem component="a" href={help?.userManualUrl} target="_blank" rel="noopener" onClick={onClose} disabled={!help}>
        <ListItemIcon>
          <MenuBookIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>User Manual</ListItemText>
      </MenuItem>
      <MenuItem component="a" href={help ? `mailto:${help.supportEmail}` : undefined} onClick={onClose} disabled={!help}>
        <ListItemIcon>
          <EmailIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary="Support" secondary={help?.supportEmail} />
      </MenuItem>
    </>
  );
};

/** The profile menu of spec 000 §2 "Header" as it applies to staff: Change Password, Help, Logout. */
export const ConsoleUserMenu = () => (
  <UserMenu>
    <ChangePasswordItem />
    <HelpItems />
    <Logout />
  </UserMenu>
);
