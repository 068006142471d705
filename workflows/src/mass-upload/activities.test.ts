import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import { columnsOf } from '../../../domain/src/mass-upload/columns';
import { massUploadStreamId, nucleusVendorStreamId } from '../../../domain/src/mass-upload/events';
import { foldNucleusVendor } from '../../../domain/src/mass-upload/vendor-state';
import type { NewEvent, StoredEvent } from '../../../domain/src/shared/events';
import { createInMemoryErp } from '../../../platform/src/erp/in-memory-erp';
import { createMassUploadActivities, erpVendorData } from './activities';

/** A store of streams in memory: enough for the activities (append 'any' with idempotent ids, read a stream). */
function memoryStore(): EventStore & { all: StoredEvent[] } {
  const all: StoredEvent[] = [];
  return {
    all,
    async appendToStream(streamId, events: readonly NewEvent[]) {
      const existing = all.find((e) => e.eventId === events[0]?.eventId);
      if (existing) return { nextExpectedVersion: existing.version, lastGlobalPosition: existing.globalPosition };
      let version = all.filter((e) => e.streamId === streamId).length - 1;
      for (const e of events) all.push({ ...e, streamId, version: ++version, globalPosition: all.length + 1, recordedAt: e.metadata.at, prevHash: '', hash: '' });
      return { nextExpectedVersion: version, lastGlobalPosition: all.length };
    },
    async readStream(streamId) {
      return all.filter((e) => e.streamId === streamId);
    },
    async readAll(after, limit) {
      return all.slice(after, after + limit);
    },
    async headPosition() {
      return all.length;
    },
    async close() {},
  };
}

const meta = { actor: { userId: 't', role: 'system' }, companyCode: null, correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: '2026-01-01T00:00:00Z' };
const example = (sheet: 'Parent' | 'Child') => Object.fromEntries(columnsOf('nucleus', sheet).filter((c) => c.example !== '').map((c) => [c.field, c.example]));

