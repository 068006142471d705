import { useState } from 'react';
import { Box, Typography } from '@mui/material';
import { Login } from 'react-admin';
import { CredentialsStep } from '../identity/CredentialsStep';
import { OtpStep } from '../identity/OtpStep';
import type { OtpChallenge } from '../shared/types';

type SignIn = { challenge: OtpChallenge | null; username: string; notice: string | null };

/**
 * The console's sign-in (spec 000 §2 "Login screen", §4 "Login"): username and password, then the OTP sent
 * by SMS and e-mail, then the session. Staff sign in with their e-mail address.
 */
export const LoginPage = () => {
  const [state, setState] = useState<SignIn>({ challenge: null, username: '', notice: null });
  return (
    <Login sx={{ backgroundImage: 'linear-gradient(135deg, #1a237e 0%, #283593 45%, #3949ab 100%)' }}>
      <Box sx={{ px: 2, pb: 1, textAlign: 'center' }}>
        <Typography variant="h6" component="h1">
          Staff Console
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Business Partner Onboarding
        </Typography>
      </Box>
      {state.challenge ? (
        <OtpStep
          challenge={state.challenge}
          onRestart={(notice) => setState((s) => ({ ...s, challenge: null, notice }))}
        />
      ) : (
        <CredentialsStep
          // A new notice is a new visit to step 1: its fields start from what the user typed before.
          key={state.notice ?? ''}
          initialUsername={state.username}
          notice={state.notice}
          onChallenge={(challenge, username) => setState({ challenge, username, notice: null })}
        />
      )}
    </Login>
  );
};
