import { useCallback, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useAuthProvider } from 'react-admin';
import { messages } from '../../../domain/src/validation/fields';
import { LoginRefusal, type ConsoleAuthProvider } from '../providers/authProvider';
import type { OtpChallenge } from '../shared/types';
import { CaptchaField } from '../../../ui/src/CaptchaField';

/** Shown under the widget when the form is sent before the captcha is solved (the API's own words). */
export const CAPTCHA_NEEDED_MESSAGE = 'Please complete the captcha to sign in';

type CredentialsStepProps = {
  initialUsername: string;
  /** A message carried over from the code step (expired code, no access, blocked account). */
  notice: string | null;
  onChallenge: (challenge: OtpChallenge, username: string) => void;
};

const refusalOf = (error: unknown): LoginRefusal =>
  error instanceof LoginRefusal
    ? error
    : new LoginRefusal(error instanceof Error && error.message ? error.message : 'There was a problem at our end', 0);

/**
 * Sign-in step 1 (spec 000 §2 "Login screen"): username and password; Enter sends them. Once the API has
 * said a captcha is required (from the third failed sign-in of the username) the ALTCHA widget shows and its
 * payload goes along; a payload is spent by one attempt, so a refused attempt brings a fresh widget.
 */
export const CredentialsStep = ({ initialUsername, notice, onChallenge }: CredentialsStepProps) => {
  const authProvider = useAuthProvider<ConsoleAuthProvider>();
  const [username, setUsername] = useState(initialUsername);
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(notice);
  const [captchaRequired, setCaptchaRequired] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaRound, setCaptchaRound] = useState(0);
  const onCaptcha = useCallback((payload: string | null) => setCaptcha(payload), []);

  const signIn = useMutation({
    mutationFn: () => {
      if (!authProvider) throw new LoginRefusal('There was a problem at our end', 0);
      return authProvider.startLogin({ username, password, captcha });
    },
    onSuccess: (challenge) => onChallenge(challenge, username.trim()),
    onError: (raw: unknown) => {
      const refusal = refusalOf(raw);
      setError(refusal.message);
      if (refusal.captchaRequired) setCaptchaRequired(true);
      if (captcha || refusal.captchaRequired) {
        setCaptcha(null);
        setCaptchaRound((n) => n + 1);
      }
    },
  });

  const usernameError = submitted && username.trim() === '' ? messages.required : null;
  const passwordError = submitted && password === '' ? messages.required : null;
  const captchaError = submitted && captchaRequired && !captcha ? CAPTCHA_NEEDED_MESSAGE : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (username.trim() === '' || password === '' || (captchaRequired && !captcha) || signIn.isPending) return;
    setError(null);
    signIn.mutate();
  };

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ px: 2, pb: 2, display: 'grid', gap: 2 }}>
      {error && (
        <Alert severity="error" role="alert" sx={{ whiteSpace: 'pre-wrap' }}>
          {error}
        </Alert>
      )}
      <TextField
        name="username"
        label="Username"
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        error={usernameError !== null}
        helperText={usernameError}
        disabled={signIn.isPending}
        autoFocus
        fullWidth
      />
      <TextField
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={passwordError !== null}
        helperText={passwordError}
        disabled={signIn.isPending}
        fullWidth
      />
      {captchaRequired && <CaptchaField key={captchaRound} onChange={onCaptcha} errorText={captchaError} centered />}
      <Button
        type="submit"
        variant="contained"
        disabled={signIn.isPending}
        startIcon={signIn.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
        fullWidth
      >
        Sign in
      </Button>
    </Box>
  );
};
