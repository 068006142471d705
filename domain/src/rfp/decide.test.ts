import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { Actor } from '../shared/events';
import { givenWhenThen, metaFor, TEST_AT } from '../shared/testing';
import type { RfpCommand } from './commands';
import { biddingDeadlineOf, rfpDecider } from './decide';
import { rfpStreamId, type RfpEvent } from './events';
import { RFP_STATUS_TRANSITIONS, RFP_TRANSITIONS, type RfpStatusOrNone } from './lifecycle';
import { rfpMessages } from './messages';
import { currentAward, quotesOf } from './state';
import {
  baUser,
  columns,
  draftReady,
  eventsForStatus,
  floatedQuoted,
  header,
  headerInput,
  lanes,
  mllAdmin,
  operations,
  procurement,
  RFP_CODE,
  rfpEvents as e,
  rfpTimer,
  ROUND_1_DUE_AT,
  ROUND_2_DUE_AT,
  step2,
  termsFile,
} from './testing';

const given = givenWhenThen(rfpDecider);
const as = (actor: Actor, at = TEST_AT) => metaFor(actor, { at });
const stateAfter = (events: readonly RfpEvent[]) => fold(rfpDecider, events);
const accepted = (events: readonly RfpEvent[], command: RfpCommand, actor: Actor, at = TEST_AT): RfpEvent[] => {
  const result = rfpDecider.decide(command, stateAfter(events), as(actor, at));
  if (result instanceof DomainError) throw new Error(`refused: ${result.code} ${result.message}`);
  return result;
};
const float = (baIds: string[], floatToAll = false, rfpType = 'standard'): RfpCommand => ({
  type: 'FloatRfp',
  payload: { baIds, comments: 'Please quote by the due date', floatToAll, rfpType },
});
const submit = (baId: string, quotes: Record<string, Record<string, string | null>>, over: Partial<Extract<RfpCommand, { type: 'SubmitLaneResponses' }>> = {}): RfpCommand => ({
  type: 'SubmitLaneResponses',
  baId,
  round: 1,
  quotes,
  baBlocked: false,
  ...over,
});
const award = (lanes: Record<string, { baId: string; sharePercent: number }[]>): RfpCommand => ({ type: 'AwardRfp', lanes });

describe('the stream', () => {
  it('is rfp-<rfpCode>', () => {
    expect(rfpStreamId('RFP-2026-0001')).toBe('rfp-RFP-2026-0001');
  });
});

describe('the status transition table', () => {
  const statuses: RfpStatusOrNone[] = ['none', 'draft', 'floated', 'evaluation', 'awarded', 'closed'];
  // Written out here, not derived from RFP_TRANSITIONS, so a change to the table has to change this too.
  const expected: [RfpCommand, Actor, RfpStatusOrNone[], RfpStatusOrNone | 'same'][] = [
    [{ type: 'CreateRfpDraft', header: headerInput() }, procurement, ['none'], 'draft'],
    [{ type: 'SaveRfpStep', step: 2, data: step2 }, procurement, ['draft'], 'same'],
    [{ type: 'UploadLanes', headerData: columns, lanes, file: null }, procurement, ['draft'], 'same'],
    [float(['ba-3']), procurement, ['draft', 'floated'], 'floated'],
    [submit('ba-2', { L0001: { ratePerTrip: '47000', transitDays: '2' } }), baUser('ba-2'), ['floated'], 'same'],
    [{ type: 'CloseBidding' }, mllAdmin, ['floated'], 'evaluation'],
    [award({ L0001: [{ baId: 'ba-1', sharePercent: 100 }] }), mllAdmin, ['evaluation'], 'awarded'],
    [{ type: 'CloseRfp' }, mllAdmin, ['floated', 'evaluation', 'awarded'], 'closed'],
    [{ type: 'ReopenRfp', dueAt: ROUND_2_DUE_AT }, mllAdmin, ['evaluation', 'awarded', 'closed'], 'floated'],
    [{ type: 'InviteBackhaul', baId: 'ba-1', isInvited: true }, operations, ['floated', 'evaluation', 'awarded', 'closed'], 'same'],
    [{ type: 'UploadTerms', file: termsFile }, procurement, ['draft', 'floated', 'evaluation', 'awarded', 'closed'], 'same'],
  ];

  it('lists every command once', () => {
    expect(expected.map(([c]) => c.type).sort()).toEqual(Object.keys(RFP_TRANSITIONS).sort());
  });

  const cases = expected.flatMap(([command, actor, allowed, to]) =>
    statuses.map((status) => ({ name: `${command.type} in ${status}`, command, actor, status, allowed: allowed.includes(status), to })),
  );

  test.each(cases.filter((c) => c.allowed))('$name is accepted and moves as the table says', ({ command, actor, status, to }) => {
    const before = eventsForStatus[status];
    const events = accepted(before, command, actor);
    expect(events).toHaveLength(1);
    expect(stateAfter([...before, ...events]).status).toBe(to === 'same' ? status : to);
  });

  test.each(cases.filter((c) => !c.allowed))('$name is refused', ({ command, actor, status }) => {
    const result = rfpDecider.decide(command, stateAfter(eventsForStatus[status]), as(actor));
    expect(result).toBeInstanceOf(DomainError);
    const code = (result as DomainError).code;
    if (command.type === 'CreateRfpDraft') expect(code).toBe('conflict');
    // Before the RFP exists, and for a BA it was never floated to, there is nothing to find.
    else if (status === 'none' || (command.type === 'SubmitLaneResponses' && status === 'draft')) expect(code).toBe('not_found');
    else expect(code).toBe('rule');
  });

  it('derives the status moves from the table', () => {
    expect(RFP_STATUS_TRANSITIONS).toEqual({
      none: ['draft'],
      draft: ['floated'],
      floated: ['evaluation', 'closed'],
      evaluation: ['awarded', 'closed', 'floated'],
      awarded: ['closed', 'floated'],
      closed: ['floated'],
    });
  });
});

