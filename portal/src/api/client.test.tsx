import { ApiError, createApiClient, errorTexts } from './client';
import { completeDetails, fakeApi, PASSWORD } from '../testing/fakeApi';

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
    await client.login('ba.admin@demo.test', PASSWORD);

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
    await client.login('ba.admin@demo.test', PASSWORD);

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
});
