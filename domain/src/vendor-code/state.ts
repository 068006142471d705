import type { ErpOperationName } from '../erp/port';
import type { VendorCodeEvent } from './events';

/** One request to the ERP not finished yet, by its request key (= the ERP idempotency key). */
export type ErpJob = {
  requestKey: string;
  operation: ErpOperationName;
  /** The child's state for create-child and set-payment-terms, else null. */
  stateId: number | null;
  /** Known once the ERP accepted the request: then it is polled, never submitted again. */
  erpRequestId: string | null;
  /** Outages in a row for this job, and when to try again. */
  failures: number;
  retryAt: string | null;
  lastError: string | null;
};

export type ChildCode = {
  stateId: number;
  status: 'requested' | 'assigned' | 'refused';
  requestKey: string;
  childCode: string | null;
  gstRowId: string | null;
  gstNo: string | null;
  paymentTermsId: number;
  paymentTermsCode: string;
  /** Create-child requests of this state the ERP refused: the next one gets a new key. */
  refusals: number;
};

export type VendorCodeState = {
  baId: string | null;
  companyCode: string | null;
  parent: {
    status: 'none' | 'requested' | 'assigned' | 'refused' | 'rejected';
    requestKey: string | null;
    parentCode: string | null;
    /** Create-parent requests the ERP refused: the next request gets a new key (and so a new ERP request). */
    refusals: number;
    requestedAt: string | null;
  };
  /** By state id (as text). */
  children: Record<string, ChildCode>;
  vendorCategory: {
    status: 'none' | 'pending' | 'approved' | 'rejected';
    id: number | null;
    name: string | null;
    setBy: string | null;
    remarks: string | null;
  };
  reconAccount: { id: number; code: string } | null;
  withholdingTax: { taxCodeId: number; taxType: string; taxCode: string } | null;
  rejection: { reasonId: number; reason: string; remarks: string | null; sendToBa: boolean; by: string } | null;
  /** Open ERP requests in the order they were asked for. */
  jobs: Record<string, ErpJob>;
  /** Changes sent to the ERP so far (payment terms, category, recon account, withholding tax): keys them. */
  changes: number;
  /** The last thing the ERP refused, for staff to read. */
  lastRefusal: string | null;
};

export const initialVendorCodeState: VendorCodeState = {
  baId: null,
  companyCode: null,
  parent: { status: 'none', requestKey: null, parentCode: null, refusals: 0, requestedAt: null },
  children: {},
  vendorCategory: { status: 'none', id: null, name: null, setBy: null, remarks: null },
  reconAccount: null,
  withholdingTax: null,
  rejection: null,
  jobs: {},
  changes: 0,
  lastRefusal: null,
};

const without = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _gone, ...rest } = record;
  return rest;
};

const newJob = (requestKey: string, operation: ErpOperationName, stateId: number | null = null): ErpJob => ({
  requestKey,
  operation,
  stateId,
  erpRequestId: null,
  failures: 0,
  retryAt: null,
  lastError: null,
});