describe('who may do what', () => {
  const ba = baUser('ba-1');
  const auditor: Actor = { userId: 'u-audit', role: 'Auditor' };
  const commercial: Actor = { userId: 'u-com', role: 'MLL Commercial' };
  const refusals: [string, RfpCommand, Actor, RfpStatusOrNone, string][] = [
    ['a BA cannot create an RFP', { type: 'CreateRfpDraft', header: headerInput() }, ba, 'none', rfpMessages.notStaff],
    ['an auditor cannot create an RFP', { type: 'CreateRfpDraft', header: headerInput() }, auditor, 'none', rfpMessages.notStaff],
    ['a staff role outside RFPs cannot create one', { type: 'CreateRfpDraft', header: headerInput() }, { userId: 'u-mdm', role: 'MDM' }, 'none', rfpMessages.notStaff],
    ['a BA cannot float', float(['ba-3']), ba, 'draft', rfpMessages.notStaff],
    ['staff cannot submit lane responses', submit('ba-1', { L0001: { ratePerTrip: '1' } }), procurement, 'floated', rfpMessages.notBidder],
    ['MLL Operations cannot close bidding', { type: 'CloseBidding' }, operations, 'floated', rfpMessages.notDecider],
    ['MLL Commercial cannot award', award({ L0001: [{ baId: 'ba-1', sharePercent: 100 }] }), commercial, 'evaluation', rfpMessages.notDecider],
    ['MLL Operations cannot close', { type: 'CloseRfp' }, operations, 'evaluation', rfpMessages.notDecider],
    ['MLL Legal cannot reopen', { type: 'ReopenRfp', dueAt: ROUND_2_DUE_AT }, { userId: 'u-legal', role: 'MLL Legal' }, 'closed', rfpMessages.notDecider],
    ['a BA cannot invite for backhaul', { type: 'InviteBackhaul', baId: 'ba-1', isInvited: true }, ba, 'floated', rfpMessages.notStaff],
  ];
  test.each(refusals)('%s', (_name, command, actor, status, message) => {
    given(eventsForStatus[status]).when(command, as(actor)).thenError('forbidden', { message });
  });

  it('every RFP staff role may create, and MLL Procurement and MLL-ADMIN decide', () => {
    for (const role of ['MLL Procurement', 'MLL-ADMIN', 'MLL Commercial', 'MLL Accounts', 'MLL Operations', 'MLL Legal'])
      expect(accepted([], { type: 'CreateRfpDraft', header: headerInput() }, { userId: 'u', role })).toHaveLength(1);
    for (const actor of [procurement, mllAdmin]) expect(accepted(eventsForStatus.evaluation, { type: 'CloseRfp' }, actor)).toHaveLength(1);
  });
});

