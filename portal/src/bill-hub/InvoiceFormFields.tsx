import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import type { InvoiceErrors } from './invoiceValidation';
import type { FormOptions, HsnOption, InvoiceFields } from './types';

type Props = {
  fields: InvoiceFields;
  errors: InvoiceErrors;
  options: FormOptions | null;
  hsnCodes: HsnOption[];
  /** A rejected invoice keeps its number (contract: "The invoice number cannot be changed"). */
  numberLocked: boolean;
  onChange: (name: keyof InvoiceFields, value: string) => void;
};

const DECIMAL = { slotProps: { htmlInput: { inputMode: 'decimal' } } };

/** The invoice's inputs (spec 001 §3 "Invoice"), each showing its own problem under it. */
export function InvoiceFormFields({ fields, errors, options, hsnCodes, numberLocked, onChange }: Props) {
  const text = (name: keyof InvoiceFields, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      fullWidth
      size="small"
      label={label}
      name={name}
      value={fields[name]}
      onChange={(e) => onChange(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? ' '}
      {...extra}
    />
  );
  const select = (name: keyof InvoiceFields, label: string, choices: { value: string; label: string }[]) => (
    <TextField
      select
      fullWidth
      size="small"
      label={label}
      name={name}
      value={fields[name]}
      onChange={(e) => onChange(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? ' '}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      <option value="">Select</option>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </TextField>
  );

  const from = options?.billingFrom ?? [];
  const companyCode = from.find((f) => f.code === fields.billingFromCode)?.companyCode ?? null;
  // The commercial user must hold the role in the company code of the vendor code billed from (contract).
  const commercial = (options?.commercialUsers ?? []).filter((u) => companyCode === null || u.companyCodes.includes(companyCode));
  const hsn = hsnCodes.some((h) => h.hsnCode === fields.hsnCode) || fields.hsnCode === ''
    ? hsnCodes
    : [{ hsnCode: fields.hsnCode, description: 'not in the HSN master' }, ...hsnCodes];

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {text('invoiceNumber', 'Invoice Number', { required: true, disabled: numberLocked })}
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {text('invoiceDate', 'Invoice Date', { type: 'date', required: true, slotProps: { inputLabel: { shrink: true } } })}
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {select(
          'hsnCode',
          'HSN Code',
          hsn.map((h) => ({ value: h.hsnCode, label: `${h.hsnCode} – ${h.description}` })),
        )}
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {select(
          'billingFromCode',
          'Billing From',
          from.map((f) => ({ value: f.code, label: `${f.code} (${f.stateName})` })),
        )}
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {select(
          'billingToCode',
          'Billing To',
          (options?.billingTo ?? []).map((t) => ({ value: t.code, label: `${t.code} – ${t.name} (${t.stateName})` })),
        )}
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {select(
          'submitToUserId',
          'Submit To',
          commercial.map((u) => ({ value: u.userId, label: u.name })),
        )}
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>{text('taxableAmount', 'Taxable Amount', { required: true, ...DECIMAL })}</Grid>
      <Grid size={{ xs: 6, md: 2 }}>{text('cgst', 'CGST', DECIMAL)}</Grid>
      <Grid size={{ xs: 6, md: 2 }}>{text('sgst', 'SGST', DECIMAL)}</Grid>
      <Grid size={{ xs: 6, md: 2 }}>{text('igst', 'IGST', DECIMAL)}</Grid>
      <Grid size={{ xs: 6, md: 2 }}>{text('td', 'TD', DECIMAL)}</Grid>
      <Grid size={12}>{text('comments', 'Comments', { required: true, multiline: true, minRows: 2 })}</Grid>
    </Grid>
  );
}
