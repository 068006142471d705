import { useState, type ChangeEvent } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useGetList, type Identifier } from 'react-admin';
import { acceptOf } from '../../../../domain/src/validation/files';
import { messages } from '../../../../domain/src/validation/fields';
import { useItemAction } from './useItemAction';

export const CONCESSION_SAVED = 'Concession details saved successfully';

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
type Values = Record<Field, string>;
const EMPTY: Values = Object.fromEntries(FIELDS.map((f) => [f, ''])) as Values;

const LABELS: Record<Field, string> = {
  exemptionNumber: 'Exemption number',
  exemptionRate: 'Exemption rate (%)',
  exemptionFrom: 'Valid from',
  exemptionTo: 'Valid to',
  exemptionReasonId: 'Exemption reason',
  exemptionThreshold: 'Threshold amount',
  withHoldingTaxType: 'Withholding tax type',
  withHoldingTaxCode: 'Withholding tax code',
  sectionCode: 'Section code',
};

type TaxType = { id: number; taxType: string; taxCode: string; taxName: string; sectionCode: string };

/**
 * Staff upload a concession (lower-deduction certificate) on the BA's behalf (spec 000 §6): the concession
 * fields and the certificate file, sent as multipart to POST …/concessions. The API validates everything
 * (and answers which fields are wrong); here only what is missing is caught before sending.
 */
export const ConcessionUploadDialog = ({
  baId,
  open,
  onClose,
}: {
  baId: Identifier;
  open: boolean;
  onClose: () => void;
}) => {
  const [values, setValues] = useState<Values>(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const action = useItemAction(baId, onClose, { closeOnRefusal: false });
  const reasons = useGetList<{ id: number; reasonCode: string; description: string }>('exemption-reasons', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  }, { enabled: open });
  const taxTypes = useGetList<TaxType>('tax-types', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  }, { enabled: open });
  const sections = useGetList<{ id: number; sectionCode: string; description: string }>('section-codes', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  }, { enabled: open });

  const missing = (f: Field) => touched && values[f].trim() === '';
  const set = (f: Field) => (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [f]: e.target.value }));
  const field = (f: Field, extra: Record<string, unknown> = {}) => ({
    label: LABELS[f],
    value: values[f],
    onChange: set(f),
    required: true,
    error: missing(f),
    helperText: missing(f) ? messages.required : ' ',
    fullWidth: true,
    disabled: action.isPending,
    slotProps: { htmlInput: { 'data-testid': `concession-${f}` }, inputLabel: { shrink: true } },
    ...extra,
  });
  const taxTypeChoices = [...new Set((taxTypes.data ?? []).map((t) => t.taxType))];
  const taxCodeChoices = (taxTypes.data ?? []).filter((t) => t.taxType === values.withHoldingTaxType);

  const submit = () => {
    setTouched(true);
    if (FIELDS.some((f) => values[f].trim() === '') || !file || action.isPending) return;
    const form = new FormData();
    for (const f of FIELDS) form.append(f, values[f].trim());
    form.append('file', file);
    action.run({ path: 'concessions', form, success: CONCESSION_SAVED });
  };

  return (
    <Dialog
      open={open}
      onClose={action.isPending ? undefined : onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="concession-upload-title"
      slotProps={{
        transition: {
          onEnter: () => {
            setValues(EMPTY);
            setFile(null);
            setTouched(false);
            action.reset();
          },
        },
      }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <DialogTitle id="concession-upload-title">Upload concession on the BA's behalf</DialogTitle>
        <DialogContent>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1, pt: 1 }}>
            <TextField {...field('exemptionNumber')} />
            <TextField {...field('exemptionRate', { type: 'number' })} />
            <TextField {...field('exemptionFrom', { type: 'date' })} />
            <TextField {...field('exemptionTo', { type: 'date' })} />
            <TextField {...field('exemptionReasonId', { select: true })}>
              {(reasons.data ?? []).map((r) => (
                <MenuItem key={r.id} value={String(r.id)}>
                  {r.reasonCode} – {r.description}
                </MenuItem>
              ))}
            </TextField>
            <TextField {...field('exemptionThreshold', { type: 'number' })} />
            <TextField {...field('withHoldingTaxType', taxTypeChoices.length > 0 ? { select: true } : {})}>
              {taxTypeChoices.map((t) => (
                <MenuItem key={t} value={t}>
                  {t}
                </MenuItem>
              ))}
            </TextField>
            <TextField {...field('withHoldingTaxCode', taxCodeChoices.length > 0 ? { select: true } : {})}>
              {taxCodeChoices.map((t) => (
                <MenuItem key={t.id} value={t.taxCode}>
                  {t.taxCode} – {t.taxName}
                </MenuItem>
              ))}
            </TextField>
            <TextField {...field('sectionCode', (sections.data ?? []).length > 0 ? { select: true } : {})}>
              {(sections.data ?? []).map((s) => (
                <MenuItem key={s.id} value={s.sectionCode}>
                  {s.sectionCode} – {s.description}
                </MenuItem>
              ))}
            </TextField>
          </Box>
          <Box sx={{ mt: 1, display: 'flex', alignItems: 'center', gap: 2 }}>
            <Button variant="outlined" component="label" disabled={action.isPending}>
              Choose certificate
              <input
                hidden
                type="file"
                accept={acceptOf('imageOrPdf')}
                data-testid="concession-file"
                aria-label="Certificate file"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography variant="body2" color={touched && !file ? 'error' : 'text.secondary'}>
              {file ? file.name : touched ? 'Please choose the certificate file' : 'No file chosen'}
            </Typography>
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={action.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={action.isPending}>
            Save concession
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