describe('CreateRfpDraft (step 1)', () => {
  it('records the header with the defaults and the creator', () => {
    given([]).when({ type: 'CreateRfpDraft', header: headerInput() }, as(procurement)).then([e.created]);
  });

  it('refuses a header that breaks the step 1 rules, field by field', () => {
    given([])
      .when({ type: 'CreateRfpDraft', header: headerInput({ customerName: ' ', sourceState: 'Select' }) }, as(procurement))
      .thenError('validation', { errors: { customerName: 'This field is required', sourceState: 'Please select the source state' } });
  });

  it('refuses a second RFP with the same code', () => {
    given([e.created]).when({ type: 'CreateRfpDraft', header: headerInput() }, as(procurement)).thenError('conflict', { message: rfpMessages.exists(RFP_CODE) });
  });
});

describe('SaveRfpStep', () => {
  const saved = (step: number, data: unknown, clearedSteps: number[] = [], clearsLanes = false) => ({
    type: 'RfpStepSaved',
    data: { rfpCode: RFP_CODE, step, data, clearedSteps, clearsLanes },
  });

  it('edits the header but not its code', () => {
    const events = accepted([e.created], { type: 'SaveRfpStep', step: 1, data: headerInput({ customerAddress: 'Gate 3, Chakan, Pune' }) }, procurement);
    expect(stateAfter([e.created, ...events]).header?.customerAddress).toBe('Gate 3, Chakan, Pune');
    given([e.created])
      .when({ type: 'SaveRfpStep', step: 1, data: headerInput({ rfpCode: 'RFP-OTHER' }) }, as(procurement))
      .thenError('validation', { errors: { rfpCode: rfpMessages.rfpCodeFixed } });
  });

  it('saves step 2 with the §5 rules', () => {
    given([e.created]).when({ type: 'SaveRfpStep', step: 2, data: step2 }, as(procurement)).then([saved(2, step2) as RfpEvent]);
    given([e.created])
      .when({ type: 'SaveRfpStep', step: 2, data: { ...step2, vehicleHireType: 0, baProperties: [] } }, as(procurement))
      .thenError('validation', { errors: { vehicleHireType: 'Please select a vehicle hire type', baProperties: 'Please choose at least one BA property' } });
  });

  it('a step the wizard has not enabled cannot be saved', () => {
    given([e.created]).when({ type: 'SaveRfpStep', step: 3, data: { headerData: columns } }, as(procurement)).thenError('rule', { message: rfpMessages.stepNotEnabled(3) });
    // Step 5 of a standard RFP follows step 4.
    given(draftReady).when({ type: 'SaveRfpStep', step: 5, data: {} }, as(procurement)).thenError('rule', { message: rfpMessages.stepNotEnabled(5) });
    given([e.created, e.step2Saved])
      .when({ type: 'SaveRfpStep', step: 4, data: {} }, as(procurement))
      .thenError('rule', { message: rfpMessages.stepNotEnabled(4) });
    given(draftReady).when({ type: 'SaveRfpStep', step: 6 as 5, data: {} }, as(procurement)).thenError('validation');
  });

  it('other properties or another type void the uploaded sheet; the same choice keeps it', () => {
    const other = { ...step2, baProperties: ['ratePerTrip'] };
    given(draftReady).when({ type: 'SaveRfpStep', step: 2, data: other }, as(procurement)).then([saved(2, other, [3], true) as RfpEvent]);
    const after = stateAfter([...draftReady, saved(2, other, [3], true) as RfpEvent]);
    expect(after.lanes).toEqual([]);
    expect(after.steps[3]).toBeNull();
    given(draftReady).when({ type: 'SaveRfpStep', step: 2, data: { ...step2, vehicleHireType: 2 } }, as(procurement)).then([
      saved(2, { ...step2, vehicleHireType: 2 }) as RfpEvent,
    ]);
  });

  it('step 3 saves the template columns; new columns drop the lanes, the same ones keep them', () => {
    given(draftReady).when({ type: 'SaveRfpStep', step: 3, data: { headerData: columns } }, as(procurement)).then([saved(3, { headerData: columns }) as RfpEvent]);
    const relabelled = columns.map((c) => (c.key === 'transitDays' ? { ...c, label: 'Transit time (days)' } : c));
    const events = accepted(draftReady, { type: 'SaveRfpStep', step: 3, data: { headerData: relabelled } }, procurement);
    expect(events).toEqual([saved(3, { headerData: relabelled }, [], true)]);
    expect(stateAfter([...draftReady, ...events]).lanes).toEqual([]);
    given(draftReady)
      .when({ type: 'SaveRfpStep', step: 3, data: { headerData: columns.slice(1) } }, as(procurement))
      .thenError('validation', { errors: { headerData: rfpMessages.columnsNotChosen } });
  });

  it('steps 4 and 5 keep the BA selection', () => {
    const step4 = {
      cityBasedBa: [],
      baList: [{ baId: 'ba-1', baName: 'Shree Ganesh Roadways', individual: 1, action: 'add', typeOfSearch: 'name', typeValue: 'Shree', serviceType: null, isSuggestedBa: true }],
      comment: 'Preferred carriers first',
      isSubmitToNewBa: true,
      isTnCDownloadable: true,
    };
    const events = accepted(draftReady, { type: 'SaveRfpStep', step: 4, data: step4 }, procurement);
    const state = stateAfter([...draftReady, ...events]);
    expect(state.steps[4]).toEqual(step4);
    const step5 = { selectedMix: step4.baList, cityWiseSelectedBa: [], entireBaList: false };
    expect(stateAfter([...draftReady, ...events, ...accepted([...draftReady, ...events], { type: 'SaveRfpStep', step: 5, data: step5 }, procurement)]).steps[5]).toEqual(step5);
    given(draftReady)
      .when({ type: 'SaveRfpStep', step: 4, data: { ...step4, comment: '=HYPERLINK("x")' } }, as(procurement))
      .thenError('validation', { errors: { comment: "Text must not start with - = @ # & ^ + | % < ' \" or a tab or line break" } });
  });
});

