import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf, type ResetToken } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { hasErrors, type Errors } from '../shared/validation';
import { AuthLayout } from './AuthLayout';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValues } from './NewPasswordFields';
import { paths } from './routing';

export const PASSWORD_CHANGED = 'Password changed successfully';

type TokenState =
  | { status: 'checking' }
  | { status: 'valid'; token: ResetToken }
  | { status: 'invalid'; message: string };

/**
 * '/reset-password/:token' (spec 000 §2 and §4 "Password reset"): the link is checked on load and the form is
 * shown only when it names a user. The same page sets the first password of an invited user.
 */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const client = useApi();
  const [state, setState] = useState<TokenState>({ status: 'checking' });

  useEffect(() => {
    let live = true;
    client
      .resetToken(token)
      .then((answer) => {
        if (!live) return;
        setState(
          answer.userId
            ? { status: 'valid', token: answer }
            : { status: 'invalid', message: 'This link is invalid or has expired' },
        );
      })
      .catch((e: unknown) => live && setState({ status: 'invalid', message: messageOf(e) }));
    return () => {
      live = false;
    };
  }, [client, token]);

  const invitation = state.status === 'valid' && state.token.purpose === 'invitation';
  return (
    <AuthLayout title={invitation ? 'Set your password' : 'Change Password'}>
      {state.status === 'checking' && (
        <Typography role="status" color="text.secondary" sx={{ textAlign: 'center' }}>
          Checking your link…
        </Typography>
      )}
      {state.status === 'invalid' && (
        <Stack spacing={2}>
          <Alert severity="error">{state.message}</Alert>
          <Link component={RouterLink} to={paths.forgotPassword} sx={{ alignSelf: 'center' }}>
            Forgot Password
          </Link>
        </Stack>
      )}
      {state.status === 'valid' && <ResetForm token={token} username={state.token.username} />}
    </AuthLayout>
  );
}

function ResetForm({ token, username }: { token: string; username: string }) {
  const client = useApi();
  const { showError, notify, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [values, setValues] = useState<NewPasswordValues>({ newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors<keyof NewPasswordValues>>({});
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = newPasswordErrors(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const answer = await withLoading(() => client.resetPassword(token, values));
      notify(answer.message || PASSWORD_CHANGED);
      navigate(paths.login, { replace: true });
    } catch (e) {
      if (isApiError(e) && Object.keys(e.fieldErrors).length > 0) setErrors(e.fieldErrors);
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Change Password">
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          Account: <strong>{username}</strong>
        </Typography>
        <NewPasswordFields
          values={values}
          errors={errors}
          onChange={(field, value) => {
            setValues((v) => ({ ...v, [field]: value }));
            setErrors((e) => ({ ...e, [field]: undefined }));
          }}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Change Password
        </Button>
        <Link component={RouterLink} to={paths.login} variant="body2" sx={{ alignSelf: 'center' }}>
          Login
        </Link>
      </Stack>
    </Box>
  );
}
