import { z } from 'zod';
import { mayReviewStage } from '../identity/roles';
import { companyRefusal, UNKNOWN_COMPANY } from '../masters/references';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { fieldErrors, fields, messages } from '../validation/fields';
import {
  decideApproveChangeRequest,
  decideRaiseChangeRequest,
  decideRejectChangeRequest,
} from './change-requests';
import type { ApproveReviewStage, OnboardingCommand, RejectReviewStage, SubmitOnboarding } from './commands';
import {
  decideDeleteBankAccount,
  decideDeleteConcession,
  decideDeleteDocument,
  decideDeleteGstRegistration,
  decideMarkDocumentExpired,
  decideMarkDocumentExpiring,
  decideReviewBankAccount,
  decideReviewConcession,
  decideReviewDocument,
  decideReviewVerticalMapping,
  decideSaveBankAccount,
  decideSaveConcession,
  decideSaveGstRegistration,
  decideSaveVerticalMapping,
  decideUploadDocument,
} from './decide-items';
import { actsForBa, parseRemarks } from './decide-support';
import {
  COMPANY_DETAIL_FIELDS,
  legacyCityStateMismatch,
  missingForSubmit,
  parseCompanyDetails,
  referenceErrors,
  referencesIn,
  type CompanyDetails,
} from './details';
import type { FieldChange, OnboardingEvent } from './events';
import type { CompanyApplication } from './items';
import { evolve, initialState, itemsOf, type OnboardingState } from './state';
import {
  decideApplyForCompanyCode,
  incompleteTabs,
  rejectedUnchanged,
  stageOneGate,
  submissionRefusals,
} from './submission';

/** Shown to the BA on approval (spec 000 §4: a welcome wishing the BA well in working together). */
export const WELCOME_MESSAGE =
  'Congratulations! Your organisation has been verified. Welcome aboard: we look forward to working together with you.';

export const refusals = {
  notFound: 'Business associate not found',
  alreadyExists: 'This business associate already exists',
  notEditable: 'Company details can only be changed before submission or after a rejection',
  notSubmittable: 'Only a pending or rejected onboarding can be submitted',
  incomplete: 'Please fill in all mandatory company details before submitting',
  notInReview: 'This onboarding is not waiting for a review decision',
  wrongStage: (expected: 1 | 2 | null, given: number) =>
    expected === null
      ? 'This onboarding is not waiting for a review decision'
      : `This onboarding is at stage ${expected}, not stage ${given}`,
  wrongRole: (stage: number) => `Your role may not decide stage ${stage} reviews`,
  baOnly: 'Only the business associate may do this',
  sameApprover: 'The person who approved stage 1 may not also approve stage 2 of the same submission',
  remarksRequired: 'Remarks are required to reject',
} as const;

/**
 * The BA record as registration creates it. Checked here as well as at the boundary because the seed and
 * registration send this command directly: the company must be an active item of the Companies master
 * (`company`, resolved by the deciding activity; see companyRefusal) and contacts must match their patterns.
 */
const createSchema = z.object({
  baId: z.string().trim().min(1, { error: messages.required }),
  companyCode: z.string({ error: UNKNOWN_COMPANY }).min(1, { error: UNKNOWN_COMPANY }),
  mobileNo: fields.mobile.nullable(),
  email: fields.email.nullable(),
});

function changesBetween(before: CompanyDetails | null, after: CompanyDetails): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const f of COMPANY_DETAIL_FIELDS) {
    const was = before?.[f] ?? null;
    if (was !== after[f]) changes[f] = { before: was, after: after[f] };
  }
  return changes;
}

/**
 * The application a submission or stage command is about: the first one (the BA's own fields; its events carry
 * no companyCode, as every event before issue 8) or one CompanyCodeApplied opened for another code.
 */
type Application = Pick<CompanyApplication, 'stage' | 'submission' | 'stage1ApprovedBy'> & {
  status: OnboardingState['status'];
  /** For the events: absent for the first application. */
  companyCode: string | undefined;
};

function applicationOf(state: OnboardingState, companyCode: string | undefined): Application | DomainError {
  if (state.status === 'none') return new DomainError('not_found', refusals.notFound);
  if (companyCode === undefined || companyCode === state.companyCode) {
    const { status, stage, submission, stage1ApprovedBy } = state;
    return { status, stage, submission, stage1ApprovedBy, companyCode: undefined };
  }
  const other = itemsOf(state).otherApplications[companyCode];
  if (!other) return new DomainError('not_found', submissionRefusals.noApplication);
  return { ...other, companyCode };
}

