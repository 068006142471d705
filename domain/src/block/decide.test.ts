import { fold } from '../shared/decider';
import { indiaDateAt } from '../shared/india-date';
import type { Actor } from '../shared/events';
import { givenWhenThen, metaFor, TEST_AT } from '../shared/testing';
import type { BlockCommand, RequestBlock, VendorBlockCommand } from './commands';
import {
  blockDecider,
  blockEndsAt,
  blockMessages,
  erpRequestKey,
  isBlockClosed,
  vendorBlockDecider,
} from './decide';
import type { BlockEvent, VendorBlockEvent } from './events';

const given = givenWhenThen(blockDecider);
const vendor = givenWhenThen(vendorBlockDecider);
const requester: Actor = { userId: 'u-accounts', role: 'MLL Accounts', name: 'Asha' };
const approver: Actor = { userId: 'u-head', role: 'MLL Accounts_HEAD', name: 'Ravi' };
const system: Actor = { userId: 'system', role: 'system', name: 'Block end-date timer' };
const file = { name: 'letter.pdf', size: 1234, type: 'application/pdf', sha256: 'a'.repeat(64) };
const scope = { level: 'parent' as const, companyCode: '1000', vendorCode: '1000000001' };

const request = (over: Partial<RequestBlock> = {}): RequestBlock => ({
  type: 'RequestBlock',
  requestId: 'r-1',
  action: 'block',
  baId: 'ba-1',
  pan: 'abcde1234f',
  scope,
  reasonId: '3',
  reason: 'Quality issues',
  comments: 'Repeated delays',
  file,
  endDate: null,
  ...over,
});
const requested = (over: Partial<Extract<BlockEvent, { type: 'BlockRequested' }>['data']> = {}): BlockEvent => ({
  type: 'BlockRequested',
  data: {
    requestId: 'r-1',
    action: 'block',
    baId: 'ba-1',
    pan: 'ABCDE1234F',
    scope,
    reasonId: '3',
    reason: 'Quality issues',
    comments: 'Repeated delays',
    file,
    endDate: null,
    requestedBy: requester,
    ...over,
  },
});
const approved: BlockEvent = { type: 'BlockApproved', data: { requestId: 'r-1', baId: 'ba-1', by: approver } };
const applied: BlockEvent = {
  type: 'BlockApplied',
  data: { requestId: 'r-1', baId: 'ba-1', action: 'block', vendorCode: scope.vendorCode, message: 'Successfully Blocked' },
};

describe('RequestBlock', () => {
  it('records the request with the PAN upper-cased and the requester as the actor', () => {
    given([]).when(request(), metaFor(requester)).then([requested()]);
  });

  it('takes requests only from the block requesters', () => {
    given([]).when(request(), metaFor({ userId: 'u-ops', role: 'MLL Operations' })).thenError('forbidden', { message: blockMessages.notRequester });
    given([]).when(request(), metaFor({ userId: 'u-ba', role: 'BA Admin' })).thenError('forbidden');
  });

  it('needs a reason from the block-reasons master, comments and an attachment', () => {
    given([]).when(request({ reason: null }), metaFor(requester)).thenError('validation', { message: blockMessages.reason });
    given([]).when(request({ comments: '  ' }), metaFor(requester)).thenError('validation', { message: blockMessages.comments });
    given([]).when(request({ file: null }), metaFor(requester)).thenError('validation', { message: blockMessages.file });
  });

  it('refuses a target with no vendor code (422)', () => {
    given([]).when(request({ scope: { ...scope, vendorCode: '' } }), metaFor(requester)).thenError('rule', { message: blockMessages.noVendorCode });
  });

  it('takes an end date only in the future (India), and only for a block', () => {
    const today = indiaDateAt(TEST_AT);
    given([]).when(request({ endDate: today }), metaFor(requester)).thenError('validation', { errors: { endDate: blockMessages.endDateFuture } });
    given([]).when(request({ endDate: '2025-12-31' }), metaFor(requester)).thenError('validation', { message: blockMessages.endDateFuture });
    given([]).when(request({ endDate: '2026-02-30' }), metaFor(requester)).thenError('validation');
    given([]).when(request({ endDate: '2026-01-16' }), metaFor(requester)).then([requested({ endDate: '2026-01-16' })]);
    given([]).when(request({ action: 'unblock', endDate: '2026-01-16' }), metaFor(requester)).thenError('validation', { message: blockMessages.endDateUnblock });
  });
});

