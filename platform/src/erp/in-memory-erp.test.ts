import { ErpUnavailableError } from '../../../domain/src/erp/port';
import { erpContract, run, vendorData } from './erp-contract';
import { createInMemoryErp, type InMemoryErp } from './in-memory-erp';

// A processing time long enough that the first status read still sees `pending`, as with the sandbox.
let fake: InMemoryErp = createInMemoryErp({ processingMs: 30 });
beforeEach(() => {
  fake = createInMemoryErp({ processingMs: 30 });
});

erpContract(
  'in-memory fake',
  () => ({ erp: fake, rejectPans: (pans) => fake.rejectPans(pans), setProcessingMs: (ms) => fake.setProcessingMs(ms), processingMs: 30 }),
  'mem',
);

describe('the in-memory fake for unit tests', () => {
  test('ten submissions at once with one key make one request and one vendor', async () => {
    const op = { op: 'create-parent', vendor: vendorData('MEMPA1234A') } as const;
    const answers = await Promise.all(Array.from({ length: 10 }, () => fake.submit('same-key', op)));
    expect(new Set(answers.map((a) => a.requestId)).size).toBe(1);
    expect(fake.submitCalls()).toBe(10);
    fake.settle();
    expect(fake.requests()).toHaveLength(1);
    expect(fake.vendors()).toHaveLength(1);
  });

  test('unavailable(n): the next n calls are outages, then it answers again; the retry finds the same request', async () => {
    const op = { op: 'create-parent', vendor: vendorData('MEMPB1234B') } as const;
    const { requestId } = await fake.submit('k', op);
    fake.unavailable(2);
    await expect(fake.submit('k', op)).rejects.toBeInstanceOf(ErpUnavailableError);
    await expect(fake.status(requestId)).rejects.toBeInstanceOf(ErpUnavailableError);
    expect((await fake.submit('k', op)).requestId).toBe(requestId);
    fake.unavailable();
    await expect(fake.vendorsByPan('MEMPB1234B')).rejects.toBeInstanceOf(ErpUnavailableError);
    fake.recover();
    fake.settle();
    expect(await fake.vendorsByPan('MEMPB1234B')).toHaveLength(1);
  });

  test('processingMs 0 (the default): decided at the first status read; seed() adds a vendor the ERP already had', async () => {
    const erp = createInMemoryErp();
    const seeded = erp.seed({ pan: 'MEMPC1234C', name: 'Nucleus Ltd', companyCode: '1000' });
    expect(seeded).toMatchObject({ kind: 'parent', source: 'nucleus', blocked: false, vendorCode: '1000000001' });
    const outcome = await run(erp, 'b', { op: 'block', vendorCode: seeded.vendorCode, companyCode: '1000', scope: 'parent' });
    expect(outcome).toMatchObject({ state: 'done' });
    expect((await erp.vendorsByPan('mempc1234c'))[0]?.blocked).toBe(true);
  });

  test('what it returns is a copy: changing it does not change the ERP', async () => {
    const erp = createInMemoryErp();
    const v = erp.seed({ pan: 'MEMPD1234D', name: 'Copy Ltd', companyCode: '1000' });
    v.blocked = true;
    (await erp.vendorsByPan('MEMPD1234D'))[0]!.name = 'changed';
    expect(await erp.vendor(v.vendorCode)).toMatchObject({ blocked: false, name: 'Copy Ltd' });
  });
});
