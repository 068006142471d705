import type { StoredFile } from '../shared/files';

/**
 * The parts of a BA's onboarding beyond the company details (spec 000 §3): bank accounts, GST / place-of-
 * business rows, documents, concessions and the vertical mapping, plus the review each item gets from staff.
 * They live on the BA's stream (`ba-<baId>`) beside the company details, so one decider sees everything a
 * submission and a stage-1 approval must check. Names are wire contracts: add, never rename.
 */

/** A staff verdict on one item. `pending`: not reviewed since the BA last changed it. */
export type ItemReview = {
  status: 'pending' | 'approved' | 'rejected';
  remarks: string | null;
  reviewedBy: string | null;
  role: string | null;
  at: string | null;
};

export const PENDING_REVIEW: ItemReview = { status: 'pending', remarks: null, reviewedBy: null, role: null, at: null };

/** Spec 000 §3 "Bank detail". IFSC upper-cased. `primary`: the account of the bank tab; others are additional. */
export type BankAccount = {
  accountNo: string;
  ifscCode: string;
  micrNo: string | null;
  accountName: string;
  bankName: string;
  bankBranch: string;
};

/**
 * Spec 000 §3 "GST / place-of-business row", one per state. `gstType` is the spec's code: '' GST Registered,
 * '0' Not Registered, '1' Composition Dealer, '2' Registered with RCM, '3' Special Economic Zone. `gstNo` is
 * required unless the type is '0' and must carry the state's GST code (its first two digits) and the BA's PAN.
 */
export type GstRegistration = {
  stateId: number;
  gstType: '' | '0' | '1' | '2' | '3';
  gstNo: string | null;
  addressLine1: string;
  addressLine2: string | null;
  pinCode: string;
  cityId: number;
  /** The bank account (accountId) payments for this place of business go to; null = the primary account. */
  bankAccountId: string | null;
  vendorCategory: string | null;
};

/** onboarding: the documents master (`document-types`); additional: after verification (`additional-document-types`). */
export type DocumentKind = 'onboarding' | 'additional';

export type BaDocument = {
  kind: DocumentKind;
  documentTypeId: number;
  /** The master's name when uploaded, so lists and the audit trail read without a join. */
  documentTypeName: string;
  documentNumber: string | null;
  /** YYYY-MM-DD; required when the document type needs a validity date. */
  validTill: string | null;
  /** For a GST document: the state (of a GST row) it belongs to. */
  stateId: number | null;
  file: StoredFile;
};

/** Spec 000 §3 "Concession / exemption" (a lower-deduction certificate). Dates YYYY-MM-DD; rate and threshold as amounts. */
export type Concession = {
  exemptionNumber: string;
  exemptionRate: string;
  exemptionFrom: string;
  exemptionTo: string;
  /** Id in the `exemption-reasons` master. */
  exemptionReasonId: number;
  exemptionThreshold: string;
  withHoldingTaxType: string;
  withHoldingTaxCode: string;
  sectionCode: string;
  file: StoredFile;
  /** Uploaded by staff on the BA's behalf (spec 000 §6). */
  isInternalUpload: boolean;
};

/** Spec 000 §3 "vertical mapping": master ids of the services, vehicle types and zones the BA works in. */
export type VerticalMapping = {
  verticalIds: number[];
  subServiceIds: number[];
  vehicleTypeIds: number[];
  zoneIds: number[];
  pickupZoneIds: number[];
  deliveryZoneIds: number[];
};

/** Which master each list of a vertical mapping names (sub-services are services of the Services master). */
export const VERTICAL_MAPPING_MASTERS = {
  verticalIds: 'verticals',
  subServiceIds: 'services',
  vehicleTypeIds: 'vehicle-types',
  zoneIds: 'zones',
  pickupZoneIds: 'zones',
  deliveryZoneIds: 'zones',
} as const satisfies Record<keyof VerticalMapping, string>;

/** A verified BA's requested profile change (Edit Profile). A bank change needs two approvers and holds payments. */
export type ChangeRequest = {
  requestId: string;
  section: 'company' | 'bank';
  /** The new values; applied to the profile only when the request is approved. */
  proposed: Record<string, unknown>;
  changes: Record<string, { before: unknown; after: unknown }>;
  status: 'pending' | 'first-approved' | 'approved' | 'rejected';
  approvals: { by: string; role: string; at: string }[];
  remarks: string | null;
};

/** The per-company-code application (spec 000 §4 getbastatus by active company) for codes beyond the first. */
export type CompanyApplication = {
  companyCode: string;
  status: 'pending' | 'inprogress' | 'verified' | 'rejected';
  stage: 1 | 2 | null;
  submission: number;
  stage1ApprovedBy: string | null;
  remarks: string | null;
};
