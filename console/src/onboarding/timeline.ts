import type { ActivityEntry, BusinessAssociate } from '../shared/types';

/**
 * The BA's way through onboarding, derived from its row and activity log: registered → submitted → stage 1 →
 * stage 2 → verified or rejected. Only the current submission's decisions count (a resubmission starts the
 * reviews again), and a decision's stage follows from its order: the first approval after a submission is
 * stage 1, the second stage 2, and a rejection belongs to the stage after the approvals before it.
 */
export type StepState = 'done' | 'current' | 'waiting' | 'rejected' | 'skipped';
export type TimelineStep = {
  key: 'registered' | 'submitted' | 'stage1' | 'stage2' | 'outcome';
  label: string;
  state: StepState;
  at?: string | null;
  by?: string | null;
  remarks?: string | null;
  note?: string | null;
  overdue?: boolean;
};

const byTime = (a: ActivityEntry, b: ActivityEntry) => a.at.localeCompare(b.at);

type Submission = { submitted?: ActivityEntry; after: ActivityEntry[] };

function currentSubmission(log: readonly ActivityEntry[]): Submission {
  const sorted = [...log].sort(byTime);
  let start = -1;
  sorted.forEach((e, i) => {
    if (e.eventType === 'OnboardingSubmitted') start = i;
  });
  return start < 0 ? { after: [] } : { submitted: sorted[start], after: sorted.slice(start + 1) };
}

/** Who approved stage 1 of the current submission (that person may not approve stage 2), if anyone. */
export function stageOneApprover(log: readonly ActivityEntry[]): string | null {
  const { submitted, after } = currentSubmission(log);
  if (!submitted) return null;
  return after.find((e) => e.eventType === 'ReviewStageApproved')?.actorUserId ?? null;
}

const who = (e: ActivityEntry | undefined) =>
  e ? [e.actorName, e.role ? `(${e.role})` : null].filter(Boolean).join(' ') || null : null;

export function timelineSteps(record: BusinessAssociate, log: readonly ActivityEntry[]): TimelineStep[] {
  const { submitted, after } = currentSubmission(log);
  const approvals = after.filter((e) => e.eventType === 'ReviewStageApproved');
  const rejection = after.find((e) => e.eventType === 'OnboardingRejected');
  const verified = after.find((e) => e.eventType === 'BusinessAssociateVerified');
  const approvalsBefore = (e: ActivityEntry) => approvals.filter((a) => byTime(a, e) < 0).length;
  const rejectedAtStage = rejection ? Math.min(approvalsBefore(rejection) + 1, 2) : null;
  const created = log.find((e) => e.eventType === 'BusinessAssociateCreated');
  const hasSubmitted = record.status !== 'pending' || record.submission > 0;

  const steps: TimelineStep[] = [
    { key: 'registered', label: 'Registered', state: 'done', at: created?.at ?? record.createdAt },
    {
      key: 'submitted',
      label: record.submission > 1 ? `Resubmitted (submission ${record.submission})` : 'Submitted',
      state: hasSubmitted ? 'done' : 'current',
      at: submitted?.at ?? record.submittedAt,
      by: who(submitted),
      note: hasSubmitted ? null : 'Waiting for the BA to submit its details',
    },
  ];

  for (const stage of [1, 2] as const) {
    const approval = approvals[stage - 1];
    const key = stage === 1 ? 'stage1' : 'stage2';
    const label = `Stage ${stage} review`;
    if (approval) {
      const { at, remarks } = approval;
      steps.push({ key, label, state: 'done', at, by: who(approval), remarks, note: 'Approved' });
    } else if (rejection && rejectedAtStage === stage) {
      const { at, remarks } = rejection;
      steps.push({ key, label, state: 'rejected', at, by: who(rejection), remarks, note: 'Rejected' });
    } else if (rejection) {
      steps.push({ key, label, state: 'skipped' });
    } else if (record.status === 'inprogress' && record.stage === stage) {
      steps.push({ key, label, state: 'current', note: 'Awaiting decision', overdue: record.overdue });
    } else {
      steps.push({ key, label, state: 'waiting' });
    }
  }

  if (record.status === 'verified') {
    steps.push({
      key: 'outcome',
      label: 'Verified',
      state: 'done',
      at: verified?.at ?? record.updatedAt,
      note: record.welcomeMessage,
    });
  } else if (record.status === 'rejected') {
    // The remarks sit on the stage that rejected; the outcome says what happens next.
    steps.push({
      key: 'outcome',
      label: 'Rejected',
      state: 'rejected',
      at: rejection?.at ?? record.updatedAt,
      remarks: rejection ? null : record.remarks,
      note: 'The business associate may correct its details and submit again',
    });
  } else {
    steps.push({ key: 'outcome', label: 'Verified or rejected', state: 'waiting' });
  }
  return steps;
}
