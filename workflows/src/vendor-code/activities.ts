import { ErpUnavailableError, type ErpOperation, type ErpPort, type ErpVendorData } from '../../../domain/src/erp/port';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import { itemsOf, type OnboardingState } from '../../../domain/src/onboarding/state';
import type { Actor } from '../../../domain/src/shared/events';
import type { BaFacts, ErpOutcome, VendorCodeCommand } from '../../../domain/src/vendor-code/commands';
import { vendorCodeDecider } from '../../../domain/src/vendor-code/decide';
import { vendorCodeStreamId, type VendorCodeEvent } from '../../../domain/src/vendor-code/events';
import { evolveVendorCode, initialVendorCodeState, type VendorCodeState } from '../../../domain/src/vendor-code/state';
import { ErpRequestError } from '../../../platform/src/erp/http-erp';
import { loadOnboardingStateFrom } from '../onboarding/activities';
import { refusalsAsFailures } from '../onboarding/refusal';
import type { MasterLookup } from '../shared/master-references';

/** What the vendor-code lifecycle needs of the BA's onboarding: verified for the code, and its GST rows. */
export function baFactsOf(ba: OnboardingState, companyCode: string): BaFacts {
  const items = itemsOf(ba);
  const verified =
    (ba.companyCode === companyCode && ba.status === 'verified') || items.otherApplications[companyCode]?.status === 'verified';
  const gstRows = Object.entries(items.gstRegistrations).map(([gstId, r]) => ({ gstId, stateId: r.stateId, gstNo: r.gstNo }));
  return { verified, gstRows };
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/**
 * The command with the master items and BA facts it names resolved now (never in workflow code): the
 * payment term, vendor type (category), reconciliation account, tax code or reject reason, and the BA's
 * onboarding facts. Whatever the command arrived with (the API's, for the validator) is replaced.
 */
export async function withReferences(
  masters: MasterLookup,
  ba: BaFacts,
  command: VendorCodeCommand,
): Promise<VendorCodeCommand> {
  const one = async (resource: string, id: number) => (await masters(resource, [id]))[0] ?? null;
  const status = (item: { status: 'active' | 'inactive' }) => item.status;
  switch (command.type) {
    case 'RecordErpOutcome':
      return command;
    case 'RequestChildCode':
    case 'SetPaymentTerms': {
      const item = await one('payment-terms', command.paymentTermsId);
      const paymentTerms = item && { id: num(item.id), status: status(item), code: text(item['paymentTermCode']) };
      return { ...command, paymentTerms, ba };
    }
    case 'SetVendorCategory': {
      const item = await one('vendor-types', command.vendorCategoryId);
      return { ...command, vendorCategory: item && { id: num(item.id), status: status(item), name: text(item['type']) }, ba };
    }
    case 'ChangeReconAccount': {
      const item = await one('vendor-recon-accounts', command.reconAccountId);
      return { ...command, reconAccount: item && { id: num(item.id), status: status(item), name: text(item['accountCode']) }, ba };
    }
    case 'UpdateWithholdingTax': {
      const item = await one('tax-types', command.taxCodeId);
      const taxCode = item && { id: num(item.id), status: status(item), taxType: text(item['taxType']), taxCode: text(item['taxCode']) };
      return { ...command, taxCode, ba };
    }
    case 'RejectVendorCodeRequest': {
      const item = await one('erp-reject-reasons', command.reasonId);
      return { ...command, reason: item && { id: num(item.id), status: status(item), name: text(item['reason']) }, ba };
    }
    default:
      return { ...command, ba };
  }
}

export type VendorCodeEnvelope = {
  baId: string;
  companyCode: string;
  actor: Actor;
  /** Chosen by the workflow (deterministically): event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  requestId: string | null;
  workflowId: string;
  at: string;
};

export type HandleVendorCodeCommandArgs = VendorCodeEnvelope & { command: VendorCodeCommand };
export type VendorCodeActivityResult = { events: VendorCodeEvent[]; lastGlobalPosition: number };
/** What one ERP call gave: `pending` (asked again later) and `gone` (the job is no longer open) record nothing. */
export type ErpCallResult = ErpOutcome | { kind: 'pending' } | { kind: 'gone' };

export async function loadVendorCodeStateFrom(
  store: EventStore,
  baId: string,
  companyCode: string,
): Promise<{ state: VendorCodeState; lastGlobalPosition: number }> {
  const events = await store.readStream(vendorCodeStreamId(baId, companyCode));
  const state = events.reduce(
    (s, e) => evolveVendorCode(s, { type: e.type, data: e.data } as VendorCodeEvent, e.metadata.at),
    initialVendorCodeState,
  );
  return { state, lastGlobalPosition: events.at(-1)?.globalPosition ?? 0 };
}

/** What the ERP needs to create the BA as a vendor: its company details, primary bank account and address. */
async function vendorDataOf(ba: OnboardingState, companyCode: string, masters: MasterLookup): Promise<ErpVendorData> {
  const d = ba.details;
  const items = itemsOf(ba);
  const primary = Object.values(items.bankAccounts).find((a) => a.primary)?.account ?? null;
  const [city] = d?.cityId ? await masters('cities', [d.cityId]) : [];
  const [state] = d?.stateId ? await masters('states', [d.stateId]) : [];
  return {
    name: d?.companyName ?? '',
    pan: d?.panNumber ?? '',
    companyCode,
    street: [d?.addressLine1, d?.addressLine2].filter(Boolean).join(', ') || null,
    postalCode: d?.pinCode ?? null,
    city: city ? text(city['name']) : null,
    region: state ? text(state['stateCode']) : null,
    country: 'IN',
    mobileNo: d?.contactPersonMobileNumber ?? null,
    email: null,
    bankAccount: primary?.accountNo ?? null,
    bankKey: primary?.ifscCode ?? null,
    bankName: primary?.bankName ?? null,
    gstin: null,
    paymentTermsCode: null,
    reconAccount: null,
  };
}

export type VendorCodeActivityDeps = {
  store: EventStore;
  masters: MasterLookup;
  /** The ERP (platform/src/erp/http-erp.ts in the worker; the sandbox or the in-memory fake in tests). */
  erp?: ErpPort;
};

export function createVendorCodeActivities({ store, masters, erp }: VendorCodeActivityDeps) {
  /** The ERP operation an open job stands for, built from the streams and masters as they are now. */
  async function operationOf(state: VendorCodeState, requestKey: string, baId: string, companyCode: string): Promise<ErpOperation> {
    const job = state.jobs[requestKey];
    if (!job) throw new Error(`no open ERP job ${requestKey}`);
    const parentCode = state.parent.parentCode ?? '';
    const child = job.stateId === null ? undefined : state.children[String(job.stateId)];
    switch (job.operation) {
      case 'create-parent': {
        const { state: ba } = await loadOnboardingStateFrom(store, baId);
        return { op: 'create-parent', vendor: await vendorDataOf(ba, companyCode, masters) };
      }
      case 'create-child': {
        const { state: ba } = await loadOnboardingStateFrom(store, baId);
        const vendor = await vendorDataOf(ba, companyCode, masters);
        const [st] = job.stateId === null ? [] : await masters('states', [job.stateId]);
        const stateCode = st ? text(st['gstStateCode']) : String(job.stateId).padStart(2, '0');
        return {
          op: 'create-child',
          parentCode,
          stateCode,
          vendor: { ...vendor, gstin: child?.gstNo ?? null, paymentTermsCode: child?.paymentTermsCode ?? null },
        };
      }
      case 'set-payment-terms':
        return { op: 'set-payment-terms', vendorCode: child?.childCode ?? '', paymentTermsCode: child?.paymentTermsCode ?? '' };
      case 'set-vendor-category':
        return { op: 'set-vendor-category', vendorCode: parentCode, vendorCategory: state.vendorCategory.name ?? '' };
      case 'change-recon-account':
        return { op: 'change-recon-account', vendorCode: parentCode, reconAccount: state.reconAccount?.code ?? '' };
      case 'update-withholding-tax':
        return {
          op: 'update-withholding-tax',
          vendorCode: parentCode,
          taxType: state.withholdingTax?.taxType ?? '',
          taxCode: state.withholdingTax?.taxCode ?? '',
        };
      default:
        throw new Error(`vendor codes do not send ${job.operation}`);
    }
  }

  return {
    /** The lifecycle as its stream says now (a workflow whose state fell behind the stream resynchronises). */
    async loadVendorCodeState(args: { baId: string; companyCode: string }) {
      return loadVendorCodeStateFrom(store, args.baId, args.companyCode);
    },

    /** One command through the decider against the stream, with the BA's facts and the masters resolved now. */
    async handleVendorCodeCommand(args: HandleVendorCodeCommandArgs): Promise<VendorCodeActivityResult> {
      return refusalsAsFailures(async () => {
        let command = args.command;
        if (command.type !== 'RecordErpOutcome') {
          const { state: ba } = await loadOnboardingStateFrom(store, args.baId);
          command = await withReferences(masters, baFactsOf(ba, args.companyCode), command);
        }
        const result = await handleCommand(
          store,
          vendorCodeStreamId(args.baId, args.companyCode),
          vendorCodeDecider(args.baId, args.companyCode),
          command,
          {
            actor: args.actor,
            at: args.at,
            companyCode: args.companyCode,
            correlationId: args.correlationId,
            causationId: null,
            workflowId: args.workflowId,
            requestId: args.requestId,
            commandId: args.commandId,
          },
        );
        return { events: result.events, lastGlobalPosition: result.lastGlobalPosition };
      });
    },

    /**
     * One call to the ERP for an open job: submit it (idempotency key = the job's request key, so a retry or a
     * call whose answer was lost names the same ERP request) or, once accepted, ask its status. An outage is
     * an answer here (`failed`), recorded by the workflow as ErpCallFailed and retried after its backoff; the
     * ERP refusing the request (4xx) is `rejected`. Writes nothing.
     */
    async callErp(args: { baId: string; companyCode: string; requestKey: string }): Promise<ErpCallResult> {
      if (!erp) throw new Error('callErp needs the ERP (createActivities({ erp }))');
      const { state } = await loadVendorCodeStateFrom(store, args.baId, args.companyCode);
      const job = state.jobs[args.requestKey];
      if (!job) return { kind: 'gone' };
      try {
        if (job.erpRequestId === null) {
          const operation = await operationOf(state, args.requestKey, args.baId, args.companyCode);
          const { requestId } = await erp.submit(job.requestKey, operation);
          return { kind: 'submitted', erpRequestId: requestId };
        }
        const status = await erp.status(job.erpRequestId);
        if (status.state === 'pending') return { kind: 'pending' };
        if (status.state === 'done') return { kind: 'done', vendorCode: status.vendorCode, message: status.message };
        return { kind: 'rejected', message: status.message };
      } catch (error) {
        if (error instanceof ErpUnavailableError) return { kind: 'failed', error: error.message };
        if (error instanceof ErpRequestError) return { kind: 'rejected', message: error.message };
        throw error;
      }
    },
  };
}

export type VendorCodeActivities = ReturnType<typeof createVendorCodeActivities>;
