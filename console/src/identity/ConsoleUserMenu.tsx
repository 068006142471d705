import { forwardRef } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ListItemIcon, ListItemText, ListSubheader, MenuItem } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import EmailIcon from '@mui/icons-material/Email';
import { Logout, UserMenu, useUserMenu } from 'react-admin';
import { CHANGE_PASSWORD_PATH } from '../layout/SessionGate';

/** Spec 000 §2 "Help": the user manual and a support mailbox (the same mailbox the portal names). */
export const SUPPORT_MAILBOX = 'support@ba-portal.local';
/**
 * The manual viewer and its server-side link come with document 2; until then the link opens the portal's
 * work-in-progress page, as the portal's own Help does.
 */
export const USER_MANUAL_URL = '/workInProgress';

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

const HelpItems = () => {
  const { onClose } = useUserMenu() ?? {};
  return (
    <>
      <ListSubheader sx={{ lineHeight: '32px' }}>Help</ListSubheader>
      <MenuItem component="a" href={USER_MANUAL_URL} target="_blank" rel="noopener" onClick={onClose}>
        <ListItemIcon>
          <MenuBookIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>User Manual</ListItemText>
      </MenuItem>
      <MenuItem component="a" href={`mailto:${SUPPORT_MAILBOX}`} onClick={onClose}>
        <ListItemIcon>
          <EmailIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary="Support" secondary={SUPPORT_MAILBOX} />
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
