import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditIcon from '@mui/icons-material/Edit';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import type { BaStatus, BusinessAssociate } from '../api/client';
import { display, formatDate, MISSING } from '../../../domain/src/shared/format';
import { useBa } from './BaContext';
import { ItemsProvider } from './ItemsContext';
import { RejectedItems } from './RejectedItems';

export const STATUS_PATH = '/onboard/status';

export const STATUS_LABELS: Record<BaStatus, string> = {
  pending: 'Pending',
  inprogress: 'In progress',
  verified: 'Verified',
  rejected: 'Rejected',
};

const STATUS_COLORS = {
  pending: 'default',
  inprogress: 'warning',
  verified: 'success',
  rejected: 'error',
} as const satisfies Record<BaStatus, string>;

/** The review stage in words (the console's sidebar calls them First and Second Stage Request). */
export const stageInWords = (stage: 1 | 2 | null): string =>
  stage === 1
    ? 'First stage review (stage 1 of 2)'
    : stage === 2
      ? 'Second stage review (stage 2 of 2)'
      : 'Awaiting review';

export const statusTexts = {
  pending: 'Complete every onboarding tab and submit them for verification.',
  inprogress: 'Your details are under verification',
  verifiedFallback: 'Your organisation has been verified.',
  rejected: 'Your application was rejected',
} as const;

export function StatusChip({ status }: { status: BaStatus }) {
  return <Chip label={STATUS_LABELS[status]} color={STATUS_COLORS[status]} data-testid="status-chip" />;
}

const STEPS = ['Company details', 'First stage review', 'Second stage review', 'Verified'] as const;

function activeStep(ba: BusinessAssociate): number {
  switch (ba.status) {
    case 'pending':
    case 'rejected':
      return 0;
    case 'inprogress':
      return ba.stage === 2 ? 2 : 1;
    case 'verified':
      return STEPS.length;
    default: {
      const never: never = ba.status;
      return never;
    }
  }
}

/** /onboard/status — spec 000 §4 "BA onboarding status": what the BA sees at each status. */
export function StatusPage() {
  const { ba } = useBa();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));

  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h5" component="h1">
          Onboarding status
        </Typography>
        <StatusChip status={ba.status} />
      </Stack>

      <StatusPanel ba={ba} />

      {ba.status !== 'rejected' && (
        <Card>
          <CardContent>
            <Stepper
              activeStep={activeStep(ba)}
              orientation={narrow ? 'vertical' : 'horizontal'}
              alternativeLabel={!narrow}
              aria-label="Onboarding progress"
            >
              {STEPS.map((label) => (
                <Step key={label}>
                  <StepLabel>{label}</StepLabel>
                </Step>
              ))}
            </Stepper>
          </CardContent>
        </Card>
      )}

      <Summary ba={ba} />
    </Stack>
  );
}

function Action({ to, children, icon }: { to: string; children: ReactNode; icon?: ReactNode }) {
  return (
    <Box sx={{ mt: 2 }}>
      <Button component={RouterLink} to={to} variant="contained" startIcon={icon}>
        {children}
      </Button>
    </Box>
  );
}

function StatusPanel({ ba }: { ba: BusinessAssociate }) {
  switch (ba.status) {
    case 'pending':
      return (
        <Alert severity="info" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
          <AlertTitle>{statusTexts.pending}</AlertTitle>
          {ba.details
            ? `A draft was last saved on ${formatDate(ba.updatedAt)}.`
            : 'Tell us about your company, its address and its contact person.'}
          <Action to="/onboard/ba-details/registration">Complete company details</Action>
        </Alert>
      );
    case 'inprogress':
      return (
        <Alert
          severity="warning"
          variant="outlined"
          icon={<HourglassTopIcon />}
          sx={{ bgcolor: 'background.paper' }}
        >
          <AlertTitle>{statusTexts.inprogress}</AlertTitle>
          <Typography>
            Current stage: <strong>{stageInWords(ba.stage)}</strong>
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Submitted on {formatDate(ba.submittedAt)}. We will let you know once the review is complete.
          </Typography>
          <Action to="/onboard/ba-details/view">View submitted details</Action>
        </Alert>
      );
    case 'verified':
      return (
        <Card sx={{ borderColor: 'success.main', borderWidth: 2, bgcolor: '#f3faf4' }}>
          <CardContent sx={{ textAlign: 'center', py: { xs: 3, sm: 5 } }}>
            <CheckCircleIcon color="success" sx={{ fontSize: 56 }} aria-hidden />
            <Typography
              variant="h5"
              component="p"
              data-testid="welcome-message"
              sx={{ mt: 1, fontWeight: 500, maxWidth: 720, mx: 'auto', whiteSpace: 'pre-wrap' }}
            >
              {ba.welcomeMessage ?? statusTexts.verifiedFallback}
            </Typography>
            <WhatComesNext />
            <Action to="/onboard/ba-details/view">View company details</Action>
          </CardContent>
        </Card>
      );
    case 'rejected':
      return (
        <Alert severity="error" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
          <AlertTitle>{statusTexts.rejected}</AlertTitle>
          <Typography variant="body2" color="text.secondary">
            Remarks from the reviewer:
          </Typography>
          <Typography data-testid="rejection-remarks" sx={{ whiteSpace: 'pre-wrap', fontWeight: 500 }}>
            {ba.remarks ?? 'No remarks were given.'}
          </Typography>
          {/* Per item: what staff rejected and why; approved items stay as they are. */}
          <ItemsProvider readOnly>
            <RejectedItems />
          </ItemsProvider>
          <Action to="/onboard/ba-details/edit" icon={<EditIcon />}>
            Edit and resubmit
          </Action>
        </Alert>
      );
    default: {
      const never: never = ba.status;
      return never;
    }
  }
}

/** Issue 8: the verified page says what comes next. */
export const NEXT_STEPS = [
  'We create your vendor code in our ERP; you will be notified when it is ready.',
  'You can then take part in RFPs and quote for the lanes and services you offer.',
  'Raise and track your invoices in Bill-Hub.',
  'Keep your documents current: upload renewals and other certificates under Additional Documents.',
] as const;

function WhatComesNext() {
  return (
    <Box sx={{ mt: 3, textAlign: 'left', maxWidth: 720, mx: 'auto' }} data-testid="next-steps">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        What comes next
      </Typography>
      <Box component="ol" sx={{ pl: 3, my: 1 }}>
        {NEXT_STEPS.map((step) => (
          <Typography component="li" key={step} sx={{ mb: 0.5 }}>
            {step}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

function Summary({ ba }: { ba: BusinessAssociate }) {
  const rows: [string, string][] = [
    ['Company Name', display(ba.companyName)],
    ['PAN Number', display(ba.panNumber)],
    ['Contact Person', display(ba.contactPersonName)],
    ['Mobile Number', display(ba.contactPersonMobileNumber)],
    ['City', ba.cityName ? `${ba.cityName}${ba.stateName ? `, ${ba.stateName}` : ''}` : MISSING],
    ['Service', display(ba.serviceName)],
    ['Submitted on', formatDate(ba.submittedAt)],
    ['Last updated', formatDate(ba.updatedAt)],
  ];
  return (
    <Card>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
          Summary
        </Typography>
        <Grid container spacing={2} component="dl" sx={{ m: 0 }}>
          {rows.map(([label, value]) => (
            <Grid key={label} size={{ xs: 6, md: 3 }}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
                {value}
              </Typography>
            </Grid>
          ))}
        </Grid>
      </CardContent>
    </Card>
  );
}
