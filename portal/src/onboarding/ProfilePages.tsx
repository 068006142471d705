import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { CompanyDetails } from '../../../domain/src/onboarding/details';
import { display } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import type { BusinessAssociate } from '../api/client';
import { onboardingApi, onboardingMasters, type ChangeRequestRow, type CompanyCodeRow } from '../api/onboarding';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { useBa } from './BaContext';
import { BankAccountForm } from './BankAccountForm';
import { CompanyDetailsForm, type ActionResult } from './CompanyDetailsForm';
import { ConcessionsTab } from './ConcessionsTab';
import { ItemsProvider } from './ItemsContext';
import { SelectInput, useFailure, useLoaded, type Errors } from './itemFields';
import { StatusChip, stageInWords } from './StatusPage';

export const EDIT_PROFILE_PATH = '/onboard/profile/edit';
export const COMPANY_CODES_PATH = '/onboard/profile/company-codes';

export const profileTexts = {
  /** Spec 000 §8 success messages. */
  requested: 'Request sent successfully!',
  paymentsOnHold: 'Payments are on hold while your bank change is reviewed.',
  openRequest: 'A change of this section is already waiting for review.',
  notVerified: 'Your profile can be changed once your organisation has been verified.',
  applied: 'Applied for the company code successfully',
  nothingChanged: 'Nothing was changed',
} as const;

/** Only the fields that differ travel in a company change request, so the reviewer sees what changes. */
export function changedFields(before: CompanyDetails | null, after: CompanyDetails): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(after))
    if ((before as Record<string, unknown> | null)?.[field] !== value) out[field] = value;
  return out;
}

const OPEN: readonly ChangeRequestRow['status'][] = ['pending', 'first-approved'];
const REQUEST_STATUS: Record<ChangeRequestRow['status'], string> = {
  pending: 'Waiting for review',
  'first-approved': 'First approval given, waiting for the second',
  approved: 'Approved',
  rejected: 'Rejected',
};
const SECTION: Record<ChangeRequestRow['section'], string> = { company: 'Company details', bank: 'Bank account' };

/** A `paymentsOnHold` flag on the BA row, when the API sends one (issue 8 list rows gain it). */
const paymentsHeld = (ba: BusinessAssociate): boolean =>
  (ba as BusinessAssociate & { paymentsOnHold?: boolean }).paymentsOnHold === true;

/**
 * Edit Profile (spec 000 §2 profile menu, verified BA Admin): a change is a change request, reviewed by staff;
 * a bank change needs two approvers and holds payments until it is decided. Open requests are listed.
 */
