import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import type { BankAccount } from '../../../domain/src/onboarding/items';
import type { BankKeyOption } from '../api/onboarding';
import { hasErrors, TextInput, useFormValues, type Errors } from './itemFields';
import { validateBankAccount } from './itemValidation';

export const BANK_FIELDS = ['accountNo', 'ifscCode', 'micrNo', 'accountName', 'bankName', 'bankBranch'] as const;
type BankField = (typeof BANK_FIELDS)[number];

export const BANK_LABELS: Record<BankField, string> = {
  accountNo: 'Account Number',
  ifscCode: 'IFSC Code',
  micrNo: 'MICR Code',
  accountName: 'Account Holder Name',
  bankName: 'Bank Name',
  bankBranch: 'Bank Branch',
};

const toValues = (a: Partial<BankAccount> | null): Record<BankField, string> =>
  Object.fromEntries(BANK_FIELDS.map((f) => [f, a?.[f] ?? ''])) as Record<BankField, string>;

/**
 * One bank account's fields (spec 000 §3 "Bank detail"): the bank tab's primary account, an additional
 * account and a bank change request all use it. The IFSC is upper-cased as typed; once its first four letters
 * name a bank the Bank Keys master knows, the bank name is filled in (unless the user typed one).
 */
export function BankAccountForm({
  initial,
  idPrefix,
  label,
  readOnly = false,
  saveLabel,
  saveTestId,
  findBank,
  onSave,
  extraActions,
}: {
  initial: Partial<BankAccount> | null;
  idPrefix: string;
  label: string;
  readOnly?: boolean;
  saveLabel: string;
  saveTestId: string;
  findBank: (bankCode: string) => Promise<BankKeyOption | null>;
  /** Answers the server's field errors, or null when it went through. */
  onSave: (account: BankAccount) => Promise<Errors | null>;
  extraActions?: ReactNode;
}) {
  const { values, setValues, errors, setErrors, set } = useFormValues(toValues(initial));
  const [busy, setBusy] = useState(false);
  // The bank name the master filled in: replaced when the IFSC changes bank, kept when the user typed one.
  const filled = useRef<string | null>(null);
  const bankCode = /^[A-Z]{4}/.exec(values.ifscCode)?.[0] ?? null;

  useEffect(() => {
    if (readOnly || !bankCode) return;
    let live = true;
    findBank(bankCode)
      .then((bank) => {
        if (!live || !bank) return;
        setValues((v) => {
          if (v.bankName !== '' && v.bankName !== filled.current) return v;
          filled.current = bank.description;
          return { ...v, bankName: bank.description };
        });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [bankCode, findBank, readOnly, setValues]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || readOnly) return;
    const result = validateBankAccount(values);
    if (!result.ok) return setErrors(result.errors);
    setBusy(true);
    try {
      const serverErrors = await onSave(result.data);
      if (serverErrors && hasErrors(serverErrors)) setErrors(serverErrors);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: BankField, extra: { required?: boolean; hint?: string; upper?: boolean; numeric?: boolean } = {}) => (
    <Grid size={{ xs: 12, sm: 6 }}>
      <TextInput
        idPrefix={idPrefix}
        name={name}
        label={BANK_LABELS[name]}
        value={values[name]}
        onChange={(v) => set(name, extra.upper ? v.toUpperCase() : v)}
        error={errors[name]}
        required={extra.required ?? true}
        hint={extra.hint}
        disabled={busy || readOnly}
        slotProps={{ htmlInput: extra.numeric ? { inputMode: 'numeric' } : {} }}
      />
    </Grid>
  );

  return (
    <Box component="form" noValidate aria-label={label} onSubmit={(e) => void submit(e)}>
      <Grid container spacing={2}>
        {field('accountNo', { hint: '9 to 15 digits', numeric: true })}
        {field('ifscCode', { hint: 'e.g. HDFC0001234', upper: true })}
        {field('micrNo', { required: false, hint: '9 digits, optional', numeric: true })}
        {field('accountName')}
        {field('bankName', { hint: 'Filled in from the IFSC where we know the bank' })}
        {field('bankBranch')}
      </Grid>
      {!readOnly && (
        <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', mt: 1 }}>
          {extraActions}
          <Button type="submit" variant="contained" disabled={busy} data-testid={saveTestId}>
            {saveLabel}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
