import type { StoredEvent } from '../../../domain/src/shared/events';
import { invoiceHistory } from './history';
import { invoiceActivityEntries } from './invoice-activity';

let position = 0;
const stored = (type: string, data: Record<string, unknown>, actor: { userId: string; role: string; name?: string } = { userId: 'system', role: 'system' }, streamId = 'invoice-i-1'): StoredEvent => ({
  eventId: `e-${(position += 1)}`,
  type,
  data: { invoiceId: 'i-1', baId: 'ba-1', ...data },
  metadata: { actor, companyCode: '1000', correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: `2026-11-15T10:0${position % 10}:00.000Z` },
  streamId,
  version: position,
  globalPosition: position,
  recordedAt: '2026-11-15T10:00:00.000Z',
  prevHash: '',
  hash: '',
});

const ba = { userId: 'u-ba', role: 'BA Admin', name: 'Ravi' };
const commercial = { userId: 'u-comm', role: 'MLL Commercial', name: 'Chitra' };
const accounts = { userId: 'u-acc', role: 'MLL Accounts' };

const lifecycle = () => [
  stored('InvoiceDrafted', { fields: {} }, ba),
  stored('InvoiceAttachmentAdded', { attachment: {} }, ba),
  stored('InvoiceSubmitted', { invoiceNumber: 'INV-7', companyCode: '1000', resubmission: false }, ba),
  stored('InvoiceRejected', { remarks: 'Wrong HSN', fromStatus: 'S' }, commercial),
  stored('InvoiceDraftSaved', { fields: {} }, ba),
  stored('InvoiceSubmitted', { invoiceNumber: 'INV-7', companyCode: '1000', resubmission: true }, ba),
  stored('InvoiceAcknowledged', {}, commercial),
  stored('InvoiceVerified', {}, commercial),
  stored('InvoiceBookingRequested', {}, accounts),
  stored('InvoiceErpCallFailed', { error: 'down' }),
  stored('InvoiceErpRefused', { message: 'Period closed' }),
  stored('InvoiceBookingRequested', {}, accounts),
  stored('InvoiceBooked', { erpDocumentNumber: '5100000001' }),
  stored('InvoiceReleased', {}, accounts),
];

describe('invoice events on the BA’s activity log', () => {
  it('lists the lifecycle steps with their statuses and remarks, not drafts, files or ERP plumbing', () => {
    const entries = invoiceActivityEntries(lifecycle());
    expect(entries.map((e) => [e.status, e.action, e.remarks, e.role])).toEqual([
      ['submitted', 'Invoice INV-7 submitted (company code 1000)', null, 'BA Admin'],
      ['rejected', 'Invoice rejected', 'Wrong HSN', 'MLL Commercial'],
      ['submitted', 'Invoice INV-7 submitted again (company code 1000)', null, 'BA Admin'],
      ['acknowledged', 'Invoice acknowledged', null, 'MLL Commercial'],
      ['verified', 'Invoice verified', null, 'MLL Commercial'],
      ['booked', 'Invoice booked in SAP (document 5100000001)', null, 'system'],
      ['released', 'Invoice payment released', null, 'MLL Accounts'],
    ]);
    expect(entries[0]).toMatchObject({ ba_id: 'ba-1', company_code: '1000', actor_user_id: 'u-ba', actor_name: 'Ravi', event_type: 'InvoiceSubmitted' });
  });

  it('lists a revocation with its remarks and ignores the reservation and memo streams', () => {
    const entries = invoiceActivityEntries([
      stored('InvoiceRevoked', { remarks: 'Raised twice' }, accounts),
      stored('InvoiceNumberReserved', { invoiceNumber: 'INV-7' }, ba, 'invoice-number-ba-1-2026-27-abc'),
      stored('InvoiceSubmitted', { invoiceNumber: 'X' }, ba, 'invoice-number-ba-1-2026-27-abc'),
      stored('MemoSubmitted', { memoId: 'm-1' }, ba, 'memo-m-1'),
    ]);
    expect(entries.map((e) => [e.status, e.remarks])).toEqual([['revoked', 'Raised twice']]);
  });
});

describe('an invoice’s history', () => {
  it('has one line per status change with who, when and why; an ERP refusal is listed as still Verified', () => {
    const history = invoiceHistory(lifecycle());
    expect(history.map((h) => [h.status, h.label, h.by.role, h.remarks])).toEqual([
      ['draft', 'Draft', 'BA Admin', null],
      ['S', 'Submitted', 'BA Admin', null],
      ['C', 'Rejected', 'MLL Commercial', 'Wrong HSN'],
      ['S', 'Submitted', 'BA Admin', 'Submitted again after correction'],
      ['A', 'Acknowledged', 'MLL Commercial', null],
      ['V', 'Verified', 'MLL Commercial', null],
      ['V', 'Verified', 'system', 'Refused by the ERP: Period closed'],
      ['B', 'Booked', 'system', null],
      ['P', 'Released', 'MLL Accounts', null],
    ]);
    expect(history[0]?.by).toEqual({ userId: 'u-ba', name: 'Ravi', role: 'BA Admin' });
    expect(invoiceHistory([stored('InvoiceDiscarded', {}, ba), stored('InvoiceRevoked', { remarks: null }, ba)]).map((h) => [h.label, h.remarks])).toEqual([
      ['Discarded', null],
      ['Revoked', null],
    ]);
  });
});