describe('UploadLanes', () => {
  const upload = (over: Partial<Extract<RfpCommand, { type: 'UploadLanes' }>> = {}): RfpCommand => ({ type: 'UploadLanes', headerData: columns, lanes, file: null, ...over });

  it('needs step 2 first', () => {
    given([e.created]).when(upload(), as(procurement)).thenError('rule', { message: rfpMessages.stepNotEnabled(3) });
  });

  it('replaces the lanes of an earlier upload', () => {
    const one = [{ laneId: 'L0001', values: { fromCity: 'Nagpur', toCity: 'Raipur', vehicleType: '20 FT SXL' } }];
    const events = accepted(draftReady, upload({ lanes: one }), procurement);
    expect(stateAfter([...draftReady, ...events]).lanes).toEqual(one);
  });

  it('stores cells trimmed, with empty cells as null', () => {
    const messy = [{ laneId: 'L0001', values: { fromCity: ' Mumbai ', toCity: 'Pune', vehicleType: '32 FT MXL', } }];
    const [event] = accepted([e.created, e.step2Saved], upload({ lanes: messy }), procurement);
    expect(event).toMatchObject({ data: { lanes: [{ laneId: 'L0001', values: { fromCity: 'Mumbai', toCity: 'Pune', vehicleType: '32 FT MXL' } }] } });
  });

  it('refuses columns other than step 2 chose, a standard sheet without from, to and vehicle, an empty sheet and bad cells', () => {
    given([e.created, e.step2Saved]).when(upload({ headerData: columns.slice(0, 4) }), as(procurement)).thenError('validation', { message: rfpMessages.columnsNotChosen });
    given([e.created, e.step2Saved]).when(upload({ lanes: [] }), as(procurement)).thenError('validation', { message: rfpMessages.sheetEmpty });
    given([e.created, e.step2Saved])
      .when(upload({ lanes: [{ laneId: 'L0001', values: { fromCity: '', toCity: 'Pune', vehicleType: 'Truck', ratePerTrip: '5' } }] }), as(procurement))
      .thenError('validation', {
        errors: {
          'L0001.fromCity': rfpMessages.requiredValue('From City'),
          'L0001.vehicleType': rfpMessages.optionValue('Vehicle Type'),
          'L0001.ratePerTrip': rfpMessages.notMllColumn('ratePerTrip'),
        },
      });
    const noVehicle = { ...step2, mllProperties: ['fromCity', 'toCity'] };
    const saved2 = { type: 'RfpStepSaved', data: { rfpCode: RFP_CODE, step: 2, data: noVehicle, clearedSteps: [], clearsLanes: false } } as RfpEvent;
    given([e.created, saved2])
      .when(upload({ headerData: columns.filter((c) => c.key !== 'vehicleType') }), as(procurement))
      .thenError('validation', { message: "A standard RFP's lanes need the columns vehicleType" });
  });
});

