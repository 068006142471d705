import { Switch, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { formatDateTime } from '../../../domain/src/shared/format';
import { setBackhaul } from './api';
import type { InvitationRow } from './types';
import { useRfpCommand } from './useRfpCommand';

/**
 * The BAs the RFP was floated to, with their response so far and the backhaul toggle (spec 001 §2 "a backhaul
 * screen where each BA can be invited (toggle isInvited)"). The toggle is for the RFP staff roles while the
 * RFP's status allows it; `disabledReason` says why it is not.
 */
export const RfpInvitationsTab = ({
  code,
  invitations,
  disabledReason,
}: {
  code: string;
  invitations: InvitationRow[];
  disabledReason: string | null;
}) => {
  const toggle = useRfpCommand(({ baId, isInvited }: { baId: string; isInvited: boolean }, key) => setBackhaul(code, baId, isInvited, key));
  if (invitations.length === 0) return <Typography color="text.secondary">The RFP has not been floated to any BA yet.</Typography>;
  return (
    <Table size="small" aria-label="Invited BAs">
      <TableHead>
        <TableRow>
          <TableCell>BA</TableCell>
          <TableCell align="right">Round invited</TableCell>
          <TableCell>Invited at</TableCell>
          <TableCell align="right">Lanes quoted</TableCell>
          <TableCell>Backhaul invited</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {invitations.map((i) => {
          const name = i.companyName ?? i.baId;
          const control = (
            <Switch
              checked={i.backhaulInvited}
              disabled={disabledReason !== null || toggle.isPending}
              onChange={(e) => toggle.run({ baId: i.baId, isInvited: e.target.checked, success: rfpMessages.inviteSent })}
              slotProps={{ input: { 'aria-label': `Backhaul invite ${name}` } }}
            />
          );
          return (
            <TableRow key={i.baId}>
              <TableCell>{name}</TableCell>
              <TableCell align="right">{i.roundInvited}</TableCell>
              <TableCell>{formatDateTime(i.invitedAt)}</TableCell>
              <TableCell align="right">{i.lanesQuoted}</TableCell>
              <TableCell>
                {disabledReason ? (
                  <Tooltip title={disabledReason}>
                    <span>{control}</span>
                  </Tooltip>
                ) : (
                  control
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
};
