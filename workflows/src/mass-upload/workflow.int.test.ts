import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { recordUpload, uploadIdOf } from '../../../api/src/mass-upload/record';
import { validateWorkbook } from '../../../api/src/mass-upload/validate';
import type { EventStore } from '../../../domain/src/event-store/port';
import { columnsOf, type MassUploadField, type MassUploadKind, type MassUploadSheet } from '../../../domain/src/mass-upload/columns';
import { nucleusVendorStreamId } from '../../../domain/src/mass-upload/events';
import { foldNucleusVendor } from '../../../domain/src/mass-upload/vendor-state';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { startErpSandbox, type StartedErpSandbox } from '../../../sandboxes/erp/src/testing';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { temporalAddress, uniqueTaskQueue, workflowBundle } from '../../../tests/support/temporal';
import { masterLookup } from '../shared/master-references';
import { createActivities } from '../worker';
import { startMassUploadErp } from './client';
import { massUploadWorkflowId, type MassUploadProgress } from './messages';
import type { massUploadWorkflow } from './workflow';

/**
 * The ERP step of a mass upload against the sandbox ERP: nucleus rows are created (parents, then children
 * with their parent's code) exactly once — also with 5xx, hanging requests and downtime switched on, and when
 * the step runs again; SAP-verified rows are looked up by PAN and the codes found recorded.
 */
jest.setTimeout(120_000);

const taskQueue = uniqueTaskQueue('mass-upload');
let db: TestDatabase;
let store: EventStore;
let sandbox: StartedErpSandbox;
let native: NativeConnection;
let connection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  db = await createTestDatabase();
  store = createPostgresEventStore(db.appPool);
  sandbox = await startErpSandbox({ databaseUrl: db.url, processingMs: 100, timeoutMs: 1000 });
  native = await NativeConnection.connect({ address: temporalAddress() });
  const activities = createActivities({ store, pool: db.appPool, masters: masterLookup(db.appPool), erp: sandbox.erp });
  worker = await Worker.create({ connection: native, taskQueue, workflowBundle: workflowBundle(), activities });
  running = worker.run();
  connection = await Connection.connect({ address: temporalAddress() });
  client = new Client({ connection });
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await native?.close();
  await sandbox?.stop();
  await db?.drop();
});

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const panOf = (prefix: string, i: number) => `${prefix}${LETTERS[Math.floor(i / 26) % 26]}${LETTERS[i % 26]}${String(1000 + i).slice(-4)}${LETTERS[(i * 7) % 26]}`;
type Row = Partial<Record<MassUploadField, string | null>>;
const rowFor = (kind: MassUploadKind, sheet: MassUploadSheet, pan: string, over: Row = {}): Row => ({
  ...Object.fromEntries(columnsOf(kind, sheet).map((c) => [c.field, c.example === '' ? null : c.example])),
  pan,
  gstin: `${over.region ?? '27'}${pan}1Z5`,
  name: `Vendor ${pan}`,
  ...over,
});

/** Validates and records a workbook as the API does; answers the upload id. */
async function recordWorkbook(kind: MassUploadKind, parents: Row[], children: Row[]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  for (const [sheet, rows] of [['Parent', parents], ['Child', children]] as const) {
    if (rows.length === 0) continue; // every sheet the workbook has must have rows
    const cols = columnsOf(kind, sheet);
    const ws = wb.addWorksheet(sheet);
    ws.addRow(cols.map((c) => c.column));
    for (const r of rows) ws.addRow(cols.map((c) => r[c.field] ?? null));
  }
  const buffer = Buffer.from(await wb.xlsx.writeBuffer());
  const validation = await validateWorkbook(kind, Readable.from(buffer));
  if (!validation.ok) throw new Error(`invalid workbook: ${JSON.stringify(validation)}`);
  const sha256 = require('node:crypto').createHash('sha256').update(buffer).digest('hex') as string;
  const uploadId = uploadIdOf(kind, sha256);
  await recordUpload(
    { pool: db.appPool, store },
    {
      kind,
      uploadId,
      fileName: 'test.xlsx',
      sha256,
      rows: validation.rows,
      parents: validation.parents,
      children: validation.children,
      actor: { userId: 'test', role: 'MLL-ADMIN' },
      requestId: null,
    },
  );
  return uploadId;
}

async function runErpStep(uploadId: string, kind: MassUploadKind): Promise<MassUploadProgress> {
  await startMassUploadErp(client, taskQueue, { uploadId, kind, pollMs: 50 });
  return client.workflow.getHandle<typeof massUploadWorkflow>(massUploadWorkflowId(uploadId)).result();
}

const vendorState = async (pan: string) => foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan)));

