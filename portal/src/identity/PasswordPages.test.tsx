import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import {
  baUser,
  fakeApi,
  fakeTexts,
  INVITATION_TOKEN,
  NEW_PASSWORD,
  PASSWORD,
  VALID_RESET_TOKEN,
} from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { RESET_LINK_SENT } from './ForgotPasswordPage';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const field = (label: RegExp) => screen.getByLabelText(label);
async function fill(label: RegExp, value: string) {
  await user.click(field(label));
  await user.paste(value);
}

describe('forgot password', () => {
  it('is reached from the login form and checks the e-mail before calling the API', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await user.click(await screen.findByRole('link', { name: 'Forgot Password?' }));
    expect(await screen.findByRole('form', { name: 'Forgot Password' })).toBeInTheDocument();

    await fill(/^Email Id/, 'nope');
    await user.click(screen.getByRole('button', { name: 'Request Password' }));
    expect(field(/^Email Id/)).toHaveAccessibleDescription(messages.email);
    expect(api.sent('POST', '/api/auth/forgot-password')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/');
  });

  it("sends the request and shows the spec's success text", async () => {
    const api = fakeApi();
    renderPortal(api, '/forgot-password');
    await screen.findByRole('form', { name: 'Forgot Password' });
    await user.type(field(/^Email Id/), 'ba.admin@demo.test{Enter}');

    expect(await screen.findByText(RESET_LINK_SENT)).toBeInTheDocument();
    expect(RESET_LINK_SENT).toBe('Password Reset Link sent successfully !.');
    expect(api.sent('POST', '/api/auth/forgot-password')[0]?.body).toEqual({ email: 'ba.admin@demo.test' });
  });
});

describe('reset password from a link', () => {
  it("an invalid or expired token shows the server's message and a way to ask again, never the form", async () => {
    renderPortal(fakeApi(), '/reset-password/stale-token');

    expect(await screen.findByText(fakeTexts.linkInvalid)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText(/^New Password/)).not.toBeInTheDocument();
  });

  it('a valid token shows the form; a confirmation that does not match is refused', async () => {
    const api = fakeApi();
    renderPortal(api, `/reset-password/${VALID_RESET_TOKEN}`);
    expect(await screen.findByRole('form', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.getByText(baUser.username)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/');

    await fill(/^New Password/, NEW_PASSWORD);
    await fill(/^Confirm Password/, 'Other@2026');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(field(/^Confirm Password/)).toHaveAccessibleDescription('Confirm Password Not Matching');
    expect(api.sent('POST', '/api/auth/reset-password')).toHaveLength(0);
  });

  it('sets the new password, says so and goes to the login page', async () => {
    const api = fakeApi();
    renderPortal(api, `/reset-password/${VALID_RESET_TOKEN}`);
    await screen.findByRole('form', { name: 'Change Password' });
    await fill(/^New Password/, NEW_PASSWORD);
    await fill(/^Confirm Password/, NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(await screen.findByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/auth/reset-password')[0]?.body).toEqual({
      token: VALID_RESET_TOKEN,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
  });

  it('an invitation link is headed "Set your password"', async () => {
    renderPortal(fakeApi(), `/reset-password/${INVITATION_TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Change Password' })).toBeInTheDocument();
  });
});

describe('change password (signed in)', () => {
  it('is in the profile menu; a wrong old password is reported under the field', async () => {
    const api = fakeApi({ session: baUser });
    renderPortal(api, '/onboard/status');
    await user.click(await screen.findByRole('button', { name: baUser.name }));
    await user.click(await screen.findByRole('menuitem', { name: 'Change Password' }));
    expect(await screen.findByRole('form', { name: 'Change Password' })).toBeInTheDocument();

    await fill(/^Old Password/, 'Wrong@2026');
    await fill(/^New Password/, NEW_PASSWORD);
    await fill(/^Confirm Password/, NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(fakeTexts.wrongOldPassword)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(field(/^Old Password/)).toHaveAccessibleDescription(fakeTexts.wrongOldPassword));
  });

  it('changes it: the success snackbar, then the home', async () => {
    const api = fakeApi({ session: baUser });
    renderPortal(api, '/change-password');
    await screen.findByRole('form', { name: 'Change Password' });
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(field(/^Old Password/)).toHaveAccessibleDescription(messages.required);

    await fill(/^Old Password/, PASSWORD);
    await fill(/^New Password/, NEW_PASSWORD);
    await fill(/^Confirm Password/, NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/auth/change-password')[0]?.body).toEqual({
      oldPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
  });
});
