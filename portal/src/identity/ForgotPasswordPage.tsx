import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { fields } from '../../../domain/src/validation/fields';
import { useApi } from '../api/ApiContext';
import { messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { checkField } from '../shared/validation';
import { AuthLayout } from './AuthLayout';
import { paths } from './routing';

/** Spec 000 §2 and §8, word for word. */
export const RESET_LINK_SENT = 'Password Reset Link sent successfully !.';

/**
 * '/forgot-password' (spec 000 §2 "Login screen"): e-mail field, Request Password button, Login link. The API
 * answers the same whether or not the address has an account, so the page does too.
 */
export function ForgotPasswordPage() {
  const client = useApi();
  const { showError, withLoading } = useFeedback();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = checkField(fields.email, email);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const answer = await withLoading(() => client.forgotPassword(email.trim()));
      setSent(answer.message || RESET_LINK_SENT);
    } catch (e) {
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Forgot Password" subtitle="We will e-mail you a link to set a new password.">
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Forgot Password">
        <Stack spacing={2}>
          {sent && (
            <Alert severity="success" role="status">
              {sent}
            </Alert>
          )}
          <TextField
            label="Email Id"
            name="email"
            type="email"
            autoComplete="email"
            autoFocus
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(undefined);
            }}
            error={Boolean(error)}
            helperText={error}
            size="medium"
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Request Password
          </Button>
          <Link component={RouterLink} to={paths.login} variant="body2" sx={{ alignSelf: 'center' }}>
            Login
          </Link>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
