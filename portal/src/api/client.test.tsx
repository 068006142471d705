import { ApiError, createApiClient, errorTexts } from './client';
import { completeDetails, fakeApi, LOGIN_OTP, PASSWORD } from '../testing/fakeApi';

/** Signs in through both steps: password, then the OTP. */
async function signIn(client: ReturnType<typeof createApiClient>) {
  const challenge = await client.login('ba.admin@demo.test', PASSWORD);
  return client.verifyLoginOtp(challenge.challengeId, LOGIN_OTP);
}

describe('api client', () => {
  it('renews an expired access token once and retries the same action with the same idempotency key', async () => {
    let detailCalls = 0;
    const api = fakeApi({
      intercept: (req) =>
        req.path.endsWith('/details') && ++detailCalls === 1
          ? { status: 401, body: { message: 'jwt expired' } }
          : undefined,
    });
    const client = createApiClient({ fetch: api.fetch });
    await signIn(client);

    const row = await client.saveDetails('ba-1', completeDetails, 'key-1');

    expect(row.details).toEqual(completeDetails);
    const [first, retry] = api.sent('POST', '/api/business-associates/ba-1/details');
    expect(first?.headers['Authorization']).toBe('Bearer token-1');
    expect(retry?.headers['Authorization']).toBe('Bearer token-2');
    expect(retry?.headers['Idempotency-Key']).toBe('key-1');
    expect(first?.headers['Idempotency-Key']).toBe('key-1');
  });

  it('turns a problem+json answer into an ApiError with its message and field errors', async () => {
    const api = fakeApi({
      intercept: (req) =>
        req.path.endsWith('/submit')
          ? {
              status: 422,
              body: { status: 422, message: 'Incomplete', errors: { pinCode: 'This field is required' } },
            }
          : undefined,
    });
    const client = createApiClient({ fetch: api.fetch });
    await signIn(client);

    const error = await client.submit('ba-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: 'Incomplete',
      fieldErrors: { pinCode: 'This field is required' },
    });
  });

  it("uses the spec's texts when there is no answer, an empty body, or no message", async () => {
    const failing = (answer: () => Promise<Response>) => createApiClient({ fetch: answer as typeof fetch });
    const text = (status: number, body: string) =>
      Promise.resolve({
        status,
        ok: false,
        text: async () => body,
        json: async () => JSON.parse(body) as unknown,
      } as unknown as Response);

    const offline = failing(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(offline.login('a', 'b')).rejects.toMatchObject({ message: errorTexts.noResponse, code: 1 });
    await expect(failing(() => text(500, '')).login('a', 'b')).rejects.toMatchObject({
      message: errorTexts.emptyBody,
      code: 2,
    });
    await expect(failing(() => text(502, '<html>Bad gateway</html>')).login('a', 'b')).rejects.toMatchObject({
      message: errorTexts.ourEnd,
      code: 3,
    });
  });

  it('shares one refresh between concurrent callers, so a rotated refresh cookie is used once', async () => {
    const api = fakeApi({ session: null });
    const client = createApiClient({ fetch: api.fetch });
    const [a, b] = await Promise.all([client.refresh(), client.refresh()]);
    expect(a).toBeNull();
    expect(b).toBeNull();
    expect(api.sent('POST', '/api/auth/refresh')).toHaveLength(1);
  });

  it('keeps what a refusal says beyond its message: captchaRequired, attemptsLeft and Retry-After', async () => {
    const api = fakeApi({
      intercept: (req) => {
        if (req.path === '/api/auth/login')
          return { status: 401, body: { message: 'Invalid username or password', captchaRequired: true } };
        if (req.path === '/api/auth/login/verify-otp')
          return { status: 400, body: { message: 'Invalid OTP', errors: { otp: 'Invalid OTP' }, attemptsLeft: 2 } };
        if (req.path === '/api/auth/login/resend-otp')
          return { status: 429, body: { message: 'Please wait' }, headers: { 'Retry-After': '17' } };
        return undefined;
      },
    });
    const client = createApiClient({ fetch: api.fetch });

    await expect(client.login('a', 'b')).rejects.toMatchObject({ status: 401, captchaRequired: true });
    await expect(client.verifyLoginOtp('ch', '000000')).rejects.toMatchObject({ attemptsLeft: 2 });
    await expect(client.resendLoginOtp('ch')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 17 });
  });

  it('sends the solved captcha with the credentials only when there is one', async () => {
    const api = fakeApi();
    const client = createApiClient({ fetch: api.fetch });
    await client.login('ba.admin@demo.test', PASSWORD);
    await client.login('ba.admin@demo.test', PASSWORD, 'c29sdmVk');

    const [plain, withCaptcha] = api.sent('POST', '/api/auth/login');
    expect(plain?.body).toEqual({ username: 'ba.admin@demo.test', password: PASSWORD });
    expect(withCaptcha?.body).toEqual({ username: 'ba.admin@demo.test', password: PASSWORD, captcha: 'c29sdmVk' });
  });

  it('carries on with the token of a session-changing answer (active company, password change)', async () => {
    const api = fakeApi();
    const client = createApiClient({ fetch: api.fetch });
    await signIn(client);

    const switched = await client.setActiveCompany('1000');
    await client.me();
    expect(api.sent('GET', '/api/me')[0]?.headers['Authorization']).toBe(`Bearer ${switched.accessToken}`);
    expect(switched.accessToken).not.toBe('token-1');

    const changed = await client.changePassword({
      oldPassword: PASSWORD,
      newPassword: 'Fresh@2026',
      confirmPassword: 'Fresh@2026',
    });
    await client.me();
    expect(changed.message).toBe('Password changed successfully');
    expect(api.sent('GET', '/api/me')[1]?.headers['Authorization']).toBe(`Bearer ${changed.accessToken}`);
    expect(changed.accessToken).not.toBe(switched.accessToken);
  });
});
