import { createHash, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { ErpUnavailableError, type ErpPort } from '../../../domain/src/erp/port';
import type { EventStore } from '../../../domain/src/event-store/port';
import { vendorCodeWorkbookStreamId } from '../../../domain/src/vendor-code-workbook/events';
import {
  CHILD_SHEET,
  COL,
  PARENT_SHEET,
  TEMPLATE_EXAMPLES,
  resultMessages,
  vendorRows,
  type WorkbookSheets,
} from '../../../domain/src/vendor-code-workbook/rules';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { startTestWorker } from '../testing/worker';
import { createVendorCodeWorkbookActivities } from './activities';
import { submitVendorCodeWorkbook, waitForVendorCodeWorkbook } from './client';
import type { VendorCodeWorkbookInput, WorkbookTiming } from './messages';

jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('vendor-code-workbook');
let store: EventStore;
let client: Client;
let stop: (() => Promise<void>) | undefined;
let pauseWorker: () => Promise<void>;
let resumeWorker: () => Promise<void>;
let sandbox: StartedErpSandbox;

// The worker is built before the sandbox exists (the sandbox lives in the worker's test database): its ERP
// activities reach the sandbox through this forwarder.
let target: ErpPort | null = null;
const erp: ErpPort = {
  submit: (key, op) => target!.submit(key, op),
  status: (id) => target!.status(id),
  vendorsByPan: (pan) => target!.vendorsByPan(pan),
};

beforeAll(async () => {
  const started = await startTestWorker(taskQueue, {
    activities: () => {
      // Only the ERP-facing activities are replaced; the appends stay the worker's own.
      const a = createVendorCodeWorkbookActivities({ store: null as unknown as EventStore, erp });
      return { workbookErpSubmit: a.workbookErpSubmit, workbookErpAwait: a.workbookErpAwait, workbookErpFindParent: a.workbookErpFindParent };
    },
  });
  ({ store, client, stop, pauseWorker, resumeWorker } = started);
  sandbox = await startErpSandbox({ databaseUrl: started.db.url, processingMs: 100, timeoutMs: 1000 });
  target = sandbox.erp;
});

afterAll(async () => {
  await sandbox?.stop();
  await stop?.();
});

afterEach(() => sandbox.resetFaults());

const timing: Partial<WorkbookTiming> = {
  retryInitialMs: 100,
  retryMaxMs: 400,
  giveUpMs: 60_000,
  pollInitialMs: 100,
  pollMaxMs: 300,
  pollWindowMs: 2000,
};

let pans = 0;
const letter = (i: number) => String.fromCharCode(65 + (i % 26));
/** A fresh company PAN (4th character C) and its GSTIN in state 27. */
function vendor(): { pan: string; gstin: string } {
  pans += 1;
  const pan = `AB${letter(pans)}C${letter(pans * 7)}${String(1000 + pans)}K`;
  return { pan, gstin: `27${pan}1ZA` };
}

const sheets = (parents: Record<string, string>[], children: Record<string, string>[]): WorkbookSheets => ({
  [PARENT_SHEET]: { headers: Object.keys(TEMPLATE_EXAMPLES.utility[PARENT_SHEET]), rows: parents },
  [CHILD_SHEET]: { headers: Object.keys(TEMPLATE_EXAMPLES.utility[CHILD_SHEET]), rows: children },
});
const parentRow = (pan: string) => ({ ...TEMPLATE_EXAMPLES.utility[PARENT_SHEET], [COL.pan]: pan });
const childRow = (pan: string, gstin: string) => ({ ...TEMPLATE_EXAMPLES.utility[CHILD_SHEET], [COL.pan]: pan, [COL.gstin]: gstin });

function inputOf(s: WorkbookSheets): VendorCodeWorkbookInput {
  const { parents, children } = vendorRows('utility', s);
  return {
    sha256: createHash('sha256').update(randomUUID()).digest('hex'),
    kind: 'utility',
    fileName: 'Utility-Vendor-Code-Template.xlsx',
    parents,
    children,
    actor: { userId: 'admin-1', role: 'MLL-ADMIN', name: 'Admin' },
    correlationId: randomUUID(),
    companyCode: '1000',
    timing,
  };
}

const run = async (input: VendorCodeWorkbookInput) => {
  const answer = await submitVendorCodeWorkbook(client, taskQueue, input, { waitMs: 60_000 });
  if (answer.state !== 'done') throw new Error('the run did not finish');
  return answer.result;
};
const typesOf = async (sha256: string) => (await store.readStream(vendorCodeWorkbookStreamId(sha256))).map((e) => e.type);

describe('vendor-code workbook workflow (against the sandbox ERP)', () => {
  test('parents, then their children with the parent code; a child of a parent already in the ERP; a child with none', async () => {
    const a = vendor();
    const b = vendor();
    const existing = vendor();
    const orphan = vendor();
    // A parent the ERP holds already (created outside this file).
    // The test's own call retries an outage as the workflow would (the adapter's timeout is short here).
    const retried = async <T>(call: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await call();
        } catch (e) {
          if (!(e instanceof ErpUnavailableError) || attempt >= 10) throw e;
        }
      }
    };
    const { requestId } = await retried(() => sandbox.erp.submit(`test-${existing.pan}`, {
      op: 'create-parent',
      vendor: {
        name: 'Existing Utility',
        pan: existing.pan,
        companyCode: '1000',
        street: 'Street 1',
        postalCode: '400001',
        city: 'Mumbai',
        region: '27',
        country: 'IN',
        mobileNo: '9876543210',
        email: 'x@example.com',
        bankAccount: null,
        bankKey: null,
        bankName: null,
        gstin: null,
        paymentTermsCode: 'Z030',
        reconAccount: null,
      },
    }));
    let existingCode = '';
    for (let s = await retried(() => sandbox.erp.status(requestId)); ; s = await retried(() => sandbox.erp.status(requestId))) {
      if (s.state === 'done') {
        existingCode = s.vendorCode;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const input = inputOf(
      sheets(
        [parentRow(a.pan), parentRow(b.pan)],
        [childRow(a.pan, a.gstin), childRow(existing.pan, existing.gstin), childRow(orphan.pan, orphan.gstin)],
      ),
    );
    const before = await sandbox.requestCount();
    const result = await run(input);

    expect(result.status).toBe('fail');
    expect(result.message).toBe(resultMessages.someFailed);
    const [pa, pb, ca, ce, co] = result.data;
    expect(pa).toMatchObject({ Type: 'Parent', PAN: a.pan, MSGTYPE: 'S', sheet: PARENT_SHEET, row: 2 });
    expect(pb).toMatchObject({ Type: 'Parent', PAN: b.pan, MSGTYPE: 'S', row: 3 });
    expect(ca).toMatchObject({ Type: 'Child', PAN: a.pan, MSGTYPE: 'S', sheet: CHILD_SHEET, row: 2 });
    expect(ce).toMatchObject({ Type: 'Child', PAN: existing.pan, MSGTYPE: 'S', row: 3 });
    expect(co).toEqual({
      Type: 'Child',
      PAN: orphan.pan,
      MSG: resultMessages.noParent(orphan.pan, '1000'),
      MSGTYPE: '',
      VEN_CODE: '',
      sheet: CHILD_SHEET,
      row: 4,
    });
    for (const r of [pa, pb, ca, ce]) expect(r?.VEN_CODE).toMatch(/^\d{10}$/);

    // In the ERP: each vendor once, the children under their parents, in the Region's state.
    const vendors = await sandbox.vendors();
    expect(await sandbox.requestCount()).toBe(before + 4);
    const byCode = new Map(vendors.map((v) => [v.vendorCode, v]));
    expect(byCode.get(pa!.VEN_CODE)).toMatchObject({ kind: 'parent', pan: a.pan, companyCode: '1000' });
    expect(byCode.get(ca!.VEN_CODE)).toMatchObject({ kind: 'child', parentCode: pa!.VEN_CODE, stateCode: '27', gstin: a.gstin });
    expect(byCode.get(ce!.VEN_CODE)).toMatchObject({ kind: 'child', parentCode: existingCode });
    expect(vendors.filter((v) => v.pan === orphan.pan)).toEqual([]);

    const types = await typesOf(input.sha256);
    expect(types[0]).toBe('VendorCodeWorkbookSubmitted');
    expect(types.at(-1)).toBe('VendorCodeWorkbookCompleted');
    expect(types.filter((t) => t === 'ErpRequestSubmitted')).toHaveLength(4);
    expect(types.filter((t) => t === 'WorkbookVendorCodeAssigned')).toHaveLength(4);
    expect(types.filter((t) => t === 'WorkbookRowNotCreated')).toHaveLength(1);

    // The same file again: the same answer, nothing new in the ERP or the stream.
    const again = await run(input);
    expect(again).toEqual(result);
    expect(await sandbox.requestCount()).toBe(before + 4);
    expect(await typesOf(input.sha256)).toEqual(types);
  });

  test('a rejected parent: E with the ERP message, its child not sent', async () => {
    const r = vendor();
    sandbox.setFaults({ rejectPans: [r.pan] });
    const input = inputOf(sheets([parentRow(r.pan)], [childRow(r.pan, r.gstin)]));
    const result = await run(input);
    expect(result.status).toBe('fail');
    expect(result.data[0]).toMatchObject({ Type: 'Parent', PAN: r.pan, MSGTYPE: 'E', VEN_CODE: '' });
    expect(result.data[0]?.MSG).not.toBe('');
    expect(result.data[1]).toMatchObject({ Type: 'Child', MSGTYPE: '', MSG: resultMessages.noParent(r.pan, '1000') });
    expect((await typesOf(input.sha256)).filter((t) => t === 'ErpRequestRefused')).toHaveLength(1);
  });

  test('5xx, timeouts and downtime in the middle: every code created exactly once, the outages recorded', async () => {
    const vs = [vendor(), vendor(), vendor()];
    const input = inputOf(sheets(vs.map((v) => parentRow(v.pan)), vs.map((v) => childRow(v.pan, v.gstin))));
    sandbox.setFaults({ errorRate: 0.4, timeoutRate: 0.2 });
    const before = await sandbox.requestCount();
    const pending = submitVendorCodeWorkbook(client, taskQueue, input, { waitMs: 90_000 });
    await new Promise((r) => setTimeout(r, 300));
    sandbox.setFaults({ downFor: 1500 });
    const answer = await pending;
    sandbox.resetFaults();
    if (answer.state !== 'done') throw new Error('the run did not finish');
    expect(answer.result.status).toBe('success');
    expect(answer.result.message).toBe(resultMessages.uploaded);
    expect(answer.result.data.map((r) => r.MSGTYPE)).toEqual(['S', 'S', 'S', 'S', 'S', 'S']);

    const vendors = await sandbox.vendors();
    for (const v of vs) {
      const mine = vendors.filter((x) => x.pan === v.pan);
      expect(mine.map((x) => x.kind).sort()).toEqual(['child', 'parent']);
    }
    expect(await sandbox.requestCount()).toBe(before + 6);
    expect((await typesOf(input.sha256)).filter((t) => t === 'ErpCallFailed').length).toBeGreaterThan(0);
  });

  test('a worker stopped mid-run: the next worker resumes it; each code still created once', async () => {
    const vs = [vendor(), vendor(), vendor(), vendor()];
    const input = inputOf(sheets(vs.map((v) => parentRow(v.pan)), vs.map((v) => childRow(v.pan, v.gstin))));
    const before = await sandbox.requestCount();
    const first = await submitVendorCodeWorkbook(client, taskQueue, input, { waitMs: 150 });
    expect(first.state).toBe('running');
    await pauseWorker();
    await new Promise((r) => setTimeout(r, 1000));
    await resumeWorker();
    const answer = await waitForVendorCodeWorkbook(client, input.sha256, 60_000);
    if (answer.state !== 'done') throw new Error('the run did not finish');
    expect(answer.result.data.map((r) => r.MSGTYPE)).toEqual(Array(8).fill('S'));
    expect(new Set(answer.result.data.map((r) => r.VEN_CODE)).size).toBe(8);
    expect(await sandbox.requestCount()).toBe(before + 8);
    expect((await sandbox.vendors()).filter((v) => vs.some((x) => x.pan === v.pan))).toHaveLength(8);
  });
});
