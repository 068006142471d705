import type { Actor } from '../shared/events';
import { givenWhenThen, metaFor } from '../shared/testing';
import type { InvoiceAction, InvoiceCommand } from './commands';
import type { InvoiceEvent, InvoiceRecord } from './events';
import { EMPTY_INVOICE_FIELDS } from './fields';
import { fold } from '../shared/decider';
import { actionProblem, allowedActions, decideReservation, initialInvoiceState, invoiceDecider } from './decide';

const AT = '2026-06-30T06:00:00.000Z';
const ba: Actor = { userId: 'u-ba', role: 'BA Admin' };
const otherBa: Actor = { userId: 'u-ba2', role: 'BA User' };
const commercial: Actor = { userId: 'u-com', role: 'MLL Commercial' };
const accounts: Actor = { userId: 'u-acc', role: 'MLL Accounts' };
const admin: Actor = { userId: 'u-adm', role: 'MLL-ADMIN' };
const procurement: Actor = { userId: 'u-pro', role: 'MLL Procurement' };
const system: Actor = { userId: 'system', role: 'system' };
const meta = (a: Actor) => metaFor(a, { at: AT });
const baOf: Record<string, string | null> = { 'u-ba': 'ba-1', 'u-ba2': 'ba-2' };

const record: InvoiceRecord = {
  ...EMPTY_INVOICE_FIELDS,
  invoiceNumber: 'INV-001',
  invoiceDate: '2026-06-01',
  taxableAmount: '12500.00',
  cgst: '312.50',
  sgst: '312.50',
  hsnCode: '996511',
  comments: 'June trips',
  submitToUserId: 'u-com',
  billingFromCode: '200001',
  billingToCode: 'CHK',
  submitToName: 'Commercial One',
  companyCode: '1000',
  fromStateId: 27,
  billingToName: 'Chakan Warehouse',
  toStateId: 27,
  financialYear: '2026-27',
};
const ids = { invoiceId: 'inv-1', baId: 'ba-1' };
const edit = { actorBaId: 'ba-1', record, billHubStateId: null, numberTaken: false, vendorBlocked: false };
const drafted: InvoiceEvent = { type: 'InvoiceDrafted', data: { ...ids, companyCode: '1000', fields: record, createdBy: ba } };
const submitted: InvoiceEvent = {
  type: 'InvoiceSubmitted',
  data: { ...ids, companyCode: '1000', invoiceNumber: 'INV-001', financialYear: '2026-27', fields: record, resubmission: false, by: ba },
};
const acknowledged: InvoiceEvent = { type: 'InvoiceAcknowledged', data: { ...ids, by: commercial } };
const verified: InvoiceEvent = { type: 'InvoiceVerified', data: { ...ids, by: commercial } };
const bookingRequested: InvoiceEvent = { type: 'InvoiceBookingRequested', data: { ...ids, by: accounts } };
const booked: InvoiceEvent = { type: 'InvoiceBooked', data: { ...ids, erpDocumentNumber: '5100000123' } };
const released: InvoiceEvent = { type: 'InvoiceReleased', data: { ...ids, by: accounts } };
const rejected: InvoiceEvent = { type: 'InvoiceRejected', data: { ...ids, by: commercial, remarks: 'Wrong rate', fromStatus: 'S' } };
const revoked: InvoiceEvent = { type: 'InvoiceRevoked', data: { ...ids, by: ba, remarks: null } };
const discarded: InvoiceEvent = { type: 'InvoiceDiscarded', data: ids };

const given = givenWhenThen(invoiceDecider);
const histories = {
  draft: [drafted],
  S: [drafted, submitted],
  A: [drafted, submitted, acknowledged],
  V: [drafted, submitted, acknowledged, verified],
  booking: [drafted, submitted, acknowledged, verified, bookingRequested],
  B: [drafted, submitted, acknowledged, verified, bookingRequested, booked],
  P: [drafted, submitted, acknowledged, verified, bookingRequested, booked, released],
  C: [drafted, submitted, rejected],
  R: [drafted, submitted, revoked],
  discarded: [drafted, discarded],
} satisfies Record<string, InvoiceEvent[]>;
type H = keyof typeof histories;

