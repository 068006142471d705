import { decide, evolve, initialState, type OnboardingCommand, type OnboardingEvent, type OnboardingState } from '../domain/src/onboarding';
import { DomainError } from '../domain/src/shared/errors';
import type { OnboardingAction } from '../workflows/src/onboarding/client';
import { userIdForUsername } from '../domain/src/identity/users';
import type { Actor, EventMetadata } from '../domain/src/shared/events';
import { REFERENCE_DATA } from '../domain/src/masters/reference-data';
import { withMasters } from '../workflows/src/onboarding/activities';
import type { MasterLookup } from '../workflows/src/shared/master-references';
import {
  DEMO_BAS,
  DEMO_LOGINS,
  DEMO_SEED_NAME,
  DEMO_USERS,
  isSeedActor,
  nextStep,
  SEED_ACTOR,
  SEED_BA_ADMIN,
  SEED_SAP_ACTORS,
  seedReviewer,
  writtenBySeed,
  type DemoBa,
} from './seed';
import { demoGstin, EXPIRING_IN_DAYS } from './seed-onboarding';
import { indiaDateAt } from '../domain/src/shared/india-date';
import { parseCompanyDetails } from '../domain/src/onboarding/details';
import { SAP_APPROVERS, SAP_REQUESTERS, BLOCK_REQUESTERS } from '../domain/src/identity/roles';
import { vendorCodeDecider } from '../domain/src/vendor-code/decide';
import { evolveVendorCode, initialVendorCodeState, vendorCodeStatus, type VendorCodeState } from '../domain/src/vendor-code/state';
import { BLOCK_REASONS } from '../domain/src/masters/reference-data/block-reasons';
import { baFactsOf, withReferences } from '../workflows/src/vendor-code/activities';
import {
  blockReasonId,
  DEMO_NUCLEUS_VENDORS,
  demoBlockFile,
  demoBlockRequestId,
  nextVendorCodeStep,
  validatedNucleusUpload,
  type SapBa,
} from './seed-vendor-codes';

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
    // …and one approved document valid for one more week (the expiry reminder); every other one far longer.
    // Counted from today in India, as the expiry timer counts.
    const inDays = (day: string | null | undefined) => Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(indiaDateAt(Date.now()))) / 86_400_000);
    const validity = Object.values(kovai.documents ?? {})
      .filter((d) => d.document.validTill)
      .map((d) => [inDays(d.document.validTill), d.review.status]);
    expect(validity.filter(([days]) => days === EXPIRING_IN_DAYS)).toEqual([[EXPIRING_IN_DAYS, 'approved']]);
    expect(validity.filter(([days]) => days !== EXPIRING_IN_DAYS).every(([days]) => Number(days) > 365)).toBe(true);
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

  it('names services, states and cities the lifecycle accepts as the seed sends them (without master references)', () => {
    // The seed saves details as they are (the API attaches resolved master references; the seed does not), so the
    // workflow's validator checks them against the frozen catalogue: every demo BA must lie in it.
    for (const ba of DEMO_BAS) expect([ba.key, parseCompanyDetails(ba.details, { legacy: true }).ok]).toEqual([ba.key, true]);
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

/** The ERP answering every open job of a vendor-code lifecycle (as the workflow records it: the system actor). */
function erpAnswers(ba: DemoBa, state: VendorCodeState, codes: { next: number }): VendorCodeState {
  const decider = vendorCodeDecider(ba.baId, ba.companyCode);
  for (const job of Object.values(state.jobs)) {
    const events = decider.decide(
      { type: 'RecordErpOutcome', requestKey: job.requestKey, outcome: { kind: 'done', vendorCode: String(codes.next++), message: 'ok' }, retry: { initialMs: 1, maxMs: 1 } },
      state,
      { actor: { userId: 'system', role: 'system', name: 'ERP' }, at: '2026-01-01T00:00:00.000Z', companyCode: ba.companyCode, correlationId: 'c', causationId: null, workflowId: null, requestId: null },
    );
    if (events instanceof DomainError) throw events;
    state = events.reduce((s, e) => evolveVendorCode(s, e), state);
  }
  return state;
}

type SapDriven = { state: VendorCodeState; steps: string[]; actors: Actor[]; waits: number };

/** Drives a demo BA's SAP story with the real decider (masters resolved as the activity does), the ERP answering when waited for. */
async function driveSap(ba: DemoBa): Promise<SapDriven> {
  const sapBa = ba as SapBa;
  const facts = baFactsOf((await drive(ba)).state, ba.companyCode);
  const decider = vendorCodeDecider(ba.baId, ba.companyCode);
  const codes = { next: 1000000001 };
  let state = initialVendorCodeState;
  const steps: string[] = [];
  const actors: Actor[] = [];
  let waits = 0;
  for (let step = nextVendorCodeStep(sapBa, facts, state), i = 0; step; step = nextVendorCodeStep(sapBa, facts, state), i++) {
    if (i > 20) throw new Error(`${ba.key}: the SAP story does not settle`);
    if (step.kind === 'wait') {
      waits += 1;
      state = erpAnswers(ba, state, codes);
      continue;
    }
    const actor = SEED_SAP_ACTORS[step.actor];
    const events = decider.decide(await withReferences(referenceLookup, facts, step.command), state, {
      actor,
      at: '2026-01-01T00:00:00.000Z',
      companyCode: ba.companyCode,
      correlationId: 'c',
      causationId: null,
      workflowId: null,
      requestId: null,
    });
    if (events instanceof DomainError) throw new Error(`${ba.key}: ${step.name} refused: ${events.message}`);
    if (events.length === 0) throw new Error(`${ba.key}: ${step.name} changed nothing, the seed would loop`);
    steps.push(step.name);
    actors.push(actor);
    state = events.reduce((s, e) => evolveVendorCode(s, e), state);
  }
  return { state, steps, actors, waits };
}

describe('the SAP demo stories (issue 9)', () => {
  const sapBas = DEMO_BAS.filter((b) => b.sap);
  const gstStates = async (ba: DemoBa) => baFactsOf((await drive(ba)).state, ba.companyCode).gstRows.map((r) => r.stateId);

  it('tells one story per SAP screen, on verified BAs of company code 1000 where the accounts staff work', () => {
    expect(sapBas.map((b) => [b.key, b.sap?.target]).sort()).toEqual([
      ['chamundi', 'processed'],
      ['coromandel', 'processed'],
      ['godavari', 'verified'],
      ['narmada', 'verification-pending'],
    ]);
    for (const ba of sapBas) expect([ba.target.status, ba.companyCode]).toEqual(['verified', '1000']);
    expect(sapBas.filter((b) => b.sap?.block)).toHaveLength(1);
  });

  it.each(sapBas.map((b) => [b.key, b] as const))('%s reaches its SAP status through the real decider, the ERP answering', async (_key, ba) => {
    const { state, steps, waits } = await driveSap(ba);
    // The parent code comes from the ERP: the seed waits for it before anything needs it.
    expect(steps[0]).toBe('request-parent');
    expect(waits).toBe(1);
    const children = ba.sap?.target === 'processed' ? (await gstStates(ba)).length : 0;
    expect(steps.filter((s) => s.startsWith('request-child:'))).toHaveLength(children);
    // The child codes the seed does not wait for: answered here, the BA stands processed.
    const answered = erpAnswers(ba, state, { next: 2000000001 });
    expect(vendorCodeStatus(answered, await gstStates(ba))).toBe(ba.sap?.target);
    expect(answered.vendorCategory.status).toBe(ba.sap?.target === 'verification-pending' ? 'pending' : 'approved');
    if (ba.sap?.target === 'processed') {
      expect(Object.values(answered.children).map((c) => [c.childCode !== null, c.paymentTermsCode])).toEqual(
        (await gstStates(ba)).map(() => [true, ba.sap?.paymentTerms]),
      );
    }
  });

  it('acts as seed actors in SAP roles, never a demo person; a second seed actor approves the category', async () => {
    const people = new Set(DEMO_USERS.map((u) => userIdForUsername(u.username)));
    for (const ba of sapBas) {
      const { steps, actors } = await driveSap(ba);
      for (const actor of actors) {
        expect(isSeedActor(actor)).toBe(true);
        expect(actor.name).toBe(DEMO_SEED_NAME);
        expect(people.has(actor.userId)).toBe(false);
      }
      const setter = actors[steps.indexOf('vendor-category:set')];
      expect(SAP_REQUESTERS).toContain(setter?.role);
      const approver = actors[steps.indexOf('vendor-category:approve')];
      if (approver) {
        expect(SAP_APPROVERS).toContain(approver.role);
        expect(approver.userId).not.toBe(setter?.userId);
      }
    }
    // The block request too is asked in a block-requester role, so a person with an approver role may approve it.
    expect(BLOCK_REQUESTERS).toContain(SEED_SAP_ACTORS.accounts.role);
  });

  it('asks for the block with a reason from the block-reasons master and a real PDF, under a stable request id', () => {
    const ba = sapBas.find((b) => b.sap?.block) as DemoBa;
    const block = ba.sap?.block;
    expect(BLOCK_REASONS.map((r) => r.id)).toContain(blockReasonId(block?.reason ?? ''));
    const file = demoBlockFile(ba as SapBa, block?.attachment ?? '');
    expect(file.bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(file.stored).toMatchObject({ type: 'application/pdf', size: file.bytes.length });
    expect(demoBlockRequestId(ba.key)).toBe(demoBlockRequestId(ba.key));
    expect(demoBlockRequestId(ba.key)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('records five nucleus vendors from a workbook that passes every mass-upload rule', async () => {
    const upload = await validatedNucleusUpload();
    expect([upload.parents, upload.children]).toEqual([5, DEMO_NUCLEUS_VENDORS.children.length]);
    const pans = DEMO_NUCLEUS_VENDORS.parents.map((r) => r.pan);
    expect(new Set(pans).size).toBe(5);
    expect(new Set(upload.rows.map((r) => r.pan))).toEqual(new Set(pans));
    // Not one of the onboarded demo BAs: nucleus vendors were never onboarded through the portal.
    for (const ba of DEMO_BAS) expect(pans).not.toContain(ba.details.panNumber);
    expect(new Set(DEMO_NUCLEUS_VENDORS.parents.map((r) => r.companyCode))).toEqual(new Set(['1000']));
  });

  it('has the accounts staff who act on the SAP screens, and names them among the demo logins', () => {
    const accounts = DEMO_USERS.find((u) => u.username === 'accounts@demo.test');
    const head = DEMO_USERS.find((u) => u.username === 'accounts.head@demo.test');
    expect(accounts).toMatchObject({ roles: ['MLL Accounts'], companyCodes: ['1000'] });
    expect(head).toMatchObject({ roles: ['MLL Accounts_HEAD'], companyCodes: ['1000'] });
    expect(DEMO_LOGINS.map((l) => l.username)).toEqual(expect.arrayContaining(['accounts@demo.test', 'accounts.head@demo.test']));
  });
});
