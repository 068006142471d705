import type { CompanyDetails } from './details';
import type { OnboardingEvent } from './events';

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
};

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
      return {
        ...state,
        status: 'inprogress',
        stage: 1,
        submission: event.data.submission,
        stage1ApprovedBy: null,
        remarks: null,
        overdueStages: [],
      };
    case 'ReviewStageApproved':
      return event.data.stage === 1
        ? { ...state, stage: 2, stage1ApprovedBy: event.data.approvedBy }
        : { ...state, stage: null };
    case 'BusinessAssociateVerified':
      return { ...state, status: 'verified', stage: null, welcomeMessage: event.data.welcomeMessage };
    case 'OnboardingRejected':
      return { ...state, status: 'rejected', stage: null, remarks: event.data.remarks };
    case 'ReviewOverdue':
      return { ...state, overdueStages: [...state.overdueStages, event.data.stage] };
    default: {
      const never: never = event;
      return never;
    }
  }
}
