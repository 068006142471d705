import Alert from '@mui/material/Alert';

export const BLOCKED_TEXT =
  'Your vendor account is blocked. You cannot respond to RFPs or submit bills until it is unblocked. Please contact the MLL team.';

/**
 * "Your vendor account is blocked…" above every page of a blocked BA (issue 9), not only its home: a BA that opens
 * an RFP or Bill Hub from a link must learn why it cannot act there.
 */
export function BlockedBanner({ blocked }: { blocked: boolean }) {
  if (!blocked) return null;
  return (
    <Alert severity="error" data-testid="blocked-banner" sx={{ mb: 2 }}>
      {BLOCKED_TEXT}
    </Alert>
  );
}
