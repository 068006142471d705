import { useState } from 'react';
import { Box } from '@mui/material';
import { usePermissions } from 'react-admin';
import { mayDecideRfps } from './access';
import { AwardDialog } from './AwardDialog';
import { notNowReason } from './availability';
import { ReasonButton } from './ReasonButton';
import { RfpCommandDialog, type RfpCommandSpec } from './RfpCommandDialog';
import type { RfpStaffView } from './types';

export const CLOSE_BIDDING: RfpCommandSpec = {
  verb: 'close-bidding',
  title: 'Close bidding',
  text: 'Bidding ends now for every BA, before the due date. The responses can then be compared and awarded.',
  submitLabel: 'Close bidding',
  success: 'Bidding closed',
};
export const CLOSE_RFP: RfpCommandSpec = {
  verb: 'close',
  title: 'Close RFP',
  text: 'The RFP is closed. It can be reopened later for a new round.',
  submitLabel: 'Close RFP',
  success: 'RFP closed',
  field: { name: 'remarks', label: 'Remarks', kind: 'text', required: false },
  danger: true,
};
export const REOPEN_RFP: RfpCommandSpec = {
  verb: 'reopen',
  title: 'Reopen RFP',
  text: 'A new round starts: the invited BAs may quote again until the new due date (end of that day, India time).',
  submitLabel: 'Reopen',
  success: 'RFP reopened',
  field: { name: 'dueDate', label: 'New due date', kind: 'date', required: true },
};

type Open = 'close-bidding' | 'award' | 'close' | 'reopen' | null;

/**
 * The deciders' actions (MLL Procurement, MLL-ADMIN): Close bidding, Award, Close, Reopen. Others do not see
 * them; a decider sees each one disabled, with the reason, when the RFP's status does not allow it.
 */
export const RfpActions = ({ rfp }: { rfp: RfpStaffView }) => {
  const { permissions } = usePermissions<string[]>();
  const [open, setOpen] = useState<Open>(null);
  if (!mayDecideRfps(permissions)) return null;
  const close = () => setOpen(null);
  const code = rfp.rfpCode;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} role="group" aria-label="RFP actions">
      <ReasonButton variant="outlined" reason={notNowReason('CloseBidding', rfp.status)} onClick={() => setOpen('close-bidding')}>
        Close bidding
      </ReasonButton>
      <ReasonButton variant="contained" reason={notNowReason('AwardRfp', rfp.status)} onClick={() => setOpen('award')}>
        Award
      </ReasonButton>
      <ReasonButton variant="outlined" color="error" reason={notNowReason('CloseRfp', rfp.status)} onClick={() => setOpen('close')}>
        Close
      </ReasonButton>
      <ReasonButton variant="outlined" reason={notNowReason('ReopenRfp', rfp.status)} onClick={() => setOpen('reopen')}>
        Reopen
      </ReasonButton>
      <RfpCommandDialog code={code} spec={CLOSE_BIDDING} open={open === 'close-bidding'} onClose={close} />
      <AwardDialog code={code} open={open === 'award'} onClose={close} />
      <RfpCommandDialog code={code} spec={CLOSE_RFP} open={open === 'close'} onClose={close} />
      <RfpCommandDialog code={code} spec={REOPEN_RFP} open={open === 'reopen'} onClose={close} />
    </Box>
  );
};
