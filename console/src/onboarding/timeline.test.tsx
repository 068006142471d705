import { activity, baRow } from '../testing/fakes';
import { stageOneApprover, timelineSteps } from './timeline';

// One event a day, so the day serves as the log position (the entry id).
const at = (day: number) => `2025-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const submitted = (day: number) => activity({ id: day, eventType: 'OnboardingSubmitted', at: at(day) });
const approved = (day: number, actorUserId: string) =>
  activity({
    id: day,
    eventType: 'ReviewStageApproved',
    at: at(day),
    actorUserId,
    actorName: actorUserId,
    role: 'MLL-ADMIN',
  });
const rejected = (day: number, remarks: string) =>
  activity({ id: day, eventType: 'OnboardingRejected', at: at(day), actorUserId: 'u-com', remarks });

const stateOf = (steps: ReturnType<typeof timelineSteps>) =>
  Object.fromEntries(steps.map((s) => [s.key, s.state]));

describe('timeline', () => {
  it('puts a rejection after one approval on stage 2, with its remarks', () => {
    const steps = timelineSteps(baRow({ status: 'rejected', stage: null }), [
      submitted(1),
      approved(2, 'u-proc'),
      rejected(3, 'Bank proof missing'),
    ]);
    expect(stateOf(steps)).toEqual({
      registered: 'done',
      submitted: 'done',
      stage1: 'done',
      stage2: 'rejected',
      outcome: 'rejected',
    });
    expect(steps.find((s) => s.key === 'stage2')?.remarks).toBe('Bank proof missing');
  });

  it('starts the reviews again on a resubmission: earlier decisions no longer count', () => {
    const log = [submitted(1), approved(2, 'u-proc'), rejected(3, 'Fix PAN'), submitted(4)];
    const steps = timelineSteps(baRow({ status: 'inprogress', stage: 1, submission: 2 }), log);
    expect(stateOf(steps)).toMatchObject({ stage1: 'current', stage2: 'waiting', outcome: 'waiting' });
    expect(steps.find((s) => s.key === 'submitted')?.label).toBe('Resubmitted (submission 2)');
    expect(stageOneApprover(log)).toBeNull();
  });

  it('knows who approved stage 1 of the current submission', () => {
    expect(stageOneApprover([submitted(1), approved(2, 'u-admin')])).toBe('u-admin');
    expect(stageOneApprover([approved(2, 'u-admin'), submitted(3)])).toBeNull();
  });

  it('shows a BA that has not submitted as waiting for its submission', () => {
    const record = baRow({ status: 'pending', stage: null, submission: 0, submittedAt: null });
    const steps = timelineSteps(record, []);
    expect(stateOf(steps)).toMatchObject({ registered: 'done', submitted: 'current', stage1: 'waiting' });
  });
});