const withCode = <T extends object>(data: T, companyCode: string | undefined): T & { companyCode?: string } =>
  companyCode === undefined ? data : { ...data, companyCode };

function checkReviewer(app: Application, stage: number, meta: CommandMetadata): 1 | 2 | DomainError {
  if (app.status !== 'inprogress' || app.stage === null) return new DomainError('rule', refusals.notInReview);
  if (stage !== app.stage) return new DomainError('conflict', refusals.wrongStage(app.stage, stage));
  if (!mayReviewStage([meta.actor.role], app.stage)) return new DomainError('forbidden', refusals.wrongRole(stage));
  return app.stage;
}

/**
 * `documentTypes` resolved (every live decision since issue 8): each tab must be complete and no rejected item
 * left unchanged. Absent: a decision replayed from before the items existed, which checked company details only.
 */
function decideSubmit(command: SubmitOnboarding, state: OnboardingState, meta: CommandMetadata): OnboardingEvent[] | DomainError {
  const app = applicationOf(state, command.companyCode);
  if (app instanceof DomainError) return app;
  if (!actsForBa(meta)) return new DomainError('forbidden', refusals.baOnly);
  if (app.status !== 'pending' && app.status !== 'rejected') return new DomainError('rule', refusals.notSubmittable);
  if (app.companyCode === undefined) {
    if (command.documentTypes === undefined) {
      const missing = missingForSubmit(state.details);
      if (Object.keys(missing).length > 0) return new DomainError('rule', refusals.incomplete, missing);
    } else {
      const incomplete = incompleteTabs(state, command.documentTypes);
      if (Object.keys(incomplete).length > 0) return new DomainError('rule', submissionRefusals.incompleteTabs, incomplete);
      const unchanged = app.status === 'rejected' ? rejectedUnchanged(state) : {};
      if (Object.keys(unchanged).length > 0) return new DomainError('rule', submissionRefusals.rejectedUnchanged, unchanged);
    }
  }
  const data = { baId: state.baId ?? '', submission: app.submission + 1, resubmission: app.status === 'rejected' };
  return [{ type: 'OnboardingSubmitted', data: withCode(data, app.companyCode) }];
}

function decideApprove(command: ApproveReviewStage, state: OnboardingState, meta: CommandMetadata): OnboardingEvent[] | DomainError {
  const app = applicationOf(state, command.companyCode);
  if (app instanceof DomainError) return app;
  const stage = checkReviewer(app, command.stage, meta);
  if (stage instanceof DomainError) return stage;
  if (stage === 2 && app.stage1ApprovedBy === meta.actor.userId) return new DomainError('rule', refusals.sameApprover);
  // Stage 1 checks the items one by one; it closes once each is approved (histories before issue 8 have none).
  const gate = stage === 1 ? stageOneGate(state) : null;
  if (gate) return gate;
  const remarks = parseRemarks(command.remarks, false);
  if (remarks instanceof DomainError) return remarks;
  const baId = state.baId ?? '';
  const { submission, companyCode } = app;
  const approved: OnboardingEvent = {
    type: 'ReviewStageApproved',
    data: withCode({ baId, submission, stage, remarks, approvedBy: meta.actor.userId, role: meta.actor.role }, companyCode),
  };
  if (stage === 1) return [approved];
  return [approved, { type: 'BusinessAssociateVerified', data: withCode({ baId, submission, welcomeMessage: WELCOME_MESSAGE }, companyCode) }];
}

function decideReject(command: RejectReviewStage, state: OnboardingState, meta: CommandMetadata): OnboardingEvent[] | DomainError {
  const app = applicationOf(state, command.companyCode);
  if (app instanceof DomainError) return app;
  const stage = checkReviewer(app, command.stage, meta);
  if (stage instanceof DomainError) return stage;
  const remarks = parseRemarks(command.remarks, true);
  if (remarks instanceof DomainError) return remarks;
  const data = {
    baId: state.baId ?? '',
    submission: app.submission,
    stage,
    remarks: remarks ?? '',
    rejectedBy: meta.actor.userId,
    role: meta.actor.role,
  };
  return [{ type: 'OnboardingRejected', data: withCode(data, app.companyCode) }];
}

