import type { CompanyDetails } from './details';
import type { OnboardingEvent } from './events';
import {
  PENDING_REVIEW,
  type BankAccount,
  type BaDocument,
  type ChangeRequest,
  type CompanyApplication,
  type Concession,
  type GstRegistration,
  type ItemReview,
  type VerticalMapping,
} from './items';

/** The spec's status values (spec 000 §4); 'none' = the BA does not exist yet. */
export type OnboardingStatus = 'none' | 'pending' | 'inprogress' | 'verified' | 'rejected';

export type OnboardingState = {
  baId: string | null;
  companyCode: string | null;
  adminUserId: string | null;
  status: OnboardingStatus;
  /** The review stage waiting for a decision while `inprogress`, else null. */
  stage: 1 | 2 | null;
  /** How many times the BA has submitted; decisions belong to the current submission. */
  submission: number;
  details: CompanyDetails | null;
  /** Who approved stage 1 of the current submission: that person may not approve stage 2. */
  stage1ApprovedBy: string | null;
  remarks: string | null;
  welcomeMessage: string | null;
  /** Stages of the current submission already reported overdue. */
  overdueStages: (1 | 2)[];
  /*
   * Issue 8. Optional so that states carried across continue-as-new by runs from before it still type-check;
   * read them through `itemsOf(state)`, which fills the gaps.
   */
  bankAccounts?: Record<string, { account: BankAccount; primary: boolean; review: ItemReview }>;
  gstRegistrations?: Record<string, GstRegistration>;
  /** Current documents only (a replaced or deleted document is gone); `expired` set by the expiry timer. */
  documents?: Record<string, { document: BaDocument; review: ItemReview; expired: boolean; remindedDays: number[] }>;
  concessions?: Record<string, { concession: Concession; review: ItemReview }>;
  verticalMapping?: { mapping: VerticalMapping; review: ItemReview } | null;
  /** Applications for company codes beyond the first (spec 000 §4 "by active company"). */
  otherApplications?: Record<string, CompanyApplication>;
  changeRequests?: Record<string, ChangeRequest>;
  /** Set while a bank change request waits: the change request's id. */
  paymentsHeldFor?: string | null;
};

export type OnboardingItems = Required<
  Pick<
    OnboardingState,
    | 'bankAccounts'
    | 'gstRegistrations'
    | 'documents'
    | 'concessions'
    | 'verticalMapping'
    | 'otherApplications'
    | 'changeRequests'
    | 'paymentsHeldFor'
  >
>;

/** The item parts of a state with defaults for states from before issue 8. */
export const itemsOf = (s: OnboardingState): OnboardingItems => ({
  bankAccounts: s.bankAccounts ?? {},
  gstRegistrations: s.gstRegistrations ?? {},
  documents: s.documents ?? {},
  concessions: s.concessions ?? {},
  verticalMapping: s.verticalMapping ?? null,
  otherApplications: s.otherApplications ?? {},
  changeRequests: s.changeRequests ?? {},
  paymentsHeldFor: s.paymentsHeldFor ?? null,
});

const without = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _gone, ...rest } = record;
  return rest;
};

const reviewed = (
  decision: 'approved' | 'rejected',
  data: { remarks: string | null; reviewedBy: string; role: string; at: string },
): ItemReview => ({
  status: decision,
  remarks: data.remarks,
  reviewedBy: data.reviewedBy,
  role: data.role,
  at: data.at,
});

/** The first application's fields, or the other code's application, moved by a submission or stage event. */
function forApplication(
  state: OnboardingState,
  companyCode: string | undefined,
  first: (s: OnboardingState) => OnboardingState,
  other: (a: CompanyApplication) => CompanyApplication,
): OnboardingState {
  if (companyCode === undefined || companyCode === state.companyCode) return first(state);
  const apps = itemsOf(state).otherApplications;
  const app = apps[companyCode];
  return app ? { ...state, otherApplications: { ...apps, [companyCode]: other(app) } } : state;
}

export const initialState: OnboardingState = {
  baId: null,
  companyCode: null,
  adminUserId: null,
  status: 'none',
  stage: null,
  submission: 0,
  details: null,
  stage1ApprovedBy: null,
  remarks: null,
  welcomeMessage: null,
  overdueStages: [],
};