describe('FloatRfp', () => {
  it('floats a ready draft to its BAs, bidding open until the end of the due date in India', () => {
    const [event] = accepted(draftReady, float(['ba-1', 'ba-2', 'ba-1']), procurement);
    expect(event).toEqual({
      type: 'RfpFloated',
      data: { rfpCode: RFP_CODE, round: 1, rfpType: 'standard', baIds: ['ba-1', 'ba-2'], comments: 'Please quote by the due date', floatToAll: false, dueAt: ROUND_1_DUE_AT, floatedBy: procurement },
    });
    expect(ROUND_1_DUE_AT).toBe('2026-01-31T18:29:59.999Z');
    const state = stateAfter([...draftReady, event as RfpEvent]);
    expect(state).toMatchObject({ status: 'floated', round: 1, dueAt: ROUND_1_DUE_AT, invited: { 'ba-1': { round: 1 }, 'ba-2': { round: 1 } } });
  });

  it('takes a bidding deadline from the caller, in the future only', () => {
    const dueAt = '2026-01-15T10:05:00.000Z';
    expect(accepted(draftReady, { ...float(['ba-1']), dueAt } as RfpCommand, procurement)[0]).toMatchObject({ data: { dueAt } });
    given(draftReady).when({ ...float(['ba-1']), dueAt: TEST_AT } as RfpCommand, as(procurement)).thenError('rule', { message: rfpMessages.dueAtPast });
    given(draftReady).when({ ...float(['ba-1']), dueAt: 'soon' } as RfpCommand, as(procurement)).thenError('validation');
    // A header whose due date has passed cannot be floated without a new deadline.
    given(draftReady).when(float(['ba-1']), as(procurement, '2026-02-01T00:00:00.000Z')).thenError('rule', { message: rfpMessages.dueAtPast });
  });

  const floatRule: [string, RfpEvent[], RfpCommand, 'accepted' | 'refused'][] = [
    ['a first float with BAs', draftReady, float(['ba-1']), 'accepted'],
    ['a first float with no BA', draftReady, float([]), 'refused'],
    ['a first float to all with no BA at all', draftReady, float([], true), 'refused'],
    ['a float to all naming BAs', draftReady, float(['ba-1', 'ba-2'], true), 'accepted'],
    ['a re-float naming only BAs already invited', floatedQuoted, float(['ba-1', 'ba-2']), 'refused'],
    ['a re-float adding one new BA', floatedQuoted, float(['ba-1', 'ba-3']), 'accepted'],
    ['a re-float to all with no new BA', floatedQuoted, float([], true), 'accepted'],
  ];
  test.each(floatRule.map(([name, events, command, outcome]) => ({ name, events, command, outcome })))('float rule: $name is $outcome', ({ events, command, outcome }) => {
    const result = rfpDecider.decide(command, stateAfter(events), as(procurement));
    if (outcome === 'accepted') expect(result).not.toBeInstanceOf(DomainError);
    else given(events).when(command, as(procurement)).thenError('rule', { message: 'Please Add New BA to float RFP' });
  });

  it('a re-float adds only the new BAs to the open round and keeps its deadline', () => {
    const [event] = accepted(floatedQuoted, { ...float(['ba-2', 'ba-3']), dueAt: '2026-03-01T00:00:00.000Z' } as RfpCommand, procurement);
    expect(event).toMatchObject({ data: { round: 1, baIds: ['ba-3'], dueAt: ROUND_1_DUE_AT } });
    expect(Object.keys(stateAfter([...floatedQuoted, event as RfpEvent]).invited).sort()).toEqual(['ba-1', 'ba-2', 'ba-3']);
  });

  it('needs lanes and the RFP’s own type', () => {
    given([e.created, e.step2Saved]).when(float(['ba-1']), as(procurement)).thenError('rule', { message: rfpMessages.noLanes });
    given(draftReady).when(float(['ba-1'], false, 'single'), as(procurement)).thenError('validation', { errors: { rfpType: rfpMessages.rfpTypeMismatch } });
  });
});

