import { heartbeat } from '@temporalio/activity';
import { uuidV5In } from '../../../platform/src/ids/uuid-v5';
import { ErpUnavailableError, type ErpOperation, type ErpPort, type ErpRequestStatus, type ErpVendorData } from '../../../domain/src/erp/port';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { MassUploadKind, MassUploadValues } from '../../../domain/src/mass-upload/columns';
import {
  massUploadStreamId,
  nucleusRequestKey,
  nucleusVendorStreamId,
  type MassUploadBatchRecorded,
  type MassUploadErpCompleted,
  type MassUploadRecorded,
  type NucleusVendorEvent,
} from '../../../domain/src/mass-upload/events';
import { foldNucleusVendor, type VendorRowState } from '../../../domain/src/mass-upload/vendor-state';
import type { EventMetadata, NewEvent } from '../../../domain/src/shared/events';
import { ERP_IN_FLIGHT } from './messages';

/** Result event ids derive from stream, row, upload and outcome: a retried activity appends nothing twice. */
const NAMESPACE = '5d2f8c1e-93a4-4b7e-8f6a-0c1d2e3f4a5b';
/** uuid v5 in NAMESPACE (one per row of an upload's ERP step). */
const erpStepId = uuidV5In(NAMESPACE);
const SYSTEM = { userId: 'system', role: 'system', name: 'Mass upload' };

export type PushBatchResult = { vendors: number; assigned: number; refused: number; notInErp: number };

/** The ERP's data for a row (the spec's parent columns by meaning). */
export function erpVendorData(v: MassUploadValues): ErpVendorData {
  return {
    name: v.name ?? '',
    pan: v.pan ?? '',
    companyCode: v.companyCode ?? '',
    street: v.street ?? null,
    postalCode: v.postalCode ?? null,
    city: v.city ?? null,
    region: v.region ?? null,
    country: v.country ?? 'IN',
    mobileNo: v.mobileNo ?? null,
    email: v.email ?? null,
    bankAccount: v.bankAccount ?? null,
    bankKey: v.bankKey ?? null,
    bankName: v.bankName ?? null,
    gstin: v.gstin ?? null,
    paymentTermsCode: v.paymentTerm ?? null,
    reconAccount: v.reconAccount ?? null,
    accountGroup: v.accountGroup ?? null,
    bpRole: v.bpRole ?? null,
    purchaseOrganisation: v.purchaseOrganisation ?? null,
    currency: v.currency ?? null,
    withholdingTax: v.withholdingTaxType
      ? {
          taxType: v.withholdingTaxType,
          taxCode: v.withholdingTaxCode ?? '',
          subject: ['X', 'Y', 'YES'].includes(v.subjectToWithholdingTax ?? ''),
        }
      : null,
    exemption: v.exemptionNumber
      ? {
          number: v.exemptionNumber,
          rate: v.exemptionRate ?? '',
          from: v.exemptionFrom ?? '',
          to: v.exemptionTo ?? '',
          reason: v.exemptionReason ?? '',
        }
      : null,
    extra: extraOf(v),
  };
}

function extraOf(v: MassUploadValues): Record<string, string> {
  const extra: Record<string, string> = {};
  if (v.mobileNoDept) extra['Mobile Number Dept'] = v.mobileNoDept;
  if (v.bankCountry) extra['Bank Country'] = v.bankCountry;
  if (v.gstinCategory) extra['GSTIN category'] = v.gstinCategory;
  return extra;
}

const beat = (details?: unknown) => {
  try {
    heartbeat(details);
  } catch {
    // Outside an activity (unit tests): nothing to report to.
  }
};

/**
 * Runs `work` over `items` with at most `limit` at once. One item's failure does not stop the others; the
 * first failure is thrown once all have run (the activity's retry then redoes only what is not recorded).
 */
async function withLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failure ??= err;
      }
    }
  });
  await Promise.all(runners);
  if (failure !== null) throw failure;
}

