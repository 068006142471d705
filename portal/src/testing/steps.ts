import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { LOGIN_OTP, PASSWORD } from './fakeApi';

/** Both sign-in steps through the UI: credentials (Enter submits), then the OTP (Enter submits). */
export async function signInThroughUi(user: UserEvent, username: string, otp = LOGIN_OTP) {
  await user.type(await screen.findByLabelText(/^Username/), username);
  await user.type(screen.getByLabelText(/^Password/), `${PASSWORD}{Enter}`);
  await user.type(await screen.findByLabelText(/^OTP/), `${otp}{Enter}`);
}