const commandFor = (action: InvoiceAction, actorBaId: string | null): InvoiceCommand => {
  switch (action) {
    case 'edit':
      return { type: 'SaveInvoiceDraft', ...edit, actorBaId };
    case 'submit':
      return { type: 'SubmitInvoice', ...edit, actorBaId };
    case 'discard':
      return { type: 'DiscardInvoice', actorBaId };
    case 'attach':
      return { type: 'AddInvoiceAttachment', actorBaId, attachment: { attachmentId: 'f9', name: 'a.pdf', size: 10, type: 'application/pdf', sha256: 'a'.repeat(64) } };
    case 'acknowledge':
      return { type: 'AcknowledgeInvoice' };
    case 'verify':
      return { type: 'VerifyInvoice' };
    case 'book':
      return { type: 'RequestInvoiceBooking' };
    case 'release':
      return { type: 'ReleaseInvoice', paymentsOnHold: false, vendorBlocked: false };
    case 'reject':
      return { type: 'RejectInvoice', remarks: 'Wrong rate' };
    case 'revoke':
      return { type: 'RevokeInvoice', actorBaId, remarks: null };
  }
};

/** The contract's transition table: which (history, action, actor) are allowed; everything else is refused. */
const ALLOWED: [H, InvoiceAction, Actor, string][] = [
  ['draft', 'edit', ba, 'InvoiceDraftSaved'],
  ['C', 'edit', ba, 'InvoiceDraftSaved'],
  ['draft', 'attach', ba, 'InvoiceAttachmentAdded'],
  ['C', 'attach', ba, 'InvoiceAttachmentAdded'],
  ['draft', 'submit', ba, 'InvoiceSubmitted'],
  ['C', 'submit', ba, 'InvoiceSubmitted'],
  ['draft', 'discard', ba, 'InvoiceDiscarded'],
  ['S', 'acknowledge', commercial, 'InvoiceAcknowledged'],
  ['S', 'acknowledge', admin, 'InvoiceAcknowledged'],
  ['A', 'verify', commercial, 'InvoiceVerified'],
  ['V', 'book', accounts, 'InvoiceBookingRequested'],
  ['B', 'release', accounts, 'InvoiceReleased'],
  ['S', 'reject', commercial, 'InvoiceRejected'],
  ['A', 'reject', accounts, 'InvoiceRejected'],
  ['A', 'reject', commercial, 'InvoiceRejected'],
  ['S', 'reject', accounts, 'InvoiceRejected'],
  ['V', 'reject', commercial, 'InvoiceRejected'],
  ['S', 'revoke', ba, 'InvoiceRevoked'],
  ['S', 'revoke', accounts, 'InvoiceRevoked'],
  ['A', 'revoke', accounts, 'InvoiceRevoked'],
  ['V', 'revoke', accounts, 'InvoiceRevoked'],
  ['C', 'revoke', accounts, 'InvoiceRevoked'],
];
const ACTIONS: InvoiceAction[] = ['edit', 'attach', 'submit', 'discard', 'acknowledge', 'verify', 'book', 'release', 'reject', 'revoke'];
const PARTY: Record<InvoiceAction, Actor> = {
  edit: ba,
  attach: ba,
  submit: ba,
  discard: ba,
  acknowledge: commercial,
  verify: commercial,
  book: accounts,
  release: accounts,
  reject: commercial,
  revoke: ba,
};
const LABEL: Record<H, string> = {
  draft: 'Draft',
  S: 'Submitted',
  A: 'Acknowledged',
  V: 'Verified',
  booking: 'Verified',
  B: 'Booked',
  P: 'Released',
  C: 'Rejected',
  R: 'Revoked',
  discarded: 'Discarded',
};

