import { decide, evolve, initialState, type OnboardingCommand, type OnboardingEvent, type OnboardingState } from '../domain/src/onboarding';
import { DomainError } from '../domain/src/shared/errors';
import type { OnboardingAction } from '../workflows/src/onboarding/client';
import { DEMO_BAS, DEMO_USERS, nextStep, type DemoBa } from './seed';

const toCommand = (a: OnboardingAction): OnboardingCommand => {
  switch (a.kind) {
    case 'saveDetails':
      return { type: 'SaveCompanyDetails', details: a.details };
    case 'submit':
      return { type: 'SubmitOnboarding' };
    case 'approve':
      return { type: 'ApproveReviewStage', stage: a.stage, remarks: a.remarks };
    case 'reject':
      return { type: 'RejectReviewStage', stage: a.stage, remarks: a.remarks };
  }
};

/** Drives a demo BA with the real decider, as the workflow would, recording who decided what. */
function drive(ba: DemoBa): { state: OnboardingState; approvals: { stage: number; userId: string }[] } {
  let state = evolve(initialState, {
    type: 'BusinessAssociateCreated',
    data: { baId: ba.baId, companyCode: ba.companyCode, adminUserId: null, mobileNo: null, email: null },
  });
  const approvals: { stage: number; userId: string }[] = [];
  for (let step = nextStep(ba, state), i = 0; step; step = nextStep(ba, state), i++) {
    if (i > 6) throw new Error(`${ba.key} does not settle`);
    const events = decide(toCommand(step.action), state, {
      actor: step.actor,
      at: '2026-01-01T00:00:00.000Z',
      companyCode: ba.companyCode,
      correlationId: 'c',
      causationId: null,
      workflowId: null,
      requestId: null,
    });
    if (events instanceof DomainError) throw new Error(`${ba.key}: ${step.name} refused: ${events.message} ${JSON.stringify(events.errors)}`);
    for (const e of events) {
      if (e.type === 'ReviewStageApproved') approvals.push({ stage: e.data.stage, userId: e.data.approvedBy });
      state = evolve(state, e as OnboardingEvent);
    }
  }
  return { state, approvals };
}

describe('demo seed data', () => {
  it.each(DEMO_BAS.map((b) => [b.key, b] as const))('%s reaches its target through the real decider', (_key, ba) => {
    const { state, approvals } = drive(ba);
    expect(state.status).toBe(ba.target.status);
    if (ba.target.status === 'inprogress') expect(state.stage).toBe(ba.target.stage);
    if (ba.target.status === 'rejected') expect(state.remarks).toBe(ba.target.remarks);
    // Nobody approves both stages of one submission.
    expect(new Set(approvals.map((a) => a.userId)).size).toBe(approvals.length);
  });

  it('spreads the BAs over every status and both company codes', () => {
    const statuses = new Set(DEMO_BAS.map((b) => b.target.status));
    expect([...statuses].sort()).toEqual(['inprogress', 'pending', 'rejected', 'verified']);
    expect(DEMO_BAS.some((b) => b.target.status === 'inprogress' && b.target.stage === 2)).toBe(true);
    expect(new Set(DEMO_BAS.map((b) => b.companyCode))).toEqual(new Set(['1000', '2000']));
  });

  it('gives ba.admin a not yet submitted BA in company code 1000, where the demo staff work', () => {
    const ba = DEMO_BAS.find((b) => b.admin.username === 'ba.admin@demo.test');
    expect(ba?.companyCode).toBe('1000');
    expect(ba?.target.status).toBe('pending');
    for (const name of ['procurement', 'commercial', 'admin', 'auditor'])
      expect(DEMO_USERS.find((u) => u.username === `${name}@demo.test`)?.companyCodes).toEqual(['1000']);
  });

  it('has one BA Admin per BA and unique usernames', () => {
    expect(new Set(DEMO_USERS.map((u) => u.username)).size).toBe(DEMO_USERS.length);
    for (const ba of DEMO_BAS)
      expect(DEMO_USERS.filter((u) => u.baId === ba.baId && u.roles.includes('BA Admin'))).toHaveLength(1);
  });
});

describe('demo accounts for sign-in with codes', () => {
  test('every demo user has a distinct valid mobile number, so each SMS code reaches one person', () => {
    const mobiles = DEMO_USERS.map((u) => u.mobileNo);
    for (const m of mobiles) expect(m).toMatch(/^[6-9]\d{9}$/);
    expect(new Set(mobiles).size).toBe(mobiles.length);
  });

  test('a colleague BA user, a two-company staff member and a blocked account make every user screen show data', () => {
    expect(DEMO_USERS.some((u) => u.roles.includes('BA User') && u.baId !== null)).toBe(true);
    expect(DEMO_USERS.some((u) => u.companyCodes.length > 1)).toBe(true);
    expect(DEMO_USERS.filter((u) => u.blockedReason)).toHaveLength(1);
  });
});
