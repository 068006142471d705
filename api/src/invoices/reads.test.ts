import type { Principal } from '../http/auth';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { invoiceFields } from '../../../projections/src/invoices/test-events';
import { allowedInvoiceActions, mayReadInvoice } from './reads';
import type { InvoiceStatus } from '../../../projections/src/invoices/invoice-events';

const principal = (roles: Principal['roles'], over: Partial<Principal> = {}): Principal => ({
  userId: 'u',
  username: 'u@test',
  name: 'U',
  roles,
  companyCodes: ['1000'],
  baId: null,
  app: roles.some((r) => r.startsWith('BA ')) ? 'portal' : 'console',
  activeCompanyCode: 'All',
  pwd: 'ok',
  billHubOnly: false,
  ...over,
});

const baUser = principal(['BA User'], { baId: 'ba-1' });
const commercial = principal(['MLL Commercial']);
const accounts = principal(['MLL Accounts']);
const admin = principal(['MLL-ADMIN']);
const auditor = principal(['Auditor']);

/** The invoice's stream up to `status` (the events the route reads for the history). */
function streamTo(status: InvoiceStatus, booking = false): StoredEvent[] {
  const types: Record<string, string[]> = {
    draft: ['InvoiceDrafted'],
    S: ['InvoiceDrafted', 'InvoiceSubmitted'],
    A: ['InvoiceDrafted', 'InvoiceSubmitted', 'InvoiceAcknowledged'],
    V: ['InvoiceDrafted', 'InvoiceSubmitted', 'InvoiceAcknowledged', 'InvoiceVerified', ...(booking ? ['InvoiceBookingRequested'] : [])],
    B: ['InvoiceDrafted', 'InvoiceSubmitted', 'InvoiceAcknowledged', 'InvoiceVerified', 'InvoiceBookingRequested', 'InvoiceBooked'],
    C: ['InvoiceDrafted', 'InvoiceSubmitted', 'InvoiceRejected'],
    R: ['InvoiceDrafted', 'InvoiceSubmitted', 'InvoiceRevoked'],
  };
  return (types[status] ?? []).map((type, version) => ({
    eventId: `e${version}`,
    type,
    data: { invoiceId: 'i-1', baId: 'ba-1', companyCode: '1000', fields: invoiceFields(), remarks: 'x', erpDocumentNumber: '51', by: { userId: 'u', role: 'r' } },
    metadata: { actor: { userId: 'u', role: 'r' }, companyCode: '1000', correlationId: 'c', causationId: null, workflowId: null, requestId: null, at: '2026-11-15T10:00:00.000Z' },
    streamId: 'invoice-i-1',
    version,
    globalPosition: version + 1,
    recordedAt: '2026-11-15T10:00:00.000Z',
    prevHash: '',
    hash: '',
  }));
}
const actions = (status: InvoiceStatus, p: Principal, booking = false) => allowedInvoiceActions(streamTo(status, booking), p).sort();

describe('allowed invoice actions (the decider’s rules over the folded stream)', () => {
  it('lets the BA edit drafts and rejected invoices and revoke one still submitted; nothing on another BA’s', () => {
    expect(actions('draft', baUser)).toEqual(['attach', 'discard', 'edit', 'submit']);
    expect(actions('C', baUser)).toEqual(['attach', 'edit', 'submit']);
    expect(actions('S', baUser)).toEqual(['revoke']);
    for (const s of ['A', 'V', 'B', 'R'] as const) expect(actions(s, baUser)).toEqual([]);
    expect(actions('draft', principal(['BA Admin'], { baId: 'ba-2' }))).toEqual([]);
  });

  it('lets commercial acknowledge S, verify A and reject S, A, V', () => {
    expect(actions('S', commercial)).toEqual(['acknowledge', 'reject']);
    expect(actions('A', commercial)).toEqual(['reject', 'verify']);
    expect(actions('V', commercial)).toEqual(['reject']);
    for (const s of ['B', 'C', 'R'] as const) expect(actions(s, commercial)).toEqual([]);
  });

  it('lets accounts book V, release B, reject and revoke — nothing while the ERP has the booking', () => {
    expect(actions('S', accounts)).toEqual(['reject', 'revoke']);
    expect(actions('V', accounts)).toEqual(['book', 'reject', 'revoke']);
    expect(actions('V', accounts, true)).toEqual([]);
    expect(actions('B', accounts)).toEqual(['release']);
    expect(actions('C', accounts)).toEqual(['revoke']);
    expect(actions('R', accounts)).toEqual([]);
  });

  it('gives MLL-ADMIN both sides and the auditor and other staff nothing', () => {
    expect(actions('S', admin)).toEqual(['acknowledge', 'reject', 'revoke']);
    expect(actions('S', auditor)).toEqual([]);
    expect(actions('S', principal(['MLL Procurement']))).toEqual([]);
    expect(allowedInvoiceActions([], admin)).toEqual([]);
  });
});

describe('who may read an invoice', () => {
  it('a BA its own (drafts too); staff their company codes, never drafts or discarded ones', () => {
    expect(mayReadInvoice(baUser, { baId: 'ba-1', companyCode: '1000', status: 'draft' })).toBe(true);
    expect(mayReadInvoice(baUser, { baId: 'ba-2', companyCode: '1000', status: 'S' })).toBe(false);
    expect(mayReadInvoice(principal(['BA Admin']), { baId: 'ba-1', companyCode: '1000', status: 'S' })).toBe(false);
    expect(mayReadInvoice(auditor, { baId: 'ba-1', companyCode: '1000', status: 'S' })).toBe(true);
    expect(mayReadInvoice(auditor, { baId: 'ba-1', companyCode: '2000', status: 'S' })).toBe(false);
    expect(mayReadInvoice(admin, { baId: 'ba-1', companyCode: '1000', status: 'draft' })).toBe(false);
    expect(mayReadInvoice(admin, { baId: 'ba-1', companyCode: '1000', status: 'discarded' })).toBe(false);
    expect(mayReadInvoice(admin, { baId: 'ba-1', companyCode: null, status: 'S' })).toBe(false);
  });
});