describe('invoice transitions', () => {
  it.each(ALLOWED)('%s: %s by %o → %s', (h, action, actor, type) => {
    const result = given(histories[h]).when(commandFor(action, baOf[actor.userId] ?? null), meta(actor)).result;
    expect(Array.isArray(result) && result.map((e) => e.type)).toEqual([type]);
  });

  const refused = (Object.keys(histories) as H[]).flatMap((h) =>
    ACTIONS.filter((a) => !ALLOWED.some(([hh, aa, actor]) => hh === h && aa === a && actor === PARTY[a])).map((a) => [h, a] as const),
  );
  it.each(refused)('%s: %s by its party is refused with the status label', (h, action) => {
    const actor = PARTY[action];
    given(histories[h]).when(commandFor(action, baOf[actor.userId] ?? null), meta(actor)).thenError('rule', {
      message: `This action is not allowed when the invoice is ${LABEL[h]}`,
    });
  });

  it.each<[InvoiceAction, H, Actor]>([
    ['acknowledge', 'S', accounts],
    ['acknowledge', 'S', procurement],
    ['verify', 'A', accounts],
    ['book', 'V', commercial],
    ['release', 'B', commercial],
    ['reject', 'S', procurement],
    ['submit', 'draft', commercial],
    ['revoke', 'S', commercial],
  ])('%s in %s by %o is forbidden (403)', (action, h, actor) => {
    given(histories[h]).when(commandFor(action, null), meta(actor)).thenError('forbidden');
  });

  it.each<InvoiceAction>(['edit', 'submit', 'discard', 'attach', 'revoke'])('%s of another BA’s invoice is not found (404)', (action) => {
    given(histories.draft).when(commandFor(action, 'ba-2'), meta(otherBa)).thenError('not_found');
  });

  it('a command before the draft exists is not found', () => {
    given([]).when({ type: 'AcknowledgeInvoice' }, meta(commercial)).thenError('not_found');
  });
});

