import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { fields } from '../../../domain/src/validation/fields';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { useCountdown } from '../shared/useCountdown';
import { checkField, hasErrors, withoutEmpty, type Errors } from '../shared/validation';
import { AuthLayout } from './AuthLayout';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValues } from './NewPasswordFields';
import { OtpField } from './OtpField';
import type { PendingRegistration } from './RegisterForm';
import { ResendCode, waitAfterRefusal } from './ResendCode';
import { paths } from './routing';
import { useSession } from './session';

type Field = 'smsOtp' | 'emailOtp' | keyof NewPasswordValues;

export const registrationTexts = {
  missing: 'Your registration could not be found. Please register again.',
  otpResent: 'OTP sent successfully',
} as const;

/**
 * '/signup/verify-registration' (spec 000 §4 "Registration"): the SMS code, the e-mail code and the new
 * BA admin's password. The answer is a session: the BA is signed in and routed to its home.
 */
export function VerifyRegistrationPage() {
  const { state } = useLocation() as { state: { registration?: PendingRegistration } | null };
  const registration = state?.registration;
  return (
    <AuthLayout title="Verify registration" wide>
      {registration ? (
        <VerifyForm registration={registration} />
      ) : (
        <Stack spacing={2}>
          <Alert severity="warning">{registrationTexts.missing}</Alert>
          <Link component={RouterLink} to={paths.signup}>
            Register
          </Link>
        </Stack>
      )}
    </AuthLayout>
  );
}

function VerifyForm({ registration }: { registration: PendingRegistration }) {
  const client = useApi();
  const { signIn } = useSession();
  const { showError, notify, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({
    smsOtp: '',
    emailOtp: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const { secondsLeft, restart } = useCountdown(registration.resendAfterSeconds);

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = withoutEmpty<Field>({
      smsOtp: checkField(fields.otp, values.smsOtp),
      emailOtp: checkField(fields.otp, values.emailOtp),
      ...newPasswordErrors(values),
    });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const session = await withLoading(() => client.verifyRegistration(registration.id, values));
      const destination = await signIn(session);
      if (destination.kind === 'portal') navigate(destination.path, { replace: true });
    } catch (e) {
      if (isApiError(e) && e.status === 400) {
        setValues((v) => ({ ...v, smsOtp: '', emailOtp: '' }));
        setErrors(e.fieldErrors);
        const left = e.attemptsLeft;
        setNotice(left === undefined ? e.message : `${e.message}. Attempts left: ${left}`);
      } else if (isApiError(e) && e.status === 410) {
        showError(e.message, () => navigate(paths.signup, { replace: true }));
      } else showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    setBusy(true);
    try {
      const answer = await withLoading(() => client.resendRegistration(registration.id));
      setNotice(null);
      restart(answer.resendAfterSeconds);
      notify(registrationTexts.otpResent);
    } catch (e) {
      if (isApiError(e) && e.status === 429) {
        setNotice(e.message);
        restart(waitAfterRefusal(e.retryAfterSeconds, e.message));
      } else if (isApiError(e) && e.status === 410) {
        showError(e.message, () => navigate(paths.signup, { replace: true }));
      } else showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Verify registration">
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          We have sent a 6-digit OTP to your mobile {registration.mobileNo} and another to your e-mail{' '}
          {registration.email}. Enter both and choose your password.
        </Typography>
        <OtpField
          label="SMS OTP"
          name="smsOtp"
          required
          autoFocus
          value={values.smsOtp}
          onChange={(v) => set('smsOtp', v)}
          errorText={errors.smsOtp}
          size="medium"
        />
        <OtpField
          label="Email OTP"
          name="emailOtp"
          required
          value={values.emailOtp}
          onChange={(v) => set('emailOtp', v)}
          errorText={errors.emailOtp}
          size="medium"
        />
        <ResendCode secondsLeft={secondsLeft} busy={busy} onResend={() => void resend()} />
        <NewPasswordFields values={values} errors={errors} onChange={set} />
        {notice && <Alert severity="warning">{notice}</Alert>}
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Verify
        </Button>
        <Link component={RouterLink} to={paths.signup} variant="body2" sx={{ alignSelf: 'center' }}>
          Back to registration
        </Link>
      </Stack>
    </Box>
  );
}
