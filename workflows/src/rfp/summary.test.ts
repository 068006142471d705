import type { RfpCommand } from '../../../domain/src/rfp/commands';
import { decideRfp, rfpDecider } from '../../../domain/src/rfp/decide';
import type { RfpStatusOrNone } from '../../../domain/src/rfp/lifecycle';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import {
  baUser,
  columns,
  eventsForStatus,
  headerInput,
  lanes,
  mllAdmin,
  operations,
  procurement,
  RFP_CODE,
  rfpEvents,
  rfpTimer,
  ROUND_2_DUE_AT,
  step2,
  termsFile,
} from '../../../domain/src/rfp/testing';
import { fold } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { TEST_AT } from '../../../domain/src/shared/testing';
import { precheck, summaryOf } from './summary';

const AFTER_DUE = '2026-02-01T00:00:00.000Z';
const stateOf = (status: RfpStatusOrNone) => fold(rfpDecider, eventsForStatus[status]);
const submit = (baId: string, round = 1): RfpCommand => ({
  type: 'SubmitLaneResponses',
  baId,
  round,
  quotes: { L0001: { ratePerTrip: '47000', transitDays: '2' } },
  baBlocked: false,
});

const commands: [RfpCommand, Actor][] = [
  [{ type: 'CreateRfpDraft', header: headerInput() }, procurement],
  [{ type: 'SaveRfpStep', step: 2, data: step2 }, operations],
  [{ type: 'SaveRfpStep', step: 2, data: { ...step2, mllProperties: [] } }, operations],
  [{ type: 'UploadLanes', headerData: columns, lanes, file: null }, procurement],
  [{ type: 'FloatRfp', payload: { baIds: ['ba-3'], comments: '', floatToAll: false, rfpType: 'standard' } }, procurement],
  [{ type: 'FloatRfp', payload: { baIds: ['ba-1'], comments: '', floatToAll: false, rfpType: 'standard' } }, operations],
  [submit('ba-2'), baUser('ba-2')],
  [submit('ba-2', 2), baUser('ba-2')],
  [submit('ba-9'), baUser('ba-9')],
  [submit('ba-2'), procurement],
  [{ type: 'CloseBidding' }, mllAdmin],
  [{ type: 'CloseBidding' }, operations],
  [{ type: 'CloseBidding', round: 1 }, rfpTimer],
  [{ type: 'AwardRfp', lanes: { L0001: [{ baId: 'ba-1', sharePercent: 100 }] } }, mllAdmin],
  [{ type: 'AwardRfp', lanes: { L0001: [{ baId: 'ba-2', sharePercent: 100 }] } }, mllAdmin],
  [{ type: 'CloseRfp' }, mllAdmin],
  [{ type: 'ReopenRfp', dueAt: ROUND_2_DUE_AT }, procurement],
  [{ type: 'ReopenRfp', dueAt: ROUND_2_DUE_AT }, operations],
  [{ type: 'InviteBackhaul', baId: 'ba-1', isInvited: true }, operations],
  [{ type: 'InviteBackhaul', baId: 'ba-9', isInvited: true }, operations],
  [{ type: 'UploadTerms', file: termsFile }, procurement],
];
const statuses: RfpStatusOrNone[] = ['none', 'draft', 'floated', 'evaluation', 'awarded', 'closed'];

describe('precheck: what the workflow refuses from its summary', () => {
  test('never refuses what the decider accepts, and refuses with the decider’s own answer', () => {
    let refusals = 0;
    for (const status of statuses) {
      const state = stateOf(status);
      for (const [command, actor] of commands) {
        for (const at of [TEST_AT, AFTER_DUE]) {
          const early = precheck(command, summaryOf(state), { actor, at });
          if (early === null) continue;
          refusals += 1;
          const decided = decideRfp(command, state, { actor, at });
          expect(decided).toBeInstanceOf(DomainError);
          const plain = (e: unknown) => (e instanceof DomainError ? { code: e.code, message: e.message, errors: e.errors } : e);
          expect({ status, command: command.type, at, answer: plain(decided) }).toEqual({ status, command: command.type, at, answer: plain(early) });
        }
      }
    }
    // The sweep met refusals of every kind the summary can give.
    expect(refusals).toBeGreaterThan(60);
  });

  const floated = summaryOf(stateOf('floated'));
  test.each<[string, RfpCommand, Actor, RfpStatusOrNone, string, DomainError['code'], string]>([
    ['a role that may not act', { type: 'AwardRfp', lanes: {} }, operations, 'evaluation', TEST_AT, 'forbidden', rfpMessages.notDecider],
    ['no RFP', { type: 'UploadTerms', file: termsFile }, procurement, 'none', TEST_AT, 'not_found', rfpMessages.notFound],
    ['a BA the RFP was not floated to', submit('ba-9'), baUser('ba-9'), 'floated', TEST_AT, 'not_found', rfpMessages.notFound],
    ['a status that does not take the command', { type: 'AwardRfp', lanes: {} }, mllAdmin, 'floated', TEST_AT, 'rule', rfpMessages.notAllowedNow('floated')],
    ['a quote while bidding is closed', submit('ba-1'), baUser('ba-1'), 'evaluation', TEST_AT, 'rule', rfpMessages.biddingNotOpen],
    ['a quote for another round', submit('ba-1', 2), baUser('ba-1'), 'floated', TEST_AT, 'conflict', rfpMessages.staleRound],
    ['a quote after the due date', submit('ba-1'), baUser('ba-1'), 'floated', AFTER_DUE, 'rule', rfpMessages.dueDatePassed],
    ['a second draft with the code', { type: 'CreateRfpDraft', header: headerInput() }, procurement, 'draft', TEST_AT, 'conflict', rfpMessages.exists(RFP_CODE)],
  ])('refuses %s', (_what, command, actor, status, at, code, message) => {
    expect(precheck(command, summaryOf(stateOf(status)), { actor, at })).toMatchObject({ code, message });
  });

  test('leaves payloads and the command’s own rules to the activity', () => {
    const badShares: RfpCommand = { type: 'AwardRfp', lanes: { L0001: [{ baId: 'ba-1', sharePercent: 60 }] } };
    expect(precheck(badShares, summaryOf(stateOf('evaluation')), { actor: mllAdmin, at: TEST_AT })).toBeNull();
    expect(precheck(submit('ba-1'), floated, { actor: baUser('ba-1'), at: TEST_AT })).toBeNull();
  });

  test('lets the due-date timer through in any status: the decider ignores a stale timer', () => {
    expect(precheck({ type: 'CloseBidding', round: 1 }, summaryOf(stateOf('closed')), { actor: rfpTimer, at: TEST_AT })).toBeNull();
  });

  test('the summary carries the round, the deadline and the invited BAs, not the lanes', () => {
    const reopened = summaryOf(fold(rfpDecider, [...eventsForStatus.closed, rfpEvents.reopened]));
    expect(reopened).toMatchObject({ status: 'floated', round: 2, dueAt: ROUND_2_DUE_AT, baIds: ['ba-1', 'ba-2'], laneCount: 2, rfpType: 'standard' });
    expect(reopened).not.toHaveProperty('lanes');
  });
});
