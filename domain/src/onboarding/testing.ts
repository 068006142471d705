import { DOCUMENT_TYPES } from '../masters/reference-data/document-types';
import type { Actor } from '../shared/events';
import { metaFor } from '../shared/testing';
import type { DocumentTypeRef, OnboardingCommand } from './commands';
import { WELCOME_MESSAGE } from './decide';
import type { CompanyDetails } from './details';
import type { OnboardingEvent } from './events';
import { PENDING_REVIEW, type BankAccount, type BaDocument, type Concession, type GstRegistration, type VerticalMapping } from './items';

/**
 * Histories, commands and actors for tests of the onboarding decider (unit tests only; other helpers' tests
 * may reuse them). A BA of Transportation (service 1) in Mumbai, PAN AAACA1234Z.
 */
export type Meta = ReturnType<typeof metaFor>;
export const as = (userId: string, role: string): Meta => metaFor({ userId, role } satisfies Actor);
export const baAdmin = as('u-ba-admin', 'BA Admin');
export const baUser = as('u-ba-user', 'BA User');
export const system = as('system', 'system');
export const procurement = as('u-procurement', 'MLL Procurement');
export const commercial = as('u-commercial', 'MLL Commercial');
export const accountsHead = as('u-accounts-head', 'MLL Accounts_HEAD');
export const admin = as('u-admin', 'MLL-ADMIN');
export const admin2 = as('u-admin-2', 'MLL-ADMIN');
export const operations = as('u-operations', 'MLL Operations');
export const auditor = as('u-auditor', 'Auditor');

export const baId = '42';
export const PAN = 'AAACA1234Z';
export const details: CompanyDetails = {
  companyName: 'Acme Logistics Pvt Ltd',
  panNumber: PAN,
  contactPersonName: 'Ravi Kumar',
  cinNumber: null,
  serviceId: 1,
  stateId: 27,
  cityId: 2701,
  addressLine1: '4 Dock Road',
  addressLine2: null,
  pinCode: '400001',
  companyLandline: null,
  contactPersonMobileNumber: '9876543210',
  ownFleet: 12,
  attachedFleet: null,
};

/** The documents master as the deciding activity resolves it (reference data, every type active). */
export const documentTypes: DocumentTypeRef[] = DOCUMENT_TYPES.map((t) => ({
  id: Number(t.id),
  name: t.name,
  status: 'active',
  kind: 'onboarding',
  mandatoryServiceIds: t.mandatoryServiceIds,
  needsValidityDate: t.needsValidityDate,
  isGstDocument: t.isGstDocument,
}));
export const docType = (id: number): DocumentTypeRef => {
  const found = documentTypes.find((t) => t.id === id);
  if (!found) throw new Error(`no document type ${id}`);
  return found;
};
export const additionalType: DocumentTypeRef = {
  id: 2,
  name: 'ISO 9001 Certificate',
  status: 'active',
  kind: 'additional',
  mandatoryServiceIds: [],
  needsValidityDate: true,
  isGstDocument: false,
};

export const file = (n = 1) => ({ name: `scan-${n}.pdf`, size: 1024 * n, type: 'application/pdf', sha256: String(n % 10).repeat(64) });

export const account: BankAccount = {
  accountNo: '123456789012',
  ifscCode: 'HDFC0001234',
  micrNo: null,
  accountName: 'Acme Logistics Pvt Ltd',
  bankName: 'HDFC Bank',
  bankBranch: 'Fort, Mumbai',
};
export const gstRow: GstRegistration = {
  stateId: 27,
  gstType: '',
  gstNo: `27${PAN}1Z5`,
  addressLine1: '4 Dock Road',
  addressLine2: null,
  pinCode: '400001',
  cityId: 2701,
  bankAccountId: null,
  vendorCategory: null,
};
export const mapping: VerticalMapping = {
  verticalIds: [1],
  subServiceIds: [],
  vehicleTypeIds: [2],
  zoneIds: [],
  pickupZoneIds: [],
  deliveryZoneIds: [],
};
export const concession: Concession = {
  exemptionNumber: 'LDC2026001',
  exemptionRate: '1.5',
  exemptionFrom: '2026-04-01',
  exemptionTo: '2027-03-31',
  exemptionReasonId: 1,
  exemptionThreshold: '500000',
  withHoldingTaxType: 'TDS',
  withHoldingTaxCode: 'C1',
  sectionCode: '194C',
  file: file(9),
  isInternalUpload: false,
};

export const document = (typeId: number, overrides: Partial<BaDocument> = {}): BaDocument => ({
  kind: 'onboarding',
  documentTypeId: typeId,
  documentTypeName: docType(typeId).name,
  documentNumber: null,
  validTill: docType(typeId).needsValidityDate ? '2027-12-31' : null,
  stateId: null,
  file: file(typeId),
  ...overrides,
});

