import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { messages } from '../../../domain/src/validation/fields';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { PasswordField } from '../shared/PasswordField';
import { hasErrors, withoutEmpty, type Errors } from '../shared/validation';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValues } from './NewPasswordFields';
import { PASSWORD_CHANGED } from './ResetPasswordPage';
import { mustChangePassword } from './routing';
import { useSession, useUser } from './session';

type Field = 'oldPassword' | keyof NewPasswordValues;

export const changePasswordTexts = {
  firstLogin: 'Welcome! Please choose a new password before you continue.',
  expired: 'Your password has expired. Please choose a new one to continue.',
} as const;

/**
 * '/change-password' (spec 000 §2: for signed-in users, and forced on first login or once the password has
 * expired). The answer is a new session (the server ends the user's other sessions); the user then goes on to
 * their home.
 */
export function ChangePasswordPage() {
  const client = useApi();
  const user = useUser();
  const { signIn } = useSession();
  const { showError, notify, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({
    oldPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [busy, setBusy] = useState(false);
  const forced = mustChangePassword(user);

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = withoutEmpty<Field>({
      oldPassword: values.oldPassword === '' ? messages.required : undefined,
      ...newPasswordErrors(values),
    });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const answer = await withLoading(() => client.changePassword(values));
      notify(answer.message || PASSWORD_CHANGED);
      const destination = await signIn(answer);
      if (destination.kind === 'portal') navigate(destination.path, { replace: true });
    } catch (e) {
      if (isApiError(e) && e.status === 401) return;
      if (isApiError(e) && Object.keys(e.fieldErrors).length > 0) setErrors(e.fieldErrors);
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={3} sx={{ maxWidth: 520, mx: 'auto' }}>
      <Typography variant="h5" component="h1">
        Change Password
      </Typography>
      {forced && (
        <Alert severity="info">
          {user.passwordExpired ? changePasswordTexts.expired : changePasswordTexts.firstLogin}
        </Alert>
      )}
      <Card>
        <CardContent>
          <Box component="form" noValidate onSubmit={onSubmit} aria-label="Change Password">
            <Stack spacing={2}>
              <PasswordField
                label="Old Password"
                name="oldPassword"
                required
                autoComplete="current-password"
                value={values.oldPassword}
                onChange={(v) => set('oldPassword', v)}
                errorText={errors.oldPassword}
                size="medium"
              />
              <NewPasswordFields values={values} errors={errors} onChange={set} />
              <Button type="submit" variant="contained" size="large" disabled={busy}>
                Change Password
              </Button>
            </Stack>
          </Box>
        </CardContent>
      </Card>
    </Stack>
  );
}
