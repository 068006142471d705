import { mayReviewStage } from '../identity/roles';
import type { CommandMetadata } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { ApproveChangeRequest, RaiseChangeRequest, RejectChangeRequest } from './commands';
import { changesOf, invalid, isItemReviewer, parseOrRefuse, parseRemarks } from './decide-support';
import {
  COMPANY_DETAIL_FIELDS,
  companyDetailsSchema,
  missingForSubmit,
  pincodeStateMismatch,
  referenceErrors,
  referencesIn,
  type CompanyDetails,
} from './details';
import { fieldErrors } from '../validation/fields';
import type { OnboardingEvent } from './events';
import type { ChangeRequest } from './items';
import { bankAccountSchema } from './items-schema';
import { itemsOf, type OnboardingState } from './state';

/**
 * Edit Profile of a verified BA (issue 8 "Verified profile changes"): a change is a request the reviewers
 * approve before it applies. A company change needs one reviewer; a bank change needs two different people,
 * the second holding a stage-2 role, and holds the BA's payments from the moment it is raised until decided.
 */
export const changeRequestMessages = {
  approved: 'Change request approved successfully',
  rejected: 'Change request rejected successfully',
  notFound: 'Change request not found',
  adminOnly: 'Only the BA Admin may request profile changes',
  notVerified: 'Only a verified business associate may request profile changes',
  alreadyOpen: 'A change request for this section is already waiting for approval',
  idTaken: 'A different change request was already raised under this id',
  nothingChanged: 'The request changes nothing',
  notReviewer: 'Your role may not decide change requests',
  alreadyDecided: 'This change request was already decided',
  secondApproverSamePerson: 'A bank account change needs a second approver: you approved it already',
  secondApproverRole: 'The second approval of a bank account change needs a stage 2 reviewer',
  paymentsHeldReason: 'Bank account change awaiting approval',
} as const;

const isOpen = (r: ChangeRequest): boolean => r.status === 'pending' || r.status === 'first-approved';

/** The company fields the request names, parsed with the company details rules; the profile they would make. */
function proposedCompanyChange(
  raw: unknown,
  current: CompanyDetails | null,
): { proposed: Partial<CompanyDetails>; changes: ChangeRequest['changes'] } | DomainError {
  if (typeof raw !== 'object' || raw === null) return invalid({ proposed: changeRequestMessages.nothingChanged });
  const named = COMPANY_DETAIL_FIELDS.filter((f) => f in raw);
  const parsed = companyDetailsSchema.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrors(parsed.error));
  const proposed: Partial<CompanyDetails> = {};
  for (const f of named) (proposed as Record<string, unknown>)[f] = parsed.data[f] ?? null;
  const merged = { ...(current ?? {}), ...proposed } as CompanyDetails;
  const references = referencesIn(raw);
  const errors = {
    // A verified profile keeps every mandatory field.
    ...Object.fromEntries(Object.keys(missingForSubmit(merged)).filter((f) => f in proposed).map((f) => [f, 'This field is required'])),
    ...(references ? referenceErrors(merged, references) : pincodeStateMismatch(merged)),
  };
  if (Object.keys(errors).length > 0) return invalid(errors);
  const changes = changesOf(current ? pick(current, named) : null, proposed);
  return { proposed: pick(proposed as CompanyDetails, Object.keys(changes) as (keyof CompanyDetails)[]), changes };
}

const pick = <T extends object>(o: T, keys: readonly (keyof T)[]): Partial<T> =>
  Object.fromEntries(keys.map((k) => [k, o[k]])) as Partial<T>;