async function recordRows(store: EventStore, uploadId: string, kind: 'nucleus' | 'sap-verified', pans: string[], child = false) {
  let n = 0;
  for (const pan of pans) {
    const parent = { ...example('Parent'), pan, gstin: `27${pan}1Z5` };
    const rows: { row: 'parent' | 'child'; rowKey: string; values: Record<string, unknown> }[] = [{ row: 'parent', rowKey: `${pan}|1000`, values: parent }];
    if (child) rows.push({ row: 'child', rowKey: `${pan}|1000|27`, values: { ...example('Child'), pan, gstin: `27${pan}1Z5`, parentVendorCode: undefined } });
    await store.appendToStream(
      nucleusVendorStreamId(pan),
      rows.map((r) => ({ eventId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}${uploadId}`.slice(0, 36), type: 'NucleusVendorRecorded', data: { pan, kind, ...r, valuesHash: `h${n}`, uploadId }, metadata: meta })),
      { expectedVersion: 'any' },
    );
  }
  await store.appendToStream(massUploadStreamId(uploadId), [
    { eventId: `10000000-0000-4000-8000-00000000000${uploadId}`, type: 'MassUploadBatchRecorded', data: { uploadId, batch: 0, pans, created: pans.length, unchanged: 0 }, metadata: meta },
  ], { expectedVersion: 'any' });
}

/** Records one row of a vendor as an upload's recording does (and the upload's batch naming the PAN). */
async function recordRow(store: EventStore, uploadId: string, pan: string, row: 'parent' | 'child', over: Record<string, unknown> = {}) {
  const values = { ...example(row === 'parent' ? 'Parent' : 'Child'), pan, gstin: `27${pan}1Z5`, parentVendorCode: undefined, ...over };
  const rowKey = row === 'parent' ? `${pan}|1000` : `${pan}|1000|27`;
  await store.appendToStream(
    nucleusVendorStreamId(pan),
    [{ eventId: randomUUID(), type: 'NucleusVendorRecorded', data: { pan, kind: 'nucleus', row, rowKey, values, valuesHash: randomUUID(), uploadId }, metadata: meta }],
    { expectedVersion: 'any' },
  );
  await store.appendToStream(
    massUploadStreamId(uploadId),
    [{ eventId: randomUUID(), type: 'MassUploadBatchRecorded', data: { uploadId, batch: 0, pans: [pan], created: 1, unchanged: 0 }, metadata: meta }],
    { expectedVersion: 'any' },
  );
}

/** The answers recorded on a vendor's stream, as `type upload row`. */
const answers = (store: { all: StoredEvent[] }, pan: string) =>
  store.all
    .filter((e) => e.streamId === nucleusVendorStreamId(pan) && e.type !== 'NucleusVendorRecorded')
    .map((e) => `${e.type} ${(e.data as { uploadId: string }).uploadId} ${(e.data as { row: string }).row}`)
    .sort();

describe('mass-upload activities (in-memory ERP)', () => {
  test('nucleus: parents then children created once; a second run submits nothing new; short outages ridden out', async () => {
    const store = memoryStore();
    const erp = createInMemoryErp();
    const a = createMassUploadActivities({ store, erp });
    const pans = ['AAAAA1111A', 'BBBBB2222B', 'CCCCC3333C'];
    await recordRows(store, '1', 'nucleus', pans, true);
    erp.unavailable(3);
    const first = await a.pushMassUploadBatch({ uploadId: '1', kind: 'nucleus', batch: 0, pollMs: 1 });
    expect(first).toEqual({ vendors: 3, assigned: 6, refused: 0, notInErp: 0 });
    expect(erp.requests()).toHaveLength(6);
    const second = await a.pushMassUploadBatch({ uploadId: '1', kind: 'nucleus', batch: 0, pollMs: 1 });
    expect(second).toEqual(first);
    expect(erp.requests()).toHaveLength(6);
    for (const pan of pans) {
      const state = foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan)));
      const parent = state.rows.get(`${pan}|1000`)!;
      expect(parent.vendorCode).toMatch(/^\d{10}$/);
      expect(state.rows.get(`${pan}|1000|27`)!.parentCode).toBe(parent.vendorCode);
    }
    expect(erp.requests().map((r) => r.idempotencyKey).sort()).toEqual(pans.flatMap((p) => [`nucleus-${p}-1000`, `nucleus-${p}-1000-27`]).sort());
  });

  test('a long outage fails the batch (Temporal retries it) without recording anything wrong', async () => {
    const store = memoryStore();
    const erp = createInMemoryErp();
    const a = createMassUploadActivities({ store, erp });
    await recordRows(store, '2', 'nucleus', ['DDDDD4444D']);
    erp.unavailable(Infinity);
    await expect(a.pushMassUploadBatch({ uploadId: '2', kind: 'nucleus', batch: 0, pollMs: 1 })).rejects.toThrow();
    erp.recover();
    expect(await a.pushMassUploadBatch({ uploadId: '2', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 1 });
  });

  test('sap-verified: looks up by PAN, records the codes found, and NucleusVendorNotInErp otherwise', async () => {
    const store = memoryStore();
    const erp = createInMemoryErp();
    const seeded = erp.seed({ pan: 'EEEEE5555E', name: 'Known', companyCode: '1000' });
    const a = createMassUploadActivities({ store, erp });
    await recordRows(store, '3', 'sap-verified', ['EEEEE5555E', 'FFFFF6666F']);
    expect(await a.pushMassUploadBatch({ uploadId: '3', kind: 'sap-verified', batch: 0 })).toEqual({ vendors: 2, assigned: 1, refused: 0, notInErp: 1 });
    expect(foldNucleusVendor(await store.readStream(nucleusVendorStreamId('EEEEE5555E'))).rows.get('EEEEE5555E|1000')!.vendorCode).toBe(seeded.vendorCode);
    expect(store.all.filter((e) => e.type === 'NucleusVendorNotInErp')).toHaveLength(1);
    expect(erp.requests()).toHaveLength(0);
  });

  describe("a row recorded again by a later upload before the first upload's ERP step reached it", () => {
    // Upload A records a parent and its child; upload B records the parent again (a corrected city). Whichever
    // step runs first, each upload gets an answer for every row it recorded, the child gets its parent's code,
    // and the ERP is asked once per row key.
    for (const order of [['A', 'B'], ['B', 'A']] as const) {
      test(`steps run ${order.join(' then ')}`, async () => {
        const store = memoryStore();
        const erp = createInMemoryErp();
        const a = createMassUploadActivities({ store, erp });
        const pan = 'GGGGG7777G';
        await recordRow(store, 'A', pan, 'parent');
        await recordRow(store, 'A', pan, 'child');
        await recordRow(store, 'B', pan, 'parent', { city: 'Pune' });
        const results: Record<string, unknown> = {};
        for (const upload of order) results[upload] = await a.pushMassUploadBatch({ uploadId: upload, kind: 'nucleus', batch: 0, pollMs: 1 });
        expect(results).toEqual({
          A: { vendors: 1, assigned: 2, refused: 0, notInErp: 0 },
          B: { vendors: 1, assigned: 1, refused: 0, notInErp: 0 },
        });
        expect(answers(store, pan)).toEqual(['NucleusVendorCodeAssigned A child', 'NucleusVendorCodeAssigned A parent', 'NucleusVendorCodeAssigned B parent']);
        const rows = foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan))).rows;
        expect(rows.get(`${pan}|1000`)).toMatchObject({ uploads: ['A', 'B'], answeredFor: order.slice() });
        expect(rows.get(`${pan}|1000|27`)!.parentCode).toBe(rows.get(`${pan}|1000`)!.vendorCode);
        expect(erp.requests().map((r) => r.idempotencyKey).sort()).toEqual([`nucleus-${pan}-1000`, `nucleus-${pan}-1000-27`]);
        // Run again (a retried activity): nothing new is asked or written, the counts stand.
        const written = store.all.length;
        for (const upload of order) expect(await a.pushMassUploadBatch({ uploadId: upload, kind: 'nucleus', batch: 0, pollMs: 1 })).toEqual(results[upload]);
        expect(store.all.length).toBe(written);
        expect(erp.requests()).toHaveLength(2);
      });
    }
  });

  test("a child whose parent came with another upload not yet sent gets the parent's code, not a refusal", async () => {
    const store = memoryStore();
    const erp = createInMemoryErp();
    const a = createMassUploadActivities({ store, erp });
    const pan = 'HHHHH8888H';
    await recordRow(store, 'P', pan, 'parent');
    await recordRow(store, 'C', pan, 'child');
    expect(await a.pushMassUploadBatch({ uploadId: 'C', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 1, refused: 0 });
    // The parent's own answer is its upload's to record.
    expect(answers(store, pan)).toEqual(['NucleusVendorCodeAssigned C child']);
    expect(await a.pushMassUploadBatch({ uploadId: 'P', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 1, refused: 0 });
    const rows = foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan))).rows;
    expect(rows.get(`${pan}|1000|27`)!.parentCode).toBe(rows.get(`${pan}|1000`)!.vendorCode);
    expect(erp.requests()).toHaveLength(2);
  });

  test('a child whose parent has no row and no code is refused, and nothing is asked of the ERP', async () => {
    const store = memoryStore();
    const erp = createInMemoryErp();
    const a = createMassUploadActivities({ store, erp });
    const pan = 'JJJJJ9999J';
    await recordRow(store, 'R', pan, 'child');
    expect(await a.pushMassUploadBatch({ uploadId: 'R', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 0, refused: 1 });
    expect(store.all.find((e) => e.type === 'ErpRequestRefused')!.data).toMatchObject({ row: 'child', message: 'The parent vendor has no vendor code' });
    expect(erp.requests()).toHaveLength(0);
  });

  test('a row the ERP refused, recorded again with corrected values, is asked for again (not answered the old refusal)', async () => {
    const store = memoryStore();
    const erp = createInMemoryErp();
    const a = createMassUploadActivities({ store, erp });
    const pan = 'KKKKK1234K';
    await recordRow(store, 'P', pan, 'parent');
    expect(await a.pushMassUploadBatch({ uploadId: 'P', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 1 });
    const parentCode = foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan))).rows.get(`${pan}|1000`)!.vendorCode!;
    // A child naming a parent code the ERP does not know is refused…
    await recordRow(store, 'C1', pan, 'child', { parentVendorCode: '9999999999' });
    expect(await a.pushMassUploadBatch({ uploadId: 'C1', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 0, refused: 1 });
    expect(foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan))).rows.get(`${pan}|1000|27`)!.problem).toBe('Parent vendor 9999999999 does not exist');
    // …and the corrected row, in the next file, gets its code.
    await recordRow(store, 'C2', pan, 'child', { parentVendorCode: parentCode });
    expect(await a.pushMassUploadBatch({ uploadId: 'C2', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 1, refused: 0 });
    const child = foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan))).rows.get(`${pan}|1000|27`)!;
    expect(child).toMatchObject({ parentCode, problem: null });
    expect(child.vendorCode).toMatch(/^\d{10}$/);
    // A retried step asks nothing new.
    expect(await a.pushMassUploadBatch({ uploadId: 'C2', kind: 'nucleus', batch: 0, pollMs: 1 })).toMatchObject({ assigned: 1, refused: 0 });
    expect(erp.requests()).toHaveLength(3);
  });

  test('the ERP data of a row', () => {
    const d = erpVendorData({ ...example('Parent'), withholdingTaxType: 'WC', withholdingTaxCode: 'C2', subjectToWithholdingTax: 'X' });
    expect(d).toMatchObject({ pan: 'ABCDE1234F', companyCode: '1000', paymentTermsCode: 'Z030', bankKey: 'HDFC0001234', withholdingTax: { taxType: 'WC', taxCode: 'C2', subject: true }, exemption: null });
    expect(d.extra).toEqual({ 'Mobile Number Dept': 'Accounts', 'Bank Country': 'IN', 'GSTIN category': 'Registered' });
  });
});
