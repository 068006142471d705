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

  test('the ERP data of a row', () => {
    const d = erpVendorData({ ...example('Parent'), withholdingTaxType: 'WC', withholdingTaxCode: 'C2', subjectToWithholdingTax: 'X' });
    expect(d).toMatchObject({ pan: 'ABCDE1234F', companyCode: '1000', paymentTermsCode: 'Z030', bankKey: 'HDFC0001234', withholdingTax: { taxType: 'WC', taxCode: 'C2', subject: true }, exemption: null });
    expect(d.extra).toEqual({ 'Mobile Number Dept': 'Accounts', 'Bank Country': 'IN', 'GSTIN category': 'Registered' });
  });
});
