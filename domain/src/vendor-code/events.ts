import type { ErpOperationName } from '../erp/port';
import type { DomainEvent } from '../shared/events';

/**
 * The ERP vendor-code lifecycle of one BA under one company code (issue 9): stream
 * `vendor-code-<baId>-<companyCode>`. Every event's data carries baId and companyCode. Event names are wire
 * contracts: add new ones, never rename.
 *
 * A request to the ERP is a *job* named by its `requestKey`, which is also the ERP idempotency key: it derives
 * from the stream alone (the BA, the code, what is asked and how many earlier requests of that kind the ERP
 * refused), so a retried or repeated submission always names the same ERP request and never creates a second
 * vendor.
 */
type Of = { baId: string; companyCode: string };

/** "SAP Code requested successfully." */
export type ParentCodeRequested = DomainEvent<'ParentCodeRequested', Of & { requestKey: string }>;
/** The ERP accepted the request (its id, to poll). */
export type ErpRequestSubmitted = DomainEvent<
  'ErpRequestSubmitted',
  Of & { requestKey: string; operation: ErpOperationName; erpRequestId: string }
>;
/** An ERP outage (5xx, timeout, refused connection): retried with the same key at `retryAt`. */
export type ErpCallFailed = DomainEvent<
  'ErpCallFailed',
  Of & { requestKey: string; operation: ErpOperationName; error: string; attempt: number; retryAt: string }
>;
/** The ERP rejected the request for a business reason: that request is over (a new one gets a new key). */
export type ErpRequestRefused = DomainEvent<
  'ErpRequestRefused',
  Of & { requestKey: string; operation: ErpOperationName; message: string }
>;
/** A change (payment terms, category, recon account, withholding tax) applied in the ERP. */
export type ErpRequestCompleted = DomainEvent<
  'ErpRequestCompleted',
  Of & { requestKey: string; operation: ErpOperationName; vendorCode: string; message: string }
>;
export type ParentCodeAssigned = DomainEvent<'ParentCodeAssigned', Of & { requestKey: string; parentCode: string }>;
export type ChildCodeRequested = DomainEvent<
  'ChildCodeRequested',
  Of & {
    requestKey: string;
    stateId: number;
    gstRowId: string | null;
    gstNo: string | null;
    paymentTermsId: number;
    paymentTermsCode: string;
  }
>;
export type ChildCodeAssigned = DomainEvent<
  'ChildCodeAssigned',
  Of & { requestKey: string; stateId: number; childCode: string }
>;
export type PaymentTermsSet = DomainEvent<
  'PaymentTermsSet',
  Of & { requestKey: string; stateId: number; paymentTermsId: number; paymentTermsCode: string }
>;
export type VendorCategorySet = DomainEvent<
  'VendorCategorySet',
  Of & { vendorCategoryId: number; vendorCategory: string; setBy: string }
>;
/** Approved by someone other than the setter; sent to the ERP (`requestKey`). */
export type VendorCategoryApproved = DomainEvent<'VendorCategoryApproved', Of & { requestKey: string; approvedBy: string }>;
export type VendorCategoryRejected = DomainEvent<'VendorCategoryRejected', Of & { remarks: string; rejectedBy: string }>;
export type ReconAccountChanged = DomainEvent<
  'ReconAccountChanged',
  Of & { requestKey: string; reconAccountId: number; reconAccount: string }
>;
export type WithholdingTaxUpdated = DomainEvent<
  'WithholdingTaxUpdated',
  Of & { requestKey: string; taxCodeId: number; taxType: string; taxCode: string }
>;
/** The request is sent back (reason from the `erp-reject-reasons` master); with `sendToBa` the BA is told. */
export type VendorCodeRequestRejected = DomainEvent<
  'VendorCodeRequestRejected',
  Of & { reasonId: number; reason: string; remarks: string | null; sendToBa: boolean; rejectedBy: string }
>;

export type VendorCodeEvent =
  | ParentCodeRequested
  | ErpRequestSubmitted
  | ErpCallFailed
  | ErpRequestRefused
  | ErpRequestCompleted
  | ParentCodeAssigned
  | ChildCodeRequested
  | ChildCodeAssigned
  | PaymentTermsSet
  | VendorCategorySet
  | VendorCategoryApproved
  | VendorCategoryRejected
  | ReconAccountChanged
  | WithholdingTaxUpdated
  | VendorCodeRequestRejected;

export const VENDOR_CODE_EVENT_TYPES = [
  'ParentCodeRequested',
  'ErpRequestSubmitted',
  'ErpCallFailed',
  'ErpRequestRefused',
  'ErpRequestCompleted',
  'ParentCodeAssigned',
  'ChildCodeRequested',
  'ChildCodeAssigned',
  'PaymentTermsSet',
  'VendorCategorySet',
  'VendorCategoryApproved',
  'VendorCategoryRejected',
  'ReconAccountChanged',
  'WithholdingTaxUpdated',
  'VendorCodeRequestRejected',
] as const satisfies readonly VendorCodeEvent['type'][];

export const VENDOR_CODE_STREAM_PREFIX = 'vendor-code-';
export const vendorCodeStreamId = (baId: string, companyCode: string): string =>
  `${VENDOR_CODE_STREAM_PREFIX}${baId}-${companyCode}`;
