import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { useDataProvider } from 'react-admin';
import { ErrorDialog } from '../../../ui/src/ErrorDialog';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';
import type { ChainVerification } from './types';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-IN')} ${n === 1 ? one : many}`;

export const intactText = (r: ChainVerification) =>
  `Hash chain intact: ${count(r.checked, 'event', 'events')} and ${count(r.anchorsChecked, 'anchor', 'anchors')} checked`;

/** The first bad position of the history, and/or what is wrong with the anchor file itself. */
export function brokenText(r: ChainVerification): string {
  const lines: string[] = [];
  const b = r.broken;
  if (b) {
    const where = [b.eventId && `event ${b.eventId}`, b.streamId && `stream ${b.streamId}`].filter(Boolean).join(', ');
    lines.push(`The hash chain is broken at global position ${b.globalPosition}${where ? ` (${where})` : ''}.`);
    lines.push(`Reason: ${b.reason}`);
  }
  const a = r.anchorProblem;
  if (a) lines.push(`The anchor file does not verify${a.line === null ? '' : ` at line ${a.line}`}: ${a.reason}`);
  if (lines.length === 0) lines.push('The hash chain did not verify.');
  lines.push(`${count(r.checked, 'event', 'events')} and ${count(r.anchorsChecked, 'anchor', 'anchors')} were checked.`);
  return lines.join('\n');
}

/**
 * "Verify chain" (Auditor, MLL-ADMIN): the server re-hashes the whole chain and checks it against the signed
 * anchors kept outside the database, the same check as `npm run audit:verify`. An intact chain is reported in
 * a plain dialog; a broken one, or a failed request, in the error dialog with the first bad position.
 */
export const VerifyChainButton = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const verify = useMutation({ mutationFn: () => dataProvider.verifyChain(), onSettled: () => setOpen(true) });
  const close = () => setOpen(false);
  const result = verify.data;
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        startIcon={<VerifiedUserIcon />}
        disabled={verify.isPending}
        onClick={() => verify.mutate()}
      >
        {verify.isPending ? 'Verifying…' : 'Verify chain'}
      </Button>
      {verify.isError && <ErrorDialog open={open} title="Verification failed" message={errorText(verify.error)} onClose={close} />}
      {result && !result.ok && <ErrorDialog open={open} title="Hash chain broken" message={brokenText(result)} onClose={close} />}
      {result?.ok && (
        <Dialog open={open} onClose={close} aria-labelledby="verify-chain-title" maxWidth="sm" fullWidth>
          <DialogTitle id="verify-chain-title" sx={{ color: 'success.main' }}>
            Hash chain intact
          </DialogTitle>
          <DialogContent>
            <Typography data-testid="verify-result">{intactText(result)}</Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} variant="contained" autoFocus>
              Close
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
};