export function EditProfilePage() {
  const client = useApi();
  const { ba } = useBa();
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const api = useMemo(() => onboardingApi(client, ba.id), [client, ba.id]);
  const masters = useMemo(() => onboardingMasters(client), [client]);
  const [requests, reloadRequests] = useLoaded(() => api.changeRequests(), `cr-${ba.id}`);
  const [accounts] = useLoaded(() => api.bankAccounts(), `accounts-${ba.id}`);
  const [reference] = useLoaded(() => Promise.all([client.states(), client.services()]), 'profile-reference');
  const loadCities = useCallback((stateId: number) => client.cities(stateId), [client]);
  const findBank = useCallback((code: string) => masters.bankByCode(code), [masters]);

  if (ba.status !== 'verified') return <Alert severity="info">{profileTexts.notVerified}</Alert>;
  const open = (section: ChangeRequestRow['section']) =>
    (requests ?? []).some((r) => r.section === section && OPEN.includes(r.status));
  const primary = accounts?.find((a) => a.primary) ?? null;
  const held = paymentsHeld(ba) || open('bank');

  const request = async (section: ChangeRequestRow['section'], proposed: Record<string, unknown>): Promise<Errors | null> => {
    try {
      await withLoading(() => api.requestChange(section, proposed), 'Sending');
      notify(profileTexts.requested);
      await reloadRequests();
      return null;
    } catch (e) {
      let errors: Errors = {};
      failed(e, (found) => (errors = found));
      return errors;
    }
  };

  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h5" component="h1">
          Edit Profile
        </Typography>
        <Button component={RouterLink} to="/onboard/ba-details/view">
          View Profile
        </Button>
      </Stack>
      <Typography color="text.secondary">
        Changes to a verified profile are reviewed before they apply. A bank account change needs two approvals.
      </Typography>
      {held && (
        <Alert severity="warning" data-testid="payments-on-hold">
          {profileTexts.paymentsOnHold}
        </Alert>
      )}
      {requests && requests.length > 0 && (
        <Card>
          <CardContent>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
              Your change requests
            </Typography>
            <Table size="small" aria-label="Change requests">
              <TableHead>
                <TableRow>
                  <TableCell>Section</TableCell>
                  <TableCell>Changes</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Remarks</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {requests.map((r) => (
                  <TableRow key={r.id} data-testid={`change-request-${r.section}`}>
                    <TableCell>{SECTION[r.section]}</TableCell>
                    <TableCell>{Object.keys(r.changes ?? r.proposed).join(', ')}</TableCell>
                    <TableCell>
                      <Chip size="small" label={REQUEST_STATUS[r.status]} color={r.status === 'rejected' ? 'error' : r.status === 'approved' ? 'success' : 'warning'} />
                    </TableCell>
                    <TableCell>{display(r.remarks)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      )}
      <Card component="section" aria-label="Change company details">
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
            Company details
          </Typography>
          {open('company') ? (
            <Alert severity="info">{profileTexts.openRequest}</Alert>
          ) : (
            reference && (
              <CompanyDetailsForm
                initial={ba.details}
                mode="edit"
                states={reference[0]}
                services={reference[1]}
                loadCities={loadCities}
                saveLabel="Request change"
                footnote="Only the fields you change are sent for review; your profile changes once it is approved."
                onSave={async (details: CompanyDetails): Promise<ActionResult> => {
                  const changed = changedFields(ba.details, details);
                  if (Object.keys(changed).length === 0) {
                    notify(profileTexts.nothingChanged, 'info');
                    return null;
                  }
                  return request('company', changed);
                }}
              />
            )
          )}
        </CardContent>
      </Card>
      <Card component="section" aria-label="Concessions">
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
            Concessions
          </Typography>
          <ItemsProvider>
            <ConcessionsTab />
          </ItemsProvider>
        </CardContent>
      </Card>
      <Card component="section" aria-label="Change bank account">
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
            Bank account
          </Typography>
          {open('bank') ? (
            <Alert severity="info">{profileTexts.openRequest}</Alert>
          ) : (
            accounts && (
              <>
                <Alert severity="warning" sx={{ mb: 2 }}>
                  Payments are held from the moment you request a bank change until it is approved or rejected.
                </Alert>
                <BankAccountForm
                  idPrefix="change-bank"
                  label="Bank account change"
                  initial={primary}
                  saveLabel="Request bank change"
                  saveTestId="request-bank-change"
                  findBank={findBank}
                  onSave={(account) => request('bank', account as unknown as Record<string, unknown>)}
                />
              </>
            )
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}

/**
 * Other company codes (spec 000 §4 "onboarding status per company code"): the status of each code the BA
 * applied for, and applying for another, reusing the data already verified. A code applied for is then
 * submitted for its own review.
 */
export function CompanyCodesPage() {
  const client = useApi();
  const { ba } = useBa();
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const api = useMemo(() => onboardingApi(client, ba.id), [client, ba.id]);
  const [codes, reload] = useLoaded(() => api.companyCodes(), `codes-${ba.id}`);
  const [companies] = useLoaded(() => client.companies(), 'companies');
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState<CompanyCodeRow | null>(null);

  const nameOf = (code: string) => companies?.find((c) => c.companyCode === code)?.name ?? code;
  const available = (companies ?? []).filter((c) => !(codes ?? []).some((r) => r.companyCode === c.companyCode));

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen === '') return setError('Please select a company');
    try {
      await withLoading(() => api.applyForCompanyCode(chosen), 'Applying');
      notify(profileTexts.applied);
      setChosen('');
      await reload();
    } catch (e) {
      failed(e, (found) => setError(found['companyCode'] ?? Object.values(found)[0]));
    }
  };

  const submit = async (row: CompanyCodeRow) => {
    setSubmitting(null);
    try {
      await withLoading(() => api.submit(row.companyCode), 'Submitting');
      notify('Submitted for verification successfully');
      await reload();
    } catch (e) {
      failed(e);
    }
  };

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">
        Company codes
      </Typography>
      <Typography color="text.secondary">
        Your onboarding status for each company you work with. Apply for another company to work with it too; your
        verified details are reused and reviewed for that company.
      </Typography>
      <Card>
        <CardContent>
          {codes && (
            <Table size="small" aria-label="Company codes">
              <TableHead>
                <TableRow>
                  <TableCell>Company</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Stage</TableCell>
                  <TableCell>Remarks</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {codes.map((row) => (
                  <TableRow key={row.companyCode} data-testid={`company-code-${row.companyCode}`}>
                    <TableCell>
                      {nameOf(row.companyCode)} ({row.companyCode})
                    </TableCell>
                    <TableCell>
                      <StatusChip status={row.status} />
                    </TableCell>
                    <TableCell>{row.status === 'inprogress' ? stageInWords(row.stage) : 'NA'}</TableCell>
                    <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{display(row.remarks)}</TableCell>
                    <TableCell align="right">
                      {(row.status === 'pending' || row.status === 'rejected') && row.companyCode !== ba.companyCode && (
                        <Button size="small" variant="outlined" onClick={() => setSubmitting(row)} aria-label={`Submit for ${row.companyCode}`}>
                          Submit for verification
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      {ba.status === 'verified' && (
        <Card component="section" aria-label="Apply for another company code">
          <CardContent>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
              Apply for another company code
            </Typography>
            <Box component="form" noValidate aria-label="Apply for another company code" onSubmit={(e) => void apply(e)}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
                <Box sx={{ minWidth: 280 }}>
                  <SelectInput
                    idPrefix="apply"
                    name="companyCode"
                    label="Company"
                    required
                    value={chosen}
                    onChange={(v) => {
                      setChosen(v);
                      setError(undefined);
                    }}
                    error={error}
                    placeholder="Select company"
                    options={available.map((c) => ({ value: c.companyCode, label: `${c.name} (${c.companyCode})` }))}
                  />
                </Box>
                <Button type="submit" variant="contained" data-testid="apply-company-code" sx={{ mt: 1 }}>
                  Apply
                </Button>
              </Stack>
            </Box>
          </CardContent>
        </Card>
      )}
      <ConfirmDialog
        open={submitting !== null}
        title="Submit for verification?"
        confirmLabel="Submit"
        onCancel={() => setSubmitting(null)}
        onConfirm={() => submitting && void submit(submitting)}
      >
        {submitting ? `Your details go to review for ${nameOf(submitting.companyCode)}.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}