/**
 * The ERP request key of a nucleus row: the contract's `nucleus-<PAN>-<companyCode>[-<state>]`, the same for every
 * upload that records the row, so asking twice never makes a second vendor. Once the ERP refused the row, asking
 * under that key would only answer the same refusal: the row recorded again (corrected, or the same row in a new
 * file) is a new request, `-r<refusals>`.
 */
export function requestKeyOf(pan: string, r: VendorRowState): string {
  const base = nucleusRequestKey(pan, r.values.companyCode ?? '', r.row === 'child' ? (r.values.region ?? '') : null);
  return r.refusals === 0 ? base : `${base}-r${r.refusals}`;
}

/** Short outages are ridden out within the activity: a few quick tries before the activity itself fails. */
const QUICK_TRIES = 5;
async function riding<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ErpUnavailableError) || attempt >= QUICK_TRIES) throw err;
      beat({ retrying: err.message });
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** (attempt - 1)));
    }
  }
}

/**
 * Activities of the mass upload's ERP step. Every ERP call is made here (never in workflow code); an ERP
 * outage (ErpUnavailableError) fails the activity, which Temporal retries with the same idempotency keys.
 */
export function createMassUploadActivities(deps: { store: EventStore; erp?: ErpPort }) {
  const { store } = deps;
  const erpOf = (): ErpPort => {
    if (!deps.erp) throw new Error('No ERP is configured for the worker (ERP_URL)');
    return deps.erp;
  };

  async function uploadEvents(uploadId: string) {
    return store.readStream(massUploadStreamId(uploadId));
  }

  async function append(pan: string, row: VendorRowState, uploadId: string, event: { type: NucleusVendorEvent['type']; data: NucleusVendorEvent['data'] }) {
    const streamId = nucleusVendorStreamId(pan);
    const metadata: EventMetadata = {
      actor: SYSTEM,
      companyCode: row.values.companyCode ?? null,
      correlationId: uploadId,
      causationId: null,
      workflowId: `mass-upload-${uploadId}`,
      requestId: null,
      at: new Date().toISOString(),
    };
    const e: NewEvent = { eventId: erpStepId(`${streamId}|${row.rowKey}|${uploadId}|${event.type}`), type: event.type, data: event.data, metadata };
    await store.appendToStream(streamId, [e], { expectedVersion: 'any' });
  }

  /** Submits (same key → same request) and polls until the ERP has decided. */
  async function submitAndWait(key: string, operation: ErpOperation, pollMs: number): Promise<{ requestId: string; status: ErpRequestStatus }> {
    const erp = erpOf();
    // The same key answers the same request: a retry after a lost answer never makes a second vendor.
    const { requestId } = await riding(() => erp.submit(key, operation));
    for (;;) {
      const status = await riding(() => erp.status(requestId));
      if (status.state !== 'pending') return { requestId, status };
      beat({ key });
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /**
   * Sends a nucleus vendor's rows of this upload to the ERP: parents first, then children with their parent's
   * code. A row counts for every upload that recorded it (`uploads`): when a later upload records a row again
   * before this step reached it, this step still asks for it. The request key is the row's, not the upload's, so
   * asking again answers the ERP's first answer and never makes a second vendor.
   */
  async function pushNucleus(pan: string, uploadId: string, pollMs: number, counts: PushBatchResult): Promise<void> {
    const rows = [...foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan))).rows.values()].filter((r) => r.kind === 'nucleus');
    const mine = rows.filter((r) => r.uploads.includes(uploadId));
    const parentCodes = new Map<string, string>();
    for (const r of rows) if (r.row === 'parent' && r.vendorCode) parentCodes.set(r.values.companyCode ?? '', r.vendorCode);
    // Rows this upload has its answer for (an earlier try of this batch) count as they stand: the counts are the upload's state.
    const answered = (r: VendorRowState): boolean => {
      if (!r.answeredFor.includes(uploadId)) return false;
      if (r.vendorCode) counts.assigned += 1;
      else if (r.problem) counts.refused += 1;
      return true;
    };
    const createParent = (r: VendorRowState) => submitAndWait(requestKeyOf(pan, r), { op: 'create-parent', vendor: erpVendorData(r.values) }, pollMs);

    for (const r of mine.filter((x) => x.row === 'parent')) {
      if (answered(r)) continue;
      const companyCode = r.values.companyCode ?? '';
      const requestKey = requestKeyOf(pan, r);
      const { requestId, status } = await createParent(r);
      if (status.state === 'done') {
        parentCodes.set(companyCode, status.vendorCode);
        counts.assigned += 1;
        await append(pan, r, uploadId, {
          type: 'NucleusVendorCodeAssigned',
          data: { pan, rowKey: r.rowKey, row: 'parent', companyCode, stateCode: null, vendorCode: status.vendorCode, parentCode: null, uploadId, erpRequestId: requestId },
        });
      } else if (status.state === 'rejected') {
        counts.refused += 1;
        await append(pan, r, uploadId, {
          type: 'ErpRequestRefused',
          data: { pan, rowKey: r.rowKey, row: 'parent', operation: 'create-parent', requestKey, message: status.message, uploadId },
        });
      }
    }

    /**
     * The parent code for a child: known, or the parent row came with another upload whose step has not sent it
     * yet. Then it is asked for here with the parent row's own key (the other step gets the same answer and
     * records it); refusing the child instead would blame the user for the order the steps ran in.
     */
    const parentCodeOf = async (companyCode: string): Promise<string | null> => {
      const known = parentCodes.get(companyCode);
      if (known) return known;
      const parent = rows.find((x) => x.row === 'parent' && (x.values.companyCode ?? '') === companyCode && !x.problem);
      if (!parent) return null;
      const { status } = await createParent(parent);
      if (status.state !== 'done') return null;
      parentCodes.set(companyCode, status.vendorCode);
      return status.vendorCode;
    };

    for (const r of mine.filter((x) => x.row === 'child')) {
      if (answered(r)) continue;
      const companyCode = r.values.companyCode ?? '';
      const stateCode = r.values.region ?? '';
      const requestKey = requestKeyOf(pan, r);
      const parentCode = r.values.parentVendorCode ?? (await parentCodeOf(companyCode));
      if (!parentCode) {
        counts.refused += 1;
        await append(pan, r, uploadId, {
          type: 'ErpRequestRefused',
          data: { pan, rowKey: r.rowKey, row: 'child', operation: 'create-child', requestKey, message: 'The parent vendor has no vendor code', uploadId },
        });
        continue;
      }
      const { requestId, status } = await submitAndWait(
        requestKey,
        { op: 'create-child', parentCode, stateCode, vendor: erpVendorData(r.values) },
        pollMs,
      );
      if (status.state === 'done') {
        counts.assigned += 1;
        await append(pan, r, uploadId, {
          type: 'NucleusVendorCodeAssigned',
          data: { pan, rowKey: r.rowKey, row: 'child', companyCode, stateCode, vendorCode: status.vendorCode, parentCode, uploadId, erpRequestId: requestId },
        });
      } else if (status.state === 'rejected') {
        counts.refused += 1;
        await append(pan, r, uploadId, {
          type: 'ErpRequestRefused',
          data: { pan, rowKey: r.rowKey, row: 'child', operation: 'create-child', requestKey, message: status.message, uploadId },
        });
      }
    }
  }

  async function verifySap(pan: string, uploadId: string, counts: PushBatchResult): Promise<void> {
    const state = foldNucleusVendor(await store.readStream(nucleusVendorStreamId(pan)));
    const mine: VendorRowState[] = [];
    for (const r of state.rows.values()) {
      if (!r.uploads.includes(uploadId) || r.kind !== 'sap-verified') continue;
      if (!r.answeredFor.includes(uploadId)) mine.push(r);
      else if (r.vendorCode) counts.assigned += 1;
      else if (r.problem) counts.notInErp += 1;
    }
    if (mine.length === 0) return;
    const erp = erpOf();
    const vendors = await riding(() => erp.vendorsByPan(pan));
    for (const r of mine) {
      const companyCode = r.values.companyCode ?? '';
      const stateCode = r.row === 'child' ? (r.values.region ?? null) : null;
      const found =
        r.row === 'parent'
          ? vendors.find((v) => v.kind === 'parent' && v.companyCode === companyCode)
          : vendors.find(
              (v) =>
                v.kind === 'child' &&
                v.companyCode === companyCode &&
                v.stateCode === stateCode &&
                (!r.values.parentVendorCode || v.parentCode === r.values.parentVendorCode),
            );
      if (found) {
        counts.assigned += 1;
        await append(pan, r, uploadId, {
          type: 'NucleusVendorCodeAssigned',
          data: { pan, rowKey: r.rowKey, row: r.row, companyCode, stateCode, vendorCode: found.vendorCode, parentCode: found.parentCode, uploadId, erpRequestId: null },
        });
      } else {
        counts.notInErp += 1;
        await append(pan, r, uploadId, {
          type: 'NucleusVendorNotInErp',
          data: { pan, rowKey: r.rowKey, row: r.row, companyCode, stateCode, uploadId },
        });
      }
    }
  }

  return {
    /** How many batches the recorded upload has (0 until MassUploadRecorded stands: then it is an error). */
    async massUploadBatchCount({ uploadId }: { uploadId: string }): Promise<number> {
      const events = await uploadEvents(uploadId);
      const recorded = events.find((e) => e.type === 'MassUploadRecorded') as unknown as { data: MassUploadRecorded['data'] } | undefined;
      if (!recorded) throw new Error(`Upload ${uploadId} is not recorded`);
      return recorded.data.batches;
    },

    /** One batch of vendors through the ERP, ≤ ERP_IN_FLIGHT requests at once. */
    async pushMassUploadBatch(input: { uploadId: string; kind: MassUploadKind; batch: number; pollMs?: number }): Promise<PushBatchResult> {
      const events = await uploadEvents(input.uploadId);
      const batch = events.find((e) => e.type === 'MassUploadBatchRecorded' && (e.data as MassUploadBatchRecorded['data']).batch === input.batch);
      if (!batch) throw new Error(`Upload ${input.uploadId} has no batch ${input.batch}`);
      const { pans } = batch.data as MassUploadBatchRecorded['data'];
      const counts: PushBatchResult = { vendors: pans.length, assigned: 0, refused: 0, notInErp: 0 };
      const pollMs = input.pollMs ?? 1000;
      let done = 0;
      await withLimit(pans, ERP_IN_FLIGHT, async (pan) => {
        if (input.kind === 'nucleus') await pushNucleus(pan, input.uploadId, pollMs, counts);
        else await verifySap(pan, input.uploadId, counts);
        done += 1;
        beat({ done });
      });
      return counts;
    },

    async completeMassUpload(input: { uploadId: string; assigned: number; refused: number; notInErp: number }): Promise<void> {
      const streamId = massUploadStreamId(input.uploadId);
      const event: NewEvent<MassUploadErpCompleted['type'], MassUploadErpCompleted['data']> = {
        eventId: erpStepId(`${streamId}|erp-completed`),
        type: 'MassUploadErpCompleted',
        data: input,
        metadata: {
          actor: SYSTEM,
          companyCode: null,
          correlationId: input.uploadId,
          causationId: null,
          workflowId: `mass-upload-${input.uploadId}`,
          requestId: null,
          at: new Date().toISOString(),
        },
      };
      await store.appendToStream(streamId, [event], { expectedVersion: 'any' });
    },
  };
}
