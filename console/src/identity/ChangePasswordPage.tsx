import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { HttpError, useAuthProvider, useGetIdentity, useLogout, useNavigate, useNotify } from 'react-admin';
import { fieldErrors, messages, newPasswordWithConfirm } from '../../../domain/src/validation/fields';
import type { ChangePasswordParams, ConsoleAuthProvider, ConsoleIdentity } from '../providers/authProvider';
import { errorText } from '../providers/httpClient';
import { SessionGate } from '../layout/SessionGate';

type FieldName = keyof ChangePasswordParams;
const EMPTY: ChangePasswordParams = { oldPassword: '', newPassword: '', confirmPassword: '' };
const LABELS: Record<FieldName, string> = {
  oldPassword: 'Old Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
};

/** The spec's rule and messages, from the one module the API checks them with too. */
export function changePasswordErrors(values: ChangePasswordParams): Partial<Record<FieldName, string>> {
  const errors: Partial<Record<FieldName, string>> = {};
  if (values.oldPassword === '') errors.oldPassword = messages.required;
  const parsed = newPasswordWithConfirm.safeParse(values);
  if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
  return errors;
}

/** The API's field errors (e.g. "You cannot reuse any of your last 5 passwords") under their fields. */
function serverFieldErrors(error: unknown): Partial<Record<FieldName, string>> {
  const body = error instanceof HttpError ? (error.body as { errors?: Record<string, unknown> } | null) : null;
  const out: Partial<Record<FieldName, string>> = {};
  for (const name of Object.keys(LABELS) as FieldName[]) {
    const text = body?.errors?.[name];
    if (typeof text === 'string') out[name] = text;
  }
  return out;
}

const ChangePasswordForm = () => {
  const authProvider = useAuthProvider<ConsoleAuthProvider>();
  const { identity } = useGetIdentity();
  const forced = (identity as ConsoleIdentity | undefined)?.mustChangePassword === true;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const logout = useLogout();
  const [values, setValues] = useState<ChangePasswordParams>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [error, setError] = useState<string | null>(null);

  const change = useMutation({
    mutationFn: (params: ChangePasswordParams) => {
      if (!authProvider) throw new Error('There was a problem at our end');
      return authProvider.changePassword(params);
    },
    onSuccess: async (message) => {
      notify(message, { type: 'success' });
      // The new session no longer has to change its password: let the gates read it before moving on.
      await queryClient.invalidateQueries({ queryKey: ['auth'] });
      navigate('/');
    },
    onError: (raw: unknown) => {
      setServerErrors(serverFieldErrors(raw));
      setError(errorText(raw));
    },
  });

  const errors = submitted ? { ...changePasswordErrors(values), ...serverErrors } : serverErrors;
  const set = (name: FieldName) => (event: ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [name]: event.target.value }));
    // The API's word on a field stands until that field changes.
    setServerErrors(({ [name]: _changed, ...others }) => others);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(changePasswordErrors(values)).length > 0 || change.isPending) return;
    setError(null);
    change.mutate(values);
  };

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
      {forced && (
        <Alert severity="info" role="status">
          Please change your password to continue.
        </Alert>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ whiteSpace: 'pre-wrap' }}>
          {error}
        </Alert>
      )}
      {(Object.keys(LABELS) as FieldName[]).map((name, index) => (
        <TextField
          key={name}
          name={name}
          label={LABELS[name]}
          type="password"
          autoComplete={name === 'oldPassword' ? 'current-password' : 'new-password'}
          value={values[name]}
          onChange={set(name)}
          error={Boolean(errors[name])}
          helperText={errors[name] ?? (name === 'newPassword' ? messages.password : undefined)}
          disabled={change.isPending}
          autoFocus={index === 0}
          fullWidth
        />
      ))}
      <Button
        type="submit"
        variant="contained"
        disabled={change.isPending}
        startIcon={change.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        Change Password
      </Button>
      {forced ? (
        <Button onClick={() => logout()}>Logout</Button>
      ) : (
        <Button onClick={() => navigate('/')}>Cancel</Button>
      )}
    </Box>
  );
};

/**
 * Change Password (spec 000 §2): forced after the first sign-in and when the password has expired (that
 * session may do nothing else), and open to everyone from the user menu. A page of its own, outside the
 * layout, because a forced session may not load the sidebar's counts.
 */
export const ChangePasswordPage = () => (
  <SessionGate mode="password">
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'flex-start',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #1a237e 0%, #283593 45%, #3949ab 100%)',
      }}
    >
      <Card sx={{ mt: '6em', width: 400, maxWidth: '95vw' }}>
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <LockResetIcon color="primary" />
            <Typography variant="h6" component="h1">
              Change Password
            </Typography>
          </Box>
          <ChangePasswordForm />
        </CardContent>
      </Card>
    </Box>
  </SessionGate>
);
