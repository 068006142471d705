import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink, Navigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { INVOICE_STATUSES, INVOICE_STATUS_LABELS } from '../../../domain/src/invoices/events';
import { display, formatDate, formatDateTime } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { isApiError } from '../api/client';
import { isBaAdmin, paths } from '../identity/routing';
import { useUser } from '../identity/session';
import { useBa } from '../onboarding/BaContext';
import { StatusChip } from '../onboarding/StatusPage';
import { performanceApi, type HomeResponse } from '../performance/api';
import { PERFORMANCE_PATH } from '../performance/paths';
import { rfpBaViewPath } from '../rfp/paths';
import { VendorCodesSection } from '../vendor-code/VendorCodesSection';

/** The invoice statuses a BA sees on its home, in lifecycle order (a discarded draft is gone for it). */
const HOME_INVOICE_STATUSES = INVOICE_STATUSES.filter((status) => status !== 'discarded');

export const HOME_TEXTS = {
  noRfps: 'No RFPs are open for you to quote right now.',
  noInvoices: 'No invoices yet.',
  noDocuments: 'No documents expire within the next 30 days.',
  noNotifications: 'No notifications yet.',
  noActions: 'Nothing needs your attention.',
  failed: 'Your summary could not be loaded just now. Please refresh the page.',
} as const;

/**
 * '/home' — the verified BA's home (spec 000 §2 "Verified BA: the dashboard"; issue 11): its vendor codes per
 * company code, the RFPs open to quote, its invoices by status, documents about to expire, what needs doing and
 * the latest notifications, from GET /api/home. Until the BA is verified, its place is the onboarding status.
 */
export function HomePage() {
  const user = useUser();
  const { ba } = useBa();
  const client = useApi();
  const api = useMemo(() => performanceApi(client), [client]);
  const verified = ba.status === 'verified';
  const [home, setHome] = useState<HomeResponse | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!verified) return undefined;
    let live = true;
    api.home().then(
      (answer) => live && setHome(answer),
      (e: unknown) => live && !(isApiError(e) && e.status === 401) && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [api, verified]);

  if (!verified) return <Navigate to={paths.status} replace />;
  const admin = isBaAdmin(user);

  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h5" component="h1">
          Welcome, {user.name}
        </Typography>
        <StatusChip status={ba.status} />
      </Stack>
      <Card>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {display(ba.companyName)}
          </Typography>
          <Typography color="text.secondary" data-testid="home-status">
            Your organisation is verified. You can work with us on everything your access allows.
          </Typography>
        </CardContent>
      </Card>
      {/* A status, not an alert: the home still works without its summary, and the header's alerts stay the only ones. */}
      {failed && (
        <Alert severity="warning" role="status">
          {HOME_TEXTS.failed}
        </Alert>
      )}
      {home && <Summary home={home} />}
      <VendorCodesSection baId={String(ba.id)} blocked={ba.blocked === true} admin={admin} />
      <Grid container spacing={2}>
        <Shortcut title="Performance" text="Your RFPs, invoices and documents over time." to={PERFORMANCE_PATH} />
        <Shortcut title="Company details" text="The details we hold for your organisation." to={paths.viewProfile} />
        {admin && <Shortcut title="Users" text="Add colleagues and manage their access." to={paths.baUsers} />}
        {admin && <Shortcut title="GST-State BA for Billhub" text="Bill-Hub users per GST state." to={paths.billHubUsers} />}
      </Grid>
    </Stack>
  );
}

function Summary({ home }: { home: HomeResponse }) {
  const statuses = HOME_INVOICE_STATUSES.filter((s) => (home.invoicesByStatus[s] ?? 0) > 0);
  return (
    <>
      <Section title="Pending actions">
        {home.pendingActions.length === 0 ? (
          <Typography color="text.secondary">{HOME_TEXTS.noActions}</Typography>
        ) : (
          <List dense disablePadding>
            {home.pendingActions.map((a) => (
              <ListItem key={`${a.to}:${a.label}`} disableGutters>
                <Link component={RouterLink} to={a.to}>
                  {a.label}
                </Link>
              </ListItem>
            ))}
          </List>
        )}
      </Section>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="Open RFPs to quote">
            {home.openRfps.length === 0 ? (
              <Typography color="text.secondary">{HOME_TEXTS.noRfps}</Typography>
            ) : (
              <Table size="small" aria-label="Open RFPs">
                <TableHead>
                  <TableRow>
                    <TableCell>RFP ID</TableCell>
                    <TableCell>Customer</TableCell>
                    <TableCell>Due Date</TableCell>
                    <TableCell>Quoted</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {home.openRfps.map((r) => (
                    <TableRow key={r.rfpCode}>
                      <TableCell>
                        <Link component={RouterLink} to={rfpBaViewPath(r.rfpCode, r.rfpType)}>
                          {r.rfpCode}
                        </Link>
                      </TableCell>
                      <TableCell>{r.customerName}</TableCell>
                      <TableCell>{formatDate(r.dueAt ?? r.dueDate)}</TableCell>
                      <TableCell>{r.quoted ? 'Yes' : 'No'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="Invoices by status">
            {statuses.length === 0 ? (
              <Typography color="text.secondary">{HOME_TEXTS.noInvoices}</Typography>
            ) : (
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} aria-label="Invoices by status">
                {statuses.map((status) => (
                  <Chip
                    key={status}
                    component={RouterLink}
                    to={paths.billHub}
                    clickable
                    label={`${INVOICE_STATUS_LABELS[status]}: ${home.invoicesByStatus[status] ?? 0}`}
                  />
                ))}
              </Stack>
            )}
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="Documents about to expire">
            {home.expiringDocuments.length === 0 ? (
              <Typography color="text.secondary">{HOME_TEXTS.noDocuments}</Typography>
            ) : (
              <List dense disablePadding>
                {home.expiringDocuments.map((d) => (
                  <ListItem key={`${d.name}:${d.expiresOn}`} disableGutters>
                    <ListItemText primary={d.name} secondary={`Expires on ${formatDate(d.expiresOn)}`} />
                  </ListItem>
                ))}
                <ListItem disableGutters>
                  <Link component={RouterLink} to={paths.viewProfile}>
                    Open your documents
                  </Link>
                </ListItem>
              </List>
            )}
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="Latest notifications">
            {home.notifications.length === 0 ? (
              <Typography color="text.secondary">{HOME_TEXTS.noNotifications}</Typography>
            ) : (
              <List dense disablePadding>
                {home.notifications.map((n) => (
                  <ListItem key={n.id} disableGutters>
                    <ListItemText
                      primary={n.link ? <NotificationLink href={n.link}>{n.title}</NotificationLink> : n.title}
                      secondary={`${n.body} · ${formatDateTime(n.createdAt)}`}
                      slotProps={{ primary: { sx: { fontWeight: n.read ? 400 : 600 } } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Section>
        </Grid>
      </Grid>
    </>
  );
}

/** A notification's link: the portal's own pages in this window, anything else as a plain link. */
function NotificationLink({ href, children }: { href: string; children: ReactNode }) {
  return href.startsWith('/') ? (
    <Link component={RouterLink} to={href}>
      {children}
    </Link>
  ) : (
    <Link href={href}>{children}</Link>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function Shortcut({ title, text, to }: { title: string; text: string; to: string }) {
  return (
    <Grid size={{ xs: 12, sm: 6, md: 4 }}>
      <Card sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {text}
          </Typography>
          <Button component={RouterLink} to={to} variant="outlined" size="small">
            Open
          </Button>
        </CardContent>
      </Card>
    </Grid>
  );
}
