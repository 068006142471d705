import { Divider, ListSubheader } from '@mui/material';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import DescriptionIcon from '@mui/icons-material/Description';
import { Menu, usePermissions, useSidebarState } from 'react-admin';
import { mayReadBillHub } from './access';
import { INVOICES_RESOURCE, MEMOS_RESOURCE } from './api';

/** The "Bill-Hub" section of the sidebar (invoices, memos), for every staff role and the Auditor. */
export const BillHubMenu = () => {
  const { permissions } = usePermissions<string[]>();
  const [sidebarOpen] = useSidebarState();
  if (!mayReadBillHub(permissions)) return null;
  return (
    <>
      <Divider sx={{ my: 1 }} />
      {sidebarOpen && (
        <ListSubheader component="div" disableSticky sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>
          Bill-Hub
        </ListSubheader>
      )}
      <Menu.Item to={`/${INVOICES_RESOURCE}`} primaryText="Invoices" leftIcon={<ReceiptLongIcon />} />
      <Menu.Item to={`/${MEMOS_RESOURCE}`} primaryText="Memos" leftIcon={<DescriptionIcon />} />
    </>
  );
};