describe('SubmitLaneResponses', () => {
  const quote = { L0001: { ratePerTrip: '47000', transitDays: '2' } };

  it('records a BA’s quotes for the current round', () => {
    given(floatedQuoted)
      .when(submit('ba-2', quote), as(baUser('ba-2')))
      .then([{ type: 'LaneResponsesSubmitted', data: { rfpCode: RFP_CODE, round: 1, baId: 'ba-2', quotes: quote, submittedBy: baUser('ba-2') } }]);
  });

  it('is refused from the due instant on', () => {
    given(floatedQuoted).when(submit('ba-2', quote), as(baUser('ba-2'), ROUND_1_DUE_AT)).thenError('rule', { message: rfpMessages.dueDatePassed });
    expect(accepted(floatedQuoted, submit('ba-2', quote), baUser('ba-2'), '2026-01-31T18:29:59.998Z')).toHaveLength(1);
  });

  it('is 404 for a BA the RFP was not floated to', () => {
    given(floatedQuoted).when(submit('ba-9', quote), as(baUser('ba-9'))).thenError('not_found', { message: rfpMessages.notFound });
  });

  it('is refused for a blocked BA', () => {
    given(floatedQuoted).when(submit('ba-2', quote, { baBlocked: true }), as(baUser('ba-2'))).thenError('forbidden', { message: rfpMessages.baBlocked });
  });

  it('is refused once bidding is closed', () => {
    given(eventsForStatus.evaluation).when(submit('ba-2', quote), as(baUser('ba-2'))).thenError('rule', { message: rfpMessages.biddingNotOpen });
  });

  it('is refused for a round that is not the current one', () => {
    given([...eventsForStatus.closed, e.reopened]).when(submit('ba-2', quote), as(baUser('ba-2'))).thenError('conflict', { message: rfpMessages.staleRound });
  });

  it('checks every quoted cell against its BA column', () => {
    given(floatedQuoted)
      .when(submit('ba-2', { L0001: { ratePerTrip: 'cheap', fromCity: 'Goa' }, L0002: { transitDays: '3' }, L0099: { ratePerTrip: '1' } }), as(baUser('ba-2')))
      .thenError('validation', {
        errors: {
          'L0001.fromCity': rfpMessages.notBaColumn('fromCity'),
          'L0001.ratePerTrip': rfpMessages.numberValue('Rate per Trip'),
          'L0002.ratePerTrip': rfpMessages.requiredValue('Rate per Trip'),
          L0099: rfpMessages.unknownLane('L0099'),
        },
      });
    given(floatedQuoted).when(submit('ba-2', {}), as(baUser('ba-2'))).thenError('validation', { message: rfpMessages.noQuotes });
  });

  it('merges lane by lane; an empty lane withdraws its quote; a BA reads only its own quotes', () => {
    const events = accepted(floatedQuoted, submit('ba-1', { L0002: { ratePerTrip: '', transitDays: null } }), baUser('ba-1'));
    const state = stateAfter([...floatedQuoted, ...events]);
    expect(quotesOf(state, 'ba-1')).toEqual({ L0001: { ratePerTrip: '45000', transitDays: '1' } });
    expect(quotesOf(state, 'ba-2')).toEqual({});
  });
});

describe('CloseBidding', () => {
  it('the due-date timer closes the round it was set for', () => {
    given(floatedQuoted).when({ type: 'CloseBidding', round: 1 }, as(rfpTimer, ROUND_1_DUE_AT)).then([e.biddingClosed]);
  });

  it('a timer of an earlier round, or one firing after staff acted, changes nothing', () => {
    given([...eventsForStatus.closed, e.reopened]).when({ type: 'CloseBidding', round: 1 }, as(rfpTimer)).thenNothing();
    given(eventsForStatus.evaluation).when({ type: 'CloseBidding', round: 1 }, as(rfpTimer)).thenNothing();
  });

  it('staff may close bidding early', () => {
    given(floatedQuoted)
      .when({ type: 'CloseBidding' }, as(mllAdmin))
      .then([{ type: 'RfpBiddingClosed', data: { rfpCode: RFP_CODE, round: 1, reason: 'staff', closedBy: mllAdmin } }]);
  });
});

