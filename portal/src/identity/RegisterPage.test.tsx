import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import {
  fakeApi,
  fakeTexts,
  NEW_PASSWORD,
  REGISTRATION_EMAIL_OTP,
  REGISTRATION_SMS_OTP,
} from '../testing/fakeApi';
import { renderPortal } from '../testing/render';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const field = (label: RegExp) => screen.getByLabelText(label);
/** Pastes the value: one change event instead of one per key keeps the whole-portal tests quick. */
async function fill(label: RegExp, value: string) {
  await user.click(field(label));
  await user.paste(value);
}

async function fillRegistration(mobile: string, email: string) {
  await screen.findByRole('option', { name: 'MLL Logistics (1000)' });
  await user.selectOptions(field(/^Company/), '1000');
  await fill(/^Mobile Number/, mobile);
  await fill(/^Email Id/, email);
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

describe('registration', () => {
  it('the Register tab is /signup and lists the companies from the API', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await user.click(await screen.findByRole('tab', { name: 'Register' }));

    expect(screen.getByTestId('location')).toHaveTextContent('/signup');
    expect(await screen.findByRole('option', { name: 'MLL Freight Services (2000)' })).toBeInTheDocument();
    expect(api.sent('GET', '/api/companies')[0]?.headers['Authorization']).toBeUndefined();
  });

  it("checks company, mobile and e-mail with the spec's messages before calling the API", async () => {
    const api = fakeApi();
    renderPortal(api, '/signup');
    await screen.findByRole('option', { name: 'MLL Logistics (1000)' });
    await fill(/^Mobile Number/, '5123456789');
    await fill(/^Email Id/, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(field(/^Company/)).toHaveAccessibleDescription(messages.required);
    expect(field(/^Mobile Number/)).toHaveAccessibleDescription(messages.mobile);
    expect(field(/^Email Id/)).toHaveAccessibleDescription(messages.email);
    expect(api.sent('POST', '/api/registrations')).toHaveLength(0);
  });

  it("shows the API's refusal of a number or e-mail already registered", async () => {
    renderPortal(fakeApi(), '/signup');
    await fillRegistration('9876543210', 'someone@demo.test');

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(fakeTexts.alreadyRegistered)).toBeInTheDocument();
  });

  it('verifies both codes with a new password: the new BA admin is signed in and sent to its onboarding', async () => {
    const api = fakeApi();
    renderPortal(api, '/signup');
    await fillRegistration('9123456780', 'new.ba@demo.test');

    expect(await screen.findByRole('form', { name: 'Verify registration' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/signup/verify-registration');
    expect(api.sent('POST', '/api/registrations')[0]?.body).toEqual({
      companyCode: '1000',
      mobileNo: '9123456780',
      email: 'new.ba@demo.test',
    });
    // The resend link waits for its countdown.
    expect(screen.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
    // Real timers here (the countdown's ticking is tested with fake ones): on a busy machine a second may pass.
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent(/^in 00:(30|2\d)$/);

    await fill(/^SMS OTP/, REGISTRATION_SMS_OTP);
    await fill(/^Email OTP/, REGISTRATION_EMAIL_OTP);
    await fill(/^New Password/, NEW_PASSWORD);
    await fill(/^Confirm Password/, 'Fresh@2027');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(field(/^Confirm Password/)).toHaveAccessibleDescription(messages.confirmPassword);
    expect(api.sent('POST', '/api/registrations/reg-1/verify')).toHaveLength(0);

    await user.clear(field(/^Confirm Password/));
    await user.type(field(/^Confirm Password/), `${NEW_PASSWORD}{Enter}`);

    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/registrations/reg-1/verify')[0]?.body).toEqual({
      smsOtp: REGISTRATION_SMS_OTP,
      emailOtp: REGISTRATION_EMAIL_OTP,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
  });

  it('checks the codes are 6 digits and the password follows the rule', async () => {
    const api = fakeApi();
    renderPortal(api, '/signup');
    await fillRegistration('9123456780', 'new.ba@demo.test');
    await screen.findByRole('form', { name: 'Verify registration' });
    await fill(/^SMS OTP/, '12');
    await fill(/^New Password/, 'short');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(field(/^SMS OTP/)).toHaveAccessibleDescription(messages.otp);
    expect(field(/^Email OTP/)).toHaveAccessibleDescription(messages.required);
    expect(field(/^New Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/^New Password/)).toHaveAccessibleDescription(messages.password);
    expect(api.sent('POST', '/api/registrations/reg-1/verify')).toHaveLength(0);
  });

  it('wrong codes: says so with the attempts left and clears the codes', async () => {
    const api = fakeApi();
    renderPortal(api, '/signup');
    await fillRegistration('9123456780', 'new.ba@demo.test');
    await screen.findByRole('form', { name: 'Verify registration' });
    await fill(/^SMS OTP/, '000000');
    await fill(/^Email OTP/, REGISTRATION_EMAIL_OTP);
    await fill(/^New Password/, NEW_PASSWORD);
    await user.type(field(/^Confirm Password/), `${NEW_PASSWORD}{Enter}`);

    expect(await screen.findByText('Invalid OTP. Attempts left: 4')).toBeInTheDocument();
    await waitFor(() => expect(field(/^SMS OTP/)).toHaveAccessibleDescription(fakeTexts.invalidOtp));
    expect(field(/^SMS OTP/)).toHaveValue('');
    expect(screen.getByTestId('location')).toHaveTextContent('/signup/verify-registration');
  });

  it('the verify page without a registration in progress points back to the register tab', async () => {
    renderPortal(fakeApi(), '/signup/verify-registration');
    expect(await screen.findByRole('link', { name: 'Register' })).toHaveAttribute('href', '/signup');
    expect(screen.queryByRole('form', { name: 'Verify registration' })).not.toBeInTheDocument();
  });
});
