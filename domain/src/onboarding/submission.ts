import { STATES } from '../masters/reference-data/states';
import { companyRefusal, UNKNOWN_COMPANY } from '../masters/references';
import type { CommandMetadata } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { ApplyForCompanyCode, DocumentTypeRef } from './commands';
import { REQUIRED_FOR_SUBMIT, type CompanyDetails } from './details';
import type { OnboardingEvent } from './events';
import type { ItemReview } from './items';
import { gstinPanMismatch } from './items-schema';
import { itemsOf, type OnboardingState } from './state';

/**
 * Issue 8's rules around the application as a whole: what a complete submission holds (tab by tab), that
 * stage 1 waits for every item to be approved, and the applications for company codes beyond the first.
 */
export const submissionRefusals = {
  incompleteTabs: 'Please complete every tab before submitting',
  rejectedUnchanged: 'Rejected items must be corrected before resubmitting',
  itemsNotApproved: (notReviewed: number, rejected: number) =>
    `Every document, bank account, concession and the vertical mapping must be approved before stage 1 (${notReviewed} not reviewed, ${rejected} rejected)`,
  adminOnly: 'Only the BA Admin may do this',
  notVerified: 'Only a verified business associate may apply for another company code',
  alreadyApplied: 'This business associate has already applied for this company code',
  noApplication: 'This business associate has not applied for this company code',
} as const;

/** Tabs of the onboarding form, in order; the keys of a refused submission's `errors`. */
export const ONBOARDING_TABS = ['companyDetails', 'bankDetails', 'gstRegistrations', 'documents', 'verticalMapping'] as const;
export type OnboardingTab = (typeof ONBOARDING_TABS)[number];

/** Labels of the mandatory company details, for the tab's sentence. */
const DETAIL_LABELS: Record<(typeof REQUIRED_FOR_SUBMIT)[number], string> = {
  companyName: 'Company Name',
  panNumber: 'PAN',
  contactPersonName: 'Contact Person Name',
  serviceId: 'Service',
  stateId: 'State',
  cityId: 'City',
  addressLine1: 'Address',
  pinCode: 'Pincode',
  contactPersonMobileNumber: 'Contact Person Mobile Number',
};

const stateName = (stateId: number): string => STATES.find((s) => s.id === stateId)?.name ?? `state ${stateId}`;
const missing = (what: string[]): string => `Missing: ${what.join(', ')}`;

/**
 * The documents the BA must upload: every active onboarding type whose `mandatoryServiceIds` include the BA's
 * service (the master lists every service explicitly for documents all BAs need; an empty list means
 * optional for everyone), and for GST documents one per registered place of business.
 */
export function mandatoryDocumentsMissing(state: OnboardingState, documentTypes: readonly DocumentTypeRef[]): string[] {
  const serviceId = state.details?.serviceId ?? null;
  const { documents, gstRegistrations } = itemsOf(state);
  const uploaded = Object.values(documents).map((d) => d.document).filter((d) => d.kind === 'onboarding');
  const registeredStates = Object.values(gstRegistrations)
    .filter((g) => g.gstType !== '0')
    .map((g) => g.stateId);
  const out: string[] = [];
  for (const type of documentTypes) {
    if (type.kind !== 'onboarding' || type.status !== 'active') continue;
    if (serviceId === null || !type.mandatoryServiceIds.includes(serviceId)) continue;
    const ofType = uploaded.filter((d) => String(d.documentTypeId) === String(type.id));
    if (!type.isGstDocument) {
      if (ofType.length === 0) out.push(type.name);
      continue;
    }
    for (const stateId of registeredStates)
      if (!ofType.some((d) => d.stateId === stateId)) out.push(`${type.name} (${stateName(stateId)})`);
  }
  return out;
}

