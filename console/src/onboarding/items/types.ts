/**
 * The rows the BA's item reads answer with (issue 8 contract: GET /api/business-associates/:id/<items>).
 * Declared here rather than imported from the API: the read routes are being written beside this screen, and
 * the console needs only these fields. Optional where an older answer may lack them.
 */
export type ReviewStatus = 'pending' | 'approved' | 'rejected';

export type BankAccountRow = {
  id: string;
  baId: string;
  primary: boolean;
  accountNo: string;
  ifscCode: string;
  micrNo: string | null;
  accountName: string;
  bankName: string;
  bankBranch: string;
  reviewStatus: ReviewStatus;
  reviewRemarks: string | null;
  reviewedAt: string | null;
  updatedAt: string;
};

export type GstRegistrationRow = {
  id: string;
  baId: string;
  stateId: number;
  stateName: string | null;
  gstType: string;
  gstTypeLabel: string | null;
  gstNo: string | null;
  addressLine1: string;
  addressLine2: string | null;
  pinCode: string;
  cityId: number;
  cityName: string | null;
  bankAccountId: string | null;
  vendorCategory: string | null;
  updatedAt: string;
};

export type DocumentKind = 'onboarding' | 'additional';

export type DocumentRow = {
  id: string;
  baId: string;
  kind: DocumentKind;
  documentTypeId: number;
  documentTypeName: string;
  documentNumber: string | null;
  /** YYYY-MM-DD, when the document type needs a validity date. */
  validTill: string | null;
  stateId: number | null;
  stateName: string | null;
  fileName: string;
  fileSize: number;
  fileType: string;
  reviewStatus: ReviewStatus;
  reviewRemarks: string | null;
  approvedTill: string | null;
  reviewedAt: string | null;
  expired: boolean;
  uploadedAt: string;
  /** Only on the additional-documents queue. */
  companyName?: string | null;
};

export type ConcessionRow = {
  id: string;
  baId: string;
  exemptionNumber: string;
  exemptionRate: string;
  exemptionFrom: string;
  exemptionTo: string;
  exemptionReasonId: number;
  exemptionReason: string | null;
  exemptionThreshold: string;
  withHoldingTaxType: string;
  withHoldingTaxCode: string;
  sectionCode: string;
  fileName: string;
  isInternalUpload: boolean;
  reviewStatus: ReviewStatus;
  reviewRemarks: string | null;
  updatedAt: string;
};

export type VerticalMappingRow = {
  baId: string;
  verticalIds: number[];
  subServiceIds: number[];
  vehicleTypeIds: number[];
  zoneIds: number[];
  pickupZoneIds: number[];
  deliveryZoneIds: number[];
  /** null while the BA has saved no mapping. */
  reviewStatus: ReviewStatus | null;
  reviewRemarks: string | null;
};

export type ChangeRequestRow = {
  id: string;
  baId?: string;
  section: 'company' | 'bank';
  proposed?: Record<string, unknown>;
  changes: Record<string, { before: unknown; after: unknown }>;
  status: 'pending' | 'first-approved' | 'approved' | 'rejected';
  approvals?: { by: string; role: string; at: string; name?: string | null }[];
  remarks: string | null;
  createdAt?: string;
  updatedAt?: string;
};

export type CompanyCodeRow = {
  id: string;
  companyCode: string;
  status: 'pending' | 'inprogress' | 'verified' | 'rejected';
  stage: 1 | 2 | null;
  submission: number;
  remarks: string | null;
};

export type DuplicateRow = {
  id: string;
  field: 'panNumber' | 'gstNo' | 'bankAccount' | 'mobileNo' | 'email';
  value: string;
  otherBaId: string;
  otherCompanyName: string | null;
  otherStatus: string | null;
  otherCompanyCode: string | null;
  source: 'ba' | 'registration';
};

/** The sub-resources of a BA the page reads, by their path under /api/business-associates/:id. */
export type BaItemRows = {
  'bank-accounts': BankAccountRow[];
  'gst-registrations': GstRegistrationRow[];
  documents: DocumentRow[];
  concessions: ConcessionRow[];
  'vertical-mapping': VerticalMappingRow | null;
  'change-requests': ChangeRequestRow[];
  'company-codes': CompanyCodeRow[];
  duplicates: DuplicateRow[];
};
export type BaItemPath = keyof BaItemRows;

/** An activity-log page request: the API's filters (issue 8) and a 0-based page. */
export type ActivityLogQuery = {
  filter: { action?: string; q?: string; status?: string; from?: string; to?: string };
  page: number;
  perPage: number;
};
