import { sessionStore } from '../providers/httpClient';
import { me } from '../testing/identity';
import { masterMethods, toChange, toCounts } from './dataProvider';

/** A Response-like answer with the parts the masters calls read (jsdom has no fetch). */
function reply(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    statusText: String(status),
    ok: status >= 200 && status < 300,
    headers: new Headers(headers),
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    blob: async () => new Blob([text]),
  };
}

function installFetch(...answers: ReturnType<typeof reply>[]) {
  const mock = jest.fn(async () => answers.shift() ?? reply(404, { message: 'Not found' }));
  (globalThis as { fetch?: unknown }).fetch = mock;
  return mock;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeEach(() => sessionStore.set({ accessToken: 'tok', user: me({ roles: ['MLL-ADMIN'] }) }));

describe('masters data provider', () => {
  it('reads the counts per master', async () => {
    const fetch = installFetch(
      reply(200, [{ master: 'cities', label: 'Cities', active: 300, inactive: 2 }], { 'Content-Type': 'application/json' }),
    );
    expect(await masterMethods.getMasterCounts()).toEqual([{ master: 'cities', active: 300, inactive: 2 }]);
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('/api/masters/counts');
  });

  it('turns the item’s events into history rows: who, when, before and after', async () => {
    const actor = { userId: 'u-1', role: 'MDM', name: 'Meena MDM' };
    installFetch(
      reply(200, [
        { version: 0, type: 'MasterItemCreated', data: { values: { taxRate: 2 } }, actor, at: '2025-11-01T00:00:00Z' },
        { version: 1, type: 'MasterItemChanged', data: { before: { taxRate: 2 }, after: { taxRate: 1 } }, actor, at: 'b' },
        { version: 2, type: 'MasterItemStatusChanged', data: { status: 'inactive' }, actor, at: 'c' },
      ]),
    );
    const rows = await masterMethods.getMasterHistory('tax-types', 5);
    expect(rows).toEqual([
      { id: '0', type: 'MasterItemCreated', at: '2025-11-01T00:00:00Z', who: 'Meena MDM', role: 'MDM', before: {}, after: { taxRate: 2 } },
      { id: '1', type: 'MasterItemChanged', at: 'b', who: 'Meena MDM', role: 'MDM', before: { taxRate: 2 }, after: { taxRate: 1 } },
      { id: '2', type: 'MasterItemStatusChanged', at: 'c', who: 'Meena MDM', role: 'MDM', before: { status: 'active' }, after: { status: 'inactive' } },
    ]);
  });

  it('downloads an export under the name the API gives, with the access token', async () => {
    const fetch = installFetch(
      reply(200, 'xlsx', { 'Content-Type': XLSX, 'Content-Disposition': `attachment; filename="cities.xlsx"; filename*=UTF-8''cities.xlsx` }),
    );
    const { fileName } = await masterMethods.exportMaster('cities');
    expect(fileName).toBe('cities.xlsx');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/cities/export');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('uploads an import as multipart and reads a 422 workbook as the rows in error', async () => {
    const fetch = installFetch(
      reply(422, 'xlsx', { 'Content-Type': XLSX, 'Content-Disposition': 'attachment; filename="cities-import-errors.xlsx"' }),
    );
    const file = new File(['x'], 'cities.xlsx', { type: XLSX });
    const outcome = await masterMethods.importMaster('cities', file);
    expect(outcome).toMatchObject({ ok: false, errorWorkbook: { fileName: 'cities-import-errors.xlsx' } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/cities/import');
    expect(init.method).toBe('POST');
    expect((init.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('reads a passed import’s counts, and a refusal in JSON as an error with the API’s message', async () => {
    installFetch(
      reply(200, { created: 2, updated: 1, unchanged: 0, message: 'Cities imported successfully' }, { 'Content-Type': 'application/json' }),
      reply(415, { message: 'Invalid file type selected. Please select excel file (.xlsx) only.' }, { 'Content-Type': 'application/problem+json' }),
    );
    const file = new File(['x'], 'cities.xlsx');
    expect(await masterMethods.importMaster('cities', file)).toEqual({
      ok: true,
      result: { created: 2, updated: 1, unchanged: 0, message: 'Cities imported successfully' },
    });
    await expect(masterMethods.importMaster('cities', file)).rejects.toMatchObject({
      status: 415,
      message: 'Invalid file type selected. Please select excel file (.xlsx) only.',
    });
  });

  it('accepts counts keyed by master and events in their stored form', () => {
    expect(toCounts({ states: { active: 36, inactive: 0 } })).toEqual([{ master: 'states', active: 36, inactive: 0 }]);
    expect(
      toChange(
        { eventId: 'e', type: 'MasterItemCreated', data: { values: { name: 'X' } }, metadata: { actor: { userId: 'u' }, at: 't' } },
        0,
      ),
    ).toMatchObject({ id: 'e', who: 'u', at: 't', after: { name: 'X' } });
  });
});
