import { useCallback, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { fields, messages } from '../../../domain/src/validation/fields';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf, type OtpChallenge } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { PasswordField } from '../shared/PasswordField';
import { useCountdown } from '../shared/useCountdown';
import { checkField } from '../shared/validation';
import { CaptchaField } from '../../../ui/src/CaptchaField';
import { OtpField } from './OtpField';
import { ResendCode, waitAfterRefusal } from './ResendCode';
import { paths } from './routing';
import { useSession } from './session';

export const loginTexts = {
  captchaMissing: 'Please complete the captcha',
  otpResent: 'OTP sent successfully',
} as const;

/**
 * Spec 000 §4 "Login": credentials, then the OTP step, then the session. From the 3rd failed sign-in the API
 * wants a solved captcha with the credentials (spec 000 §2).
 */
export function LoginForm() {
  const client = useApi();
  const { showError, withLoading } = useFeedback();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string; captcha?: string }>({});
  const [busy, setBusy] = useState(false);
  const [captchaRequired, setCaptchaRequired] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  // A solved captcha is spent by the request that carries it: a new widget for the next attempt.
  const [captchaRound, setCaptchaRound] = useState(0);
  const [challenge, setChallenge] = useState<OtpChallenge | null>(null);

  const onCaptcha = useCallback((payload: string | null) => {
    setCaptcha(payload);
    if (payload) setErrors((e) => ({ ...e, captcha: undefined }));
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = {
      ...(username.trim() === '' ? { username: messages.required } : {}),
      ...(password === '' ? { password: messages.required } : {}),
      ...(captchaRequired && !captcha ? { captcha: loginTexts.captchaMissing } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const sentCaptcha = captchaRequired ? (captcha ?? undefined) : undefined;
    try {
      setChallenge(await withLoading(() => client.login(username.trim(), password, sentCaptcha)));
    } catch (e) {
      setPassword('');
      if (isApiError(e) && e.captchaRequired) setCaptchaRequired(true);
      if (sentCaptcha) {
        setCaptcha(null);
        setCaptchaRound((n) => n + 1);
      }
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  /** Back to the credentials (the user's choice, or the challenge is over: 410), with a message if any. */
  const backToPassword = (message?: string) => {
    setChallenge(null);
    setPassword('');
    if (message) showError(message);
  };

  if (challenge) return <OtpStep challenge={challenge} onBack={backToPassword} />;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Login">
      <Stack spacing={2}>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoFocus
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={Boolean(errors.username)}
          helperText={errors.username}
          size="medium"
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          errorText={errors.password}
          size="medium"
        />
        {captchaRequired && (
          <CaptchaField key={captchaRound} onChange={onCaptcha} errorText={errors.captcha} />
        )}
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Login
        </Button>
        <Link component={RouterLink} to={paths.forgotPassword} variant="body2" sx={{ alignSelf: 'center' }}>
          Forgot Password?
        </Link>
      </Stack>
    </Box>
  );
}

/** The OTP step: where the code went, the code, a resend with its countdown, Verify. */
function OtpStep({ challenge, onBack }: { challenge: OtpChallenge; onBack: (message?: string) => void }) {
  const client = useApi();
  const { signIn } = useSession();
  const { showError, notify, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [resendRefusal, setResendRefusal] = useState<string | null>(null);
  const { secondsLeft, restart } = useCountdown(challenge.resendAfterSeconds);

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = checkField(fields.otp, otp);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const session = await withLoading(() => client.verifyLoginOtp(challenge.challengeId, otp));
      const destination = await signIn(session);
      if (destination.kind === 'portal') navigate(destination.path, { replace: true });
    } catch (e) {
      setOtp('');
      if (isApiError(e) && e.status === 400) {
        const left = e.attemptsLeft;
        setError(left === undefined ? e.message : `${e.message}. Attempts left: ${left}`);
      } else if (isApiError(e) && (e.status === 410 || e.code === 101 || e.code === 1)) onBack(e.message);
      else showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    setBusy(true);
    try {
      const answer = await withLoading(() => client.resendLoginOtp(challenge.challengeId));
      setResendRefusal(null);
      restart(answer.resendAfterSeconds);
      notify(loginTexts.otpResent);
    } catch (e) {
      if (isApiError(e) && e.status === 429) {
        setResendRefusal(e.message);
        restart(waitAfterRefusal(e.retryAfterSeconds, e.message));
      } else if (isApiError(e) && e.status === 410) onBack(e.message);
      else showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const { mobile, email } = challenge.sentTo;
  return (
    <Box component="form" noValidate onSubmit={verify} aria-label="Verify OTP">
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          Enter OTP
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="otp-sent-to">
          We have sent a 6-digit OTP to {mobile ? `your mobile ${mobile} and ` : ''}your e-mail {email}.
        </Typography>
        <OtpField
          label="OTP"
          name="otp"
          autoFocus
          value={otp}
          onChange={(v) => {
            setOtp(v);
            setError(undefined);
          }}
          errorText={error}
          size="medium"
        />
        {resendRefusal && <Alert severity="warning">{resendRefusal}</Alert>}
        <ResendCode secondsLeft={secondsLeft} busy={busy} onResend={() => void resend()} />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Verify
        </Button>
        <Button variant="text" onClick={() => onBack()} disabled={busy}>
          Back to login
        </Button>
      </Stack>
    </Box>
  );
}
