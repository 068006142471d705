import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { fields, messages } from '../../../domain/src/validation/fields';
import { useApi } from '../api/ApiContext';
import { messageOf, type CompanyOption } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { checkField, hasErrors, withoutEmpty, type Errors } from '../shared/validation';
import { paths } from './routing';

/** What the verify step needs from the register step (carried in the router's history state). */
export type PendingRegistration = {
  id: string;
  resendAfterSeconds: number;
  expiresInSeconds: number;
  mobileNo: string;
  email: string;
};

type Field = 'companyCode' | 'mobileNo' | 'email';

/**
 * The register tab (spec 000 §4 "Registration"): company, mobile and e-mail; the codes go out by SMS and
 * e-mail and the verify step takes them. The chosen company must be one of the list (spec 000 §5).
 */
export function RegisterForm() {
  const client = useApi();
  const { showError, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [companies, setCompanies] = useState<CompanyOption[]>([]);
  const [values, setValues] = useState<Record<Field, string>>({ companyCode: '', mobileNo: '', email: '' });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    client
      .companies()
      .then((rows) => live && setCompanies(rows))
      .catch((e: unknown) => live && showError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [client, showError]);

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = withoutEmpty<Field>({
      companyCode:
        values.companyCode === ''
          ? messages.required
          : companies.some((c) => c.companyCode === values.companyCode)
            ? undefined
            : 'Please select a company from the list',
      mobileNo: checkField(fields.mobile, values.mobileNo),
      email: checkField(fields.email, values.email),
    });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const body = {
      companyCode: values.companyCode,
      mobileNo: values.mobileNo.trim(),
      email: values.email.trim(),
    };
    try {
      const started = await withLoading(() => client.register(body));
      const registration: PendingRegistration = { ...started, mobileNo: body.mobileNo, email: body.email };
      navigate(paths.verifyRegistration, { state: { registration } });
    } catch (e) {
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Register">
      <Stack spacing={2}>
        <TextField
          select
          label="Company"
          name="companyCode"
          required
          value={values.companyCode}
          onChange={(e) => set('companyCode')(e.target.value)}
          error={Boolean(errors.companyCode)}
          helperText={errors.companyCode}
          size="medium"
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">Select company</option>
          {companies.map((c) => (
            <option key={c.companyCode} value={c.companyCode}>
              {c.name} ({c.companyCode})
            </option>
          ))}
        </TextField>
        <TextField
          label="Mobile Number"
          name="mobileNo"
          required
          type="tel"
          autoComplete="tel-national"
          value={values.mobileNo}
          onChange={(e) => set('mobileNo')(e.target.value.replace(/\D/g, '').slice(0, 10))}
          error={Boolean(errors.mobileNo)}
          helperText={errors.mobileNo ?? '10 digits, without +91'}
          size="medium"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
        />
        <TextField
          label="Email Id"
          name="email"
          required
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => set('email')(e.target.value)}
          error={Boolean(errors.email)}
          helperText={errors.email}
          size="medium"
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Register
        </Button>
      </Stack>
    </Box>
  );
}