describe('nucleus', () => {
  const pans = Array.from({ length: 12 }, (_, i) => panOf('NUC', i));

  it('creates every parent, then its children with the parent code, exactly once, through faults', async () => {
    const parents = pans.map((pan) => rowFor('nucleus', 'Parent', pan));
    const children = pans.slice(0, 4).map((pan) => rowFor('nucleus', 'Child', pan, { parentVendorCode: null, region: '29' }));
    const uploadId = await recordWorkbook('nucleus', parents, children);
    const before = await sandbox.requestCount();
    // A third of the calls answer 5xx and some hang past the client's timeout: the batch is retried.
    sandbox.setFaults({ errorRate: 0.3, timeoutRate: 0.05 });
    const progress = await runErpStep(uploadId, 'nucleus');
    sandbox.resetFaults();
    expect(progress).toMatchObject({ vendors: 12, assigned: 16, refused: 0 });
    expect(await sandbox.requestCount()).toBe(before + 16);

    const erpVendors = (await sandbox.vendors()).filter((v) => pans.includes(v.pan));
    expect(erpVendors.filter((v) => v.kind === 'parent')).toHaveLength(12);
    expect(erpVendors.filter((v) => v.kind === 'child')).toHaveLength(4);
    for (const pan of pans) {
      const state = await vendorState(pan);
      const parent = state.rows.get(`${pan}|1000`)!;
      const erpParent = erpVendors.find((v) => v.pan === pan && v.kind === 'parent')!;
      expect(parent.vendorCode).toBe(erpParent.vendorCode);
      expect(erpParent.source).toBe('nucleus');
      const child = state.rows.get(`${pan}|1000|29`);
      if (pans.indexOf(pan) < 4) {
        const erpChild = erpVendors.find((v) => v.pan === pan && v.kind === 'child')!;
        expect(child?.vendorCode).toBe(erpChild.vendorCode);
        expect(erpChild.parentCode).toBe(erpParent.vendorCode);
        expect(child?.parentCode).toBe(erpParent.vendorCode);
      } else expect(child).toBeUndefined();
    }

    // The same step once more (as a retry after a crash would): nothing new in the ERP or the streams.
    const eventsBefore = (await store.readStream(nucleusVendorStreamId(pans[0]!))).length;
    const again = await client.workflow.execute('massUploadWorkflow', {
      workflowId: `${massUploadWorkflowId(uploadId)}-again`,
      taskQueue,
      args: [{ uploadId, kind: 'nucleus', pollMs: 50 }],
    });
    expect(again).toMatchObject({ vendors: 12, assigned: 16, refused: 0 });
    expect(await sandbox.requestCount()).toBe(before + 16);
    expect((await store.readStream(nucleusVendorStreamId(pans[0]!))).length).toBe(eventsBefore);
    // Starting the upload's own workflow again starts nothing (it completed).
    expect(await startMassUploadErp(client, taskQueue, { uploadId, kind: 'nucleus' })).toBe(false);
  });

  it('the ERP down in the middle: the step waits and creates each vendor once', async () => {
    const more = Array.from({ length: 6 }, (_, i) => panOf('DWN', i));
    const uploadId = await recordWorkbook('nucleus', more.map((pan) => rowFor('nucleus', 'Parent', pan)), []);
    const before = await sandbox.requestCount();
    sandbox.setFaults({ downFor: 3000 });
    const progress = await runErpStep(uploadId, 'nucleus');
    expect(progress).toMatchObject({ vendors: 6, assigned: 6 });
    expect(await sandbox.requestCount()).toBe(before + 6);
    expect((await sandbox.vendors()).filter((v) => more.includes(v.pan))).toHaveLength(6);
  });

  it('a refused parent: ErpRequestRefused, and its child is refused without asking the ERP', async () => {
    const pan = panOf('REJ', 1);
    sandbox.setFaults({ rejectPans: [pan] });
    const uploadId = await recordWorkbook('nucleus', [rowFor('nucleus', 'Parent', pan)], [rowFor('nucleus', 'Child', pan, { parentVendorCode: null })]);
    const progress = await runErpStep(uploadId, 'nucleus');
    sandbox.resetFaults();
    expect(progress).toMatchObject({ assigned: 0, refused: 2 });
    const events = await store.readStream(nucleusVendorStreamId(pan));
    expect(events.filter((e) => e.type === 'ErpRequestRefused').map((e) => (e.data as { operation: string }).operation)).toEqual([
      'create-parent',
      'create-child',
    ]);
  });
});

describe('sap-verified', () => {
  it('records the codes the ERP has for each PAN, and NucleusVendorNotInErp for the others', async () => {
    // Vendors in the ERP already, made there (not through the portal).
    const known = [panOf('SAP', 1), panOf('SAP', 2)];
    const settle = async (key: string, op: Parameters<StartedErpSandbox['erp']['submit']>[1]) => {
      const { requestId } = await sandbox.erp.submit(key, op);
      for (;;) {
        const s = await sandbox.erp.status(requestId);
        if (s.state === 'done') return s.vendorCode;
        if (s.state === 'rejected') throw new Error(s.message);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const data = (pan: string) => ({ name: `ERP ${pan}`, pan, companyCode: '2000', street: null, postalCode: null, city: null, region: '27', country: 'IN', mobileNo: null, email: null, bankAccount: null, bankKey: null, bankName: null, gstin: null, paymentTermsCode: null, reconAccount: null });
    const codes = await Promise.all(known.map((pan) => settle(`sap-setup-${pan}`, { op: 'create-parent', vendor: data(pan) })));
    const parentCode = codes[0]!;
    const childCode = await settle(`sap-setup-${known[0]}-27`, { op: 'create-child', parentCode, stateCode: '27', vendor: data(known[0]!) });

    const unknown = panOf('SAP', 9);
    const before = await sandbox.requestCount();
    const uploadId = await recordWorkbook(
      'sap-verified',
      [...known, unknown].map((pan) => rowFor('sap-verified', 'Parent', pan, { companyCode: '2000', name: `Verified ${pan}` })),
      [rowFor('sap-verified', 'Child', known[0]!, { companyCode: '2000', region: '27', parentVendorCode: parentCode })],
    );
    const progress = await runErpStep(uploadId, 'sap-verified');
    expect(progress).toMatchObject({ vendors: 3, assigned: 3, notInErp: 1 });
    // Looking up creates nothing.
    expect(await sandbox.requestCount()).toBe(before);
    const state = await vendorState(known[0]!);
    expect(state.rows.get(`${known[0]}|2000`)?.vendorCode).toBe(parentCode);
    expect(state.rows.get(`${known[0]}|2000|27`)?.vendorCode).toBe(childCode);
    const missing = await vendorState(unknown);
    expect(missing.rows.get(`${unknown}|2000`)?.problem).toBe('not-in-erp');
  });
});
