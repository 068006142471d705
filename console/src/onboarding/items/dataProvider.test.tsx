import { installFetch, requests } from '../../testing/fakeFetch';
import { me } from '../../testing/identity';
import { sessionStore } from '../../providers/httpClient';
import { createDataProvider } from '../../providers/dataProvider';

/** The item calls of the console's data provider against a fake fetch: paths, bodies, headers, paging. */
beforeEach(() => sessionStore.set({ accessToken: 'tok', user: me() }));
afterEach(() => sessionStore.set(null));

describe('item methods of the data provider', () => {
  it('posts an item command as JSON with its Idempotency-Key and the bearer token', async () => {
    const fetch = installFetch(() => ({ body: { id: 'doc-1', reviewStatus: 'approved', message: 'Document Approved successfully' } }));
    const json = await createDataProvider().baCommand('ba-1', 'documents/doc-1/approve', { approvedTill: '2026-12-31' }, 'key-1');
    expect(json).toMatchObject({ message: 'Document Approved successfully' });
    const [request] = requests(fetch);
    expect(`${request!.method} ${request!.url.pathname}`).toBe('POST /api/business-associates/ba-1/documents/doc-1/approve');
    expect(request!.headers.get('Idempotency-Key')).toBe('key-1');
    expect(request!.headers.get('Authorization')).toBe('Bearer tok');
    expect(JSON.parse(String(request!.body))).toEqual({ approvedTill: '2026-12-31' });
  });

  it('uploads a concession as multipart (no JSON content type)', async () => {
    const fetch = installFetch(() => ({ status: 201, body: { id: 'con-1' } }));
    const form = new FormData();
    form.append('exemptionNumber', 'LDC-1');
    await createDataProvider().baUpload('ba-1', 'concessions', form, 'key-2');
    const [request] = requests(fetch);
    expect(`${request!.method} ${request!.url.pathname}`).toBe('POST /api/business-associates/ba-1/concessions');
    expect(request!.body).toBe(form);
    expect(request!.headers.get('Content-Type')).toBeNull();
  });

  it('reads an item list under the BA', async () => {
    const fetch = installFetch(() => ({ body: [{ id: 'acc-1' }], headers: { 'Content-Range': 'bank-accounts 0-0/1' } }));
    expect(await createDataProvider().getBaItems('ba-1', 'bank-accounts')).toEqual([{ id: 'acc-1' }]);
    expect(requests(fetch)[0]!.url.pathname).toBe('/api/business-associates/ba-1/bank-accounts');
  });

  it('pages the activity log newest first with only the filters set, and reads the total', async () => {
    const fetch = installFetch(() => ({ body: [{ id: 42 }], headers: { 'Content-Range': 'activity-log 20-20/41' } }));
    const page = await createDataProvider().getActivityLogPage('ba-1', {
      filter: { action: 'Document', q: undefined, status: 'approved', from: '2025-11-01T00:00:00.000Z' },
      page: 2,
      perPage: 10,
    });
    expect(page).toEqual({ data: [{ id: 42 }], total: 41 });
    const url = requests(fetch)[0]!.url;
    expect(url.pathname).toBe('/api/business-associates/ba-1/activity-log');
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual({
      action: 'Document',
      status: 'approved',
      from: '2025-11-01T00:00:00.000Z',
    });
    expect(url.searchParams.get('sort')).toBe('["id","DESC"]');
    expect(url.searchParams.get('range')).toBe('[20,29]');
  });

  it("sends another company code's decision with the code", async () => {
    const fetch = installFetch(() => ({ body: { id: 'ba-1' } }));
    await createDataProvider().approve('ba-1', { stage: 1, remarks: null, idempotencyKey: 'k', companyCode: '2000' });
    expect(JSON.parse(String(requests(fetch)[0]!.body))).toEqual({ stage: 1, remarks: null, companyCode: '2000' });
  });
});
