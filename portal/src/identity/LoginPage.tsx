import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { LoadingOverlay } from '../shared/LoadingOverlay';
import { AuthLayout } from './AuthLayout';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';
import { CONSOLE_URL, destinationOf, paths } from './routing';
import { useSession } from './session';

/**
 * '/' and '/signup' (spec 000 §2 "Login screen"): tabs for login and register. The tabs are links, so the
 * register tab has its own address.
 */
export function LoginPage() {
  const { state } = useSession();
  const { pathname } = useLocation();
  const tab = pathname === paths.signup ? 'register' : 'login';

  // A signed-in visitor goes on to their home (post-login routing).
  if (state.status === 'authenticated') {
    const destination = destinationOf(state.user);
    if (destination.kind === 'portal') return <Navigate to={destination.path} replace />;
  }
  // While a saved session is being restored, the form would only flash before the redirect.
  if (state.status === 'restoring') return <LoadingOverlay open />;

  return (
    <AuthLayout subtitle="Business Partner Onboarding — sign in to complete and track your registration">
      <Tabs value={tab} variant="fullWidth" sx={{ mb: 3 }} aria-label="Login or register">
        <Tab label="Login" value="login" component={RouterLink} to={paths.login} replace />
        <Tab label="Register" value="register" component={RouterLink} to={paths.signup} replace />
      </Tabs>
      {tab === 'login' ? <LoginForm /> : <RegisterForm />}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3, textAlign: 'center' }}>
        Company staff? <Link href={CONSOLE_URL}>Go to the staff console</Link>
      </Typography>
    </AuthLayout>
  );
}