describe('ApproveBlock / RejectBlock', () => {
  it('is approved by a second person holding an approver role', () => {
    given([requested()]).when({ type: 'ApproveBlock' }, metaFor(approver)).then([approved]);
  });

  it('never by the requester, even one holding an approver role', () => {
    const self: Actor = { userId: requester.userId, role: 'MLL-ADMIN' };
    given([requested()]).when({ type: 'ApproveBlock' }, metaFor(self)).thenError('rule', { message: blockMessages.selfApproval });
    given([requested()]).when({ type: 'RejectBlock', remarks: 'no' }, metaFor(self)).thenError('rule', { message: blockMessages.selfApproval });
  });

  it('not by a role outside the approvers', () => {
    given([requested()]).when({ type: 'ApproveBlock' }, metaFor({ userId: 'u-p', role: 'MLL Procurement' })).thenError('forbidden', {
      message: blockMessages.notApprover,
    });
  });

  it('rejects with remarks, and a decided request cannot be decided again', () => {
    given([requested()]).when({ type: 'RejectBlock', remarks: ' ' }, metaFor(approver)).thenError('validation', { message: blockMessages.remarks });
    given([requested()])
      .when({ type: 'RejectBlock', remarks: 'Not enough evidence' }, metaFor(approver))
      .then([{ type: 'BlockRejected', data: { requestId: 'r-1', baId: 'ba-1', by: approver, remarks: 'Not enough evidence' } }]);
    given([requested(), approved]).when({ type: 'ApproveBlock' }, metaFor(approver)).thenError('rule', { message: blockMessages.notPending });
    given([]).when({ type: 'ApproveBlock' }, metaFor(approver)).thenError('not_found');
  });
});

describe('the ERP conversation', () => {
  const key = erpRequestKey('r-1', 'block', false);
  it('records submission once per ERP request, outages, and the outcome with the spec’s message', () => {
    const submit: BlockCommand = { type: 'RecordErpSubmitted', requestKey: key, operation: 'block', erpRequestId: 'erp-1' };
    const submitted: BlockEvent = {
      type: 'ErpRequestSubmitted',
      data: { requestId: 'r-1', baId: 'ba-1', companyCode: '1000', requestKey: key, operation: 'block', erpRequestId: 'erp-1' },
    };
    given([requested(), approved]).when(submit, metaFor(system)).then([submitted]);
    given([requested(), approved, submitted]).when(submit, metaFor(system)).thenNothing();
    given([requested()]).when(submit, metaFor(system)).thenError('rule');
    const failed = given([requested(), approved]).when(
      { type: 'RecordErpCallFailed', requestKey: key, operation: 'block', error: 'ERP answered 503', attempt: 1, retryAt: TEST_AT },
      metaFor(system),
    ).result as BlockEvent[];
    expect(failed[0]?.type).toBe('ErpCallFailed');
    expect(fold(blockDecider, [requested(), approved, ...failed])).toMatchObject({ status: 'approved', lastErpError: 'ERP answered 503', erpAttempts: 1 });
    given([requested(), approved, submitted])
      .when({ type: 'RecordBlockApplied', operation: 'block', vendorCode: scope.vendorCode }, metaFor(system))
      .then([applied]);
    given([requested({ action: 'unblock' }), approved])
      .when({ type: 'RecordBlockApplied', operation: 'unblock', vendorCode: scope.vendorCode }, metaFor(system))
      .then([{ type: 'BlockApplied', data: { ...applied.data, action: 'unblock', message: 'Successfully Unblocked' } } as BlockEvent]);
    // An applied request is applied once: a late duplicate answer changes nothing.
    given([requested(), approved, applied]).when({ type: 'RecordBlockApplied', operation: 'block', vendorCode: scope.vendorCode }, metaFor(system)).thenNothing();
    expect(isBlockClosed(fold(blockDecider, [requested(), approved, applied]))).toBe(true);
  });

  it('ends as refused when the ERP refuses', () => {
    const refused = given([requested(), approved]).when(
      { type: 'RecordErpRefused', requestKey: key, operation: 'block', message: 'Unknown vendor' },
      metaFor(system),
    ).result as BlockEvent[];
    expect(fold(blockDecider, [requested(), approved, ...refused])).toMatchObject({ status: 'refused', erpRefusal: 'Unknown vendor' });
  });
});

