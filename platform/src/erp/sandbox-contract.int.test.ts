import { ErpUnavailableError } from '../../../domain/src/erp/port';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { erpContract, run, settle, vendorData } from './erp-contract';
import { createHttpErp } from './http-erp';

let db: TestDatabase;
let sandbox: StartedErpSandbox;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  // Generous per-call timeout (a loaded machine); the timeout test uses an adapter of its own.
  sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 100, timeoutMs: 5000 });
});
afterEach(() => sandbox.resetFaults());
afterAll(async () => {
  await sandbox?.stop();
  await db?.drop();
});

erpContract(
  'sandbox ERP through the HTTP adapter',
  () => ({
    erp: sandbox.erp,
    rejectPans: (pans) => void sandbox.setFaults({ rejectPans: pans }),
    setProcessingMs: (ms) => sandbox.setProcessingMs(ms),
    processingMs: 100,
  }),
  'sbx',
);

describe('the sandbox ERP', () => {
  test('ten parallel submissions with one key: one request, one vendor, one code', async () => {
    const op = { op: 'create-parent', vendor: vendorData('CONPA1234A') } as const;
    const before = await sandbox.requestCount();
    const answers = await Promise.all(Array.from({ length: 10 }, () => sandbox.erp.submit('concurrent-key', op)));
    expect(new Set(answers.map((a) => a.requestId)).size).toBe(1);
    expect(await sandbox.requestCount()).toBe(before + 1);
    // Ten pollers at once: the code is allotted once, whoever processes the request.
    const outcomes = await Promise.all(answers.map((a) => settle(sandbox.erp, a.requestId)));
    expect(new Set(outcomes.map((o) => (o.state === 'done' ? o.vendorCode : o.state))).size).toBe(1);
    expect((await sandbox.vendors()).filter((v) => v.pan === 'CONPA1234A')).toHaveLength(1);
  });

  test('errorRate 1: every call is an outage (ErpUnavailableError) and nothing is accepted', async () => {
    const before = await sandbox.requestCount();
    sandbox.setFaults({ errorRate: 1 });
    await expect(sandbox.erp.submit('error-key', { op: 'create-parent', vendor: vendorData('ERRPA1234A') })).rejects.toBeInstanceOf(
      ErpUnavailableError,
    );
    await expect(sandbox.erp.vendorsByPan('ERRPA1234A')).rejects.toThrow(/answered 500 .*failed to handle/);
    expect(await sandbox.requestCount()).toBe(before);
  });

  test('downFor: 503 for that long from now, then the ERP answers again and the retry creates the vendor once', async () => {
    const op = { op: 'create-parent', vendor: vendorData('DWNPA1234A') } as const;
    const downAt = Date.now();
    sandbox.setFaults({ downFor: 1500 });
    await expect(sandbox.erp.submit('down-key', op)).rejects.toBeInstanceOf(ErpUnavailableError);
    let requestId: string | null = null;
    while (!requestId) {
      try {
        requestId = (await sandbox.erp.submit('down-key', op)).requestId;
      } catch (e) {
        expect(e).toBeInstanceOf(ErpUnavailableError);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // Accepted only once the downtime was over.
    expect(Date.now() - downAt).toBeGreaterThanOrEqual(1490);
    expect((await settle(sandbox.erp, requestId)).state).toBe('done');
    expect(await sandbox.erp.vendorsByPan('DWNPA1234A')).toHaveLength(1);
  });

  test('timeoutRate 1: the call is handled but never answered; the adapter times out; the retry finds the accepted request', async () => {
    const op = { op: 'create-parent', vendor: vendorData('TMOPA1234A') } as const;
    const before = await sandbox.requestCount();
    sandbox.setFaults({ timeoutRate: 1 });
    const impatient = createHttpErp({ url: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 1000 });
    const started = Date.now();
    await expect(impatient.submit('timeout-key', op)).rejects.toThrow(/did not answer POST \/erp\/v1\/requests within 1000 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // The answer was lost, the submission was not.
    expect(await sandbox.requestCount()).toBe(before + 1);
    sandbox.resetFaults();
    const { requestId } = await sandbox.erp.submit('timeout-key', op);
    expect((await settle(sandbox.erp, requestId)).state).toBe('done');
    expect(await sandbox.requestCount()).toBe(before + 1);
    expect(await sandbox.erp.vendorsByPan('TMOPA1234A')).toHaveLength(1);
  });

  test('latencyMs delays every ERP call', async () => {
    sandbox.setFaults({ latencyMs: 300 });
    const started = Date.now();
    await sandbox.erp.vendorsByPan('LATPA1234A');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test('the API key is required (401 → a plain error, not an outage); /health is open', async () => {
    const wrong = createHttpErp({ url: sandbox.url, apiKey: 'not-the-key', timeoutMs: 1000 });
    const error = await wrong.vendorsByPan('KEYPA1234A').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ErpUnavailableError);
    expect((error as Error).message).toMatch(/401/);
    const bare = await fetch(`${sandbox.url}/erp/v1/vendors?pan=KEYPA1234A`);
    expect(bare.status).toBe(401);
    expect((await fetch(`${sandbox.url}/health`)).status).toBe(200);
  });

  test('HTTP shape: 202 then 200 for the same key, 400 for a bad operation, 404 for an unknown request or vendor', async () => {
    const headers = { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ idempotencyKey: 'http-shape', operation: { op: 'create-parent', vendor: vendorData('HTTPA1234A') } });
    const first = await fetch(`${sandbox.url}/erp/v1/requests`, { method: 'POST', headers, body });
    expect(first.status).toBe(202);
    const accepted = (await first.json()) as { requestId: string; state: string };
    expect(accepted).toEqual({ requestId: expect.any(String), state: 'pending' });
    const second = await fetch(`${sandbox.url}/erp/v1/requests`, { method: 'POST', headers, body });
    expect(second.status).toBe(200);
    expect(((await second.json()) as { requestId: string }).requestId).toBe(accepted.requestId);

    const bad = await fetch(`${sandbox.url}/erp/v1/requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ idempotencyKey: 'bad', operation: { op: 'create-child', vendor: {} } }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/parentCode/);
    expect((await fetch(`${sandbox.url}/erp/v1/requests/nope`, { headers })).status).toBe(404);
    expect((await fetch(`${sandbox.url}/erp/v1/vendors/0000000000`, { headers })).status).toBe(404);
  });

  test('faults over HTTP: PUT sets (partially), GET shows, DELETE resets', async () => {
    const headers = { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' };
    const put = await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'PUT', headers, body: JSON.stringify({ errorRate: 0.5, downFor: 60_000 }) });
    expect(put.status).toBe(200);
    const shown = (await (await fetch(`${sandbox.url}/_sandbox/faults`, { headers })).json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ errorRate: 0.5, latencyMs: 0, timeoutRate: 0, rejectPans: [] });
    expect(shown.downFor).toBeGreaterThan(50_000);
    await expect(sandbox.erp.vendorsByPan('FLTPA1234A')).rejects.toBeInstanceOf(ErpUnavailableError);
    expect((await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'PUT', headers, body: JSON.stringify({ errorRate: 2 }) })).status).toBe(400);
    expect((await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE', headers })).status).toBe(200);
    expect(await sandbox.erp.vendorsByPan('FLTPA1234A')).toEqual([]);
  });

  test('a request stays pending for the processing time, then is decided even if nobody asks (background processing)', async () => {
    const { requestId } = await sandbox.erp.submit('background', { op: 'create-parent', vendor: vendorData('BGRPA1234A') });
    // Read the table, not the API (a status read would decide it): the background tick must get there alone.
    const row = async () =>
      (await db.pool.query('select state, vendor_code from erp_sandbox.requests where request_id = $1', [requestId])).rows;
    const deadline = Date.now() + 10_000;
    let rows = await row();
    while (rows[0]?.state === 'pending' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      rows = await row();
    }
    expect(rows[0]).toMatchObject({ state: 'done', vendor_code: expect.stringMatching(/^\d{10}$/) });
    expect(await run(sandbox.erp, 'background', { op: 'create-parent', vendor: vendorData('BGRPA1234A') })).toMatchObject({
      state: 'done',
      vendorCode: rows[0].vendor_code,
    });
  });
});