export function evolve(state: OnboardingState, event: OnboardingEvent): OnboardingState {
  switch (event.type) {
    case 'BusinessAssociateCreated':
      return {
        ...state,
        baId: event.data.baId,
        companyCode: event.data.companyCode,
        adminUserId: event.data.adminUserId,
        status: 'pending',
      };
    case 'CompanyDetailsSaved':
      return { ...state, details: event.data.details };
    case 'OnboardingSubmitted':
      return forApplication(
        state,
        event.data.companyCode,
        (s) => ({
          ...s,
          status: 'inprogress',
          stage: 1,
          submission: event.data.submission,
          stage1ApprovedBy: null,
          remarks: null,
          overdueStages: [],
        }),
        (a) => ({ ...a, status: 'inprogress', stage: 1, submission: event.data.submission, stage1ApprovedBy: null, remarks: null }),
      );
    case 'ReviewStageApproved':
      return forApplication(
        state,
        event.data.companyCode,
        (s) => (event.data.stage === 1 ? { ...s, stage: 2, stage1ApprovedBy: event.data.approvedBy } : { ...s, stage: null }),
        (a) => (event.data.stage === 1 ? { ...a, stage: 2, stage1ApprovedBy: event.data.approvedBy } : { ...a, stage: null }),
      );
    case 'BusinessAssociateVerified':
      return forApplication(
        state,
        event.data.companyCode,
        (s) => ({ ...s, status: 'verified', stage: null, welcomeMessage: event.data.welcomeMessage }),
        (a) => ({ ...a, status: 'verified', stage: null }),
      );
    case 'OnboardingRejected':
      return forApplication(
        state,
        event.data.companyCode,
        (s) => ({ ...s, status: 'rejected', stage: null, remarks: event.data.remarks }),
        (a) => ({ ...a, status: 'rejected', stage: null, remarks: event.data.remarks }),
      );
    case 'ReviewOverdue':
      return { ...state, overdueStages: [...state.overdueStages, event.data.stage] };
    default:
      return evolveItems(state, event);
  }
}

