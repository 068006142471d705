import type { ErpOperation, ErpPort, ErpRequestStatus, ErpVendor, ErpVendorData } from '../../../domain/src/erp/port';

/**
 * The ERP contract as behaviour, run against every implementation: the in-memory fake (unit,
 * in-memory-erp.test.ts) and the sandbox ERP through the production HTTP adapter (integration,
 * sandbox-contract.int.test.ts). A fake that passes it behaves as the sandbox does for the code around it.
 */
export type ErpUnderTest = {
  erp: ErpPort & {
    vendor(vendorCode: string): Promise<ErpVendor | null>;
    listVendors(filter?: { source?: 'portal' | 'nucleus'; page?: number; perPage?: number }): Promise<{ vendors: ErpVendor[]; total: number }>;
  };
  /** Create requests for these PANs end rejected (the sandbox's `rejectPans` fault). */
  rejectPans(pans: string[]): void;
  /** How long requests submitted from now on stay pending. */
  setProcessingMs(ms: number): void;
  /** The processing time the implementation runs with in this suite. */
  processingMs: number;
};

export const vendorData = (pan: string, overrides: Partial<ErpVendorData> = {}): ErpVendorData => ({
  name: `Vendor ${pan}`,
  pan,
  companyCode: '1000',
  street: '1 Harbour Road',
  postalCode: '400001',
  city: 'Mumbai',
  region: '27',
  country: 'IN',
  mobileNo: '9876543210',
  email: 'accounts@example.com',
  bankAccount: '000123456789',
  bankKey: 'HDFC0000001',
  bankName: 'HDFC Bank',
  gstin: null,
  paymentTermsCode: 'Z030',
  reconAccount: '31000010',
  ...overrides,
});

