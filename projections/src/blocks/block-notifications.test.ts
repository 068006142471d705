import type { StoredEvent } from '../../../domain/src/shared/events';
import { blockNotifications } from '../notifications/rules';
import { blockActivityEntries } from './block-activity';

const stored = (type: string, data: Record<string, unknown>, actor = { userId: 'system', role: 'system' }, streamId = 'block-r-1'): StoredEvent => ({
  eventId: `e-${type}`,
  type,
  data,
  metadata: { actor, companyCode: '1000', correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: '2026-01-15T10:00:00.000Z' },
  streamId,
  version: 0,
  globalPosition: 7,
  recordedAt: '2026-01-15T10:00:00.000Z',
  prevHash: '',
  hash: '',
});

describe('block notifications', () => {
  const requester = { userId: 'u-acc', role: 'MLL Accounts' };
  it('tells the approvers of the company code of a new request, never the requester', () => {
    const [n, ...rest] = blockNotifications(
      stored('BlockRequested', { requestId: 'r-1', action: 'block', baId: 'ba-1', scope: { vendorCode: '1000000001' }, reason: 'Legal dispute' }, requester),
    );
    expect(rest).toEqual([]);
    expect(n).toMatchObject({ kind: 'block.requested', companyCode: '1000', link: '/blocks/r-1/show' });
    expect(n?.audience).toEqual({ roles: ['MLL Accounts_HEAD', 'MLL Legal', 'MLL-ADMIN'], companyCode: '1000', baId: null, adminsOfUser: null, exclude: ['u-acc'] });
  });

  it('tells the requesters and the BA’s users once it is applied; a nucleus vendor has no BA users', () => {
    const out = blockNotifications(stored('BlockApplied', { requestId: 'r-1', baId: 'ba-1', action: 'block', vendorCode: '1000000001', message: 'Successfully Blocked' }));
    expect(out.map((n) => [n.kind, n.audience.baId, n.link])).toEqual([
      ['block.applied', null, '/blocks/r-1/show'],
      ['block.applied', 'ba-1', '/home'],
    ]);
    expect(out[1]?.body).toContain('is blocked');
    const nucleus = blockNotifications(stored('BlockApplied', { requestId: 'r-1', baId: null, action: 'unblock', vendorCode: '1', message: 'Successfully Unblocked' }));
    expect(nucleus).toHaveLength(1);
    expect(nucleus[0]?.title).toBe('Vendor unblocked');
  });

  it('tells the requesters of a rejection; ignores other events and other streams', () => {
    expect(blockNotifications(stored('BlockRejected', { requestId: 'r-1', baId: 'ba-1', remarks: 'No' }, { userId: 'u-legal', role: 'MLL Legal' }))[0]).toMatchObject({
      kind: 'block.rejected',
      audience: { exclude: ['u-legal'] },
    });
    expect(blockNotifications(stored('ErpCallFailed', { requestId: 'r-1', baId: 'ba-1' }))).toEqual([]);
    expect(blockNotifications(stored('VendorBlockRequestOpened', { requestId: 'r-1' }, undefined, 'vendor-block-1'))).toEqual([]);
  });
});

describe('block events on the BA’s activity log', () => {
  it('puts the BA’s request, decision and outcome on its log, not the ERP plumbing nor nucleus vendors', () => {
    const requested = stored(
      'BlockRequested',
      {
        requestId: 'r-1',
        action: 'block',
        baId: 'ba-1',
        pan: 'ABCDE1234F',
        scope: { level: 'parent', companyCode: '1000', vendorCode: '1000000001' },
        reasonId: '7',
        reason: 'Legal dispute',
        comments: 'Court order',
        file: null,
        endDate: '2026-02-01',
        requestedBy: { userId: 'u-acc', role: 'MLL Accounts' },
      },
      { userId: 'u-acc', role: 'MLL Accounts' },
    );
    const entries = blockActivityEntries([
      requested,
      stored('ErpCallFailed', { requestId: 'r-1', baId: 'ba-1', error: 'down' }),
      stored('BlockApplied', { requestId: 'r-1', baId: 'ba-1', action: 'block', vendorCode: '1000000001', message: 'Successfully Blocked' }),
      stored('BlockApplied', { requestId: 'r-2', baId: null, action: 'block', vendorCode: '2', message: 'Successfully Blocked' }),
    ]);
    expect(entries.map((e) => [e.ba_id, e.event_type, e.status, e.action, e.remarks])).toEqual([
      ['ba-1', 'BlockRequested', 'submitted', 'Block of vendor code 1000000001 (parent, company code 1000) requested until 2026-02-01: Legal dispute', 'Court order'],
      ['ba-1', 'BlockApplied', 'blocked', 'Vendor code 1000000001 blocked in SAP', 'Successfully Blocked'],
    ]);
    expect(entries[0]).toMatchObject({ company_code: '1000', actor_user_id: 'u-acc', role: 'MLL Accounts' });
  });
});
