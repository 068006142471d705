import type { StoredEvent } from '../../../domain/src/shared/events';
import { SAP_REQUESTERS } from '../../../domain/src/identity/roles';
import { vendorCodeNotifications } from '../notifications/rules';
import { isVendorCodeEvent } from './vendor-codes.projection';

const stored = (type: string, data: Record<string, unknown>, streamId = 'vendor-code-ba-1-1000'): StoredEvent => ({
  eventId: `e-${type}`,
  type,
  data: { baId: 'ba-1', companyCode: '1000', ...data },
  metadata: { actor: { userId: 'system', role: 'system' }, companyCode: '1000', correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: '2026-01-15T10:00:00.000Z' },
  streamId,
  version: 3,
  globalPosition: 42,
  recordedAt: '2026-01-15T10:00:00.000Z',
  prevHash: '',
  hash: '',
});

describe('vendor-code notifications', () => {
  it('a parent or child code: the BA’s users and the SAP requesters of the company code', () => {
    for (const [type, data, code] of [
      ['ParentCodeAssigned', { requestKey: 'k', parentCode: '1000000001' }, '1000000001'],
      ['ChildCodeAssigned', { requestKey: 'k', stateId: 27, childCode: '1000000002' }, '1000000002'],
    ] as const) {
      const out = vendorCodeNotifications(stored(type, data));
      expect(out.map((n) => [n.audience.baId, n.audience.companyCode, n.audience.roles])).toEqual([
        ['ba-1', null, ['BA Admin', 'BA User']],
        [null, '1000', SAP_REQUESTERS],
      ]);
      expect(out.every((n) => n.body.includes(code))).toBe(true);
      expect(out[1]?.link).toBe('/sap/view/ba-1');
    }
  });

  it('a rejection goes to the BA only when sent to it, with the reason', () => {
    const base = { reasonId: 2, reason: 'Bank account details are incorrect', remarks: 'Cheque unreadable', rejectedBy: 'u' };
    const sent = vendorCodeNotifications(stored('VendorCodeRequestRejected', { ...base, sendToBa: true }));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'vendor-code.rejected', audience: { baId: 'ba-1' } });
    expect(sent[0]?.body).toContain('Bank account details are incorrect');
    expect(vendorCodeNotifications(stored('VendorCodeRequestRejected', { ...base, sendToBa: false }))).toEqual([]);
  });

  it('ignores other events and the vendor-code workbook’s streams (they share the prefix)', () => {
    expect(vendorCodeNotifications(stored('ParentCodeRequested', { requestKey: 'k' }))).toEqual([]);
    const workbook = stored('ParentCodeAssigned', { parentCode: '1' }, 'vendor-code-workbook-abc');
    expect(vendorCodeNotifications(workbook)).toEqual([]);
    expect(isVendorCodeEvent(workbook)).toBe(false);
    expect(isVendorCodeEvent(stored('ParentCodeAssigned', { requestKey: 'k', parentCode: '1' }))).toBe(true);
  });
});
