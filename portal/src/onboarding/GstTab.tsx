import { useEffect, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { display } from '../../../domain/src/shared/format';
import type { GstRegistration } from '../../../domain/src/onboarding/items';
import { useApi } from '../api/ApiContext';
import type { CityOption, StateOption } from '../api/client';
import type { GstRegistrationRow, GstTypeOption } from '../api/onboarding';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { useBa } from './BaContext';
import { useItems, useMaster } from './ItemsContext';
import {
  SelectInput,
  TabIntro,
  TextInput,
  useFailure,
  useFormValues,
  useLoaded,
} from './itemFields';
import { NOT_REGISTERED, validateGstRegistration } from './itemValidation';

export const gstTexts = {
  saved: 'Place of business saved successfully',
  deleted: 'Place of business deleted successfully',
} as const;

const GST_FIELDS = [
  'stateId',
  'gstType',
  'gstNo',
  'addressLine1',
  'addressLine2',
  'pinCode',
  'cityId',
  'bankAccountId',
  'vendorCategory',
] as const;
type GstField = (typeof GST_FIELDS)[number];
export type GstValues = Record<GstField, string>;

export const GST_LABELS: Record<GstField, string> = {
  stateId: 'State',
  gstType: 'GST Type',
  gstNo: 'GSTIN',
  addressLine1: 'Address Line 1',
  addressLine2: 'Address Line 2',
  pinCode: 'Pincode',
  cityId: 'City',
  bankAccountId: 'Bank Account',
  vendorCategory: 'Vendor Category',
};

/** The spec's "GST Registered" code is '' — the select keeps '' for "nothing chosen", so it goes by a name. */
const REGISTERED = 'registered';
const toSelect = (code: string | null | undefined) => (code === '' ? REGISTERED : (code ?? ''));
export const fromSelect = (value: string): GstRegistration['gstType'] =>
  (value === REGISTERED ? '' : value) as GstRegistration['gstType'];

const toValues = (row: GstRegistrationRow | null): GstValues => ({
  stateId: row ? String(row.stateId) : '',
  gstType: row ? toSelect(row.gstType) : '',
  gstNo: row?.gstNo ?? '',
  addressLine1: row?.addressLine1 ?? '',
  addressLine2: row?.addressLine2 ?? '',
  pinCode: row?.pinCode ?? '',
  cityId: row ? String(row.cityId) : '',
  bankAccountId: row?.bankAccountId ?? '',
  vendorCategory: row?.vendorCategory ?? '',
});

/** GST / Places of Business tab: one row per state (spec 000 §3 "GST / place-of-business row"). */
export function GstTab() {
  const client = useApi();
  const { lists, reload, api, editable, canChange } = useItems();
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const gstTypes = useMaster('gstTypes');
  const [states] = useLoaded(() => client.states(), 'states');
  const [editing, setEditing] = useState<GstRegistrationRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<GstRegistrationRow | null>(null);
  const rows = lists.gstRegistrations;
  if (!rows) return null;

  const typeLabel = (row: GstRegistrationRow) =>
    row.gstTypeLabel ?? gstTypes?.find((t) => t.code === row.gstType)?.name ?? row.gstType;

  const remove = async (row: GstRegistrationRow) => {
    setDeleting(null);
    try {
      await withLoading(() => api.deleteGstRegistration(row.id), 'Deleting');
      notify(gstTexts.deleted);
      await reload('gstRegistrations', 'documents');
    } catch (e) {
      failed(e);
    }
  };

  return (
    <Stack spacing={2}>
      <TabIntro>
        One row for each state you work from. A registered place of business needs its GSTIN, which starts with the
        state&apos;s code and contains your PAN.
      </TabIntro>
      {editable && (
        <Box>
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="add-gst-registration">
            Add place of business
          </Button>
        </Box>
      )}
      {rows.length === 0 ? (
        <Typography color="text.secondary">No places of business yet.</Typography>
      ) : (
        <Table size="small" aria-label="Places of business">
          <TableHead>
            <TableRow>
              <TableCell>State</TableCell>
              <TableCell>GST Type</TableCell>
              <TableCell>GSTIN</TableCell>
              <TableCell>Address</TableCell>
              <TableCell>Bank Account</TableCell>
              <TableCell>Vendor Category</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => {
              const account = lists.bankAccounts?.find((a) => a.id === row.bankAccountId);
              return (
                <TableRow key={row.id} data-testid={`gst-row-${row.stateId}`}>
                  <TableCell>{row.stateName ?? states?.find((s) => s.id === row.stateId)?.name ?? row.stateId}</TableCell>
                  <TableCell>{typeLabel(row)}</TableCell>
                  <TableCell>{display(row.gstNo)}</TableCell>
                  <TableCell>
                    {[row.addressLine1, row.addressLine2, row.cityName, row.pinCode].filter(Boolean).join(', ')}
                  </TableCell>
                  <TableCell>{account ? account.accountNo : 'Primary account'}</TableCell>
                  <TableCell>{display(row.vendorCategory)}</TableCell>
                  <TableCell align="right">
                    {/* A place of business is reviewed through its GST documents, not as a row of its own. */}
                    {canChange(null) && (
                      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                        <Button size="small" onClick={() => setEditing(row)} aria-label={`Edit place of business in ${row.stateName ?? row.stateId}`}>
                          Edit
                        </Button>
                        <Button
                          size="small"
                          color="error"
                          onClick={() => setDeleting(row)}
                          aria-label={`Delete place of business in ${row.stateName ?? row.stateId}`}
                        >
                          Delete
                        </Button>
                      </Stack>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}

      {editing !== null && states && gstTypes && (
        <GstDialog
          row={editing === 'new' ? null : editing}
          states={states}
          gstTypes={gstTypes}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            notify(gstTexts.saved);
            await reload('gstRegistrations', 'documents');
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this place of business?"
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        {deleting ? `The place of business in ${deleting.stateName ?? deleting.stateId} will be removed.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}

function GstDialog({
  row,
  states,
  gstTypes,
  onClose,
  onSaved,
}: {
  row: GstRegistrationRow | null;
  states: StateOption[];
  gstTypes: GstTypeOption[];
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const client = useApi();
  const { ba } = useBa();
  const { lists, api } = useItems();
  const { withLoading } = useFeedback();
  const failed = useFailure();
  const { values, errors, setErrors, set, setValues } = useFormValues<GstField>(toValues(row));
  const [cities, setCities] = useState<CityOption[]>([]);
  const [busy, setBusy] = useState(false);
  const stateId = values.stateId === '' ? null : Number(values.stateId);
  const notRegistered = fromSelect(values.gstType) === NOT_REGISTERED && values.gstType !== '';

  useEffect(() => {
    let live = true;
    if (stateId === null) return;
    client
      .cities(stateId)
      .then((rows) => live && setCities(rows))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client, stateId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const result = validateGstRegistration(values, {
      panNumber: ba.panNumber ?? ba.details?.panNumber ?? null,
      cities: cities.filter((c) => c.stateId === stateId),
    });
    if (!result.ok) return setErrors(result.errors);
    setBusy(true);
    try {
      await withLoading(
        () => (row ? api.updateGstRegistration(row.id, result.data) : api.addGstRegistration(result.data)),
        'Saving',
      );
      await onSaved();
    } catch (e) {
      failed(e, setErrors);
    } finally {
      setBusy(false);
    }
  };

  const text = (name: GstField, extra: { required?: boolean; hint?: string; upper?: boolean } = {}) => (
    <TextInput
      idPrefix="gst"
      name={name}
      label={GST_LABELS[name]}
      value={values[name]}
      onChange={(v) => set(name, extra.upper ? v.toUpperCase() : v)}
      error={errors[name]}
      required={extra.required ?? true}
      hint={extra.hint}
      disabled={busy}
    />
  );

  const accounts = (lists.bankAccounts ?? []).map((a) => ({
    value: a.id,
    label: `${a.accountNo} (${a.bankName})${a.primary ? ' — primary' : ''}`,
  }));

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="gst-dialog-title">
      <DialogTitle id="gst-dialog-title">{row ? 'Edit place of business' : 'Add place of business'}</DialogTitle>
      <Box component="form" noValidate aria-label="Place of business" onSubmit={(e) => void submit(e)}>
        <DialogContent>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <SelectInput
                idPrefix="gst"
                name="stateId"
                label={GST_LABELS.stateId}
                required
                value={values.stateId}
                onChange={(v) => {
                  setValues((old) => ({ ...old, stateId: v, cityId: '' }));
                  setErrors((e) => ({ ...e, stateId: undefined }));
                }}
                error={errors['stateId']}
                disabled={busy}
                placeholder="Select state"
                options={states.map((s) => ({ value: String(s.id), label: s.name }))}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <SelectInput
                idPrefix="gst"
                name="gstType"
                label={GST_LABELS.gstType}
                required
                value={values.gstType}
                onChange={(v) => {
                  set('gstType', v);
                  if (fromSelect(v) === NOT_REGISTERED && v !== '') set('gstNo', '');
                }}
                error={errors['gstType']}
                disabled={busy}
                placeholder="Select GST type"
                options={gstTypes.map((t) => ({ value: toSelect(t.code), label: t.name }))}
              />
            </Grid>
            {!notRegistered && (
              <Grid size={{ xs: 12, sm: 6 }}>
                {text('gstNo', { upper: true, hint: '15 characters, e.g. 27ABCDE1234F1Z5' })}
              </Grid>
            )}
            <Grid size={{ xs: 12, sm: 6 }}>
              <SelectInput
                idPrefix="gst"
                name="cityId"
                label={GST_LABELS.cityId}
                required
                value={values.cityId}
                onChange={(v) => set('cityId', v)}
                error={errors['cityId']}
                disabled={busy || stateId === null}
                hint={stateId === null ? 'Select a state first' : undefined}
                placeholder="Select city"
                options={cities.filter((c) => c.stateId === stateId).map((c) => ({ value: String(c.id), label: c.name }))}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('addressLine1')}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('addressLine2', { required: false })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('pinCode', { hint: '6 digits, in the chosen state' })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <SelectInput
                idPrefix="gst"
                name="bankAccountId"
                label={GST_LABELS.bankAccountId}
                value={values.bankAccountId}
                onChange={(v) => set('bankAccountId', v)}
                error={errors['bankAccountId']}
                disabled={busy}
                placeholder="Primary account"
                options={accounts.filter((a) => !lists.bankAccounts?.find((b) => b.id === a.value)?.primary)}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('vendorCategory', { required: false })}</Grid>
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy} data-testid="save-gstRegistration">
            Save place of business
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