// Events ------------------------------------------------------------------------------------------------------
export const created: OnboardingEvent = {
  type: 'BusinessAssociateCreated',
  data: { baId, companyCode: '1000', adminUserId: 'u-ba-admin', mobileNo: '9876543210', email: 'ba.admin@demo.test' },
};
export const detailsSaved = (d: CompanyDetails = details): OnboardingEvent => ({ type: 'CompanyDetailsSaved', data: { baId, details: d, changes: {} } });
export const accountSaved = (accountId = 'acc-1', primary = true, a: BankAccount = account): OnboardingEvent => ({
  type: 'BankAccountSaved',
  data: { baId, accountId, primary, account: a, changes: {} },
});
export const gstSaved = (gstId = 'gst-27', row: GstRegistration = gstRow): OnboardingEvent => ({
  type: 'GstRegistrationSaved',
  data: { baId, gstId, registration: row, changes: {} },
});
export const docUploaded = (docId: string, doc: BaDocument, replaces: string | null = null): OnboardingEvent => ({
  type: 'DocumentUploaded',
  data: { baId, docId, document: doc, replaces, uploadedBy: 'u-ba-admin', role: 'BA Admin' },
});
export const mappingSaved = (m: VerticalMapping = mapping): OnboardingEvent => ({ type: 'VerticalMappingSaved', data: { baId, mapping: m, changes: {} } });
export const concessionSaved = (concessionId = 'con-1', c: Concession = concession): OnboardingEvent => ({
  type: 'ConcessionSaved',
  data: { baId, concessionId, concession: c, changes: {} },
});
const by = (meta: Meta, remarks: string | null = null) => ({ remarks, reviewedBy: meta.actor.userId, role: meta.actor.role, at: meta.at });
export const docReviewed = (docId: string, decision: 'approved' | 'rejected', meta: Meta = procurement, approvedTill: string | null = null, remarks: string | null = null): OnboardingEvent => ({
  type: 'DocumentReviewed',
  data: { baId, docId, decision, approvedTill, ...by(meta, remarks) },
});
export const accountReviewed = (accountId: string, decision: 'approved' | 'rejected', meta: Meta = procurement, remarks: string | null = null): OnboardingEvent => ({
  type: 'BankAccountReviewed',
  data: { baId, accountId, decision, ...by(meta, remarks) },
});
export const mappingReviewed = (decision: 'approved' | 'rejected', meta: Meta = procurement, remarks: string | null = null): OnboardingEvent => ({
  type: 'VerticalMappingReviewed',
  data: { baId, decision, ...by(meta, remarks) },
});
export const concessionReviewed = (concessionId: string, decision: 'approved' | 'rejected', meta: Meta = procurement, remarks: string | null = null): OnboardingEvent => ({
  type: 'ConcessionReviewed',
  data: { baId, concessionId, decision, ...by(meta, remarks) },
});
export const submitted = (submission = 1, companyCode?: string): OnboardingEvent => ({
  type: 'OnboardingSubmitted',
  data: { baId, submission, resubmission: submission > 1, ...(companyCode ? { companyCode } : {}) },
});
export const stageApproved = (stage: 1 | 2, meta: Meta, submission = 1, companyCode?: string): OnboardingEvent => ({
  type: 'ReviewStageApproved',
  data: { baId, submission, stage, remarks: null, approvedBy: meta.actor.userId, role: meta.actor.role, ...(companyCode ? { companyCode } : {}) },
});
export const verifiedEvent = (submission = 1, companyCode?: string): OnboardingEvent => ({
  type: 'BusinessAssociateVerified',
  data: { baId, submission, welcomeMessage: WELCOME_MESSAGE, ...(companyCode ? { companyCode } : {}) },
});
export const stageRejected = (stage: 1 | 2, meta: Meta, remarks: string, submission = 1, companyCode?: string): OnboardingEvent => ({
  type: 'OnboardingRejected',
  data: { baId, submission, stage, remarks, rejectedBy: meta.actor.userId, role: meta.actor.role, ...(companyCode ? { companyCode } : {}) },
});

/** The mandatory documents of a Transportation BA in Maharashtra: PAN, GST certificate (27), cheque, RC, licence, insurance. */
export const mandatoryDocs: OnboardingEvent[] = [
  docUploaded('doc-pan', document(1)),
  docUploaded('doc-gst', document(2, { stateId: 27 })),
  docUploaded('doc-cheque', document(3)),
  docUploaded('doc-rc', document(6)),
  docUploaded('doc-licence', document(7)),
  docUploaded('doc-insurance', document(8)),
];
const MANDATORY_DOC_IDS = ['doc-pan', 'doc-gst', 'doc-cheque', 'doc-rc', 'doc-licence', 'doc-insurance'];

// Histories --------------------------------------------------------------------------------------------------
/** Every tab complete, never submitted. */
export const complete: OnboardingEvent[] = [created, detailsSaved(), accountSaved(), gstSaved(), ...mandatoryDocs, mappingSaved()];
export const inReview: OnboardingEvent[] = [...complete, submitted(1)];
/** Every item approved (documents with a validity date approved with one). */
export const allItemsApproved: OnboardingEvent[] = [
  ...MANDATORY_DOC_IDS.map((id) => docReviewed(id, 'approved', procurement, ['doc-rc', 'doc-licence', 'doc-insurance'].includes(id) ? '2027-12-31' : null)),
  accountReviewed('acc-1', 'approved'),
  mappingReviewed('approved'),
];
export const verifiedBa: OnboardingEvent[] = [
  ...inReview,
  ...allItemsApproved,
  stageApproved(1, procurement),
  stageApproved(2, commercial),
  verifiedEvent(1),
];

// Commands ---------------------------------------------------------------------------------------------------
export const submitWithTypes = (companyCode?: string): OnboardingCommand => ({
  type: 'SubmitOnboarding',
  documentTypes,
  ...(companyCode ? { companyCode } : {}),
});
