/**
 * What the portal asks of the ERP (SAP vendor master), as a port: the workflows call it through an activity,
 * the production adapter (platform/src/erp/http-erp.ts) speaks the HTTP contract documented in ARCHITECTURE.md
 * ("The ERP contract") to `ERP_URL`, and the sandbox ERP (sandboxes/erp) answers the same contract.
 *
 * A real ERP answers asynchronously: a mutating call is *accepted* (`submit` → a request id) and its outcome
 * appears later (`status`). Every submission carries an idempotency key chosen by the caller (deterministic in
 * a workflow): the same key always yields the same request, so a retried call never creates a second vendor.
 */

/** One vendor as the ERP knows it. `parentCode` is null for a parent; a child is per GST state. */
export type ErpVendor = {
  vendorCode: string;
  kind: 'parent' | 'child';
  parentCode: string | null;
  companyCode: string;
  pan: string;
  name: string;
  /** The GST state code of a child ("27"), null for a parent. */
  stateCode: string | null;
  gstin: string | null;
  paymentTermsCode: string | null;
  vendorCategory: string | null;
  reconAccount: string | null;
  withholdingTax: { taxType: string; taxCode: string } | null;
  blocked: boolean;
  /** 'portal' when created through the portal's requests, 'nucleus' when it was in the ERP before (mass upload). */
  source: 'portal' | 'nucleus';
};

/** The vendor's master data the ERP needs to create it (the mass-upload parent columns, by meaning). */
export type ErpVendorData = {
  name: string;
  pan: string;
  companyCode: string;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  region: string | null;
  country: string;
  mobileNo: string | null;
  email: string | null;
  bankAccount: string | null;
  bankKey: string | null;
  bankName: string | null;
  gstin: string | null;
  paymentTermsCode: string | null;
  reconAccount: string | null;
  accountGroup?: string | null;
  bpRole?: string | null;
  purchaseOrganisation?: string | null;
  currency?: string | null;
  withholdingTax?: { taxType: string; taxCode: string; subject?: boolean } | null;
  exemption?: { number: string; rate: string; from: string; to: string; reason: string } | null;
  /** Extra columns of a workbook row the ERP keeps as they are (ZZCIN_NO, EmailidDept, …). */
  extra?: Record<string, string>;
};

/** Every mutating operation the portal submits. */
export type ErpOperation =
  | { op: 'create-parent'; vendor: ErpVendorData }
  | { op: 'create-child'; parentCode: string; stateCode: string; vendor: ErpVendorData }
  | { op: 'set-payment-terms'; vendorCode: string; paymentTermsCode: string }
  | { op: 'set-vendor-category'; vendorCode: string; vendorCategory: string }
  | { op: 'change-recon-account'; vendorCode: string; reconAccount: string }
  | { op: 'update-withholding-tax'; vendorCode: string; taxType: string; taxCode: string }
  | { op: 'block'; vendorCode: string; companyCode: string; scope: 'parent' | 'child' }
  | { op: 'unblock'; vendorCode: string; companyCode: string; scope: 'parent' | 'child' }
  /** Bill-Hub (issue 11): book a verified invoice against the vendor; `amount` is the net payable ("12500.00"). */
  | {
      op: 'post-invoice';
      vendorCode: string;
      companyCode: string;
      invoiceNumber: string;
      invoiceDate: string;
      financialYear: string;
      amount: string;
    };

export type ErpOperationName = ErpOperation['op'];

/** The outcome of a submitted request: `done` carries the vendor code the operation created or touched. */
export type ErpRequestStatus =
  | { requestId: string; state: 'pending' }
  /** `documentNumber`: the accounting document a `post-invoice` created (e.g. "5100000123"). */
  | { requestId: string; state: 'done'; vendorCode: string; message: string; documentNumber?: string }
  /** The ERP refused the request for a business reason (bad data): retrying the same request cannot help. */
  | { requestId: string; state: 'rejected'; message: string };

/**
 * The ERP could not be reached or answered 5xx / timed out: the call may be retried with the same key.
 * Any other thrown error is a bug, not an ERP outage.
 */
export class ErpUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErpUnavailableError';
  }
}

export type ErpPort = {
  /** Accepts an operation; the same idempotency key answers with the same request id, whatever its state. */
  submit(idempotencyKey: string, operation: ErpOperation): Promise<{ requestId: string }>;
  status(requestId: string): Promise<ErpRequestStatus>;
  /** The vendors (parent and children, every company code) with this PAN; [] when the ERP has none. */
  vendorsByPan(pan: string): Promise<ErpVendor[]>;
};
