/**
 * Commands of the vendor-code lifecycle. Master items and the BA's onboarding facts a command depends on are
 * resolved outside the decider (by the deciding activity, and by the API for the workflow's validator) and travel
 * with the command; `undefined` means "not resolved here" (a validator that cannot read the database): the
 * decider then skips that check and the activity, which always resolves them, decides.
 */
export type MasterStatus = 'active' | 'inactive';
export type PaymentTermsRef = { id: number; status: MasterStatus; code: string };
export type NamedRef = { id: number; status: MasterStatus; name: string };
export type TaxCodeRef = { id: number; status: MasterStatus; taxType: string; taxCode: string };

/** What the BA's onboarding stream says, as far as vendor codes care. */
export type BaFacts = {
  /** Verified for this lifecycle's company code (the first application or another one). */
  verified: boolean;
  /** The BA's GST places of business: one child code per row's state. */
  gstRows: { gstId: string; stateId: number; gstNo: string | null }[];
};

/** How an outage is retried: the first wait, doubled per attempt, capped (production 2 s → 10 min). */
export type ErpRetryPolicy = { initialMs: number; maxMs: number };

/** What one call to the ERP gave (recorded by the workflow through the decider). */
export type ErpOutcome =
  | { kind: 'submitted'; erpRequestId: string }
  | { kind: 'failed'; error: string }
  | { kind: 'done'; vendorCode: string; message: string }
  | { kind: 'rejected'; message: string };

export type VendorCodeCommand =
  | { type: 'RequestParentCode'; ba?: BaFacts }
  | { type: 'RequestChildCode'; stateId: number; paymentTermsId: number; paymentTerms?: PaymentTermsRef | null; ba?: BaFacts }
  | { type: 'SetPaymentTerms'; stateId: number; paymentTermsId: number; paymentTerms?: PaymentTermsRef | null; ba?: BaFacts }
  | { type: 'SetVendorCategory'; vendorCategoryId: number; vendorCategory?: NamedRef | null; ba?: BaFacts }
  | { type: 'ApproveVendorCategory'; ba?: BaFacts }
  | { type: 'RejectVendorCategory'; remarks: string; ba?: BaFacts }
  | { type: 'ChangeReconAccount'; reconAccountId: number; reconAccount?: NamedRef | null; ba?: BaFacts }
  | { type: 'UpdateWithholdingTax'; taxCodeId: number; taxCode?: TaxCodeRef | null; ba?: BaFacts }
  | { type: 'RejectVendorCodeRequest'; reasonId: number; reason?: NamedRef | null; remarks: string | null; sendToBa: boolean; ba?: BaFacts }
  /** The workflow's: what the ERP answered for the job `requestKey`. */
  | { type: 'RecordErpOutcome'; requestKey: string; outcome: ErpOutcome; retry: ErpRetryPolicy };

export type VendorCodeCommandType = VendorCodeCommand['type'];
