import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import { authProvider, NO_ACCESS_MESSAGE } from '../providers/authProvider';
import { sessionStore } from '../providers/httpClient';
import { installFetch, requests, type FakeReply, type FakeRoute } from '../testing/fakeFetch';
import { fakeDataProvider, me, renderConsole } from '../testing/fakes';
import type { OtpChallenge } from '../shared/types';
import { CAPTCHA_NEEDED_MESSAGE } from './CredentialsStep';


const challenge: OtpChallenge = {
  otpRequired: true,
  challengeId: 'ch-1',
  expiresInSeconds: 600,
  resendAfterSeconds: 30,
  sentTo: { mobile: '******3210', email: 'p***@demo.test' },
};
const signedOut: FakeReply = { status: 401, body: { status: 401, message: 'Session Timed out.Please login again' } };
const session = (user = me()): FakeReply => ({ body: { accessToken: 'tok-1', expiresIn: 900, user } });

/** The sign-in API as the contract describes it; `over` replaces single answers. */
function signInApi(over: Record<string, (body: Record<string, unknown>) => FakeReply | undefined> = {}) {
  const route: FakeRoute = (url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    const special = over[url.pathname]?.(body);
    if (special) return special;
    switch (url.pathname) {
      case '/api/auth/refresh':
        return signedOut;
      case '/api/auth/login':
        return { body: challenge };
      case '/api/auth/login/verify-otp':
        return body['otp'] === '123456'
          ? session()
          : { status: 400, body: { status: 400, message: 'Invalid OTP', errors: { otp: 'Invalid OTP' }, attemptsLeft: 4 } };
      case '/api/auth/login/resend-otp':
        return { body: { expiresInSeconds: 600, resendAfterSeconds: 45 } };
      case '/api/auth/logout':
        return { status: 204 };
      default:
        return undefined;
    }
  };
  return installFetch(route);
}

const bodiesTo = (fetch: jest.Mock, path: string) =>
  requests(fetch)
    .filter((r) => r.url.pathname === path)
    .map((r) => JSON.parse(String(r.body)) as Record<string, unknown>);

function openConsole(path = '/login') {
  const dataProvider = fakeDataProvider();
  renderConsole(path, { dataProvider, authProvider });
  return dataProvider;
}

async function enterCredentials(username = 'procurement@demo.test', password = 'Demo@2026') {
  await userEvent.type(await screen.findByLabelText('Username'), username);
  await userEvent.type(screen.getByLabelText('Password'), password);
}

afterEach(() => {
  jest.useRealTimers();
  sessionStore.set(null);
});

