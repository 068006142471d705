import type { StoredEvent } from '../../../domain/src/shared/events';
import { evolveInvoiceSubject, invoiceNotifications, memoNotifications, type InvoiceSubject } from './rules';

const stored = (type: string, data: Record<string, unknown>, actor = { userId: 'system', role: 'system' }, streamId = 'invoice-i-1', version = 1): StoredEvent => ({
  eventId: `e-${type}`,
  type,
  data,
  metadata: { actor, companyCode: '1000', correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: '2026-11-15T10:00:00.000Z' },
  streamId,
  version,
  globalPosition: 9,
  recordedAt: '2026-11-15T10:00:00.000Z',
  prevHash: '',
  hash: '',
});

const subject: InvoiceSubject = { invoiceId: 'i-1', baId: 'ba-1', invoiceNumber: 'INV-7', companyCode: '1000', version: 0 };
const ba = { userId: 'u-ba', role: 'BA Admin' };
const commercial = { userId: 'u-comm', role: 'MLL Commercial' };

describe('invoice notifications', () => {
  it('tells the commercial user the invoice was submitted to, and only them, linking to the console', () => {
    const [n, ...rest] = invoiceNotifications(stored('InvoiceSubmitted', { invoiceId: 'i-1', baId: 'ba-1', fields: { submitToUserId: 'u-comm' }, resubmission: false }, ba), subject);
    expect(rest).toEqual([]);
    expect(n).toMatchObject({ kind: 'invoice.submitted', title: 'Invoice submitted to you', link: '/invoices/i-1/show', baId: 'ba-1', companyCode: '1000' });
    expect(n?.body).toBe('Invoice INV-7 (company code 1000) was submitted for your acknowledgement.');
    expect(n?.audience).toEqual({ roles: ['MLL Commercial', 'MLL-ADMIN'], companyCode: '1000', baId: null, adminsOfUser: null, exclude: ['u-ba'], users: ['u-comm'] });
    const again = invoiceNotifications(stored('InvoiceSubmitted', { invoiceId: 'i-1', baId: 'ba-1', fields: { submitToUserId: 'u-comm' }, resubmission: true }, ba), subject);
    expect(again[0]).toMatchObject({ kind: 'invoice.resubmitted', title: 'Invoice resubmitted' });
  });

  it('tells the BA’s users of a rejection with the remarks, a booking and a release, linking to the portal', () => {
    const rejected = invoiceNotifications(stored('InvoiceRejected', { invoiceId: 'i-1', baId: 'ba-1', remarks: 'Wrong HSN', fromStatus: 'S' }, commercial), subject);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ kind: 'invoice.rejected', link: '/bill-hub/invoice/i-1' });
    expect(rejected[0]?.body).toContain('INV-7 was rejected: Wrong HSN');
    expect(rejected[0]?.audience).toEqual({ roles: ['BA Admin', 'BA User'], companyCode: null, baId: 'ba-1', adminsOfUser: null, exclude: ['u-comm'] });
    expect(invoiceNotifications(stored('InvoiceBooked', { invoiceId: 'i-1', baId: 'ba-1', erpDocumentNumber: '5100000001' }), subject)[0]?.body).toBe(
      'Your invoice INV-7 was booked (document 5100000001).',
    );
    expect(invoiceNotifications(stored('InvoiceReleased', { invoiceId: 'i-1', baId: 'ba-1' }, { userId: 'u-acc', role: 'MLL Accounts' }), subject)[0]).toMatchObject({
      kind: 'invoice.released',
      audience: { baId: 'ba-1' },
    });
  });

  it('tells whoever owes the next step of an SLA breach: commercial for S and A, accounts for V and B', () => {
    const owners = (status: string) => invoiceNotifications(stored('InvoiceSlaBreached', { invoiceId: 'i-1', baId: 'ba-1', status }), subject)[0]?.audience.roles;
    expect(owners('S')).toEqual(['MLL Commercial', 'MLL-ADMIN']);
    expect(owners('A')).toEqual(['MLL Commercial', 'MLL-ADMIN']);
    expect(owners('V')).toEqual(['MLL Accounts', 'MLL Accounts_HEAD', 'MLL-ADMIN']);
    expect(owners('B')).toEqual(['MLL Accounts', 'MLL Accounts_HEAD', 'MLL-ADMIN']);
    expect(invoiceNotifications(stored('InvoiceSlaBreached', { invoiceId: 'i-1', baId: 'ba-1', status: 'V' }), subject)[0]?.body).toBe(
      'Invoice INV-7 (company code 1000) has waited past its time limit while Verified.',
    );
  });

  it('says nothing of drafts, edits, files or ERP plumbing', () => {
    for (const type of ['InvoiceDrafted', 'InvoiceDraftSaved', 'InvoiceAttachmentAdded', 'InvoiceAcknowledged', 'InvoiceErpCallFailed', 'InvoiceDiscarded']) {
      expect(invoiceNotifications(stored(type, { invoiceId: 'i-1', baId: 'ba-1' }), subject)).toEqual([]);
    }
  });

  it('remembers the invoice’s number and company code from its drafts and submission', () => {
    const start: InvoiceSubject = { invoiceId: 'i-1', baId: 'ba-1', invoiceNumber: '', companyCode: null, version: -1 };
    const drafted = evolveInvoiceSubject(start, stored('InvoiceDrafted', { invoiceId: 'i-1', baId: 'ba-1', companyCode: '2000', fields: { invoiceNumber: ' INV-9 ' } }, ba, 'invoice-i-1', 0));
    expect(drafted).toEqual({ invoiceId: 'i-1', baId: 'ba-1', invoiceNumber: 'INV-9', companyCode: '2000', version: 0 });
    expect(evolveInvoiceSubject(drafted, stored('InvoiceAcknowledged', { invoiceId: 'i-1', baId: 'ba-1' }, commercial, 'invoice-i-1', 3))).toEqual({ ...drafted, version: 3 });
  });
});

describe('memo notifications', () => {
  it('tells the commercial users of the memo’s company code, not the BA who sent it', () => {
    const [n] = memoNotifications(
      stored('MemoSubmitted', { memoId: 'm-1', memoNumber: 'MEMO/1000/2026-27/000004', baId: 'ba-1', companyCode: '1000', invoiceIds: ['a', 'b'] }, ba, 'memo-m-1'),
    );
    expect(n).toMatchObject({ kind: 'memo.submitted', link: '/memos/m-1/show', body: 'Memo MEMO/1000/2026-27/000004 with 2 invoices was submitted (company code 1000).' });
    expect(n?.audience).toEqual({ roles: ['MLL Commercial', 'MLL-ADMIN'], companyCode: '1000', baId: null, adminsOfUser: null, exclude: ['u-ba'] });
    expect(memoNotifications(stored('MemoInvoicesClaimed', { memoId: 'm-1' }, ba, 'memo-claims-ba-1'))).toEqual([]);
  });
});
