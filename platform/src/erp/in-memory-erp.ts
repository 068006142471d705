import { randomUUID } from 'node:crypto';
import {
  ErpUnavailableError,
  type ErpOperation,
  type ErpPort,
  type ErpRequestStatus,
  type ErpVendor,
} from '../../../domain/src/erp/port';

/**
 * An ERP in memory, for unit tests of code around the port: the sandbox ERP's semantics (sandboxes/erp, the
 * same contract suite runs against both — platform/src/erp/erp-contract.ts) without HTTP or a database.
 * - `submit` answers the same request id for the same idempotency key, whatever its state;
 * - a request stays pending for `processingMs` (default 0: decided at the first `status`), then is decided
 *   by the same rules as the sandbox (create-child needs its parent, set-* and block need the vendor, …);
 * - `unavailable(n)` makes the next n calls throw ErpUnavailableError (an outage), `rejectPans` rejects
 *   create requests for those PANs.
 */
export type InMemoryErp = ErpPort & {
  vendor(vendorCode: string): Promise<ErpVendor | null>;
  listVendors(filter?: { source?: 'portal' | 'nucleus'; page?: number; perPage?: number }): Promise<{ vendors: ErpVendor[]; total: number }>;
  /** Every vendor, by code. */
  vendors(): ErpVendor[];
  /** Every submission as accepted: one per idempotency key. */
  requests(): { requestId: string; idempotencyKey: string; operation: ErpOperation; status: ErpRequestStatus }[];
  /** How many times `submit` was called (a retry counts; it still makes no second request). */
  submitCalls(): number;
  /** The next `calls` calls (submit, status, vendorsByPan…) throw ErpUnavailableError; Infinity: until `recover()`. */
  unavailable(calls?: number): void;
  recover(): void;
  rejectPans(pans: string[]): void;
  /** How long requests submitted from now on stay pending. */
  setProcessingMs(ms: number): void;
  /** Decides every pending request now, whatever its due time. */
  settle(): void;
  /** Adds a vendor as if it had been in the ERP before (a Nucleus vendor, a code made elsewhere). */
  seed(vendor: Partial<ErpVendor> & Pick<ErpVendor, 'pan' | 'name' | 'companyCode'>): ErpVendor;
};

type Request = { requestId: string; idempotencyKey: string; operation: ErpOperation; dueAt: number; status: ErpRequestStatus };