export function decide(
  command: OnboardingCommand,
  state: OnboardingState,
  meta: CommandMetadata,
): OnboardingEvent[] | DomainError {
  const baId = state.baId ?? '';
  switch (command.type) {
    case 'CreateBusinessAssociate': {
      if (state.status !== 'none') return new DomainError('conflict', refusals.alreadyExists);
      const checked = createSchema.safeParse(command);
      const errors = checked.success ? {} : fieldErrors(checked.error);
      const unknownCompany = typeof command.companyCode === 'string' ? companyRefusal(command.companyCode, command.company) : null;
      if (unknownCompany && !errors.companyCode) errors.companyCode = unknownCompany;
      if (Object.keys(errors).length > 0)
        return new DomainError('validation', 'Please correct the highlighted fields', errors);
      const { baId: id, companyCode, adminUserId, mobileNo, email } = command;
      return [{ type: 'BusinessAssociateCreated', data: { baId: id, companyCode, adminUserId, mobileNo, email } }];
    }
    case 'SaveCompanyDetails': {
      if (state.status === 'none') return new DomainError('not_found', refusals.notFound);
      if (!actsForBa(meta)) return new DomainError('forbidden', refusals.baOnly);
      if (state.status !== 'pending' && state.status !== 'rejected')
        return new DomainError('rule', refusals.notEditable);
      // Resolved references: a live decision against the masters. None: a decision replayed from before them,
      // made against the frozen catalogue as it was then (legacy-catalog.ts).
      const references = referencesIn(command.details);
      const parsed = parseCompanyDetails(command.details, { legacy: references === undefined });
      if (!parsed.ok) return new DomainError('validation', 'Please correct the highlighted fields', fieldErrors(parsed.error));
      const refused = references ? referenceErrors(parsed.details, references) : legacyCityStateMismatch(parsed.details);
      if (Object.keys(refused).length > 0)
        return new DomainError('validation', 'Please correct the highlighted fields', refused);
      const changes = changesBetween(state.details, parsed.details);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'CompanyDetailsSaved', data: { baId, details: parsed.details, changes } }];
    }
    case 'SubmitOnboarding':
      return decideSubmit(command, state, meta);
    case 'ApproveReviewStage':
      return decideApprove(command, state, meta);
    case 'RejectReviewStage':
      return decideReject(command, state, meta);
    case 'MarkReviewOverdue': {
      if (state.status === 'none') return new DomainError('not_found', refusals.notFound);
      // A timer may fire after the decision it waited for: then there is nothing to record.
      if (state.status !== 'inprogress' || state.submission !== command.submission || state.stage !== command.stage)
        return [];
      if (state.overdueStages.includes(command.stage)) return [];
      return [
        { type: 'ReviewOverdue', data: { baId, submission: command.submission, stage: command.stage, dueAt: command.dueAt } },
      ];
    }
    case 'SaveBankAccount':
      return decideSaveBankAccount(command, state, meta);
    case 'DeleteBankAccount':
      return decideDeleteBankAccount(command, state, meta);
    case 'ReviewBankAccount':
      return decideReviewBankAccount(command, state, meta);
    case 'SaveGstRegistration':
      return decideSaveGstRegistration(command, state, meta);
    case 'DeleteGstRegistration':
      return decideDeleteGstRegistration(command, state, meta);
    case 'UploadDocument':
      return decideUploadDocument(command, state, meta);
    case 'DeleteDocument':
      return decideDeleteDocument(command, state, meta);
    case 'ReviewDocument':
      return decideReviewDocument(command, state, meta);
    case 'MarkDocumentExpiring':
      return decideMarkDocumentExpiring(command, state, meta);
    case 'MarkDocumentExpired':
      return decideMarkDocumentExpired(command, state, meta);
    case 'SaveConcession':
      return decideSaveConcession(command, state, meta);
    case 'DeleteConcession':
      return decideDeleteConcession(command, state, meta);
    case 'ReviewConcession':
      return decideReviewConcession(command, state, meta);
    case 'SaveVerticalMapping':
      return decideSaveVerticalMapping(command, state, meta);
    case 'ReviewVerticalMapping':
      return decideReviewVerticalMapping(command, state, meta);
    case 'ApplyForCompanyCode':
      return decideApplyForCompanyCode(command, state, meta);
    case 'RaiseChangeRequest':
      return decideRaiseChangeRequest(command, state, meta);
    case 'ApproveChangeRequest':
      return decideApproveChangeRequest(command, state, meta);
    case 'RejectChangeRequest':
      return decideRejectChangeRequest(command, state, meta);
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const onboardingDecider: Decider<OnboardingCommand, OnboardingEvent, OnboardingState> = {
  initialState,
  evolve,
  decide,
};
