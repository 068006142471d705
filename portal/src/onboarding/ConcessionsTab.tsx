import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { formatDate } from '../../../domain/src/shared/format';
import type {
  ConcessionInput,
  ConcessionRow,
  ExemptionReasonOption,
  SectionCodeOption,
  TaxTypeOption,
} from '../api/onboarding';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { useBa } from './BaContext';
import { useFileViewer } from './FileViewer';
import { useItems, useMaster } from './ItemsContext';
import { ReviewStatusView, SelectInput, TabIntro, TextInput, useFailure, useFormValues } from './itemFields';
import { concessionAccept, CONCESSION_FILE_KIND, fileProblem, validateConcession } from './itemValidation';

/** Spec 000 §8 success messages. */
export const concessionTexts = {
  saved: 'Concession details saved successfully',
  updated: 'Concession details updated successfully',
  deleted: 'Concession deleted successfully',
} as const;

const FIELDS = [
  'exemptionNumber',
  'exemptionRate',
  'exemptionFrom',
  'exemptionTo',
  'exemptionReasonId',
  'exemptionThreshold',
  'withHoldingTaxType',
  'withHoldingTaxCode',
  'sectionCode',
] as const;
type Field = (typeof FIELDS)[number];

export const CONCESSION_LABELS: Record<Field, string> = {
  exemptionNumber: 'Exemption Number',
  exemptionRate: 'Exemption Rate (%)',
  exemptionFrom: 'Exemption From',
  exemptionTo: 'Exemption To',
  exemptionReasonId: 'Exemption Reason',
  exemptionThreshold: 'Exemption Threshold (INR)',
  withHoldingTaxType: 'Withholding Tax Type',
  withHoldingTaxCode: 'Withholding Tax Code',
  sectionCode: 'Section Code',
};

const toValues = (row: ConcessionRow | null): Record<Field, string> =>
  Object.fromEntries(FIELDS.map((f) => [f, row ? String(row[f] ?? '') : ''])) as Record<Field, string>;

/**
 * Concessions tab (spec 000 §3 "Concession / exemption"): lower-deduction certificates with their period,
 * rate, reason and withholding tax. A BA may add them while onboarding and once verified.
 */
