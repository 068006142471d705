import { Link as RouterLink, Navigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { display } from '../../../domain/src/shared/format';
import { isBaAdmin, paths } from '../identity/routing';
import { useUser } from '../identity/session';
import { useBa } from '../onboarding/BaContext';
import { StatusChip } from '../onboarding/StatusPage';
import { VendorCodesSection } from '../vendor-code/VendorCodesSection';

/**
 * '/home' — the verified BA's dashboard (spec 000 §2 "Post-login routing": "Verified BA: the dashboard").
 * Until the BA is verified, its place is the onboarding status.
 */
export function HomePage() {
  const user = useUser();
  const { ba } = useBa();
  if (ba.status !== 'verified') return <Navigate to={paths.status} replace />;
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
      <VendorCodesSection
        baId={String(ba.id)}
        blocked={ba.blocked === true}
        admin={admin}
      />
      <Grid container spacing={2}>
        <Shortcut
          title="Company details"
          text="The details we hold for your organisation."
          to={paths.viewProfile}
        />
        {admin && (
          <Shortcut title="Users" text="Add colleagues and manage their access." to={paths.baUsers} />
        )}
        {admin && (
          <Shortcut
            title="GST-State BA for Billhub"
            text="Bill-Hub users per GST state."
            to={paths.billHubUsers}
          />
        )}
      </Grid>
    </Stack>
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