/** What each tab still lacks for a submission (only tabs with something missing appear). */
export function incompleteTabs(state: OnboardingState, documentTypes: readonly DocumentTypeRef[]): Partial<Record<OnboardingTab, string>> {
  const details: CompanyDetails | null = state.details;
  const { bankAccounts, gstRegistrations, verticalMapping } = itemsOf(state);
  const errors: Partial<Record<OnboardingTab, string>> = {};

  const detailGaps = REQUIRED_FOR_SUBMIT.filter((f) => details === null || details[f] === null).map((f) => DETAIL_LABELS[f]);
  if (detailGaps.length > 0) errors.companyDetails = missing(detailGaps);

  if (!Object.values(bankAccounts).some((a) => a.primary)) errors.bankDetails = missing(['primary bank account']);

  const rows = Object.values(gstRegistrations);
  const companyState = details?.stateId ?? null;
  if (rows.length === 0) errors.gstRegistrations = missing(['a place of business']);
  else if (companyState !== null && !rows.some((g) => g.stateId === companyState))
    errors.gstRegistrations = missing([`a place of business in ${stateName(companyState)}`]);
  else if (rows.some((g) => gstinPanMismatch(g.gstNo, details?.panNumber ?? null)))
    errors.gstRegistrations = "A GSTIN does not contain the company's PAN";

  const documentGaps = mandatoryDocumentsMissing(state, documentTypes);
  if (documentGaps.length > 0) errors.documents = missing(documentGaps);

  if (!verticalMapping || verticalMapping.mapping.verticalIds.length === 0) errors.verticalMapping = missing(['at least one vertical']);
  return errors;
}

/** Per tab, the items staff rejected that the BA has not changed since (a change resets the review). */
export function rejectedUnchanged(state: OnboardingState): Partial<Record<OnboardingTab, string>> {
  const { bankAccounts, documents, concessions, verticalMapping } = itemsOf(state);
  const rejected = (r: ItemReview) => r.status === 'rejected';
  const errors: Partial<Record<OnboardingTab, string>> = {};
  const accounts = Object.values(bankAccounts).filter((a) => rejected(a.review));
  if (accounts.length > 0) errors.bankDetails = `Rejected: ${accounts.map((a) => `account ${a.account.accountNo}`).join(', ')}`;
  const docs = Object.values(documents).filter((d) => rejected(d.review));
  const certificates = Object.values(concessions).filter((c) => rejected(c.review));
  const docNames = [
    ...docs.map((d) => d.document.documentTypeName),
    ...certificates.map((c) => `concession ${c.concession.exemptionNumber}`),
  ];
  if (docNames.length > 0) errors.documents = `Rejected: ${docNames.join(', ')}`;
  if (verticalMapping && rejected(verticalMapping.review)) errors.verticalMapping = 'Rejected: vertical mapping';
  return errors;
}

/** How many current items wait for a review and how many were rejected (GST rows are not reviewed on their own). */
export function itemReviewCounts(state: OnboardingState): { notReviewed: number; rejected: number } {
  const { bankAccounts, documents, concessions, verticalMapping } = itemsOf(state);
  const reviews: ItemReview[] = [
    ...Object.values(bankAccounts).map((a) => a.review),
    ...Object.values(documents).map((d) => d.review),
    ...Object.values(concessions).map((c) => c.review),
    ...(verticalMapping ? [verticalMapping.review] : []),
  ];
  return {
    notReviewed: reviews.filter((r) => r.status === 'pending').length,
    rejected: reviews.filter((r) => r.status === 'rejected').length,
  };
}

/** Stage 1 is the item-by-item check: it closes only when every item is approved. Null when it may close. */
export function stageOneGate(state: OnboardingState): DomainError | null {
  const { notReviewed, rejected } = itemReviewCounts(state);
  return notReviewed + rejected > 0 ? new DomainError('rule', submissionRefusals.itemsNotApproved(notReviewed, rejected)) : null;
}

/**
 * A verified BA applies for another company code (spec 000 §4, by active company): its data is reused and the
 * new code goes through the same two stages on its own.
 */
export function decideApplyForCompanyCode(command: ApplyForCompanyCode, state: OnboardingState, meta: CommandMetadata): OnboardingEvent[] | DomainError {
  if (state.status === 'none') return new DomainError('not_found', 'Business associate not found');
  if (meta.actor.role !== 'BA Admin') return new DomainError('forbidden', submissionRefusals.adminOnly);
  if (state.status !== 'verified') return new DomainError('rule', submissionRefusals.notVerified);
  const code = typeof command.companyCode === 'string' ? command.companyCode.trim() : '';
  // The activity resolves the company; unresolved (undefined) is refused, as this command has no replays to honour.
  const unknown = code === '' ? UNKNOWN_COMPANY : companyRefusal(code, command.company ?? null);
  if (unknown) return new DomainError('validation', unknown, { companyCode: unknown });
  if (code === state.companyCode || itemsOf(state).otherApplications[code])
    return new DomainError('conflict', submissionRefusals.alreadyApplied, { companyCode: submissionRefusals.alreadyApplied });
  return [{ type: 'CompanyCodeApplied', data: { baId: state.baId ?? '', companyCode: code } }];
}
