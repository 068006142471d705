import { randomUUID } from 'node:crypto';
import { rfpDecider } from '../../../domain/src/rfp/decide';
import { rfpStreamId, type RfpEvent } from '../../../domain/src/rfp/events';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { quotesOf } from '../../../domain/src/rfp/state';
import { headerInput, rfpTimer } from '../../../domain/src/rfp/testing';
import { fold } from '../../../domain/src/shared/decider';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { waitFor } from '../../../tests/support/wait';
import { refusal } from '../testing/refusal';
import { startTestWorker, type TestWorker } from '../testing/worker';
import { createRfpActivities } from './activities';
import {
  awardRfp,
  closeRfp,
  closeRfpBidding,
  createRfpDraft,
  floatRfp,
  getRfpState,
  inviteBackhaul,
  reopenRfp,
  submitLaneResponses,
  uploadRfpTerms,
} from './client';
import { rfpWorkflowId } from './messages';
import { as, completeWizard, floatedTo, fromNow, markBaBlocked, rfpActors, twoLaneQuote, uniqueRfpCode } from './testing';

jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('rfp-workflow');
let t: TestWorker;

beforeAll(async () => {
  t = await startTestWorker(taskQueue, { withPool: true });
});
afterAll(async () => {
  await t?.stop();
});

const { procurement, admin, operations, ba } = rfpActors;
const eventsOf = (rfpCode: string) => t.store.readStream(rfpStreamId(rfpCode));
const typesOf = async (rfpCode: string) => (await eventsOf(rfpCode)).map((e) => e.type);
const stateFromStream = async (rfpCode: string) => fold(rfpDecider, (await eventsOf(rfpCode)).map((e) => ({ type: e.type, data: e.data }) as RfpEvent));
/** The RFP once its summary shows `status` (the due-date timer acts on its own time). */
const settled = (rfpCode: string, status: string, timeoutMs = 30_000) =>
  waitFor(async () => {
    const view = await getRfpState(t.client, rfpCode);
    return view?.summary.status === status ? view : undefined;
  }, timeoutMs);

const float = (rfpCode: string, baIds: string[], dueAt: string) =>
  floatRfp(t.client, rfpCode, { baIds, comments: 'Quote by the due date', floatToAll: false, rfpType: 'standard' }, { ...as(procurement), dueAt });
const quote = (rfpCode: string, baId: string, round: number, quotes: Record<string, Record<string, string | null>>) =>
  submitLaneResponses(t.client, rfpCode, { baId, round, quotes }, as(ba(baId)));

