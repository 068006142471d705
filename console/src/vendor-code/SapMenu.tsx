import { Box, Divider, ListSubheader } from '@mui/material';
import AllInboxIcon from '@mui/icons-material/AllInbox';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import VerifiedIcon from '@mui/icons-material/Verified';
import StorageIcon from '@mui/icons-material/Storage';
import BoltIcon from '@mui/icons-material/Bolt';
import BusinessIcon from '@mui/icons-material/Business';
import BlockIcon from '@mui/icons-material/Block';
import GppMaybeIcon from '@mui/icons-material/GppMaybe';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { ReactElement } from 'react';
import { Menu, usePermissions, useSidebarState } from 'react-admin';
import { CountBadge } from '../layout/CountBadge';
import { mayApproveBlock, mayCreateVendorCodes, mayMassUpload, mayReadSap, mayRequestBlock } from './access';
import type { SapTabType } from './labels';
import {
  BLOCKED_USERS_SEARCH,
  BLOCKS_PATH,
  CREATE_OTHER_COMPANY_PATH,
  CREATE_UTILITY_PATH,
  MASS_UPLOAD_PATH,
  ONBOARD_NUCLEUS_LIST_PATH,
  sapDashboardPath,
} from './paths';
import type { VendorCodeCounts } from './types';
import { useVendorCodeCounts } from './useVendorCodeCounts';

const Label = ({ text, count }: { text: string; count?: number }) => (
  <Box component="span" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', width: '100%' }}>
    <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', fontSize: '0.875rem' }}>
      {text}
    </Box>
    <CountBadge count={count} label={text} />
  </Box>
);

/** Spec 000 §2 "Sidebars" SAP: the entries in its order (the tab each opens, and its count). */
const SAP_ENTRIES: readonly { label: string; type: SapTabType; countKey: keyof VendorCodeCounts; icon: ReactElement }[] = [
  { label: 'All BA', type: 'all', countKey: 'all', icon: <AllInboxIcon /> },
  { label: 'Requested BA', type: 'requested', countKey: 'requested', icon: <PendingActionsIcon /> },
  { label: 'SAP Verification Pending', type: 'verification-pending', countKey: 'verificationPending', icon: <FactCheckIcon /> },
  { label: 'SAP Code Created', type: 'processed', countKey: 'processed', icon: <VerifiedIcon /> },
  { label: 'Nucleus Vendor Codes', type: 'nucleus-vendor', countKey: 'nucleusVendor', icon: <StorageIcon /> },
];

/**
 * The SAP section of the sidebar (spec 000 §2): All BA, Requested BA, SAP Verification Pending, SAP Code Created,
 * Nucleus Vendor Codes, then — MLL-ADMIN only — Create Utility/Government Vendor Code and Create Other Company
 * Vendor Code. After them, for who may use them, the two queues issue 9 adds: Block Requests and Mass Upload.
 */
export const SapMenu = () => {
  const { permissions } = usePermissions<string[]>();
  const [sidebarOpen] = useSidebarState();
  const reader = mayReadSap(permissions);
  const counts = useVendorCodeCounts(reader);
  if (!reader) return null;
  return (
    <>
      <Divider sx={{ my: 1 }} />
      {sidebarOpen && (
        <ListSubheader component="div" disableSticky sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>
          SAP
        </ListSubheader>
      )}
      {SAP_ENTRIES.map((e) => (
        <Menu.Item
          key={e.type}
          to={sapDashboardPath(e.type)}
          primaryText={<Label text={e.label} count={counts?.[e.countKey]} />}
          leftIcon={e.icon}
        />
      ))}
      {mayCreateVendorCodes(permissions) && (
        <>
          <Menu.Item to={CREATE_UTILITY_PATH} primaryText={<Label text="Create Utility/Government Vendor Code" />} leftIcon={<BoltIcon />} />
          <Menu.Item to={CREATE_OTHER_COMPANY_PATH} primaryText={<Label text="Create Other Company Vendor Code" />} leftIcon={<BusinessIcon />} />
        </>
      )}
      {(mayRequestBlock(permissions) || mayApproveBlock(permissions)) && (
        <Menu.Item to={BLOCKS_PATH} primaryText={<Label text="Block Requests" />} leftIcon={<GppMaybeIcon />} />
      )}
      {mayMassUpload(permissions) && <Menu.Item to={MASS_UPLOAD_PATH} primaryText={<Label text="Mass Upload" />} leftIcon={<UploadFileIcon />} />}
    </>
  );
};

/**
 * The Onboard sidebar's last two BA entries (spec 000 §2): Nucleus Vendor Codes (the nucleus list, counted by
 * GET /api/vendor-codes/counts) and Blocked Users (the BA list's "blocked" filter, counted by ba-counts
 * `blockedUsers`). `blockedUsers` and `sx` come from the Menu, which knows the BA counts and the active entry.
 */
export const OnboardSapEntries = ({ blockedUsers, blockedSx }: { blockedUsers: number | undefined; blockedSx?: object }) => {
  const { permissions } = usePermissions<string[]>();
  const reader = mayReadSap(permissions);
  const counts = useVendorCodeCounts(reader);
  if (!reader) return null;
  return (
    <>
      <Menu.Item
        to={ONBOARD_NUCLEUS_LIST_PATH}
        primaryText={<Label text="Nucleus Vendor Codes" count={counts?.nucleusVendor} />}
        leftIcon={<StorageIcon />}
      />
      <Menu.Item
        to={{ pathname: '/business-associates', search: BLOCKED_USERS_SEARCH }}
        primaryText={<Label text="Blocked Users" count={blockedUsers} />}
        leftIcon={<BlockIcon />}
        sx={blockedSx}
      />
    </>
  );
};