describe('drafts and submission', () => {
  const create: InvoiceCommand = { type: 'CreateInvoiceDraft', ...ids, ...edit };
  it('creates a draft with the computed financial year', () => {
    given([]).when({ ...create, record: { ...record, financialYear: 'bogus' } }, meta(ba)).then([drafted]);
  });
  it('the same create again is idempotent', () => given([drafted]).when(create, meta(ba)).thenNothing());
  it('a number taken by another invoice: 409 "Invoice already exists" on save, "Duplicate Invoice" on submit', () => {
    given([]).when({ ...create, numberTaken: true }, meta(ba)).thenError('conflict', { message: 'Invoice already exists' });
    given([drafted]).when({ type: 'SubmitInvoice', ...edit, numberTaken: true }, meta(ba)).thenError('conflict', { message: 'Duplicate Invoice' });
  });
  it('a blocked vendor cannot create or submit', () => {
    const blocked = 'Your vendor code is blocked. You cannot submit invoices';
    given([]).when({ ...create, vendorBlocked: true }, meta(ba)).thenError('forbidden', { message: blocked });
    given([drafted]).when({ type: 'SubmitInvoice', ...edit, vendorBlocked: true }, meta(ba)).thenError('forbidden', { message: blocked });
  });
  it('submit validates fully (400 with the field message); a draft does not', () => {
    const partial = { ...record, hsnCode: '', comments: '' };
    given([]).when({ ...create, record: partial }, meta(ba)).result;
    expect(Array.isArray(given([]).when({ ...create, record: partial }, meta(ba)).result)).toBe(true);
    given([drafted]).when({ type: 'SubmitInvoice', ...edit, record: partial }, meta(ba)).thenError('validation', { message: 'Please enter a valid HSN code' });
  });
  it('unresolved codes and users are refused', () => {
    given([drafted]).when({ type: 'SubmitInvoice', ...edit, record: { ...record, companyCode: null } }, meta(ba)).thenError('validation', {
      message: 'Please select one of your vendor codes',
    });
    given([drafted]).when({ type: 'SubmitInvoice', ...edit, record: { ...record, toStateId: null } }, meta(ba)).thenError('validation', {
      message: 'Please select a valid location',
    });
    given([drafted]).when({ type: 'SubmitInvoice', ...edit, record: { ...record, submitToName: null } }, meta(ba)).thenError('validation', {
      message: 'Please select an MLL Commercial user of the company code',
    });
  });
  it('a Bill-Hub user bills only from the child code of its state', () => {
    given([drafted]).when({ type: 'SubmitInvoice', ...edit, billHubStateId: 29 }, meta(ba)).thenError('validation', {
      message: 'You may only bill from the vendor code of your GST state',
    });
  });
  it('a rejected invoice is resubmitted under the same number; changing it is refused', () => {
    const result = given(histories.C).when({ type: 'SubmitInvoice', ...edit }, meta(ba)).result;
    expect(Array.isArray(result) && result[0]?.type === 'InvoiceSubmitted' && result[0].data.resubmission).toBe(true);
    given(histories.C).when({ type: 'SaveInvoiceDraft', ...edit, record: { ...record, invoiceNumber: 'INV-002' } }, meta(ba)).thenError('rule', {
      message: 'The invoice number cannot be changed',
    });
    expect(Array.isArray(given(histories.C).when({ type: 'SaveInvoiceDraft', ...edit, record: { ...record, invoiceNumber: ' inv-001' } }, meta(ba)).result)).toBe(true);
  });
  it('a draft may still change its number', () => {
    expect(Array.isArray(given(histories.draft).when({ type: 'SaveInvoiceDraft', ...edit, record: { ...record, invoiceNumber: 'X' } }, meta(ba)).result)).toBe(true);
  });
});

describe('attachments, reject, release, ERP, SLA', () => {
  const file = (n: number) => ({ attachmentId: `f${n}`, name: `${n}.pdf`, size: 10, type: 'application/pdf', sha256: 'a'.repeat(64) });
  const attached = (n: number): InvoiceEvent => ({ type: 'InvoiceAttachmentAdded', data: { ...ids, attachment: file(n) } });
  it('a sixth attachment is refused', () => {
    given([drafted, ...[1, 2, 3, 4, 5].map(attached)])
      .when({ type: 'AddInvoiceAttachment', actorBaId: 'ba-1', attachment: file(6) }, meta(ba))
      .thenError('validation', { message: 'You can attach up to 5 files' });
  });
  it('removes a known attachment; an unknown is not found', () => {
    given([drafted, attached(1)]).when({ type: 'RemoveInvoiceAttachment', actorBaId: 'ba-1', attachmentId: 'f1' }, meta(ba)).then([
      { type: 'InvoiceAttachmentRemoved', data: { ...ids, attachmentId: 'f1' } },
    ]);
    given([drafted]).when({ type: 'RemoveInvoiceAttachment', actorBaId: 'ba-1', attachmentId: 'f1' }, meta(ba)).thenError('not_found');
  });
  it('reject needs remarks', () => {
    given(histories.S).when({ type: 'RejectInvoice', remarks: '  ' }, meta(commercial)).thenError('validation', { message: 'Please enter remarks' });
  });
  it('release is refused while payments are on hold or the vendor is blocked', () => {
    given(histories.B).when({ type: 'ReleaseInvoice', paymentsOnHold: true, vendorBlocked: false }, meta(accounts)).thenError('rule', {
      message: 'Payments to this BA are on hold',
    });
    given(histories.B).when({ type: 'ReleaseInvoice', paymentsOnHold: false, vendorBlocked: true }, meta(accounts)).thenError('rule', {
      message: 'The vendor is blocked',
    });
  });
  it('the ERP answers are recorded only while booking; a refusal leaves it Verified and bookable again', () => {
    given(histories.V).when({ type: 'RecordInvoiceBooked', erpDocumentNumber: '1' }, meta(system)).thenNothing();
    given(histories.booking).when({ type: 'RecordInvoiceBooked', erpDocumentNumber: '5100000123' }, meta(system)).then([booked]);
    const refusedErp: InvoiceEvent = { type: 'InvoiceErpRefused', data: { ...ids, message: 'Period closed' } };
    given(histories.booking).when({ type: 'RecordInvoiceErpRefused', message: 'Period closed' }, meta(system)).then([refusedErp]);
    const state = fold(invoiceDecider, [...histories.booking, refusedErp]);
    expect(state).toMatchObject({ status: 'V', booking: false, lastErpError: 'Period closed' });
    expect(allowedActions(state, { roles: ['MLL Accounts'], baId: null })).toEqual(['book', 'reject', 'revoke']);
  });
  it('an SLA breach is recorded once per status, by the system only', () => {
    const breach: InvoiceCommand = { type: 'RecordInvoiceSlaBreach', status: 'S', since: AT, dueAt: AT };
    const breached: InvoiceEvent = { type: 'InvoiceSlaBreached', data: { ...ids, status: 'S', since: AT, dueAt: AT } };
    given(histories.S).when(breach, meta(system)).then([breached]);
    given([...histories.S, breached]).when(breach, meta(system)).thenNothing();
    given(histories.A).when(breach, meta(system)).thenNothing();
    given(histories.S).when(breach, meta(commercial)).thenError('forbidden');
  });
});

