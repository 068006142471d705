import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { messages } from '../../../domain/src/validation/fields';
import { messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { LoadingOverlay } from '../shared/LoadingOverlay';
import { STATUS_PATH } from '../onboarding/StatusPage';
import { useSession } from './session';

/**
 * Spec 000 §2 "Login screen", the part this release has: username and password, Enter submits, errors in the
 * modal dialog. (The OTP step, captcha and the register tab arrive with registration.)
 */
export function LoginPage() {
  const { state, login } = useSession();
  const { showError, withLoading } = useFeedback();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);

  if (state.status === 'authenticated') return <Navigate to={STATUS_PATH} replace />;
  // While a saved session is being restored, the form would only flash before the redirect.
  if (state.status === 'restoring') return <LoadingOverlay open />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = {
      ...(username.trim() === '' ? { username: messages.required } : {}),
      ...(password === '' ? { password: messages.required } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await withLoading(() => login(username.trim(), password));
      navigate(STATUS_PATH, { replace: true });
    } catch (e) {
      setPassword('');
      showError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: 2,
        // A brand band across the top third; the card straddles it.
        background: 'linear-gradient(180deg, #b71c1c 0, #8e0000 40vh, #f4f6f8 40vh)',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 420, boxShadow: 6, border: 0 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={1} sx={{ alignItems: 'center', mb: 3, textAlign: 'center' }}>
            <LocalShippingIcon color="primary" sx={{ fontSize: 44 }} aria-hidden />
            <Typography variant="h5" component="h1">
              BA Portal
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Business Partner Onboarding — sign in to complete and track your registration
            </Typography>
          </Stack>
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
              <TextField
                label="Password"
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={Boolean(errors.password)}
                helperText={errors.password}
                size="medium"
                slotProps={{
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <IconButton
                          aria-label={showPassword ? 'Hide password' : 'Show password'}
                          onClick={() => setShowPassword((v) => !v)}
                          edge="end"
                        >
                          {showPassword ? <VisibilityOff /> : <Visibility />}
                        </IconButton>
                      </InputAdornment>
                    ),
                  },
                }}
              />
              <Button type="submit" variant="contained" size="large" disabled={busy}>
                Login
              </Button>
            </Stack>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3, textAlign: 'center' }}>
            Company staff? <Link href="/console/">Go to the staff console</Link>
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
