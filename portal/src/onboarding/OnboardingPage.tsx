import { useState, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { COMPANY_DETAIL_FIELDS } from '../../../domain/src/onboarding/details';
import { isApiError, messageOf } from '../api/client';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { useBa } from './BaContext';
import { BankDetailsTab } from './BankDetailsTab';
import { CompanyDetailsTab, successTexts } from './CompanyDetailsPage';
import type { FieldErrors } from './CompanyDetailsForm';
import { ConcessionsTab } from './ConcessionsTab';
import { DocumentsTab } from './DocumentsTab';
import { GstTab } from './GstTab';
import { ItemsProvider, useItems } from './ItemsContext';
import { RejectedItems } from './RejectedItems';
import { StatusChip, STATUS_PATH } from './StatusPage';
import { isTabKey, TAB_LABELS, TABS, type PageMode, type TabKey } from './tabs';
import { VerticalMappingTab } from './VerticalMappingTab';

const MODES: readonly PageMode[] = ['registration', 'edit', 'view'];

export const submitTexts = {
  confirmTitle: 'Submit for verification?',
  confirmText:
    'Your company details, bank accounts, places of business, documents, concessions and vertical mapping go to review. You cannot change them until the review is complete.',
  refused: 'Please complete every tab before submitting',
} as const;

/** A refused submission (422): a sentence per tab, and company-detail field errors to show on the fields. */
type SubmitProblems = { message: string; byTab: Partial<Record<TabKey, string>>; companyFields: FieldErrors };

const COMPANY_LABELS: Partial<Record<string, string>> = {
  companyName: 'Company Name',
  panNumber: 'PAN Number',
  contactPersonName: 'Contact Person Name',
  serviceId: 'Service',
  stateId: 'State',
  cityId: 'City',
  addressLine1: 'Address Line 1',
  pinCode: 'Pincode',
  contactPersonMobileNumber: 'Contact Person Mobile Number',
};

/** The API keys its 422 `errors` by tab; a company-detail field key (the older form) counts for that tab. */
export function problemsOf(message: string, errors: Record<string, string>): SubmitProblems {
  const byTab: Partial<Record<TabKey, string>> = {};
  const companyFields: FieldErrors = {};
  const fieldNames = COMPANY_DETAIL_FIELDS as readonly string[];
  for (const [key, text] of Object.entries(errors)) {
    if (isTabKey(key)) byTab[key] = text;
    else if (fieldNames.includes(key)) companyFields[key] = text;
  }
  const fieldLines = Object.entries(companyFields).map(([f, text]) => `${COMPANY_LABELS[f] ?? f}: ${text}`);
  if (fieldLines.length > 0)
    byTab.companyDetails = [byTab.companyDetails, ...fieldLines].filter(Boolean).join('; ');
  return { message, byTab, companyFields };
}

/**
 * /onboard/ba-details/:action — the BA's onboarding as tabs in the spec's order (spec 000 §2, §3 "BA onboarding
 * state"); each tab saves on its own, then one Submit (with a confirmation) sends the whole application.
 * `view` (and any status that allows no change) shows every tab read-only: the verified BA's View Profile.
 */
export function OnboardingPage() {
  const { action } = useParams();
  const { ba } = useBa();
  if (!MODES.includes(action as PageMode)) return <Navigate to={STATUS_PATH} replace />;
  return (
    <ItemsProvider key={`${ba.id}-${action}`} readOnly={action === 'view'}>
      <OnboardingTabs mode={action as PageMode} />
    </ItemsProvider>
  );
}

function OnboardingTabs({ mode }: { mode: PageMode }) {
  const { ba, setBa } = useBa();
  const { api, editable, reload } = useItems();
  const { notify, withLoading, showError } = useFeedback();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabKey = isTabKey(requested) ? requested : 'companyDetails';
  const [confirming, setConfirming] = useState(false);
  const [problems, setProblems] = useState<SubmitProblems | null>(null);

  const show = (key: TabKey) => setParams(key === 'companyDetails' ? {} : { tab: key }, { replace: true });

  const submit = async () => {
    setConfirming(false);
    try {
      const row = await withLoading(() => api.submit(), 'Submitting');
      setBa(row);
      setProblems(null);
      notify(successTexts.submitted);
      navigate(STATUS_PATH);
    } catch (e) {
      if (isApiError(e) && e.status === 401) return;
      if (isApiError(e) && Object.keys(e.fieldErrors).length > 0) {
        const found = problemsOf(e.message, e.fieldErrors);
        setProblems(found);
        notify(e.message, 'error');
        // The first tab with a problem, so the BA starts where the gaps begin.
        const first = TABS.find((t) => found.byTab[t]);
        if (first) show(first);
        // Another reviewer or a timer may have changed an item: show the lists as they are now.
        void reload();
        return;
      }
      showError(messageOf(e));
    }
  };

  const panel = (key: TabKey): ReactNode => {
    switch (key) {
      case 'companyDetails':
        return <CompanyDetailsTab readOnly={!editable} externalErrors={problems?.companyFields ?? null} />;
      case 'bankDetails':
        return <BankDetailsTab />;
      case 'gstRegistrations':
        return <GstTab />;
      case 'documents':
        return <DocumentsTab />;
      case 'concessions':
        return <ConcessionsTab />;
      case 'verticalMapping':
        return <VerticalMappingTab />;
    }
  };

  const title = mode === 'view' && ba.status === 'verified' ? 'Company profile' : 'Onboarding';

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}
      >
        <Box>
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          <Typography color="text.secondary">
            {editable
              ? 'Fill in each tab and save it as you go; then submit everything for verification.'
              : 'The details you have given us.'}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
          <StatusChip status={ba.status} />
          {mode === 'view' && editable === false && ['pending', 'rejected'].includes(ba.status) && (
            <Button component={RouterLink} to="/onboard/ba-details/edit" variant="contained">
              Edit
            </Button>
          )}
          <Button component={RouterLink} to={STATUS_PATH} startIcon={<ArrowBackIcon />}>
            Status
          </Button>
        </Stack>
      </Stack>

      {ba.status === 'rejected' && editable && (
        <Alert severity="error" data-testid="rejection-summary">
          <AlertTitle>Your application was rejected</AlertTitle>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', fontWeight: 500 }}>
            {ba.remarks ?? 'No remarks were given.'}
          </Typography>
          <RejectedItems />
          <Typography variant="body2" sx={{ mt: 1 }}>
            Correct the rejected items and submit again. Approved items stay as they are.
          </Typography>
        </Alert>
      )}
      {!editable && mode !== 'view' && (
        <Alert severity="info">
          Your details can&apos;t be changed now: they can be edited before submission or after a rejection.
        </Alert>
      )}

      {problems && (
        <Alert severity="error" data-testid="submit-problems">
          <AlertTitle>{problems.message}</AlertTitle>
          <List dense disablePadding>
            {TABS.filter((t) => problems.byTab[t]).map((t) => (
              <ListItem key={t} disableGutters data-testid={`problem-${t}`}>
                <Typography variant="body2">
                  <Link component="button" type="button" onClick={() => show(t)} sx={{ fontWeight: 600, verticalAlign: 'baseline' }}>
                    {TAB_LABELS[t]}
                  </Link>
                  : {problems.byTab[t]}
                </Typography>
              </ListItem>
            ))}
          </List>
        </Alert>
      )}

      <Card>
        <Tabs
          value={tab}
          onChange={(_e, value: TabKey) => show(value)}
          variant="scrollable"
          scrollButtons="auto"
          aria-label="Onboarding sections"
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          {TABS.map((key) => {
            const flagged = Boolean(problems?.byTab[key]);
            return (
              <Tab
                key={key}
                value={key}
                id={`tab-${key}`}
                aria-controls={`panel-${key}`}
                data-testid={`tab-${key}`}
                data-missing={flagged ? 'true' : undefined}
                label={TAB_LABELS[key]}
                icon={flagged ? <ErrorIcon color="error" fontSize="small" aria-label="needs attention" /> : undefined}
                iconPosition="end"
              />
            );
          })}
        </Tabs>
        <CardContent role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {problems?.byTab[tab] && (
            <Alert severity="warning" sx={{ mb: 2 }} data-testid="tab-problem">
              {problems.byTab[tab]}
            </Alert>
          )}
          {panel(tab)}
        </CardContent>
      </Card>

      {editable && (
        <Stack
          direction={{ xs: 'column-reverse', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Typography variant="body2" color="text.secondary">
            Save each tab as you go. Submitting sends every tab for verification at once.
          </Typography>
          <Button variant="contained" size="large" onClick={() => setConfirming(true)} data-testid="submit-onboarding">
            Submit for verification
          </Button>
        </Stack>
      )}

      <ConfirmDialog
        open={confirming}
        title={submitTexts.confirmTitle}
        confirmLabel="Submit"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void submit()}
      >
        {submitTexts.confirmText}
      </ConfirmDialog>
    </Stack>
  );
}