/** Pure: reads nothing but event data (the workflow evolves with it on replay). */
export function evolveVendorCode(state: VendorCodeState, event: VendorCodeEvent, at?: string): VendorCodeState {
  const s: VendorCodeState = { ...state, baId: event.data.baId, companyCode: event.data.companyCode };
  const job = (key: string) => s.jobs[key];
  switch (event.type) {
    case 'ParentCodeRequested': {
      const { requestKey } = event.data;
      return {
        ...s,
        parent: { ...s.parent, status: 'requested', requestKey, requestedAt: at ?? s.parent.requestedAt },
        rejection: null,
        jobs: { ...s.jobs, [requestKey]: newJob(requestKey, 'create-parent') },
      };
    }
    case 'ErpRequestSubmitted': {
      const current = job(event.data.requestKey);
      if (!current) return s;
      const next: ErpJob = { ...current, erpRequestId: event.data.erpRequestId, failures: 0, retryAt: null, lastError: null };
      return { ...s, jobs: { ...s.jobs, [current.requestKey]: next } };
    }
    case 'ErpCallFailed': {
      const current = job(event.data.requestKey);
      if (!current) return s;
      const next: ErpJob = { ...current, failures: event.data.attempt, retryAt: event.data.retryAt, lastError: event.data.error };
      return { ...s, jobs: { ...s.jobs, [current.requestKey]: next } };
    }
    case 'ErpRequestRefused': {
      const current = job(event.data.requestKey);
      const jobs = without(s.jobs, event.data.requestKey);
      const refused = { ...s, jobs, lastRefusal: event.data.message };
      if (event.data.operation === 'create-parent' && s.parent.requestKey === event.data.requestKey)
        return { ...refused, parent: { ...s.parent, status: 'refused', refusals: s.parent.refusals + 1 } };
      if (event.data.operation === 'create-child' && current?.stateId != null) {
        const child = s.children[String(current.stateId)];
        if (child && child.requestKey === event.data.requestKey)
          return {
            ...refused,
            children: { ...s.children, [String(child.stateId)]: { ...child, status: 'refused', refusals: child.refusals + 1 } },
          };
      }
      return refused;
    }
    case 'ErpRequestCompleted':
      return { ...s, jobs: without(s.jobs, event.data.requestKey) };
    case 'ParentCodeAssigned':
      return {
        ...s,
        parent: { ...s.parent, status: 'assigned', parentCode: event.data.parentCode },
        jobs: without(s.jobs, event.data.requestKey),
        lastRefusal: null,
      };
    case 'ChildCodeRequested': {
      const d = event.data;
      const before = s.children[String(d.stateId)];
      const child: ChildCode = {
        stateId: d.stateId,
        status: 'requested',
        requestKey: d.requestKey,
        childCode: null,
        gstRowId: d.gstRowId,
        gstNo: d.gstNo,
        paymentTermsId: d.paymentTermsId,
        paymentTermsCode: d.paymentTermsCode,
        refusals: before?.refusals ?? 0,
      };
      return {
        ...s,
        children: { ...s.children, [String(d.stateId)]: child },
        jobs: { ...s.jobs, [d.requestKey]: newJob(d.requestKey, 'create-child', d.stateId) },
      };
    }
    case 'ChildCodeAssigned': {
      const child = s.children[String(event.data.stateId)];
      const jobs = without(s.jobs, event.data.requestKey);
      if (!child) return { ...s, jobs };
      return {
        ...s,
        jobs,
        children: { ...s.children, [String(child.stateId)]: { ...child, status: 'assigned', childCode: event.data.childCode } },
      };
    }
    case 'PaymentTermsSet': {
      const d = event.data;
      const child = s.children[String(d.stateId)];
      const children = child
        ? { ...s.children, [String(d.stateId)]: { ...child, paymentTermsId: d.paymentTermsId, paymentTermsCode: d.paymentTermsCode } }
        : s.children;
      return {
        ...s,
        children,
        changes: s.changes + 1,
        jobs: { ...s.jobs, [d.requestKey]: newJob(d.requestKey, 'set-payment-terms', d.stateId) },
      };
    }
    case 'VendorCategorySet':
      return {
        ...s,
        vendorCategory: {
          status: 'pending',
          id: event.data.vendorCategoryId,
          name: event.data.vendorCategory,
          setBy: event.data.setBy,
          remarks: null,
        },
      };
    case 'VendorCategoryApproved':
      return {
        ...s,
        vendorCategory: { ...s.vendorCategory, status: 'approved' },
        changes: s.changes + 1,
        jobs: { ...s.jobs, [event.data.requestKey]: newJob(event.data.requestKey, 'set-vendor-category') },
      };
    case 'VendorCategoryRejected':
      return { ...s, vendorCategory: { ...s.vendorCategory, status: 'rejected', remarks: event.data.remarks } };
    case 'ReconAccountChanged':
      return {
        ...s,
        reconAccount: { id: event.data.reconAccountId, code: event.data.reconAccount },
        changes: s.changes + 1,
        jobs: { ...s.jobs, [event.data.requestKey]: newJob(event.data.requestKey, 'change-recon-account') },
      };
    case 'WithholdingTaxUpdated':
      return {
        ...s,
        withholdingTax: { taxCodeId: event.data.taxCodeId, taxType: event.data.taxType, taxCode: event.data.taxCode },
        changes: s.changes + 1,
        jobs: { ...s.jobs, [event.data.requestKey]: newJob(event.data.requestKey, 'update-withholding-tax') },
      };
    case 'VendorCodeRequestRejected': {
      const d = event.data;
      const key = s.parent.requestKey;
      return {
        ...s,
        parent: { ...s.parent, status: 'rejected' },
        // The pending create-parent request is left alone in the ERP: a later request names the same key and
        // so picks up whatever the ERP made of it (never a second vendor).
        jobs: key ? without(s.jobs, key) : s.jobs,
        rejection: { reasonId: d.reasonId, reason: d.reason, remarks: d.remarks, sendToBa: d.sendToBa, by: d.rejectedBy },
      };
    }
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** The dashboard status (read model and the API's fallback answer). */
export type VendorCodeStatus = 'not-requested' | 'requested' | 'verification-pending' | 'verified' | 'processed' | 'rejected';

/**
 * not-requested → requested (parent asked, no code yet) → verification-pending (parent code; category not
 * approved) → verified (category approved; child codes missing) → processed (a child code for every GST state);
 * rejected while the last word was a rejection.
 */
export function vendorCodeStatus(state: VendorCodeState, gstStateIds: readonly number[]): VendorCodeStatus {
  if (state.parent.status === 'rejected') return 'rejected';
  if (state.parent.status === 'none') return 'not-requested';
  if (state.parent.parentCode === null) return 'requested';
  if (state.vendorCategory.status !== 'approved') return 'verification-pending';
  const allChildren = gstStateIds.every((id) => state.children[String(id)]?.childCode);
  return allChildren ? 'processed' : 'verified';
}
