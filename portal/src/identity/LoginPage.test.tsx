import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import { errorTexts } from '../api/client';
import {
  baUser,
  fakeApi,
  fakeTexts,
  LOGIN_OTP,
  noAppUser,
  PASSWORD,
  staffUser,
} from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { signInThroughUi } from '../testing/steps';
import { loginTexts } from './LoginForm';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });

/** Closes the error dialog and waits until it has gone (while it shows, the page behind is aria-hidden). */
async function closeDialog(dialog: HTMLElement, u = user) {
  await u.click(within(dialog).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

async function typeCredentials(username: string, password: string, u = user) {
  const field = await screen.findByLabelText(/^Username/);
  await u.clear(field);
  await u.type(field, username);
  await u.type(screen.getByLabelText(/^Password/), `${password}{Enter}`);
}

/** The ALTCHA widget announces a solved challenge (jsdom runs no web component: the wrapper hears the event). */
function solveCaptcha(payload: string) {
  fireEvent(screen.getByTestId('captcha'), new CustomEvent('statechange', { detail: { state: 'verified', payload } }));
}

describe('login page', () => {
  it('signs a BA in: password with Enter, then the OTP sent to the masked mobile and e-mail, then its home', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await typeCredentials('ba.admin@demo.test', PASSWORD);

    expect(await screen.findByRole('form', { name: 'Verify OTP' })).toBeInTheDocument();
    expect(screen.getByTestId('otp-sent-to')).toHaveTextContent('******3210');
    expect(screen.getByTestId('otp-sent-to')).toHaveTextContent('b***@demo.test');
    // A pasted code with a space still counts: only digits are kept.
    await user.click(screen.getByLabelText(/^OTP/));
    await user.paste('123 456');
    expect(screen.getByLabelText(/^OTP/)).toHaveValue(LOGIN_OTP);
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/status');
    expect(api.sent('POST', '/api/auth/login')[0]?.body).toEqual({
      username: 'ba.admin@demo.test',
      password: PASSWORD,
    });
    const [verify] = api.sent('POST', '/api/auth/login/verify-otp');
    expect(verify?.body).toEqual({ challengeId: expect.any(String), otp: LOGIN_OTP });
    // Every later call carries the access token from the OTP answer.
    const [read] = api.sent('GET', '/api/business-associates/ba-1');
    expect(read?.headers['Authorization']).toBe('Bearer token-1');
  });

  it('asks for both fields before calling the API', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await user.click(await screen.findByRole('button', { name: 'Login' }));

    expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription(messages.required);
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(messages.required);
    expect(api.sent('POST', '/api/auth/login')).toHaveLength(0);
  });

  it("shows the server's message for bad credentials in the error dialog, which closes", async () => {
    renderPortal(fakeApi(), '/');
    await typeCredentials('ba.admin@demo.test', 'wrong');

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(fakeTexts.badCredentials)).toBeInTheDocument();
    await closeDialog(dialog);
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
    expect(screen.queryByTestId('captcha')).not.toBeInTheDocument();
  });

  it('shows the captcha once the API says so (3rd failure) and sends the solved payload with the next login', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    for (let i = 0; i < 3; i++) {
      await typeCredentials('ba.admin@demo.test', 'wrong');
      await closeDialog(await screen.findByRole('dialog'));
    }
    expect(screen.getByTestId('captcha')).toHaveAttribute('challenge', '/api/auth/captcha');

    // Unsolved: the form says so and does not call the API.
    await typeCredentials('ba.admin@demo.test', PASSWORD);
    expect(await screen.findByText(loginTexts.captchaMissing)).toBeInTheDocument();
    expect(api.sent('POST', '/api/auth/login')).toHaveLength(3);

    solveCaptcha('eyJzb2x2ZWQiOnRydWV9');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('form', { name: 'Verify OTP' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/auth/login')[3]?.body).toEqual({
      username: 'ba.admin@demo.test',
      password: PASSWORD,
      captcha: 'eyJzb2x2ZWQiOnRydWV9',
    });
  });

  it('shows the captcha when the API refuses a login without one (400 captchaRequired), e.g. after a reload', async () => {
    const api = fakeApi({
      intercept: (req) =>
        req.path === '/api/auth/login' && !(req.body as { captcha?: string }).captcha
          ? { status: 400, body: { message: fakeTexts.captchaRequired, captchaRequired: true } }
          : undefined,
    });
    renderPortal(api, '/');
    await typeCredentials('ba.admin@demo.test', PASSWORD);

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(fakeTexts.captchaRequired)).toBeInTheDocument();
    await closeDialog(dialog);
    expect(screen.getByTestId('captcha')).toBeInTheDocument();
  });

  it("a wrong OTP says 'Invalid OTP' with the attempts left; an expired challenge goes back to the password", async () => {
    const api = fakeApi({
      intercept: (req) =>
        req.path === '/api/auth/login/verify-otp' && (req.body as { otp: string }).otp === '999999'
          ? { status: 410, body: { message: fakeTexts.otpExpired } }
          : undefined,
    });
    renderPortal(api, '/');
    await typeCredentials('ba.admin@demo.test', PASSWORD);
    await user.type(await screen.findByLabelText(/^OTP/), '000000{Enter}');

    await waitFor(() =>
      expect(screen.getByLabelText(/^OTP/)).toHaveAccessibleDescription('Invalid OTP. Attempts left: 4'),
    );
    expect(screen.getByLabelText(/^OTP/)).toHaveValue('');

    await user.type(screen.getByLabelText(/^OTP/), '999999{Enter}');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(fakeTexts.otpExpired)).toBeInTheDocument();
    await closeDialog(dialog);
    expect(screen.getByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
  });

  it('checks the OTP is 6 digits before calling the API', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await typeCredentials('ba.admin@demo.test', PASSWORD);
    await user.type(await screen.findByLabelText(/^OTP/), '123{Enter}');

    expect(screen.getByLabelText(/^OTP/)).toHaveAccessibleDescription(messages.otp);
    expect(api.sent('POST', '/api/auth/login/verify-otp')).toHaveLength(0);
  });

  it('sends staff to the console and keeps no session here', async () => {
    const leave = jest.fn();
    const api = fakeApi();
    renderPortal(api, '/', { leave });
    await signInThroughUi(user, staffUser.username);

    await waitFor(() => expect(leave).toHaveBeenCalledWith('/console/'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(api.sent('GET', '/api/business-associates/ba-1')).toHaveLength(0);
  });

  it('refuses a user without any application with the spec message (code 101) and ends the session', async () => {
    const api = fakeApi({ accounts: [noAppUser] });
    renderPortal(api, '/');
    await signInThroughUi(user, noAppUser.username);

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(errorTexts.noAccess)).toBeInTheDocument();
    await closeDialog(dialog);
    expect(screen.getByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/auth/logout')).toHaveLength(1);
  });

  it('restores the session from the refresh cookie on load', async () => {
    const api = fakeApi({ session: baUser });
    renderPortal(api, '/');
    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/auth/refresh')[0]?.query.get('app')).toBe('portal');
  });

  it('sends a visitor without a session from a BA page to the login page', async () => {
    renderPortal(fakeApi(), '/onboard/status');
    expect(await screen.findByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('ends the session on a 401 that a refresh cannot cure: the dialog says so over the login page', async () => {
    let refreshes = 0;
    const api = fakeApi({
      session: baUser,
      intercept: (req) => {
        if (req.path === '/api/auth/refresh' && ++refreshes > 1)
          return { status: 401, body: { message: 'Session expired' } };
        if (req.path.startsWith('/api/business-associates/'))
          return { status: 401, body: { message: 'Unauthorized' } };
        return undefined;
      },
    });
    renderPortal(api, '/onboard/status');

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(errorTexts.sessionTimedOut)).toBeInTheDocument();
    await closeDialog(dialog);
    expect(await screen.findByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});

// Fake timers only here, where the countdown itself is the behaviour under test.
describe('OTP resend countdown', () => {
  beforeEach(() => jest.useFakeTimers());
  // Unmount while the fake clock still runs the page's timers, then give the real clock back.
  afterEach(() => {
    cleanup();
    jest.useRealTimers();
  });
  const timed = () => userEvent.setup({ delay: null, advanceTimers: jest.advanceTimersByTime });
  const countdown = () => screen.queryByTestId('resend-countdown');
  const resendButton = () => screen.getByRole('button', { name: 'Resend OTP' });
  const tick = (ms: number) => act(() => jest.advanceTimersByTime(ms));

  it('ticks every second from the API\'s resendAfterSeconds, then lets the code be sent again and restarts', async () => {
    const u = timed();
    const api = fakeApi({ resendAfterSeconds: 30 });
    renderPortal(api, '/');
    await typeCredentials('ba.admin@demo.test', PASSWORD, u);
    await screen.findByRole('form', { name: 'Verify OTP' });

    expect(countdown()).toHaveTextContent('00:30');
    expect(resendButton()).toBeDisabled();
    tick(1000);
    expect(countdown()).toHaveTextContent('00:29');
    tick(1000);
    expect(countdown()).toHaveTextContent('00:28');
    tick(28_000);
    expect(countdown()).not.toBeInTheDocument();
    expect(resendButton()).toBeEnabled();

    await u.click(resendButton());
    await waitFor(() => expect(api.sent('POST', '/api/auth/login/resend-otp')).toHaveLength(1));
    expect(api.sent('POST', '/api/auth/login/resend-otp')[0]?.body).toEqual({ challengeId: expect.any(String) });
    await waitFor(() => expect(countdown()).toHaveTextContent('00:30'));
    expect(await screen.findByText(loginTexts.otpResent)).toBeInTheDocument();
  });

  it("a 429 shows the server's message and restarts the countdown from Retry-After", async () => {
    const u = timed();
    const api = fakeApi({
      resendAfterSeconds: 1,
      intercept: (req) =>
        req.path === '/api/auth/login/resend-otp'
          ? { status: 429, body: { message: fakeTexts.resendTooSoon }, headers: { 'Retry-After': '12' } }
          : undefined,
    });
    renderPortal(api, '/');
    await typeCredentials('ba.admin@demo.test', PASSWORD, u);
    await screen.findByRole('form', { name: 'Verify OTP' });
    tick(1000);
    await u.click(resendButton());

    expect(await screen.findByText(fakeTexts.resendTooSoon)).toBeInTheDocument();
    await waitFor(() => expect(countdown()).toHaveTextContent('00:12'));
    expect(resendButton()).toBeDisabled();
    tick(1000);
    expect(countdown()).toHaveTextContent('00:11');
  });
});