describe('Sign-in', () => {
  it('refuses empty fields with the spec message and sends nothing', async () => {
    const fetch = signInApi();
    openConsole();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByText(messages.required)).toHaveLength(2);
    expect(bodiesTo(fetch, '/api/auth/login')).toEqual([]);
  });

  it('sends the password with Enter, then the OTP; a deep link is where the visitor lands', async () => {
    const fetch = signInApi();
    const dataProvider = openConsole('/business-associates');
    await enterCredentials();
    await userEvent.keyboard('{Enter}');

    expect(await screen.findByTestId('otp-sent-to')).toHaveTextContent(
      'We have sent a 6-digit OTP to your mobile ******3210 and your e-mail p***@demo.test',
    );
    expect(bodiesTo(fetch, '/api/auth/login')).toEqual([{ username: 'procurement@demo.test', password: 'Demo@2026' }]);

    await userEvent.type(screen.getByLabelText('OTP'), '12345');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByText(messages.otp)).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('OTP'));
    await userEvent.type(screen.getByLabelText('OTP'), '654321{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid OTP. 4 attempts left');

    await userEvent.clear(screen.getByLabelText('OTP'));
    await userEvent.type(screen.getByLabelText('OTP'), '123456{Enter}');
    expect(await screen.findByRole('tab', { name: /All Request/ })).toBeInTheDocument();
    expect(bodiesTo(fetch, '/api/auth/login/verify-otp')).toEqual([
      { challengeId: 'ch-1', otp: '654321' },
      { challengeId: 'ch-1', otp: '123456' },
    ]);
    expect(dataProvider.getList).toHaveBeenCalledWith('business-associates', expect.anything());
  });

  it('offers a resend once the countdown, ticking every second, reaches zero', async () => {
    const fetch = signInApi({
      '/api/auth/login/resend-otp': () =>
        bodiesTo(fetch, '/api/auth/login/resend-otp').length > 1
          ? { status: 429, body: { status: 429, message: 'Please wait before asking for a new OTP' }, headers: { 'Retry-After': '20' } }
          : undefined,
    });
    openConsole();
    await enterCredentials();
    // Fake clocks from here on: the countdown is what is being timed.
    jest.useFakeTimers();
    const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));
    await click('Sign in');

    expect(await screen.findByTestId('resend-countdown')).toHaveTextContent('Resend OTP in 30 s');
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('Resend OTP in 29 s');
    act(() => jest.advanceTimersByTime(28_000));
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('Resend OTP in 1 s');
    expect(screen.queryByRole('button', { name: 'Resend OTP' })).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1000));

    await click('Resend OTP');
    expect(await screen.findByRole('status')).toHaveTextContent('A new OTP has been sent');
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('Resend OTP in 45 s');
    expect(bodiesTo(fetch, '/api/auth/login/resend-otp')).toEqual([{ challengeId: 'ch-1' }]);

    // Too soon for the API: its message shows and the countdown starts from the wait it names.
    act(() => jest.advanceTimersByTime(45_000));
    await click('Resend OTP');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please wait before asking for a new OTP');
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('Resend OTP in 20 s');
  });

  it('asks for the captcha once the API requires it and sends the solved payload', async () => {
    const failed = {
      status: 401,
      body: { status: 401, message: 'Invalid username or password', captchaRequired: true },
    };
    const fetch = signInApi({
      '/api/auth/login': (body) => (body['captcha'] === 'solved-payload' ? undefined : failed),
    });
    openConsole();
    expect(screen.queryByTestId('captcha')).not.toBeInTheDocument();
    await enterCredentials('procurement@demo.test', 'Wrong@2026');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    const widget = await screen.findByTestId('captcha');
    expect(widget).toHaveAttribute('challenge', '/api/auth/captcha');

    // Not solved yet: the form says so and sends nothing.
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText(CAPTCHA_NEEDED_MESSAGE)).toBeInTheDocument();
    expect(bodiesTo(fetch, '/api/auth/login')).toHaveLength(1);

    act(() => {
      widget.dispatchEvent(
        new CustomEvent('statechange', { detail: { state: 'verified', payload: 'solved-payload' } }),
      );
    });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByTestId('otp-sent-to')).toBeInTheDocument();
    expect(bodiesTo(fetch, '/api/auth/login')[1]).toEqual({
      username: 'procurement@demo.test',
      password: 'Wrong@2026',
      captcha: 'solved-payload',
    });
  });

  it("shows the server's message for a blocked account", async () => {
    const blocked = 'Your account has been blocked. Please contact admin team for support';
    signInApi({ '/api/auth/login': () => ({ status: 403, body: { status: 403, message: blocked } }) });
    openConsole();
    await enterCredentials();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(blocked);
  });

  it('turns a BA away after the OTP with the code-101 message, signed out again', async () => {
    const fetch = signInApi({
      '/api/auth/login/verify-otp': () => session(me({ roles: ['BA Admin'], application: 'portal' })),
    });
    openConsole();
    await enterCredentials('ba.admin@demo.test');
    await userEvent.keyboard('{Enter}');
    await userEvent.type(await screen.findByLabelText('OTP'), '123456{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(NO_ACCESS_MESSAGE);
    // Back on step 1, the username kept; the session the code opened is closed.
    expect(within(alert.parentElement as HTMLElement).getByLabelText('Username')).toHaveValue('ba.admin@demo.test');
    await waitFor(() => expect(requests(fetch).map((r) => r.url.pathname)).toContain('/api/auth/logout'));
    expect(sessionStore.get()).toBeNull();
  });
});
