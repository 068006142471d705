import { useState } from 'react';
import { Button } from '@mui/material';
import UnpublishedIcon from '@mui/icons-material/Unpublished';
import { Confirm, useNotify, useRefresh } from 'react-admin';
import type { AnnexureRow } from './types';
import { ANNEXURE_MESSAGES, useAnnexureCommand } from './useAnnexureCommand';

/**
 * Withdraws an annexure after a confirmation (POST /api/annexures/:id/withdraw): BAs no longer see it; its
 * events and file stay for the record. The spec's "File deleted successfully" follows.
 */
export const WithdrawAnnexureButton = ({ annexure }: { annexure: AnnexureRow }) => {
  const [open, setOpen] = useState(false);
  const { run, busy } = useAnnexureCommand();
  const notify = useNotify();
  const refresh = useRefresh();

  const confirm = async () => {
    const result = await run((dataProvider, idempotencyKey) =>
      dataProvider.withdrawAnnexure(annexure.id, { idempotencyKey }),
    );
    setOpen(false);
    if (!result?.data || !('id' in result.data)) return;
    notify(ANNEXURE_MESSAGES.withdrawn, { type: 'success' });
    refresh();
  };

  return (
    <>
      <Button size="small" color="error" startIcon={<UnpublishedIcon />} onClick={() => setOpen(true)}>
        Withdraw
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="Withdraw annexure"
        content={`BAs will no longer see “${annexure.title}” on their PO Annexures page.`}
        confirm="Withdraw"
        confirmColor="warning"
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
