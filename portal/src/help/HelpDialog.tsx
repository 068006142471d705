import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useApi } from '../api/ApiContext';
import { messageOf } from '../api/client';
import { releasesApi, type HelpInfo } from '../releases/api';

export const helpTexts = {
  title: 'Help',
  userManual: 'User Manual',
  support: 'Support',
} as const;

/**
 * Help (spec 000 §2): the user manual, a link the server gives (USER_MANUAL_URL) opened in a new tab, and the
 * support mailbox (SUPPORT_EMAIL), both from GET /api/help when the dialog opens.
 */
export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useApi();
  const [help, setHelp] = useState<HelpInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open || help) return;
    let live = true;
    setError(null);
    void releasesApi(client)
      .help()
      .then(
        (h) => live && setHelp(h),
        (e: unknown) => live && setError(messageOf(e)),
      );
    return () => {
      live = false;
    };
  }, [open, help, client]);

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="help-title" maxWidth="xs" fullWidth>
      <DialogTitle id="help-title">{helpTexts.title}</DialogTitle>
      <DialogContent>
        {help ? (
          <Stack spacing={1.5}>
            <Link href={help.userManualUrl} target="_blank" rel="noopener" onClick={onClose}>
              {helpTexts.userManual}
            </Link>
            <Typography>
              {helpTexts.support}: <Link href={`mailto:${help.supportEmail}`}>{help.supportEmail}</Link>
            </Typography>
          </Stack>
        ) : error ? (
          <Typography role="alert" color="error">
            {error}
          </Typography>
        ) : (
          <CircularProgress size={24} aria-label="Loading" />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
