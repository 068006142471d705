import { Box, Typography } from '@mui/material';
import { Login, LoginForm } from 'react-admin';

/** react-admin's sign-in form under the console's name; staff sign in with their e-mail address. */
export const LoginPage = () => (
  <Login sx={{ backgroundImage: 'linear-gradient(135deg, #1a237e 0%, #283593 45%, #3949ab 100%)' }}>
    <Box sx={{ px: 2, pb: 1, textAlign: 'center' }}>
      <Typography variant="h6" component="h1">
        Staff Console
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Business Partner Onboarding
      </Typography>
    </Box>
    <LoginForm />
  </Login>
);
