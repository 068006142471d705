import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { mmss } from '../shared/useCountdown';

/**
 * "Resend OTP", disabled until the countdown reaches 0. The remaining time is plain text beside it, not a
 * live region: a screen reader announcing every second would drown everything else.
 */
export function ResendCode({
  secondsLeft,
  busy,
  onResend,
}: {
  secondsLeft: number;
  busy?: boolean;
  onResend: () => void;
}) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Button variant="text" size="small" onClick={onResend} disabled={secondsLeft > 0 || busy === true}>
        Resend OTP
      </Button>
      {secondsLeft > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="resend-countdown">
          in {mmss(secondsLeft)}
        </Typography>
      )}
    </Stack>
  );
}

/**
 * How long to wait after a 429: the Retry-After header, else a number of seconds the message names, else
 * 30 s (the API's resend interval).
 */
export function waitAfterRefusal(retryAfterSeconds: number | undefined, message: string): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds;
  const named = /(\d+)\s*(?:s\b|sec|second)/i.exec(message);
  return named?.[1] ? Number(named[1]) : 30;
}