describe('AwardRfp', () => {
  const bothQuoted = [...floatedQuoted, e.quoted('ba-2', 1, '44000'), e.biddingClosed];

  it('splits a lane between BAs with shares summing to 100; their quotes become the contract rates', () => {
    given(bothQuoted)
      .when(award({ L0001: [{ baId: 'ba-1', sharePercent: 60 }, { baId: 'ba-2', sharePercent: 40 }] }), as(mllAdmin))
      .then([
        {
          type: 'RfpAwarded',
          data: {
            rfpCode: RFP_CODE,
            round: 1,
            lanes: {
              L0001: [
                { baId: 'ba-1', sharePercent: 60, rates: { ratePerTrip: '45000', transitDays: '1' } },
                { baId: 'ba-2', sharePercent: 40, rates: { ratePerTrip: '44000', transitDays: '1' } },
              ],
            },
            awardedBy: mllAdmin,
          },
        },
      ]);
  });

  it('lanes not listed are not awarded', () => {
    const events = accepted(bothQuoted, award({ L0002: [{ baId: 'ba-2', sharePercent: 100 }] }), mllAdmin);
    expect(Object.keys(currentAward(stateAfter([...bothQuoted, ...events]))?.lanes ?? {})).toEqual(['L0002']);
  });

  const shares: [string, { baId: string; sharePercent: number }[], string][] = [
    ['shares short of 100', [{ baId: 'ba-1', sharePercent: 50 }, { baId: 'ba-2', sharePercent: 49.99 }], rfpMessages.sharesSum('L0001')],
    ['shares over 100', [{ baId: 'ba-1', sharePercent: 60 }, { baId: 'ba-2', sharePercent: 41 }], rfpMessages.sharesSum('L0001')],
    ['a zero share', [{ baId: 'ba-1', sharePercent: 100 }, { baId: 'ba-2', sharePercent: 0 }], rfpMessages.sharePositive],
    ['a negative share', [{ baId: 'ba-1', sharePercent: 110 }, { baId: 'ba-2', sharePercent: -10 }], rfpMessages.sharePositive],
    ['a share with 3 decimals', [{ baId: 'ba-1', sharePercent: 33.333 }, { baId: 'ba-2', sharePercent: 66.667 }], rfpMessages.sharePositive],
    ['the same BA twice', [{ baId: 'ba-1', sharePercent: 50 }, { baId: 'ba-1', sharePercent: 50 }], rfpMessages.duplicateBaInLane('L0001')],
    ['no BA', [], rfpMessages.sharesSum('L0001')],
  ];
  test.each(shares)('refuses %s', (_name, list, message) => {
    given(bothQuoted).when(award({ L0001: list }), as(mllAdmin)).thenError('validation', { errors: { 'lanes.L0001': message } });
  });

  it('counts shares in hundredths, so 33.33 + 66.67 is exactly 100', () => {
    expect(accepted(bothQuoted, award({ L0001: [{ baId: 'ba-1', sharePercent: 33.33 }, { baId: 'ba-2', sharePercent: 66.67 }] }), mllAdmin)).toHaveLength(1);
  });

  it('awards only to BAs that quoted the lane in the current round', () => {
    given(eventsForStatus.evaluation)
      .when(award({ L0001: [{ baId: 'ba-2', sharePercent: 100 }] }), as(mllAdmin))
      .thenError('rule', { message: rfpMessages.notQuoted('ba-2', 'L0001') });
    const secondRound = [...eventsForStatus.closed, e.reopened, { ...e.biddingClosed, data: { ...e.biddingClosed.data, round: 2 } } as RfpEvent];
    given(secondRound)
      .when(award({ L0001: [{ baId: 'ba-1', sharePercent: 100 }] }), as(mllAdmin))
      .thenError('rule', { message: rfpMessages.notQuoted('ba-1', 'L0001') });
    given(bothQuoted).when(award({ L0009: [{ baId: 'ba-1', sharePercent: 100 }] }), as(mllAdmin)).thenError('rule', { message: rfpMessages.unknownLane('L0009') });
    given(bothQuoted).when(award({}), as(mllAdmin)).thenError('validation', { message: rfpMessages.noAwards });
  });
});

describe('CloseRfp', () => {
  it('closes with optional remarks that obey the text rule', () => {
    given(eventsForStatus.awarded)
      .when({ type: 'CloseRfp', remarks: 'Contract signed' }, as(mllAdmin))
      .then([{ type: 'RfpClosed', data: { rfpCode: RFP_CODE, round: 1, remarks: 'Contract signed', closedBy: mllAdmin } }]);
    given(eventsForStatus.awarded).when({ type: 'CloseRfp', remarks: '+cmd' }, as(mllAdmin)).thenError('validation');
  });
});