export function decideRaiseChangeRequest(command: RaiseChangeRequest, state: OnboardingState, meta: CommandMetadata): OnboardingEvent[] | DomainError {
  if (state.status === 'none') return new DomainError('not_found', 'Business associate not found');
  if (meta.actor.role !== 'BA Admin') return new DomainError('forbidden', changeRequestMessages.adminOnly);
  if (state.status !== 'verified') return new DomainError('rule', changeRequestMessages.notVerified);
  const { changeRequests, bankAccounts } = itemsOf(state);
  const baId = state.baId ?? '';

  let proposed: Record<string, unknown>;
  let changes: ChangeRequest['changes'];
  if (command.section === 'company') {
    const company = proposedCompanyChange(command.proposed, state.details);
    if (company instanceof DomainError) return company;
    ({ proposed, changes } = company);
  } else if (command.section === 'bank') {
    const account = parseOrRefuse(bankAccountSchema, command.proposed);
    if (account instanceof DomainError) return account;
    const primary = Object.values(bankAccounts).find((a) => a.primary)?.account ?? null;
    proposed = account;
    changes = changesOf(primary, account);
  } else {
    return invalid({ section: 'Please choose what to change' });
  }

  const same = changeRequests[command.requestId];
  if (same)
    return JSON.stringify(same.proposed) === JSON.stringify(proposed) && same.section === command.section
      ? []
      : new DomainError('conflict', changeRequestMessages.idTaken);
  if (Object.keys(changes).length === 0) return new DomainError('rule', changeRequestMessages.nothingChanged);
  if (Object.values(changeRequests).some((r) => r.section === command.section && isOpen(r)))
    return new DomainError('conflict', changeRequestMessages.alreadyOpen);

  const raised: OnboardingEvent = {
    type: 'ChangeRequestRaised',
    data: { baId, requestId: command.requestId, section: command.section, proposed, changes },
  };
  if (command.section === 'company') return [raised];
  return [raised, { type: 'PaymentsHeld', data: { baId, reason: changeRequestMessages.paymentsHeldReason, changeRequestId: command.requestId } }];
}

function openRequest(state: OnboardingState, requestId: string, meta: CommandMetadata): ChangeRequest | DomainError {
  if (state.status === 'none') return new DomainError('not_found', 'Business associate not found');
  if (!isItemReviewer(meta)) return new DomainError('forbidden', changeRequestMessages.notReviewer);
  const request = itemsOf(state).changeRequests[requestId];
  if (!request) return new DomainError('not_found', changeRequestMessages.notFound);
  if (!isOpen(request)) return new DomainError('conflict', changeRequestMessages.alreadyDecided);
  return request;
}

/** Payments held for this request are released when it is decided either way. */
const released = (state: OnboardingState, requestId: string): OnboardingEvent[] =>
  itemsOf(state).paymentsHeldFor === requestId
    ? [{ type: 'PaymentsReleased', data: { baId: state.baId ?? '', changeRequestId: requestId } }]
    : [];

export function decideApproveChangeRequest(command: ApproveChangeRequest, state: OnboardingState, meta: CommandMetadata): OnboardingEvent[] | DomainError {
  const request = openRequest(state, command.requestId, meta);
  if (request instanceof DomainError) return request;
  let final = true;
  if (request.section === 'bank') {
    if (request.approvals.length === 0) final = false;
    else {
      if (request.approvals.some((a) => a.by === meta.actor.userId))
        return new DomainError('rule', changeRequestMessages.secondApproverSamePerson);
      if (!mayReviewStage([meta.actor.role], 2)) return new DomainError('forbidden', changeRequestMessages.secondApproverRole);
    }
  }
  const approved: OnboardingEvent = {
    type: 'ChangeRequestApproved',
    data: { baId: state.baId ?? '', requestId: command.requestId, approvedBy: meta.actor.userId, role: meta.actor.role, at: meta.at, final },
  };
  return final ? [approved, ...released(state, command.requestId)] : [approved];
}

export function decideRejectChangeRequest(command: RejectChangeRequest, state: OnboardingState, meta: CommandMetadata): OnboardingEvent[] | DomainError {
  const request = openRequest(state, command.requestId, meta);
  if (request instanceof DomainError) return request;
  const remarks = parseRemarks(command.remarks, true);
  if (remarks instanceof DomainError) return remarks;
  return [
    {
      type: 'ChangeRequestRejected',
      data: { baId: state.baId ?? '', requestId: command.requestId, remarks: remarks ?? '', rejectedBy: meta.actor.userId, role: meta.actor.role },
    },
    ...released(state, command.requestId),
  ];
}
