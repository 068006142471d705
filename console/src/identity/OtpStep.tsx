import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Link, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useAuthProvider, useLogin } from 'react-admin';
import { fields } from '../../../domain/src/validation/fields';
import { LoginRefusal, type ConsoleAuthProvider } from '../providers/authProvider';
import type { OtpChallenge } from '../shared/types';
import { useCountdown } from './useCountdown';

export const OTP_RESENT_MESSAGE = 'A new OTP has been sent';

type OtpStepProps = {
  challenge: OtpChallenge;
  /** Back to step 1: the user asked to, or the challenge is over (expired, used, locked, no access). */
  onRestart: (message: string | null) => void;
};

const refusalOf = (error: unknown): LoginRefusal =>
  error instanceof LoginRefusal
    ? error
    : new LoginRefusal(error instanceof Error && error.message ? error.message : 'There was a problem at our end', 0);

/** "Invalid OTP. 4 attempts left": the API's message with what it says about the attempts left. */
export function wrongOtpText(refusal: LoginRefusal): string {
  if (refusal.attemptsLeft === null) return refusal.message;
  const n = refusal.attemptsLeft;
  return `${refusal.message}. ${n} ${n === 1 ? 'attempt' : 'attempts'} left`;
}

/** Where the codes went, as the API masked it: "your mobile ******3210 and your e-mail g***@demo.test". */
const destinations = ({ sentTo }: OtpChallenge): string =>
  sentTo.mobile ? `your mobile ${sentTo.mobile} and your e-mail ${sentTo.email}` : `your e-mail ${sentTo.email}`;

/**
 * Sign-in step 2 (spec 000 §2, §4): the 6-digit code sent by SMS and e-mail (either one is accepted), with a
 * resend link behind a countdown that ticks every second. The code opens the session through react-admin's
 * useLogin, which then goes where the visitor was heading (or to the forced password change).
 */
export const OtpStep = ({ challenge, onRestart }: OtpStepProps) => {
  const authProvider = useAuthProvider<ConsoleAuthProvider>();
  const login = useLogin();
  const [otp, setOtp] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const countdown = useCountdown(challenge.resendAfterSeconds);

  const verify = useMutation({
    mutationFn: () => login({ challengeId: challenge.challengeId, otp: otp.trim() }),
    onError: (raw: unknown) => {
      const refusal = refusalOf(raw);
      // 410: expired, used or locked; 403: blocked or not staff — this challenge can do nothing more.
      if (refusal.status === 410 || refusal.status === 403) return onRestart(refusal.message);
      setInfo(null);
      setError(wrongOtpText(refusal));
    },
  });

  const resend = useMutation({
    mutationFn: () => {
      if (!authProvider) throw new LoginRefusal('There was a problem at our end', 0);
      return authProvider.resendLoginOtp(challenge.challengeId);
    },
    onSuccess: (answer) => {
      countdown.restart(answer.resendAfterSeconds);
      setError(null);
      setInfo(OTP_RESENT_MESSAGE);
    },
    onError: (raw: unknown) => {
      const refusal = refusalOf(raw);
      if (refusal.status === 410) return onRestart(refusal.message);
      // 429: too soon or too many; the wait it names restarts the countdown.
      if (refusal.retryAfterSeconds !== null) countdown.restart(refusal.retryAfterSeconds);
      setInfo(null);
      setError(refusal.message);
    },
  });

  const parsed = fields.otp.safeParse(otp.trim());
  const otpError = submitted && !parsed.success ? (parsed.error.issues[0]?.message ?? null) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!parsed.success || verify.isPending) return;
    setError(null);
    verify.mutate();
  };

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ px: 2, pb: 2, display: 'grid', gap: 2 }}>
      <Typography variant="body2" data-testid="otp-sent-to">
        We have sent a 6-digit OTP to {destinations(challenge)}. Enter either code.
      </Typography>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {info && (
        <Alert severity="success" role="status">
          {info}
        </Alert>
      )}
      <TextField
        name="otp"
        label="OTP"
        value={otp}
        onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, 6))}
        error={otpError !== null}
        helperText={otpError}
        disabled={verify.isPending}
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 } }}
        autoFocus
        fullWidth
      />
      <Button
        type="submit"
        variant="contained"
        disabled={verify.isPending}
        startIcon={verify.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
        fullWidth
      >
        Verify OTP
      </Button>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <Link component="button" type="button" variant="body2" onClick={() => onRestart(null)}>
          Back to sign in
        </Link>
        {countdown.remaining > 0 ? (
          <Typography variant="body2" color="text.secondary" data-testid="resend-countdown">
            Resend OTP in {countdown.remaining} s
          </Typography>
        ) : (
          <Link
            component="button"
            type="button"
            variant="body2"
            disabled={resend.isPending}
            onClick={() => resend.mutate()}
          >
            Resend OTP
          </Link>
        )}
      </Box>
    </Box>
  );
};
