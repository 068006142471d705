import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { VendorCodeRow } from '../../../console/src/vendor-code/types';
import { useApi } from '../api/ApiContext';
import { paths } from '../identity/routing';
import { EDIT_PROFILE_PATH } from '../onboarding/ProfilePages';
import { BLOCKED_TEXT, BlockedBanner } from './BlockedBanner';

export const VENDOR_CODE_TEXTS = {
  blocked: BLOCKED_TEXT,
  returned: 'Your vendor-code request was sent back for correction',
  returnedHelp:
    'Please correct your details (View and Edit Profile) and let the MLL team know; they will request the vendor code again.',
  none: 'Your vendor code will appear here once the MLL team has created it in SAP.',
} as const;

const STATUS_TEXT: Record<VendorCodeRow['status'], string> = {
  'not-requested': 'Not requested yet',
  requested: 'Requested in SAP',
  'verification-pending': 'Created, being verified',
  verified: 'Verified',
  processed: 'Created',
  rejected: 'Sent back',
};

/**
 * The BA's vendor codes on its home page (issue 9): parent and child codes per company code from
 * GET /api/business-associates/:id/vendor-codes and — when staff sent a vendor-code request back
 * (`rejection.sendToBa`) — the reason and what to do. The page's layout shows the blocked banner when the BA's
 * record says blocked; this shows it when only the codes do (blocked since the record was loaded).
 */
export function VendorCodesSection({ baId, blocked = false, admin = false }: { baId: string; blocked?: boolean; admin?: boolean }) {
  const client = useApi();
  const [rows, setRows] = useState<VendorCodeRow[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    client
      .call<VendorCodeRow[]>(`/api/business-associates/${encodeURIComponent(baId)}/vendor-codes`)
      .then((answer) => live && setRows(Array.isArray(answer) ? answer : []))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [client, baId]);

  const blockedSinceLoaded = !blocked && (rows ?? []).some((r) => r.blocked);
  const returned = (rows ?? []).filter((r) => r.status === 'rejected' && r.rejection?.sendToBa);
  const withCodes = (rows ?? []).filter((r) => r.status !== 'not-requested' || r.parentCode);

  return (
    <Stack spacing={2} data-testid="vendor-codes">
      <BlockedBanner blocked={blockedSinceLoaded} />
      {returned.map((r) => (
        <Alert
          key={r.id}
          severity="warning"
          data-testid="returned-request"
          action={
            <Stack direction="row" spacing={1}>
              <Button component={RouterLink} to={paths.viewProfile} size="small" color="inherit">
                View Profile
              </Button>
              {admin && (
                <Button component={RouterLink} to={EDIT_PROFILE_PATH} size="small" color="inherit">
                  Edit Profile
                </Button>
              )}
            </Stack>
          }
        >
          <AlertTitle>
            {VENDOR_CODE_TEXTS.returned} (company code {r.companyCode})
          </AlertTitle>
          Reason: {r.rejection!.reason}
          {r.rejection!.remarks ? ` — ${r.rejection!.remarks}` : ''}
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {VENDOR_CODE_TEXTS.returnedHelp}
          </Typography>
        </Alert>
      ))}
      <Card>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            Vendor codes
          </Typography>
          {failed && <Typography color="text.secondary">Your vendor codes could not be loaded just now.</Typography>}
          {rows && withCodes.length === 0 && <Typography color="text.secondary">{VENDOR_CODE_TEXTS.none}</Typography>}
          {withCodes.length > 0 && (
            <Table size="small" aria-label="Vendor codes">
              <TableHead>
                <TableRow>
                  <TableCell>Company code</TableCell>
                  <TableCell>Vendor code</TableCell>
                  <TableCell>GST state codes</TableCell>
                  <TableCell>Status</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {withCodes.map((r) => (
                  <TableRow key={r.id}>
                    <TableCell>{r.companyCode}</TableCell>
                    <TableCell>{r.parentCode ?? '—'}</TableCell>
                    <TableCell>
                      {r.childCodes.filter((c) => c.childCode).length === 0
                        ? '—'
                        : r.childCodes
                            .filter((c) => c.childCode)
                            .map((c) => `${c.stateName ?? `State ${c.stateId}`}: ${c.childCode}`)
                            .join(', ')}
                    </TableCell>
                    <TableCell>
                      {r.blocked
                        ? 'Blocked'
                        : r.status === 'rejected' && !r.rejection?.sendToBa
                          ? 'With the MLL team'
                          : STATUS_TEXT[r.status]}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
