import { z } from 'zod';
import { isBaRole, mayReviewStage, SYSTEM_ROLE } from '../identity/roles';
import { companyRefusal, UNKNOWN_COMPANY } from '../masters/references';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { fieldErrors, fields, messages, safeText } from '../validation/fields';
import type { OnboardingCommand } from './commands';
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
import { evolve, initialState, type OnboardingState } from './state';

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

const remarksSchema = safeText();

function parseRemarks(raw: string | null | undefined, required: boolean): string | null | DomainError {
  const trimmed = typeof raw === 'string' ? raw.trim() : '';
  if (trimmed === '') return required ? new DomainError('validation', refusals.remarksRequired, { remarks: refusals.remarksRequired }) : null;
  const parsed = remarksSchema.safeParse(trimmed);
  if (parsed.success) return parsed.data;
  // The schema sees a bare string, so its issues have no path: key them by the command's field name.
  const message = parsed.error.issues[0]?.message ?? 'Invalid remarks';
  return new DomainError('validation', message, { remarks: message });
}

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

const actsForBa = (meta: CommandMetadata): boolean =>
  meta.actor.role === SYSTEM_ROLE || isBaRole(meta.actor.role);

function changesBetween(before: CompanyDetails | null, after: CompanyDetails): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const f of COMPANY_DETAIL_FIELDS) {
    const was = before?.[f] ?? null;
    if (was !== after[f]) changes[f] = { before: was, after: after[f] };
  }
  return changes;
}

function checkReviewer(
  state: OnboardingState,
  stage: number,
  meta: CommandMetadata,
): 1 | 2 | DomainError {
  if (state.status === 'none') return new DomainError('not_found', refusals.notFound);
  if (state.status !== 'inprogress' || state.stage === null) return new DomainError('rule', refusals.notInReview);
  if (stage !== state.stage) return new DomainError('conflict', refusals.wrongStage(state.stage, stage));
  if (!mayReviewStage([meta.actor.role], state.stage)) return new DomainError('forbidden', refusals.wrongRole(stage));
  return state.stage;
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
    case 'SubmitOnboarding': {
      if (state.status === 'none') return new DomainError('not_found', refusals.notFound);
      if (!actsForBa(meta)) return new DomainError('forbidden', refusals.baOnly);
      if (state.status !== 'pending' && state.status !== 'rejected')
        return new DomainError('rule', refusals.notSubmittable);
      const missing = missingForSubmit(state.details);
      if (Object.keys(missing).length > 0) return new DomainError('rule', refusals.incomplete, missing);
      return [
        {
          type: 'OnboardingSubmitted',
          data: { baId, submission: state.submission + 1, resubmission: state.status === 'rejected' },
        },
      ];
    }
    case 'ApproveReviewStage': {
      const stage = checkReviewer(state, command.stage, meta);
      if (stage instanceof DomainError) return stage;
      if (stage === 2 && state.stage1ApprovedBy === meta.actor.userId)
        return new DomainError('rule', refusals.sameApprover);
      const remarks = parseRemarks(command.remarks, false);
      if (remarks instanceof DomainError) return remarks;
      const approved: OnboardingEvent = {
        type: 'ReviewStageApproved',
        data: {
          baId,
          submission: state.submission,
          stage,
          remarks,
          approvedBy: meta.actor.userId,
          role: meta.actor.role,
        },
      };
      if (stage === 1) return [approved];
      return [
        approved,
        { type: 'BusinessAssociateVerified', data: { baId, submission: state.submission, welcomeMessage: WELCOME_MESSAGE } },
      ];
    }
    case 'RejectReviewStage': {
      const stage = checkReviewer(state, command.stage, meta);
      if (stage instanceof DomainError) return stage;
      const remarks = parseRemarks(command.remarks, true);
      if (remarks instanceof DomainError) return remarks;
      return [
        {
          type: 'OnboardingRejected',
          data: {
            baId,
            submission: state.submission,
            stage,
            remarks: remarks ?? '',
            rejectedBy: meta.actor.userId,
            role: meta.actor.role,
          },
        },
      ];
    }
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
