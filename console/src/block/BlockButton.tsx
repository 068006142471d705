import { useState } from 'react';
import { Button } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import { usePermissions } from 'react-admin';
import { mayRequestBlock } from '../vendor-code/access';
import { BlockDialog, type BlockTarget } from './BlockDialog';

/**
 * "Block / Unblock" on the BA's pages and the nucleus vendor's page, for the roles that may request it (issue 9
 * contract: MLL Accounts, Accounts_HEAD, Procurement, Legal, BA Engagement Manager, MLL-ADMIN). Nothing without a
 * vendor code to block (the API would answer 422 "No vendor code to block").
 */
export const BlockButton = ({ target }: { target: BlockTarget | null }) => {
  const { permissions } = usePermissions<string[]>();
  const [open, setOpen] = useState(false);
  if (!target || !mayRequestBlock(permissions) || target.companyCodes.length === 0) return null;
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color={target.blocked ? 'primary' : 'error'}
        startIcon={<BlockIcon />}
        onClick={() => setOpen(true)}
      >
        {target.blocked ? 'Unblock' : 'Block'}
      </Button>
      <BlockDialog open={open} onClose={() => setOpen(false)} target={target} />
    </>
  );
};