describe('allowedActions and actionProblem', () => {
  it.each<[H, string[], string | null, InvoiceAction[]]>([
    ['draft', ['BA Admin'], 'ba-1', ['edit', 'attach', 'submit', 'discard']],
    ['S', ['BA User'], 'ba-1', ['revoke']],
    ['S', ['MLL Commercial'], null, ['acknowledge', 'reject']],
    ['S', ['MLL-ADMIN'], null, ['acknowledge', 'reject', 'revoke']],
    ['V', ['MLL Accounts_HEAD'], null, ['book', 'reject', 'revoke']],
    ['booking', ['MLL Accounts'], null, []],
    ['B', ['MLL Accounts'], null, ['release']],
    ['P', ['MLL-ADMIN'], null, []],
    ['C', ['BA Admin'], 'ba-1', ['edit', 'attach', 'submit']],
    ['S', ['Auditor'], null, []],
    ['draft', ['BA Admin'], 'ba-2', []],
  ])('%s for %j of %s → %j', (h, roles, baId, expected) => {
    expect(allowedActions(fold(invoiceDecider, histories[h]), { roles, baId })).toEqual(expected);
  });
  it('a missing invoice is not found', () => expect(actionProblem('submit', initialInvoiceState, { roles: ['BA Admin'], baId: 'ba-1' })?.code).toBe('not_found'));
});

describe('number reservation', () => {
  const request = { baId: 'ba-1', financialYear: '2026-27', invoiceNumber: ' INV-001 ', invoiceId: 'inv-1' };
  it('the first invoice reserves the number', () =>
    expect(decideReservation(null, request)).toEqual([{ type: 'InvoiceNumberReserved', data: { ...request, invoiceNumber: 'INV-001' } }]));
  it('the same invoice again is idempotent; another is a duplicate', () => {
    const existing = { type: 'InvoiceNumberReserved' as const, data: { ...request, invoiceNumber: 'INV-001' } };
    expect(decideReservation(existing, request)).toEqual([]);
    const other = decideReservation(existing, { ...request, invoiceId: 'inv-2' });
    expect(other).toMatchObject({ code: 'conflict', message: 'Duplicate Invoice' });
  });
});