export function createInMemoryErp(options: { processingMs?: number; now?: () => number; firstCode?: number } = {}): InMemoryErp {
  let processingMs = options.processingMs ?? 0;
  const now = options.now ?? Date.now;
  const byKey = new Map<string, Request>();
  const byId = new Map<string, Request>();
  const vendors = new Map<string, ErpVendor>();
  let nextCode = options.firstCode ?? 1_000_000_001;
  let failures = 0;
  let rejected: string[] = [];
  let calls = 0;

  const gate = (what: string) => {
    if (failures > 0) {
      failures -= 1;
      throw new ErpUnavailableError(`The ERP could not be reached (${what}): in-memory outage`);
    }
  };
  const copy = (v: ErpVendor): ErpVendor => structuredClone(v);
  const code = () => String(nextCode++);

  type Outcome = { state: 'done'; vendorCode: string; message: string; documentNumber?: string } | { state: 'rejected'; message: string };
  let nextDocument = 5_100_000_001;

  function apply(op: ErpOperation, key: string): Outcome {
    switch (op.op) {
      case 'create-parent': {
        const d = op.vendor;
        const pan = d.pan.toUpperCase();
        if (rejected.includes(pan)) return { state: 'rejected', message: `PAN ${d.pan} is rejected by the ERP` };
        const existing = [...vendors.values()].find((v) => v.kind === 'parent' && v.pan === pan && v.companyCode === d.companyCode);
        if (existing) {
          return { state: 'rejected', message: `A vendor with PAN ${d.pan} already exists in company code ${d.companyCode}: ${existing.vendorCode}` };
        }
        const vendorCode = code();
        vendors.set(vendorCode, {
          vendorCode,
          kind: 'parent',
          parentCode: null,
          companyCode: d.companyCode,
          pan,
          name: d.name,
          stateCode: null,
          gstin: d.gstin,
          paymentTermsCode: d.paymentTermsCode,
          vendorCategory: null,
          reconAccount: d.reconAccount,
          withholdingTax: d.withholdingTax ? { taxType: d.withholdingTax.taxType, taxCode: d.withholdingTax.taxCode } : null,
          blocked: false,
          source: key.startsWith('nucleus-') || d.extra?.source === 'nucleus' ? 'nucleus' : 'portal',
        });
        return { state: 'done', vendorCode, message: `Vendor ${vendorCode} created` };
      }
      case 'create-child': {
        const d = op.vendor;
        if (rejected.includes(d.pan.toUpperCase())) return { state: 'rejected', message: `PAN ${d.pan} is rejected by the ERP` };
        const parent = vendors.get(op.parentCode);
        if (!parent || parent.kind !== 'parent') return { state: 'rejected', message: `Parent vendor ${op.parentCode} does not exist` };
        const sibling = [...vendors.values()].find((v) => v.parentCode === op.parentCode && v.stateCode === op.stateCode);
        if (sibling) {
          return {
            state: 'rejected',
            message: `Parent vendor ${op.parentCode} already has a child for state ${op.stateCode}: ${sibling.vendorCode}`,
          };
        }
        const vendorCode = code();
        vendors.set(vendorCode, {
          vendorCode,
          kind: 'child',
          parentCode: parent.vendorCode,
          companyCode: d.companyCode || parent.companyCode,
          pan: d.pan.toUpperCase(),
          name: d.name,
          stateCode: op.stateCode,
          gstin: d.gstin,
          paymentTermsCode: d.paymentTermsCode,
          vendorCategory: null,
          reconAccount: d.reconAccount,
          withholdingTax: d.withholdingTax ? { taxType: d.withholdingTax.taxType, taxCode: d.withholdingTax.taxCode } : null,
          blocked: false,
          source: parent.source,
        });
        return { state: 'done', vendorCode, message: `Child vendor ${vendorCode} created under ${parent.vendorCode}` };
      }
      case 'set-payment-terms':
      case 'set-vendor-category':
      case 'change-recon-account':
      case 'update-withholding-tax': {
        const v = vendors.get(op.vendorCode);
        if (!v) return { state: 'rejected', message: `Vendor ${op.vendorCode} does not exist` };
        let what: string;
        if (op.op === 'set-payment-terms') [v.paymentTermsCode, what] = [op.paymentTermsCode, 'Payment terms'];
        else if (op.op === 'set-vendor-category') [v.vendorCategory, what] = [op.vendorCategory, 'Vendor category'];
        else if (op.op === 'change-recon-account') [v.reconAccount, what] = [op.reconAccount, 'Reconciliation account'];
        else [v.withholdingTax, what] = [{ taxType: op.taxType, taxCode: op.taxCode }, 'Withholding tax'];
        return { state: 'done', vendorCode: op.vendorCode, message: `${what} of vendor ${op.vendorCode} updated` };
      }
      case 'block':
      case 'unblock': {
        const v = vendors.get(op.vendorCode);
        if (!v) return { state: 'rejected', message: `Vendor ${op.vendorCode} does not exist` };
        if (v.companyCode !== op.companyCode) {
          return { state: 'rejected', message: `Vendor ${op.vendorCode} does not exist in company code ${op.companyCode}` };
        }
        if (v.kind !== op.scope) return { state: 'rejected', message: `Vendor ${op.vendorCode} is a ${v.kind} vendor, not a ${op.scope} vendor` };
        const blocked = op.op === 'block';
        const verb = blocked ? 'blocked' : 'unblocked';
        const touched = [...vendors.values()].filter(
          (x) => (x.vendorCode === v.vendorCode || (op.scope === 'parent' && x.parentCode === v.vendorCode)) && x.blocked !== blocked,
        );
        for (const x of touched) x.blocked = blocked;
        if (touched.length === 0) return { state: 'done', vendorCode: op.vendorCode, message: `Vendor ${op.vendorCode} is already ${verb}` };
        return { state: 'done', vendorCode: op.vendorCode, message: `Vendor ${op.vendorCode} ${verb}` };
      }
      case 'post-invoice': {
        // Issue 11: the same rules as the sandbox ERP's (blocked vendor refused; unknown vendors accepted).
        if (vendors.get(op.vendorCode)?.blocked) return { state: 'rejected', message: `Vendor ${op.vendorCode} is blocked for posting` };
        const documentNumber = String(nextDocument++);
        return { state: 'done', vendorCode: op.vendorCode, message: `Invoice ${op.invoiceNumber} posted as document ${documentNumber}`, documentNumber };
      }
    }
  }

  function decide(r: Request, force = false) {
    if (r.status.state !== 'pending' || (!force && r.dueAt > now())) return;
    const outcome = apply(r.operation, r.idempotencyKey);
    r.status = { requestId: r.requestId, ...outcome };
  }
  const processDue = () => [...byId.values()].sort((a, b) => a.dueAt - b.dueAt).forEach((r) => decide(r));

  return {
    async submit(idempotencyKey, operation) {
      calls += 1;
      gate('POST /erp/v1/requests');
      const known = byKey.get(idempotencyKey);
      if (known) return { requestId: known.requestId };
      const requestId = randomUUID();
      const request: Request = {
        requestId,
        idempotencyKey,
        operation: structuredClone(operation),
        dueAt: now() + processingMs,
        status: { requestId, state: 'pending' },
      };
      byKey.set(idempotencyKey, request);
      byId.set(requestId, request);
      return { requestId };
    },
    async status(requestId) {
      gate(`GET /erp/v1/requests/${requestId}`);
      const request = byId.get(requestId);
      if (!request) throw new Error(`The ERP refused GET /erp/v1/requests/${requestId} (404): No request ${requestId}`);
      // Pending requests are decided in order of arrival, as the sandbox's worker does.
      processDue();
      return { ...request.status };
    },
    async vendorsByPan(pan) {
      gate('GET /erp/v1/vendors');
      processDue();
      return [...vendors.values()].filter((v) => v.pan === pan.toUpperCase()).sort(byCode).map(copy);
    },
    async vendor(vendorCode) {
      gate(`GET /erp/v1/vendors/${vendorCode}`);
      processDue();
      const v = vendors.get(vendorCode);
      return v ? copy(v) : null;
    },
    async listVendors(filter = {}) {
      gate('GET /erp/v1/vendors');
      processDue();
      const page = filter.page ?? 1;
      const perPage = filter.perPage ?? 100;
      const all = [...vendors.values()].filter((v) => !filter.source || v.source === filter.source).sort(byCode);
      return { vendors: all.slice((page - 1) * perPage, page * perPage).map(copy), total: all.length };
    },
    vendors: () => {
      processDue();
      return [...vendors.values()].sort(byCode).map(copy);
    },
    requests: () =>
      [...byId.values()].map((r) => ({
        requestId: r.requestId,
        idempotencyKey: r.idempotencyKey,
        operation: structuredClone(r.operation),
        status: { ...r.status },
      })),
    submitCalls: () => calls,
    unavailable: (n = Infinity) => void (failures = n),
    recover: () => void (failures = 0),
    rejectPans: (pans) => void (rejected = pans.map((p) => p.toUpperCase())),
    setProcessingMs: (ms) => void (processingMs = ms),
    settle: () => [...byId.values()].forEach((r) => decide(r, true)),
    seed: (v) => {
      const vendorCode = v.vendorCode ?? code();
      const vendor: ErpVendor = {
        vendorCode,
        kind: v.kind ?? 'parent',
        parentCode: v.parentCode ?? null,
        companyCode: v.companyCode,
        pan: v.pan.toUpperCase(),
        name: v.name,
        stateCode: v.stateCode ?? null,
        gstin: v.gstin ?? null,
        paymentTermsCode: v.paymentTermsCode ?? null,
        vendorCategory: v.vendorCategory ?? null,
        reconAccount: v.reconAccount ?? null,
        withholdingTax: v.withholdingTax ?? null,
        blocked: v.blocked ?? false,
        source: v.source ?? 'nucleus',
      };
      vendors.set(vendorCode, vendor);
      return copy(vendor);
    },
  };
}

const byCode = (a: ErpVendor, b: ErpVendor) => a.vendorCode.localeCompare(b.vendorCode);