/** The issue-8 events: items, their reviews, other company codes, change requests and payment holds. */
function evolveItems(state: OnboardingState, event: OnboardingEvent): OnboardingState {
  const items = itemsOf(state);
  switch (event.type) {
    case 'BankAccountSaved':
      return {
        ...state,
        bankAccounts: {
          ...items.bankAccounts,
          [event.data.accountId]: { account: event.data.account, primary: event.data.primary, review: PENDING_REVIEW },
        },
      };
    case 'BankAccountDeleted':
      return { ...state, bankAccounts: without(items.bankAccounts, event.data.accountId) };
    case 'BankAccountReviewed': {
      const current = items.bankAccounts[event.data.accountId];
      if (!current) return state;
      const review = reviewed(event.data.decision, event.data);
      return { ...state, bankAccounts: { ...items.bankAccounts, [event.data.accountId]: { ...current, review } } };
    }
    case 'GstRegistrationSaved':
      return { ...state, gstRegistrations: { ...items.gstRegistrations, [event.data.gstId]: event.data.registration } };
    case 'GstRegistrationDeleted':
      return { ...state, gstRegistrations: without(items.gstRegistrations, event.data.gstId) };
    case 'DocumentUploaded': {
      const kept = event.data.replaces ? without(items.documents, event.data.replaces) : items.documents;
      return {
        ...state,
        documents: {
          ...kept,
          [event.data.docId]: { document: event.data.document, review: PENDING_REVIEW, expired: false, remindedDays: [] },
        },
      };
    }
    case 'DocumentDeleted':
      return { ...state, documents: without(items.documents, event.data.docId) };
    case 'DocumentReviewed': {
      const current = items.documents[event.data.docId];
      if (!current) return state;
      const review = reviewed(event.data.decision, event.data);
      const document = event.data.approvedTill ? { ...current.document, validTill: event.data.approvedTill } : current.document;
      // A new validity date starts the reminders and the expiry over: those recorded were for the old date.
      const redated = document.validTill !== current.document.validTill;
      const expiry = redated ? { expired: false, remindedDays: [] } : {};
      return { ...state, documents: { ...items.documents, [event.data.docId]: { ...current, ...expiry, document, review } } };
    }
    case 'DocumentExpiryReminded': {
      const current = items.documents[event.data.docId];
      if (!current) return state;
      const remindedDays = [...current.remindedDays, event.data.daysBefore];
      return { ...state, documents: { ...items.documents, [event.data.docId]: { ...current, remindedDays } } };
    }
    case 'DocumentExpired': {
      const current = items.documents[event.data.docId];
      if (!current) return state;
      return { ...state, documents: { ...items.documents, [event.data.docId]: { ...current, expired: true } } };
    }
    case 'ConcessionSaved':
      return {
        ...state,
        concessions: { ...items.concessions, [event.data.concessionId]: { concession: event.data.concession, review: PENDING_REVIEW } },
      };
    case 'ConcessionDeleted':
      return { ...state, concessions: without(items.concessions, event.data.concessionId) };
    case 'ConcessionReviewed': {
      const current = items.concessions[event.data.concessionId];
      if (!current) return state;
      const review = reviewed(event.data.decision, event.data);
      return { ...state, concessions: { ...items.concessions, [event.data.concessionId]: { ...current, review } } };
    }
    case 'VerticalMappingSaved':
      return { ...state, verticalMapping: { mapping: event.data.mapping, review: PENDING_REVIEW } };
    case 'VerticalMappingReviewed':
      return items.verticalMapping
        ? { ...state, verticalMapping: { ...items.verticalMapping, review: reviewed(event.data.decision, event.data) } }
        : state;
    case 'CompanyCodeApplied': {
      const application: CompanyApplication = {
        companyCode: event.data.companyCode,
        status: 'pending',
        stage: null,
        submission: 0,
        stage1ApprovedBy: null,
        remarks: null,
      };
      return { ...state, otherApplications: { ...items.otherApplications, [event.data.companyCode]: application } };
    }
    case 'ChangeRequestRaised': {
      const { requestId, section, proposed, changes } = event.data;
      const request: ChangeRequest = { requestId, section, proposed, changes, status: 'pending', approvals: [], remarks: null };
      return { ...state, changeRequests: { ...items.changeRequests, [requestId]: request } };
    }
    case 'ChangeRequestApproved': {
      const current = items.changeRequests[event.data.requestId];
      if (!current) return state;
      const approvals = [...current.approvals, { by: event.data.approvedBy, role: event.data.role, at: event.data.at }];
      const request: ChangeRequest = { ...current, approvals, status: event.data.final ? 'approved' : 'first-approved' };
      const changed = { ...state, changeRequests: { ...items.changeRequests, [event.data.requestId]: request } };
      return event.data.final ? applyChangeRequest(changed, request) : changed;
    }
    case 'ChangeRequestRejected': {
      const current = items.changeRequests[event.data.requestId];
      if (!current) return state;
      const request: ChangeRequest = { ...current, status: 'rejected', remarks: event.data.remarks };
      return { ...state, changeRequests: { ...items.changeRequests, [event.data.requestId]: request } };
    }
    case 'PaymentsHeld':
      return { ...state, paymentsHeldFor: event.data.changeRequestId };
    case 'PaymentsReleased':
      return { ...state, paymentsHeldFor: null };
    default:
      return state;
  }
}

/**
 * An approved change request's values become the profile: company details merge the proposed fields; a bank
 * change replaces the primary account (the proposal holds a whole BankAccount), approved by the request itself.
 */
function applyChangeRequest(state: OnboardingState, request: ChangeRequest): OnboardingState {
  if (request.section === 'company') {
    return state.details ? { ...state, details: { ...state.details, ...(request.proposed as Partial<CompanyDetails>) } } : state;
  }
  const accounts = itemsOf(state).bankAccounts;
  const primaryId = Object.keys(accounts).find((id) => accounts[id]?.primary) ?? 'primary';
  const last = request.approvals[request.approvals.length - 1];
  const review: ItemReview = { status: 'approved', remarks: null, reviewedBy: last?.by ?? null, role: last?.role ?? null, at: last?.at ?? null };
  return {
    ...state,
    bankAccounts: { ...accounts, [primaryId]: { account: request.proposed as BankAccount, primary: true, review } },
  };
}