describe('EndBlock (the end date’s timer)', () => {
  const dated = [requested({ endDate: '2026-01-20' }), approved, applied];
  it('unblocks through the same trail while the block is the one in force', () => {
    given(dated)
      .when({ type: 'EndBlock', stillBlockedByThis: true }, metaFor(system))
      .then([{ type: 'BlockEnded', data: { requestId: 'r-1', baId: 'ba-1', endDate: '2026-01-20', unblock: true } }]);
    const ending = fold(blockDecider, [...dated, { type: 'BlockEnded', data: { requestId: 'r-1', baId: 'ba-1', endDate: '2026-01-20', unblock: true } }]);
    expect(ending.status).toBe('ending');
    const done = given([...dated, { type: 'BlockEnded', data: { requestId: 'r-1', baId: 'ba-1', endDate: '2026-01-20', unblock: true } }])
      .when({ type: 'RecordBlockApplied', operation: 'unblock', vendorCode: scope.vendorCode }, metaFor(system)).result as BlockEvent[];
    expect(done).toEqual([{ type: 'BlockApplied', data: { ...applied.data, action: 'unblock', message: 'Successfully Unblocked' } }]);
  });

  it('only by the system, once, and only for an applied block with an end date', () => {
    given(dated).when({ type: 'EndBlock', stillBlockedByThis: true }, metaFor(approver)).thenError('forbidden');
    given([requested(), approved, applied]).when({ type: 'EndBlock', stillBlockedByThis: true }, metaFor(system)).thenNothing();
    given(dated)
      .when({ type: 'EndBlock', stillBlockedByThis: false }, metaFor(system))
      .then([{ type: 'BlockEnded', data: { requestId: 'r-1', baId: 'ba-1', endDate: '2026-01-20', unblock: false } }]);
  });

  it('ends at the start of the end date in India', () => {
    expect(blockEndsAt('2026-01-20')).toBe('2026-01-19T18:30:00.000Z');
  });
});

describe('the vendor code’s stream', () => {
  const ref = { vendorCode: '1000000001', baId: 'ba-1', pan: 'ABCDE1234F', companyCode: '1000', level: 'parent' as const };
  const open = (requestId: string, action: 'block' | 'unblock'): VendorBlockCommand => ({ type: 'OpenVendorBlockRequest', ...ref, requestId, action });
  const opened = (requestId: string, action: 'block' | 'unblock'): VendorBlockEvent => ({ type: 'VendorBlockRequestOpened', data: { ...ref, requestId, action } });
  const closed = (requestId: string, action: 'block' | 'unblock', blocked: boolean): VendorBlockEvent => ({
    type: 'VendorBlockRequestClosed',
    data: { ...ref, requestId, action, outcome: 'applied', blocked },
  });

  it('holds one open request per vendor code (409)', () => {
    vendor([]).when(open('r-1', 'block'), metaFor(requester)).then([opened('r-1', 'block')]);
    vendor([opened('r-1', 'block')]).when(open('r-1', 'block'), metaFor(requester)).thenNothing();
    vendor([opened('r-1', 'block')]).when(open('r-2', 'block'), metaFor(requester)).thenError('conflict', {
      message: blockMessages.alreadyPending('1000000001'),
    });
  });

  it('refuses to unblock a vendor that is not blocked, or to block a blocked one (422)', () => {
    vendor([]).when(open('r-1', 'unblock'), metaFor(requester)).thenError('rule', { message: blockMessages.notBlocked });
    const blocked = [opened('r-1', 'block'), closed('r-1', 'block', true)];
    vendor(blocked).when(open('r-2', 'block'), metaFor(requester)).thenError('rule', { message: blockMessages.alreadyBlocked });
    vendor(blocked).when(open('r-2', 'unblock'), metaFor(requester)).then([opened('r-2', 'unblock')]);
  });

  it('frees the slot when a request is rejected, and keeps the vendor as it was', () => {
    const rejected: VendorBlockEvent = { type: 'VendorBlockRequestClosed', data: { ...ref, requestId: 'r-1', action: 'block', outcome: 'rejected', blocked: false } };
    vendor([opened('r-1', 'block')])
      .when({ type: 'CloseVendorBlockRequest', ...ref, requestId: 'r-1', action: 'block', outcome: 'rejected' }, metaFor(approver))
      .then([rejected]);
    expect(fold(vendorBlockDecider, [opened('r-1', 'block'), rejected])).toEqual({ blocked: false, blockedBy: null, pending: null, pendingAction: null });
  });

  it('the end date’s unblock applies only while that request’s block is in force', () => {
    const blocked = [opened('r-1', 'block'), closed('r-1', 'block', true)];
    const auto: VendorBlockCommand = { type: 'CloseVendorBlockRequest', ...ref, requestId: 'r-1', action: 'unblock', outcome: 'applied', auto: true };
    vendor(blocked).when(auto, metaFor(system)).then([closed('r-1', 'unblock', false)]);
    const unblockedMeanwhile = [...blocked, opened('r-2', 'unblock'), closed('r-2', 'unblock', false)];
    vendor(unblockedMeanwhile).when(auto, metaFor(system)).thenNothing();
  });
});