/** Polls `status` until the request is decided (both implementations decide after their processing time). */
export async function settle(erp: ErpPort, requestId: string, timeoutMs = 15_000): Promise<ErpRequestStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await erp.status(requestId);
    if (status.state !== 'pending') return status;
    if (Date.now() > deadline) throw new Error(`request ${requestId} still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Submits and waits for the outcome. */
export async function run(erp: ErpPort, key: string, operation: ErpOperation): Promise<ErpRequestStatus> {
  const { requestId } = await erp.submit(key, operation);
  return settle(erp, requestId);
}

const doneCode = (s: ErpRequestStatus): string => {
  if (s.state !== 'done') throw new Error(`expected done, got ${JSON.stringify(s)}`);
  return s.vendorCode;
};

/**
 * Every PAN and key is unique per call of `erpContract` (`prefix`), so the suite may share a store with other
 * tests. PANs: five letters, four digits, a letter.
 */
export function erpContract(name: string, setup: () => ErpUnderTest, prefix: string) {
  let n = 0;
  const pan = () => {
    n += 1;
    const letters = prefix.toUpperCase().replace(/[^A-Z]/g, 'X').padEnd(3, 'X').slice(0, 3);
    return `${letters}P${String.fromCharCode(65 + (n % 26))}${String(1000 + n).slice(-4)}Z`;
  };
  const key = (what: string) => `${prefix}-${what}-${n}`;

  describe(`the ERP contract: ${name}`, () => {
    test('create-parent: accepted pending, then done with a 10-digit code; vendorsByPan finds the parent', async () => {
      const under = setup();
      const { erp } = under;
      const p = pan();
      // Long enough that a loaded machine still reads `pending` before it is decided.
      under.setProcessingMs(2000);
      const submitted = Date.now();
      const { requestId } = await erp.submit(key('parent'), { op: 'create-parent', vendor: vendorData(p) }).finally(() =>
        under.setProcessingMs(under.processingMs),
      );
      expect(await erp.status(requestId)).toEqual({ requestId, state: 'pending' });
      expect(await erp.vendorsByPan(p)).toEqual([]);
      const outcome = await settle(erp, requestId);
      expect(Date.now() - submitted).toBeGreaterThanOrEqual(1900);
      expect(outcome).toEqual({ requestId, state: 'done', vendorCode: expect.stringMatching(/^\d{10}$/), message: expect.any(String) });
      const code = doneCode(outcome);
      expect(await erp.vendorsByPan(p)).toEqual([
        {
          vendorCode: code,
          kind: 'parent',
          parentCode: null,
          companyCode: '1000',
          pan: p,
          name: `Vendor ${p}`,
          stateCode: null,
          gstin: null,
          paymentTermsCode: 'Z030',
          vendorCategory: null,
          reconAccount: '31000010',
          withholdingTax: null,
          blocked: false,
          source: 'portal',
        },
      ]);
      expect(await erp.vendor(code)).toMatchObject({ vendorCode: code, pan: p });
    });

    test('the same idempotency key always answers the same request: one vendor, before and after it is decided', async () => {
      const { erp } = setup();
      const p = pan();
      const k = key('idem');
      const op: ErpOperation = { op: 'create-parent', vendor: vendorData(p) };
      const first = await erp.submit(k, op);
      expect((await erp.submit(k, op)).requestId).toBe(first.requestId);
      const code = doneCode(await settle(erp, first.requestId));
      expect((await erp.submit(k, op)).requestId).toBe(first.requestId);
      expect(await erp.status(first.requestId)).toMatchObject({ state: 'done', vendorCode: code });
      expect(await erp.vendorsByPan(p)).toHaveLength(1);
    });

    test('a second parent for the same PAN and company code under another key is rejected; another company code is not', async () => {
      const { erp } = setup();
      const p = pan();
      const code = doneCode(await run(erp, key('dup-a'), { op: 'create-parent', vendor: vendorData(p) }));
      const again = await run(erp, key('dup-b'), { op: 'create-parent', vendor: vendorData(p) });
      expect(again).toMatchObject({ state: 'rejected', message: expect.stringContaining(code) });
      const other = await run(erp, key('dup-c'), { op: 'create-parent', vendor: vendorData(p, { companyCode: '2000' }) });
      expect(other.state).toBe('done');
      expect((await erp.vendorsByPan(p)).map((v) => v.companyCode).sort()).toEqual(['1000', '2000']);
    });

    test('create-child: under an existing parent, one per state; an unknown parent is rejected', async () => {
      const { erp } = setup();
      const p = pan();
      const parent = doneCode(await run(erp, key('cp'), { op: 'create-parent', vendor: vendorData(p) }));
      const child = doneCode(
        await run(erp, key('cc'), {
          op: 'create-child',
          parentCode: parent,
          stateCode: '27',
          vendor: vendorData(p, { gstin: `27${p}1Z5` }),
        }),
      );
      expect(child).toMatch(/^\d{10}$/);
      expect(child).not.toBe(parent);
      expect(await erp.vendor(child)).toMatchObject({ kind: 'child', parentCode: parent, stateCode: '27', gstin: `27${p}1Z5`, pan: p });
      expect((await erp.vendorsByPan(p)).map((v) => v.vendorCode)).toEqual([parent, child]);
      const sameState = await run(erp, key('cc2'), { op: 'create-child', parentCode: parent, stateCode: '27', vendor: vendorData(p) });
      expect(sameState).toMatchObject({ state: 'rejected', message: expect.stringContaining(child) });
      const orphan = await run(erp, key('orphan'), { op: 'create-child', parentCode: '9999999999', stateCode: '27', vendor: vendorData(p) });
      expect(orphan).toEqual({ requestId: expect.any(String), state: 'rejected', message: 'Parent vendor 9999999999 does not exist' });
    });

    test('set-payment-terms, set-vendor-category, change-recon-account, update-withholding-tax change the vendor', async () => {
      const { erp } = setup();
      const p = pan();
      const code = doneCode(await run(erp, key('set'), { op: 'create-parent', vendor: vendorData(p) }));
      const ops: ErpOperation[] = [
        { op: 'set-payment-terms', vendorCode: code, paymentTermsCode: 'Z045' },
        { op: 'set-vendor-category', vendorCode: code, vendorCategory: 'Transporter' },
        { op: 'change-recon-account', vendorCode: code, reconAccount: '31000099' },
        { op: 'update-withholding-tax', vendorCode: code, taxType: 'J1', taxCode: 'C1' },
      ];
      for (const [i, op] of ops.entries()) {
        expect(await run(erp, key(`set-${i}`), op)).toMatchObject({ state: 'done', vendorCode: code });
      }
      expect(await erp.vendor(code)).toMatchObject({
        paymentTermsCode: 'Z045',
        vendorCategory: 'Transporter',
        reconAccount: '31000099',
        withholdingTax: { taxType: 'J1', taxCode: 'C1' },
      });
    });

    test('set-* and block on an unknown vendor are rejected', async () => {
      const { erp } = setup();
      const ops: ErpOperation[] = [
        { op: 'set-payment-terms', vendorCode: '9999999998', paymentTermsCode: 'Z045' },
        { op: 'set-vendor-category', vendorCode: '9999999998', vendorCategory: 'Transporter' },
        { op: 'change-recon-account', vendorCode: '9999999998', reconAccount: '31000099' },
        { op: 'update-withholding-tax', vendorCode: '9999999998', taxType: 'J1', taxCode: 'C1' },
        { op: 'block', vendorCode: '9999999998', companyCode: '1000', scope: 'parent' },
        { op: 'unblock', vendorCode: '9999999998', companyCode: '1000', scope: 'parent' },
      ];
      for (const [i, op] of ops.entries()) {
        expect(await run(erp, key(`unknown-${i}`), op)).toMatchObject({ state: 'rejected', message: 'Vendor 9999999998 does not exist' });
      }
    });

    test('block and unblock toggle `blocked`; a parent block covers its children; blocking a blocked vendor is a no-op', async () => {
      const { erp } = setup();
      const p = pan();
      const parent = doneCode(await run(erp, key('bp'), { op: 'create-parent', vendor: vendorData(p) }));
      const child = doneCode(await run(erp, key('bc'), { op: 'create-child', parentCode: parent, stateCode: '29', vendor: vendorData(p) }));
      const blocked = async () => Object.fromEntries((await erp.vendorsByPan(p)).map((v) => [v.vendorCode, v.blocked]));

      expect(await run(erp, key('b1'), { op: 'block', vendorCode: child, companyCode: '1000', scope: 'child' })).toMatchObject({
        state: 'done',
        vendorCode: child,
      });
      expect(await blocked()).toEqual({ [parent]: false, [child]: true });
      expect(await run(erp, key('b2'), { op: 'unblock', vendorCode: child, companyCode: '1000', scope: 'child' })).toMatchObject({ state: 'done' });
      expect(await blocked()).toEqual({ [parent]: false, [child]: false });

      expect(await run(erp, key('b3'), { op: 'block', vendorCode: parent, companyCode: '1000', scope: 'parent' })).toMatchObject({ state: 'done' });
      expect(await blocked()).toEqual({ [parent]: true, [child]: true });
      const again = await run(erp, key('b4'), { op: 'block', vendorCode: parent, companyCode: '1000', scope: 'parent' });
      expect(again).toMatchObject({ state: 'done', vendorCode: parent, message: expect.stringContaining('already blocked') });
      expect(await run(erp, key('b5'), { op: 'unblock', vendorCode: parent, companyCode: '1000', scope: 'parent' })).toMatchObject({ state: 'done' });
      expect(await blocked()).toEqual({ [parent]: false, [child]: false });
    });

    test('block in another company code or with the wrong scope is rejected', async () => {
      const { erp } = setup();
      const p = pan();
      const parent = doneCode(await run(erp, key('bw'), { op: 'create-parent', vendor: vendorData(p) }));
      expect(await run(erp, key('bw1'), { op: 'block', vendorCode: parent, companyCode: '2000', scope: 'parent' })).toMatchObject({
        state: 'rejected',
      });
      expect(await run(erp, key('bw2'), { op: 'block', vendorCode: parent, companyCode: '1000', scope: 'child' })).toMatchObject({
        state: 'rejected',
      });
      expect((await erp.vendor(parent))?.blocked).toBe(false);
    });

    test('vendorsByPan answers [] for a PAN the ERP does not know; vendor() null for an unknown code', async () => {
      const { erp } = setup();
      expect(await erp.vendorsByPan(pan())).toEqual([]);
      expect(await erp.vendor('9999999997')).toBeNull();
    });

    test('an unknown request id is an error, not an outage', async () => {
      const { erp } = setup();
      const error = await erp.status('no-such-request').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).name).not.toBe('ErpUnavailableError');
    });

    test('create requests for PANs the ERP rejects end rejected, and nothing is created', async () => {
      const under = setup();
      const p = pan();
      under.rejectPans([p]);
      try {
        const outcome = await run(under.erp, key('rej'), { op: 'create-parent', vendor: vendorData(p) });
        expect(outcome).toMatchObject({ state: 'rejected', message: expect.stringContaining(p) });
        expect(await under.erp.vendorsByPan(p)).toEqual([]);
      } finally {
        under.rejectPans([]);
      }
    });

    test('vendors created by the Nucleus mass upload (keys nucleus-…) are listed with source=nucleus, their children too', async () => {
      const { erp } = setup();
      const p = pan();
      const parent = doneCode(await run(erp, `nucleus-${p}-1000-${prefix}`, { op: 'create-parent', vendor: vendorData(p) }));
      const child = doneCode(
        await run(erp, `nucleus-${p}-1000-27-${prefix}`, { op: 'create-child', parentCode: parent, stateCode: '27', vendor: vendorData(p) }),
      );
      const portal = doneCode(await run(erp, key('portal'), { op: 'create-parent', vendor: vendorData(pan()) }));
      const listed: string[] = [];
      for (let page = 1; ; page += 1) {
        const { vendors, total } = await erp.listVendors({ source: 'nucleus', page, perPage: 50 });
        listed.push(...vendors.map((v) => v.vendorCode));
        expect(vendors.every((v) => v.source === 'nucleus')).toBe(true);
        if (listed.length >= total || vendors.length === 0) break;
      }
      expect(listed).toEqual(expect.arrayContaining([parent, child]));
      expect(listed).not.toContain(portal);
    });
  });
}
