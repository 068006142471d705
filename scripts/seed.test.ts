import { decide, evolve, initialState, type OnboardingCommand, type OnboardingEvent, type OnboardingState } from '../domain/src/onboarding';
import { DomainError } from '../domain/src/shared/errors';
import type { OnboardingAction } from '../workflows/src/onboarding/client';
import { userIdForUsername } from '../domain/src/identity/users';
import type { Actor, EventMetadata } from '../domain/src/shared/events';
import { REFERENCE_DATA } from '../domain/src/masters/reference-data';
import { withMasters } from '../workflows/src/onboarding/activities';
import type { MasterLookup } from '../workflows/src/shared/master-references';
import { DEMO_BAS, DEMO_SEED_NAME, DEMO_USERS, nextStep, SEED_ACTOR, SEED_BA_ADMIN, seedReviewer, writtenBySeed, type DemoBa } from './seed';
import { demoGstin } from './seed-onboarding';

const toCommand = (a: OnboardingAction): OnboardingCommand => {
  switch (a.kind) {
    case 'command':
      return a.command;
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

/** The masters as the reference data loads them, for the deciding activity's resolution (withMasters). */
const referenceLookup: MasterLookup = (resource, ids) => {
  const rows = REFERENCE_DATA.find((m) => m.resource === resource)?.rows ?? [];
  const items = rows.map((r) => ({ status: 'active' as const, updatedAt: '2026-01-01T00:00:00Z', ...r }));
  return Promise.resolve(ids === 'all' ? items : items.filter((i) => ids.map(String).includes(String(i.id))));
};

type Driven = { state: OnboardingState; approvals: { stage: number; userId: string }[]; actors: Actor[]; steps: string[] };

/** Drives a demo BA with the real decider, as the workflow would (masters resolved), recording who decided what. */
async function drive(ba: DemoBa): Promise<Driven> {
  let state = evolve(initialState, {
    type: 'BusinessAssociateCreated',
    data: { baId: ba.baId, companyCode: ba.companyCode, adminUserId: null, mobileNo: null, email: null },
  });
  const approvals: { stage: number; userId: string }[] = [];
  const actors: Actor[] = [];
  const steps: string[] = [];
  for (let step = nextStep(ba, state), i = 0; step; step = nextStep(ba, state), i++) {
    if (i > 40) throw new Error(`${ba.key} does not settle`);
    const events = decide(await withMasters(referenceLookup, toCommand(step.action)), state, {
      actor: step.actor,
      at: '2026-01-01T00:00:00.000Z',
      companyCode: ba.companyCode,
      correlationId: 'c',
      causationId: null,
      workflowId: null,
      requestId: null,
    });
    if (events instanceof DomainError) throw new Error(`${ba.key}: ${step.name} refused: ${events.message} ${JSON.stringify(events.errors)}`);
    if (events.length === 0) throw new Error(`${ba.key}: ${step.name} changed nothing, the seed would loop`);
    actors.push(step.actor);
    steps.push(step.name);
    for (const e of events) {
      if (e.type === 'ReviewStageApproved') approvals.push({ stage: e.data.stage, userId: e.data.approvedBy });
      state = evolve(state, e as OnboardingEvent);
    }
  }
  return { state, approvals, actors, steps };
}

describe('demo seed data', () => {
  it.each(DEMO_BAS.map((b) => [b.key, b] as const))('%s reaches its target through the real decider', async (_key, ba) => {
    const { state, approvals } = await drive(ba);
    expect(state.status).toBe(ba.target.status);
    if (ba.target.status === 'inprogress') expect(state.stage).toBe(ba.target.stage);
    if (ba.target.status === 'rejected') expect(state.remarks).toBe(ba.target.remarks);
    // Nobody approves both stages of one submission.
    expect(new Set(approvals.map((a) => a.userId)).size).toBe(approvals.length);
  });

  it('takes every step as the "Demo seed" system actor, never as one of the demo people', async () => {
    const people = new Set(DEMO_USERS.map((u) => userIdForUsername(u.username)));
    const actors = (await Promise.all(DEMO_BAS.map(drive))).flatMap((d) => d.actors);
    expect(actors.length).toBeGreaterThan(DEMO_BAS.length);
    for (const actor of actors) {
      expect(actor.name).toBe(DEMO_SEED_NAME);
      expect(people.has(actor.userId)).toBe(false);
    }
    // The review decisions were taken in the stage's role, by a distinct seed actor per stage.
    // Edit Profile is the BA Admin's alone: the seed raises the demo change request as a seed "BA Admin" of its own.
    expect(new Set(actors.map((a) => a.userId))).toEqual(
      new Set([SEED_ACTOR.userId, seedReviewer(1).userId, seedReviewer(2).userId, SEED_BA_ADMIN.userId]),
    );
  });

  it('fills every tab before a submission and has every item reviewed before stage 1 (issue 8)', async () => {
    for (const ba of DEMO_BAS.filter((b) => b.target.status !== 'pending')) {
      const { state, steps } = await drive(ba);
      const submit = steps.indexOf('submit');
      // Bank account, GST row, at least the three documents every service needs, the vertical mapping.
      expect(steps.slice(0, submit).filter((s) => s !== 'save').length).toBeGreaterThanOrEqual(6);
      const stage1 = steps.findIndex((s) => s === 'approve-1' || s === 'reject-1');
      if (stage1 >= 0) expect(steps.slice(submit, stage1).filter((s) => s.startsWith('review:')).length).toBeGreaterThanOrEqual(5);
      expect(Object.values(state.documents ?? {}).every((d) => d.document.file.sha256.length === 64)).toBe(true);
    }
  });

  it('tells the story each new screen needs', async () => {
    const of = async (key: string) => (await drive(DEMO_BAS.find((b) => b.key === key) as DemoBa)).state;
    // Stage 1 with documents waiting for review.
    expect(Object.values((await of('vidarbha')).documents ?? {}).every((d) => d.review.status === 'pending')).toBe(true);
    // The rejected BA: the PAN card and the bank account rejected with remarks, the rest approved.
    const rejected = await of('sabarmati');
    const rejectedDocs = Object.values(rejected.documents ?? {}).filter((d) => d.review.status === 'rejected');
    expect(rejectedDocs.map((d) => d.document.documentTypeId)).toEqual([1]);
    expect(rejectedDocs[0]?.review.remarks).toMatch(/PAN card/);
    expect(Object.values(rejected.bankAccounts ?? {}).map((a) => a.review.status)).toEqual(['rejected']);
    // A verified BA with an additional document and a staff concession waiting for review.
    const coromandel = await of('coromandel');
    expect(Object.values(coromandel.documents ?? {}).filter((d) => d.document.kind === 'additional' && d.review.status === 'pending')).toHaveLength(1);
    expect(Object.values(coromandel.concessions ?? {}).map((c) => [c.review.status, c.concession.isInternalUpload])).toEqual([['pending', true]]);
    // A verified BA whose bank change waits for its second approver, payments on hold.
    const kovai = await of('kovai');
    expect(Object.values(kovai.changeRequests ?? {}).map((r) => [r.section, r.status])).toEqual([['bank', 'first-approved']]);
    expect(kovai.paymentsHeldFor).toBeTruthy();
    // Two BAs with the same GSTIN, under different company codes (the duplicate warning).
    const gstins = DEMO_BAS.map(demoGstin);
    expect(gstins.filter((g) => g === demoGstin(DEMO_BAS.find((b) => b.key === 'vidarbha') as DemoBa))).toHaveLength(2);
  });

  it('tells the seed’s own events from anyone else’s', () => {
    const meta = (actor: Actor, correlationId: string): { metadata: EventMetadata } => ({
      metadata: { actor, correlationId, companyCode: '1000', causationId: null, workflowId: null, requestId: null, at: '2026-01-01T00:00:00Z' },
    });
    const person: Actor = { userId: userIdForUsername('procurement@demo.test'), role: 'MLL Procurement', name: 'Priya Sharma' };
    expect(writtenBySeed(meta(SEED_ACTOR, 'seed:deccan'))).toBe(true);
    expect(writtenBySeed(meta(seedReviewer(2), 'seed:deccan'))).toBe(true);
    // The lifecycle's review-SLA timer, inside a lifecycle the seed started.
    expect(writtenBySeed(meta({ userId: 'system', role: 'system', name: 'Review SLA' }, 'seed:deccan'))).toBe(true);
    expect(writtenBySeed(meta(person, 'a-request-id'))).toBe(false);
    // A request may choose its correlation id (X-Correlation-Id): a person stays a person.
    expect(writtenBySeed(meta(person, 'seed:deccan'))).toBe(false);
    expect(writtenBySeed(meta(SEED_ACTOR, 'a-request-id'))).toBe(false);
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
