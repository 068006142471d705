import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import type { CompanyDetails } from '../../../domain/src/onboarding/details';
import { useApi } from '../api/ApiContext';
import {
  isApiError,
  messageOf,
  newIdempotencyKey,
  type BaStatus,
  type ServiceOption,
  type StateOption,
} from '../api/client';
import { useFeedback } from '../shared/feedback';
import { useBa } from './BaContext';
import { CompanyDetailsForm, type ActionResult, type DetailsFormMode } from './CompanyDetailsForm';
import { StatusChip, STATUS_PATH } from './StatusPage';

const MODES: readonly DetailsFormMode[] = ['registration', 'edit', 'view'];
/** Spec 000 §4: details may change before submission and after a rejection, never while under review. */
export const EDITABLE_STATUSES: readonly BaStatus[] = ['pending', 'rejected'];

export const detailsPath = (mode: DetailsFormMode) => `/onboard/ba-details/${mode}`;

export const successTexts = {
  saved: 'Company details saved successfully',
  submitted: 'Submitted for verification successfully',
} as const;

/** /onboard/ba-details/:action — the company-details step of the registration wizard (spec 000 §2, §4). */
export function CompanyDetailsPage() {
  const { action } = useParams();
  const client = useApi();
  const { ba, setBa } = useBa();
  const { showError, notify, withLoading } = useFeedback();
  const navigate = useNavigate();
  type Reference = { states: StateOption[]; services: ServiceOption[] };
  const [reference, setReference] = useState<Reference | null>(null);

  useEffect(() => {
    let live = true;
    withLoading(() => Promise.all([client.states(), client.services()]))
      .then(([states, services]) => live && setReference({ states, services }))
      .catch((e: unknown) => {
        if (live && !(isApiError(e) && e.status === 401)) showError(messageOf(e));
      });
    return () => {
      live = false;
    };
  }, [client, withLoading, showError]);

  const loadCities = useCallback((stateId: number) => client.cities(stateId), [client]);

  /** Field errors go back to the form; other failures open the error dialog. A 401 is the session's. */
  const failed = (e: unknown): ActionResult => {
    if (isApiError(e) && e.status === 401) return null;
    if (isApiError(e) && Object.keys(e.fieldErrors).length > 0) {
      notify(e.message, 'error');
      return e.fieldErrors;
    }
    showError(messageOf(e));
    return null;
  };

  const onSave = async (details: CompanyDetails): Promise<ActionResult> => {
    try {
      setBa(await withLoading(() => client.saveDetails(ba.id, details, newIdempotencyKey()), 'Saving'));
      notify(successTexts.saved);
      return null;
    } catch (e) {
      return failed(e);
    }
  };

  const onSubmit = async (details: CompanyDetails): Promise<ActionResult> => {
    // One key per request of this one user action: a retry of either step is the same step.
    const saveKey = newIdempotencyKey();
    const submitKey = newIdempotencyKey();
    try {
      const row = await withLoading(async () => {
        setBa(await client.saveDetails(ba.id, details, saveKey));
        return client.submit(ba.id, submitKey);
      }, 'Submitting');
      setBa(row);
      notify(successTexts.submitted);
      navigate(STATUS_PATH);
      return null;
    } catch (e) {
      return failed(e);
    }
  };

  if (!MODES.includes(action as DetailsFormMode)) return <Navigate to={STATUS_PATH} replace />;
  const requested = action as DetailsFormMode;
  const editable = EDITABLE_STATUSES.includes(ba.status);
  const mode: DetailsFormMode = editable ? requested : 'view';

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}
      >
        <Box>
          <Typography variant="h5" component="h1">
            Company details
          </Typography>
          <Typography color="text.secondary">
            {mode === 'view'
              ? 'The details you have given us.'
              : 'Fill in your company details, save them as you go, and submit them for verification.'}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
          <StatusChip status={ba.status} />
          {mode === 'view' && editable && (
            <Button
              component={RouterLink}
              to={detailsPath('edit')}
              startIcon={<EditIcon />}
              variant="contained"
            >
              Edit
            </Button>
          )}
          <Button component={RouterLink} to={STATUS_PATH} startIcon={<ArrowBackIcon />}>
            Status
          </Button>
        </Stack>
      </Stack>

      {ba.status === 'rejected' && mode !== 'view' && (
        <Alert severity="error">
          <AlertTitle>Your application was rejected</AlertTitle>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', fontWeight: 500 }}>
            {ba.remarks ?? 'No remarks were given.'}
          </Typography>
          <Typography variant="body2" sx={{ mt: 1 }}>
            Please correct your details and submit them again.
          </Typography>
        </Alert>
      )}
      {!editable && requested !== 'view' && (
        <Alert severity="info">
          Your details can&apos;t be changed now: they can be edited before submission or after a rejection.
        </Alert>
      )}

      {reference && (
        <CompanyDetailsForm
          // Switching between view and edit starts the form afresh from the stored details.
          key={`${ba.id}-${mode}`}
          initial={ba.details}
          mode={mode}
          states={reference.states}
          services={reference.services}
          loadCities={loadCities}
          onSave={onSave}
          onSubmit={onSubmit}
        />
      )}
    </Stack>
  );
}