describe('the RFP lifecycle', () => {
  test('draft → floated → the due date closes bidding → award split → close → reopen (round 2) → backhaul', async () => {
    const rfpCode = uniqueRfpCode();
    const created = await createRfpDraft(t.client, taskQueue, headerInput({ rfpCode }), as(procurement));
    expect(created).toMatchObject({ summary: { rfpCode, status: 'draft', round: 0 }, version: 0, eventTypes: ['RfpDraftCreated'] });
    // Another request for the same code meets the running lifecycle: 409, nothing recorded.
    const again = await refusal(createRfpDraft(t.client, taskQueue, headerInput({ rfpCode }), as(operations)));
    expect(again).toMatchObject({ code: 'conflict', message: rfpMessages.exists(rfpCode) });

    const ready = await completeWizard(t.client, rfpCode);
    expect(ready.summary).toMatchObject({ status: 'draft', rfpType: 'standard', laneCount: 2, progress: { step2: true, step3: true, step4: true } });
    // The float rule is the decider's, met in the activity: a float to nobody new is refused, nothing appended.
    const toNobody = await refusal(floatRfp(t.client, rfpCode, { baIds: [], floatToAll: false, rfpType: 'standard' }, as(procurement)));
    expect(toNobody).toMatchObject({ code: 'rule', message: rfpMessages.addNewBa });

    const floated = await float(rfpCode, ['ba-1', 'ba-2', 'ba-3'], fromNow(6_000));
    expect(floated.summary).toMatchObject({ status: 'floated', round: 1, baIds: ['ba-1', 'ba-2', 'ba-3'] });
    await quote(rfpCode, 'ba-1', 1, twoLaneQuote('45000', '52000'));
    await quote(rfpCode, 'ba-2', 1, twoLaneQuote('47000', '50000'));
    // A blocked BA (the block read model says so; the caller does not) cannot bid: 403, nothing appended.
    await markBaBlocked(t.db.pool, 'ba-3');
    const blocked = await refusal(quote(rfpCode, 'ba-3', 1, twoLaneQuote('40000', '40000')));
    expect(blocked).toMatchObject({ code: 'forbidden', message: rfpMessages.baBlocked });
    // Only MLL Procurement and MLL-ADMIN award: refused by the validator at once.
    const notDecider = await refusal(awardRfp(t.client, rfpCode, { L0001: [{ baId: 'ba-1', sharePercent: 100 }] }, as(operations)));
    expect(notDecider).toMatchObject({ code: 'forbidden', message: rfpMessages.notDecider });

    // The due date passes: the timer closes bidding as the system.
    const evaluation = await settled(rfpCode, 'evaluation');
    expect(evaluation.summary.round).toBe(1);
    const closedBy = (await eventsOf(rfpCode)).find((e) => e.type === 'RfpBiddingClosed');
    expect(closedBy?.data).toMatchObject({ round: 1, reason: 'due', closedBy: { userId: 'system', role: 'system' } });
    expect(closedBy?.metadata.actor).toMatchObject({ userId: 'system', role: 'system' });
    // A quote after the deadline is refused.
    const late = await refusal(quote(rfpCode, 'ba-1', 1, twoLaneQuote('44000', '51000')));
    expect(late).toMatchObject({ code: 'rule', message: rfpMessages.biddingNotOpen });

    // Shares must add up to 100 per lane (the decider's rule, in the activity): 400, nothing appended.
    const short = await refusal(awardRfp(t.client, rfpCode, { L0001: [{ baId: 'ba-1', sharePercent: 60 }] }, as(admin)));
    expect(short).toMatchObject({ code: 'validation', message: rfpMessages.sharesSum('L0001') });
    const awarded = await awardRfp(
      t.client,
      rfpCode,
      { L0001: [{ baId: 'ba-1', sharePercent: 60 }, { baId: 'ba-2', sharePercent: 40 }], L0002: [{ baId: 'ba-2', sharePercent: 100 }] },
      as(admin),
    );
    expect(awarded).toMatchObject({ summary: { status: 'awarded' }, eventTypes: ['RfpAwarded'] });
    const award = (await eventsOf(rfpCode)).find((e) => e.type === 'RfpAwarded');
    expect(award?.data).toMatchObject({
      round: 1,
      lanes: {
        L0001: [
          { baId: 'ba-1', sharePercent: 60, rates: { ratePerTrip: '45000' } },
          { baId: 'ba-2', sharePercent: 40, rates: { ratePerTrip: '47000' } },
        ],
        L0002: [{ baId: 'ba-2', sharePercent: 100, rates: { ratePerTrip: '50000' } }],
      },
    });
    expect((await closeRfp(t.client, rfpCode, 'Contracts signed', as(admin))).summary.status).toBe('closed');

    // Reopen: round 2 for the same BAs; ba-1 revises; round 1 stays as it was.
    const reopened = await reopenRfp(t.client, rfpCode, fromNow(3_600_000), as(procurement));
    expect(reopened.summary).toMatchObject({ status: 'floated', round: 2 });
    const stale = await refusal(quote(rfpCode, 'ba-1', 1, twoLaneQuote('43000', '49000')));
    expect(stale).toMatchObject({ code: 'conflict', message: rfpMessages.staleRound });
    await quote(rfpCode, 'ba-1', 2, twoLaneQuote('43000', '49000'));
    const state = await stateFromStream(rfpCode);
    expect(quotesOf(state, 'ba-1', 1)).toEqual(twoLaneQuote('45000', '52000'));
    expect(quotesOf(state, 'ba-1', 2)).toEqual(twoLaneQuote('43000', '49000'));
    expect(quotesOf(state, 'ba-2', 2)).toEqual({});

    // Backhaul: invite a BA of the RFP; the same value again changes nothing.
    const invited = await inviteBackhaul(t.client, rfpCode, { baId: 'ba-2', isInvited: true }, as(operations));
    expect(invited.eventTypes).toEqual(['BackhaulInvitationChanged']);
    expect((await inviteBackhaul(t.client, rfpCode, { baId: 'ba-2', isInvited: true }, as(operations))).eventTypes).toEqual([]);
    const notOurs = await refusal(inviteBackhaul(t.client, rfpCode, { baId: 'ba-9', isInvited: true }, as(operations)));
    expect(notOurs).toMatchObject({ code: 'rule', message: rfpMessages.baNotInRfp });

    expect(await typesOf(rfpCode)).toEqual([
      'RfpDraftCreated',
      'RfpStepSaved',
      'RfpLanesUploaded',
      'RfpStepSaved',
      'RfpFloated',
      'LaneResponsesSubmitted',
      'LaneResponsesSubmitted',
      'RfpBiddingClosed',
      'RfpAwarded',
      'RfpClosed',
      'RfpReopened',
      'LaneResponsesSubmitted',
      'BackhaulInvitationChanged',
    ]);
    const view = await getRfpState(t.client, rfpCode);
    expect(view).toMatchObject({ summary: { status: 'floated', round: 2 }, version: 12 });
  });

  test('a reopen re-arms the timer for the new round; a timer for the replaced round does nothing', async () => {
    const rfpCode = uniqueRfpCode();
    const round1DueAt = fromNow(4_000);
    await floatedTo(t.client, taskQueue, rfpCode, ['ba-1'], round1DueAt);
    await closeRfpBidding(t.client, rfpCode, as(admin));
    const round2DueAt = fromNow(8_000);
    await reopenRfp(t.client, rfpCode, round2DueAt, as(admin));
    // Round 1's due date passes: bidding of round 2 stays open.
    await new Promise((r) => setTimeout(r, Date.parse(round1DueAt) - Date.now() + 1_000));
    expect((await getRfpState(t.client, rfpCode))?.summary).toMatchObject({ status: 'floated', round: 2 });

    // A round-1 timer arriving late anyway (as after a long worker outage) is ignored by the decider.
    const { handleRfpCommand } = createRfpActivities({ store: t.store, pool: t.db.appPool });
    const late = await handleRfpCommand({
      rfpCode,
      command: { type: 'CloseBidding', round: 1 },
      actor: rfpTimer,
      commandId: randomUUID(),
      correlationId: randomUUID(),
      requestId: null,
      workflowId: rfpWorkflowId(rfpCode),
      at: new Date().toISOString(),
    });
    expect(late).toMatchObject({ eventTypes: [], summary: { status: 'floated', round: 2 } });

    // Round 2's own due date closes round 2.
    await settled(rfpCode, 'evaluation');
    const closings = (await eventsOf(rfpCode)).filter((e) => e.type === 'RfpBiddingClosed');
    expect(closings.map((e) => e.data)).toEqual([
      expect.objectContaining({ round: 1, reason: 'staff' }),
      expect.objectContaining({ round: 2, reason: 'due' }),
    ]);
  });

  test('commands reach a lifecycle that continued as new; the timer fires in the later run; a repeated request gets its answer', async () => {
    const rfpCode = uniqueRfpCode();
    await createRfpDraft(t.client, taskQueue, headerInput({ rfpCode }), { ...as(procurement), continueAsNewAfterHistoryLength: 10 });
    await completeWizard(t.client, rfpCode);
    const handle = t.client.workflow.getHandle(rfpWorkflowId(rfpCode));
    const floatCtx = { ...as(procurement), dueAt: fromNow(5_000) };
    const payload = { baIds: ['ba-1'], comments: '', floatToAll: false, rfpType: 'standard' };
    const before = (await handle.describe()).runId;
    const first = await floatRfp(t.client, rfpCode, payload, floatCtx);
    // The run that took the float hands over to the next (its history passed 10 events).
    await waitFor(async () => ((await handle.describe()).runId !== before ? true : undefined), 10_000);

    // The same request id again, in a run where Temporal has never seen the update id: the same answer, one float.
    expect(await floatRfp(t.client, rfpCode, payload, floatCtx)).toEqual(first);
    await settled(rfpCode, 'evaluation');
    expect((await typesOf(rfpCode)).filter((type) => type === 'RfpFloated' || type === 'RfpBiddingClosed')).toEqual(['RfpFloated', 'RfpBiddingClosed']);
  });

  test('a refused creation leaves the code free; an unknown RFP is 404', async () => {
    const rfpCode = uniqueRfpCode();
    const bad = await refusal(createRfpDraft(t.client, taskQueue, headerInput({ rfpCode, customerName: '' }), as(procurement)));
    expect(bad.code).toBe('validation');
    expect(await getRfpState(t.client, rfpCode)).toBeNull();
    const created = await createRfpDraft(t.client, taskQueue, headerInput({ rfpCode }), as(procurement));
    expect(created.summary.status).toBe('draft');
    const missing = await refusal(uploadRfpTerms(t.client, uniqueRfpCode(), { name: 't.pdf', size: 10, type: 'application/pdf', sha256: 'c'.repeat(64) }, as(procurement)));
    expect(missing).toMatchObject({ code: 'not_found', message: rfpMessages.notFound });
    const badCode = await refusal(createRfpDraft(t.client, taskQueue, headerInput({ rfpCode: '../etc' }), as(procurement)));
    expect(badCode.code).toBe('validation');
  });
});