describe('ReopenRfp and rounds', () => {
  it('starts the next round with a future due instant for the same BAs and lanes', () => {
    given(eventsForStatus.closed).when({ type: 'ReopenRfp', dueAt: ROUND_2_DUE_AT }, as(mllAdmin)).then([e.reopened]);
    const state = stateAfter([...eventsForStatus.closed, e.reopened]);
    expect(state).toMatchObject({ status: 'floated', round: 2, dueAt: ROUND_2_DUE_AT });
    expect(state.lanes).toEqual(lanes);
    expect(Object.keys(state.invited)).toEqual(['ba-1', 'ba-2']);
  });

  it('refuses a due instant that is not in the future', () => {
    given(eventsForStatus.closed).when({ type: 'ReopenRfp', dueAt: TEST_AT }, as(mllAdmin)).thenError('rule', { message: rfpMessages.dueAtPast });
    given(eventsForStatus.closed).when({ type: 'ReopenRfp', dueAt: '31-01-2026' }, as(mllAdmin)).thenError('validation');
  });

  it('keeps earlier rounds readable while BAs revise their quotes, and the old award is not the new round’s', () => {
    const reopened = [...eventsForStatus.closed, e.reopened];
    const revised = accepted(reopened, submit('ba-1', { L0001: { ratePerTrip: '43000', transitDays: '1' } }, { round: 2 }), baUser('ba-1'));
    const state = stateAfter([...reopened, ...revised]);
    expect(quotesOf(state, 'ba-1', 1)).toEqual({ L0001: { ratePerTrip: '45000', transitDays: '1' }, L0002: { ratePerTrip: '52000', transitDays: null } });
    expect(quotesOf(state, 'ba-1')).toEqual({ L0001: { ratePerTrip: '43000', transitDays: '1' } });
    expect(state.awards).toHaveLength(1);
    expect(currentAward(state)).toBeNull();
  });

  it('a reopened round keeps the lanes: no new upload', () => {
    given([...eventsForStatus.closed, e.reopened]).when({ type: 'UploadLanes', headerData: columns, lanes, file: null }, as(procurement)).thenError('rule');
  });
});

describe('InviteBackhaul', () => {
  it('toggles isInvited per BA of the RFP', () => {
    const on = { type: 'BackhaulInvitationChanged', data: { rfpCode: RFP_CODE, baId: 'ba-1', isInvited: true, by: operations } } as RfpEvent;
    given(eventsForStatus.awarded).when({ type: 'InviteBackhaul', baId: 'ba-1', isInvited: true }, as(operations)).then([on]);
    given([...eventsForStatus.awarded, on]).when({ type: 'InviteBackhaul', baId: 'ba-1', isInvited: true }, as(operations)).thenNothing();
    given([...eventsForStatus.awarded, on])
      .when({ type: 'InviteBackhaul', baId: 'ba-1', isInvited: false }, as(operations))
      .then([{ type: 'BackhaulInvitationChanged', data: { rfpCode: RFP_CODE, baId: 'ba-1', isInvited: false, by: operations } }]);
    given(eventsForStatus.awarded).when({ type: 'InviteBackhaul', baId: 'ba-1', isInvited: false }, as(operations)).thenNothing();
    expect(stateAfter([...eventsForStatus.awarded, on]).backhaul).toEqual({ 'ba-1': true });
  });

  it('only for BAs the RFP was floated to', () => {
    given(eventsForStatus.awarded).when({ type: 'InviteBackhaul', baId: 'ba-9', isInvited: true }, as(operations)).thenError('rule', { message: rfpMessages.baNotInRfp });
  });
});

describe('UploadTerms', () => {
  it('keeps the latest terms PDF; the same file again changes nothing', () => {
    const uploaded = { type: 'RfpTermsUploaded', data: { rfpCode: RFP_CODE, file: termsFile, uploadedBy: procurement } } as RfpEvent;
    given(draftReady).when({ type: 'UploadTerms', file: termsFile }, as(procurement)).then([uploaded]);
    given([...draftReady, uploaded]).when({ type: 'UploadTerms', file: termsFile }, as(procurement)).thenNothing();
    expect(stateAfter([...draftReady, uploaded]).terms).toEqual(termsFile);
  });

  it('takes PDFs only', () => {
    given(draftReady)
      .when({ type: 'UploadTerms', file: { ...termsFile, name: 'terms.docx', type: 'application/msword' } }, as(procurement))
      .thenError('validation', { errors: { file: rfpMessages.termsPdf } });
  });
});

describe('biddingDeadlineOf', () => {
  it('is the last millisecond of the day in India', () => {
    expect(biddingDeadlineOf('2026-03-10')).toBe('2026-03-10T18:29:59.999Z');
    expect(header.dueDate).toBe('2026-01-31');
  });
});