export function ConcessionsTab() {
  const { ba } = useBa();
  const { lists, reload, api, editable, readOnly } = useItems();
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const { view, viewer } = useFileViewer();
  const reasons = useMaster('exemptionReasons');
  const taxTypes = useMaster('taxTypes');
  const sections = useMaster('sectionCodes');
  const [editing, setEditing] = useState<ConcessionRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ConcessionRow | null>(null);
  const rows = lists.concessions;
  if (!rows) return null;
  // Concessions may also be added after verification (contract: BA while pending/rejected or verified).
  // Verified: from Edit Profile; View Profile stays read-only.
  const mayEdit = editable || (ba.status === 'verified' && !readOnly);
  const canChange = (row: ConcessionRow) => mayEdit && row.reviewStatus !== 'approved';

  const remove = async (row: ConcessionRow) => {
    setDeleting(null);
    try {
      await withLoading(() => api.deleteConcession(row.id), 'Deleting');
      notify(concessionTexts.deleted);
      await reload('concessions');
    } catch (e) {
      failed(e);
    }
  };

  return (
    <Stack spacing={2}>
      <TabIntro>Add a lower or nil deduction certificate if you hold one. This tab is optional.</TabIntro>
      {mayEdit && (
        <Box>
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="add-concession">
            Add concession
          </Button>
        </Box>
      )}
      {rows.length === 0 ? (
        <Typography color="text.secondary">No concessions.</Typography>
      ) : (
        <Table size="small" aria-label="Concessions">
          <TableHead>
            <TableRow>
              <TableCell>Exemption Number</TableCell>
              <TableCell>Rate</TableCell>
              <TableCell>Period</TableCell>
              <TableCell>Reason</TableCell>
              <TableCell>Withholding Tax</TableCell>
              <TableCell>Review</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} data-testid={`concession-${row.exemptionNumber}`}>
                <TableCell>{row.exemptionNumber}</TableCell>
                <TableCell>{row.exemptionRate}%</TableCell>
                <TableCell>
                  {formatDate(row.exemptionFrom)} to {formatDate(row.exemptionTo)}
                </TableCell>
                <TableCell>{row.exemptionReason ?? row.exemptionReasonId}</TableCell>
                <TableCell>
                  {row.withHoldingTaxType} / {row.withHoldingTaxCode} ({row.sectionCode})
                </TableCell>
                <TableCell>
                  <ReviewStatusView status={row.reviewStatus} remarks={row.reviewRemarks} />
                </TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    <Button
                      size="small"
                      aria-label={`View certificate ${row.exemptionNumber}`}
                      onClick={() => void view(`Certificate ${row.exemptionNumber}`, row.fileName, () => api.concessionFile(row.id))}
                    >
                      View
                    </Button>
                    {canChange(row) && (
                      <>
                        <Button size="small" aria-label={`Edit concession ${row.exemptionNumber}`} onClick={() => setEditing(row)}>
                          Edit
                        </Button>
                        <Button
                          size="small"
                          color="error"
                          aria-label={`Delete concession ${row.exemptionNumber}`}
                          onClick={() => setDeleting(row)}
                        >
                          Delete
                        </Button>
                      </>
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editing !== null && reasons && taxTypes && sections && (
        <ConcessionDialog
          row={editing === 'new' ? null : editing}
          reasons={reasons}
          taxTypes={taxTypes}
          sections={sections}
          onClose={() => setEditing(null)}
          onSaved={async (message) => {
            setEditing(null);
            notify(message);
            await reload('concessions');
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this concession?"
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        {deleting ? `Concession ${deleting.exemptionNumber} will be removed.` : ''}
      </ConfirmDialog>
      {viewer}
    </Stack>
  );
}

function ConcessionDialog({
  row,
  reasons,
  taxTypes,
  sections,
  onClose,
  onSaved,
}: {
  row: ConcessionRow | null;
  reasons: ExemptionReasonOption[];
  taxTypes: TaxTypeOption[];
  sections: SectionCodeOption[];
  onClose: () => void;
  onSaved: (message: string) => Promise<void>;
}) {
  const { api } = useItems();
  const { withLoading } = useFeedback();
  const failed = useFailure();
  const { values, errors, setErrors, set } = useFormValues<Field>(toValues(row));
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const checked = validateConcession(values, file, row === null);
    if (!checked.ok) return setErrors(checked.errors);
    const input: ConcessionInput = checked.data;
    setBusy(true);
    try {
      const saved = await withLoading(
        () => (row ? api.updateConcession(row.id, file, input) : file ? api.addConcession(file, input) : Promise.reject(new Error('No file'))),
        'Saving',
      );
      await onSaved(saved.message ?? (row ? concessionTexts.updated : concessionTexts.saved));
    } catch (e) {
      failed(e, setErrors);
    } finally {
      setBusy(false);
    }
  };

  const text = (name: Field, extra: { type?: string; hint?: string } = {}) => (
    <Grid size={{ xs: 12, sm: 6 }}>
      <TextInput
        idPrefix="concession"
        name={name}
        label={CONCESSION_LABELS[name]}
        required
        value={values[name]}
        onChange={(v) => set(name, v)}
        error={errors[name]}
        hint={extra.hint}
        type={extra.type}
        disabled={busy}
        slotProps={extra.type === 'date' ? { inputLabel: { shrink: true } } : {}}
      />
    </Grid>
  );
  const select = (name: Field, options: { value: string; label: string }[], placeholder: string, onChange?: (v: string) => void) => (
    <Grid size={{ xs: 12, sm: 6 }}>
      <SelectInput
        idPrefix="concession"
        name={name}
        label={CONCESSION_LABELS[name]}
        required
        value={values[name]}
        onChange={onChange ?? ((v) => set(name, v))}
        error={errors[name]}
        disabled={busy}
        placeholder={placeholder}
        options={options}
      />
    </Grid>
  );
  const types = [...new Set(taxTypes.map((t) => t.taxType))];
  const codes = taxTypes.filter((t) => t.taxType === values.withHoldingTaxType);

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth aria-labelledby="concession-title">
      <DialogTitle id="concession-title">{row ? 'Edit concession' : 'Add concession'}</DialogTitle>
      <Box component="form" noValidate aria-label="Concession" onSubmit={(e) => void submit(e)}>
        <DialogContent>
          <Grid container spacing={2}>
            {text('exemptionNumber')}
            {text('exemptionRate', { hint: '0 to 100, up to 2 decimals' })}
            {text('exemptionFrom', { type: 'date' })}
            {text('exemptionTo', { type: 'date' })}
            {select(
              'exemptionReasonId',
              reasons.map((r) => ({ value: String(r.id), label: `${r.reasonCode} — ${r.description}` })),
              'Select reason',
            )}
            {text('exemptionThreshold', { hint: 'Amount in INR, up to 2 decimals' })}
            {select(
              'withHoldingTaxType',
              types.map((t) => ({ value: t, label: t })),
              'Select tax type',
              (v) => {
                set('withHoldingTaxType', v);
                set('withHoldingTaxCode', '');
              },
            )}
            {select(
              'withHoldingTaxCode',
              codes.map((t) => ({ value: t.taxCode, label: `${t.taxCode} — ${t.taxName} (${t.taxRate}%)` })),
              'Select tax code',
              (v) => {
                set('withHoldingTaxCode', v);
                const section = codes.find((t) => t.taxCode === v)?.sectionCode;
                if (section && values.sectionCode === '') set('sectionCode', section);
              },
            )}
            {select(
              'sectionCode',
              sections.map((s) => ({ value: s.sectionCode, label: `${s.sectionCode} — ${s.description}` })),
              'Select section code',
            )}
            <Grid size={{ xs: 12, sm: 6 }}>
              <Typography component="label" htmlFor="concession-file" variant="body2" sx={{ display: 'block', mb: 0.5 }}>
                Certificate{row ? ' (leave empty to keep the current one)' : ' *'}
              </Typography>
              <input
                id="concession-file"
                name="file"
                type="file"
                accept={concessionAccept}
                data-testid="concession-file"
                aria-invalid={Boolean(errors['file'])}
                aria-describedby="concession-file-help"
                disabled={busy}
                onChange={(e) => {
                  const chosen = e.target.files?.[0] ?? null;
                  setFile(chosen);
                  setErrors((old) => ({ ...old, file: chosen ? (fileProblem(chosen, CONCESSION_FILE_KIND) ?? undefined) : undefined }));
                }}
              />
              <FormHelperText id="concession-file-help" error={Boolean(errors['file'])}>
                {errors['file'] ?? 'Image (jpg, jpeg, png, gif) or PDF'}
              </FormHelperText>
            </Grid>
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy} data-testid="save-concession">
            Save concession
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
