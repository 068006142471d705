import { DomainError } from '../shared/errors';
import type { Actor } from '../shared/events';
import { indiaDateAt } from '../shared/india-date';
import { metaFor } from '../shared/testing';
import { fromPaise, memoFinancialYear, toPaise } from './amounts';
import {
  formatMemoNumber,
  groupMemoInvoices,
  initialMemoState,
  memoClaimsDecider,
  memoDecider,
  memoMessages,
  memoSequenceDecider,
  memoTotals,
  type MemoCommand,
  type MemoState,
} from './decide';
import type { MemoEvent, MemoSubmitted } from './events';
import { foldInvoiceView, type MemoInvoiceView } from './invoice-view';

const ba: Actor = { userId: 'u-ba', role: 'BA Admin', name: 'Bala' };
const accounts: Actor = { userId: 'u-acc', role: 'MLL Accounts', name: 'Asha' };
const commercial: Actor = { userId: 'u-com', role: 'MLL Commercial', name: 'Chitra' };
const AT = '2026-11-20T06:00:00.000Z';

const view = (over: Partial<MemoInvoiceView> = {}): MemoInvoiceView => ({
  invoiceId: 'i1',
  baId: 'ba-1',
  companyCode: '1000',
  status: 'S',
  invoiceNumber: 'INV-1',
  fromStateId: 27,
  toStateId: 29,
  taxableAmount: '1000.10',
  cgst: '90.05',
  sgst: '90.05',
  igst: '0',
  td: '10.00',
  ...over,
});

const err = (r: unknown): DomainError => {
  expect(r).toBeInstanceOf(DomainError);
  return r as DomainError;
};

describe('amounts', () => {
  test('decimal strings to paise and back without float drift', () => {
    expect(toPaise('12500')).toBe(1250000);
    expect(toPaise('0.1')).toBe(10);
    expect(toPaise('')).toBe(0);
    expect(toPaise('1.234')).toBeNull();
    expect(toPaise('-1')).toBeNull();
    expect(fromPaise(1250005)).toBe('12500.05');
    expect(fromPaise(-150)).toBe('-1.50');
  });
  test('financial year April–March and the Indian date of an instant', () => {
    expect(memoFinancialYear('2026-04-01')).toBe('2026-27');
    expect(memoFinancialYear('2027-03-31')).toBe('2026-27');
    expect(memoFinancialYear('2099-12-01')).toBe('2099-00');
    expect(indiaDateAt('2026-11-20T19:00:00.000Z')).toBe('2026-11-21');
  });
});

describe('memo number', () => {
  test('MEMO/<companyCode>/<fy>/<six digits>', () => {
    expect(formatMemoNumber('1000', '2026-27', 7)).toBe('MEMO/1000/2026-27/000007');
  });
});

describe('claims stream', () => {
  const claim = (memoId: string, ids: string[], memoNumbers?: Record<string, string>) => ({
    type: 'ClaimMemoInvoices' as const,
    memoId,
    baId: 'ba-1',
    invoices: ids.map((id) => ({ invoiceId: id, invoiceNumber: `N-${id}` })),
    ...(memoNumbers ? { memoNumbers } : {}),
  });
  const claimed = (memoId: string, ids: string[]) => ({ type: 'MemoInvoicesClaimed' as const, data: { memoId, baId: 'ba-1', invoiceIds: ids } });
  const stateOf = (...events: ReturnType<typeof claimed>[]) => events.reduce(memoClaimsDecider.evolve, memoClaimsDecider.initialState);

  test('free invoices are claimed for the memo', () => {
    expect(memoClaimsDecider.decide(claim('m1', ['a', 'b']), stateOf(), metaFor(ba))).toEqual([claimed('m1', ['a', 'b'])]);
  });
  test('an invoice already in another memo is refused (409) with both numbers', () => {
    const e = err(memoClaimsDecider.decide(claim('m2', ['c', 'a'], { m1: 'MEMO/1000/2026-27/000001' }), stateOf(claimed('m1', ['a'])), metaFor(ba)));
    expect(e.code).toBe('conflict');
    expect(e.message).toBe('Invoice N-a is already in memo MEMO/1000/2026-27/000001');
  });
  test('the same memo claiming again appends nothing', () => {
    expect(memoClaimsDecider.decide(claim('m1', ['a']), stateOf(claimed('m1', ['a'])), metaFor(ba))).toEqual([]);
  });
  test('nothing to claim is refused', () => {
    expect(err(memoClaimsDecider.decide(claim('m1', []), stateOf(), metaFor(ba))).code).toBe('validation');
  });
});

describe('sequence stream', () => {
  const assign = (memoId: string) => ({ type: 'AssignMemoNumber' as const, memoId, companyCode: '1000', financialYear: '2026-27' });
  test('the first memo is 000001, the next one more', () => {
    const first = memoSequenceDecider.decide(assign('m1'), memoSequenceDecider.initialState, metaFor(ba));
    expect(first).toEqual([
      { type: 'MemoNumberAssigned', data: { memoId: 'm1', companyCode: '1000', financialYear: '2026-27', sequence: 1, memoNumber: 'MEMO/1000/2026-27/000001' } },
    ]);
    const state = (first as never[]).reduce(memoSequenceDecider.evolve, memoSequenceDecider.initialState);
    const second = memoSequenceDecider.decide(assign('m2'), state, metaFor(ba));
    expect(second).toMatchObject([{ data: { sequence: 2, memoNumber: 'MEMO/1000/2026-27/000002' } }]);
  });
  test('the same memo again gets no second number', () => {
    const state = memoSequenceDecider.evolve(memoSequenceDecider.initialState, {
      type: 'MemoNumberAssigned',
      data: { memoId: 'm1', companyCode: '1000', financialYear: '2026-27', sequence: 1, memoNumber: 'MEMO/1000/2026-27/000001' },
    });
    expect(memoSequenceDecider.decide(assign('m1'), state, metaFor(ba))).toEqual([]);
    expect(state.byMemo['m1']).toBe('MEMO/1000/2026-27/000001');
  });
});

describe('grouping invoices into a memo', () => {
  test('totals are summed in paise; net payable = total − TD', () => {
    expect(memoTotals([view(), view({ taxableAmount: '0.20', cgst: '0.10', sgst: '0', td: '0' })])).toEqual({
      taxableAmount: '1000.30',
      cgst: '90.15',
      sgst: '90.05',
      igst: '0.00',
      td: '10.00',
      totalAmount: '1180.50',
      netPayable: '1170.50',
    });
  });
  test('S, A and V invoices of one company code and state pair form a memo (duplicates once)', () => {
    const group = groupMemoInvoices('ba-1', [view(), view({ invoiceId: 'i2', status: 'A' }), view({ invoiceId: 'i3', status: 'V' }), view()]);
    expect(group).toMatchObject({ invoiceIds: ['i1', 'i2', 'i3'], companyCode: '1000', fromStateId: 27, toStateId: 29 });
  });
  test('no invoice → 400', () => {
    expect(err(groupMemoInvoices('ba-1', [])).message).toBe(memoMessages.noInvoices);
  });
  test("another BA's or an unknown invoice → 404", () => {
    expect(err(groupMemoInvoices('ba-1', [view({ baId: 'ba-2' })])).code).toBe('not_found');
    expect(err(groupMemoInvoices('ba-1', [view({ status: 'none' })])).code).toBe('not_found');
  });
  test.each([
    ['draft', 'Draft'],
    ['B', 'Booked'],
    ['C', 'Rejected'],
    ['R', 'Revoked'],
  ] as const)('an invoice in status %s → 422', (status, label) => {
    const e = err(groupMemoInvoices('ba-1', [view({ status })]));
    expect(e).toMatchObject({ code: 'rule', message: `Invoice INV-1 cannot be added to a memo while it is ${label}` });
  });
  test('mixed company codes → 422', () => {
    expect(err(groupMemoInvoices('ba-1', [view(), view({ invoiceId: 'i2', companyCode: '2000' })])).message).toBe(memoMessages.oneCompanyCode);
  });
  test('mixed from or to state → 422', () => {
    expect(err(groupMemoInvoices('ba-1', [view(), view({ invoiceId: 'i2', fromStateId: 9 })])).message).toBe(memoMessages.oneStatePair);
    expect(err(groupMemoInvoices('ba-1', [view(), view({ invoiceId: 'i2', toStateId: 9 })])).message).toBe(memoMessages.oneStatePair);
  });
});

describe('invoice view folded from the invoice stream', () => {
  test('follows the contract events to the status and keeps the submitted fields', () => {
    const fields = { invoiceNumber: 'INV-9', taxableAmount: '100', cgst: '9', sgst: '9', igst: '', td: '1', companyCode: '1000', fromStateId: 27, toStateId: 29 };
    const v = foldInvoiceView('i9', [
      { type: 'InvoiceDrafted', data: { invoiceId: 'i9', baId: 'ba-1', companyCode: '1000', fields } },
      { type: 'InvoiceSubmitted', data: { invoiceId: 'i9', baId: 'ba-1', companyCode: '1000', fields } },
      { type: 'InvoiceAcknowledged', data: { invoiceId: 'i9', baId: 'ba-1' } },
    ]);
    expect(v).toMatchObject({ status: 'A', baId: 'ba-1', invoiceNumber: 'INV-9', igst: '0', fromStateId: 27, toStateId: 29, companyCode: '1000' });
    expect(foldInvoiceView('i9', [{ type: 'InvoiceDrafted', data: { invoiceId: 'i9', baId: 'ba-1', fields } }, { type: 'InvoiceDiscarded', data: {} }]).status).toBe(
      'discarded',
    );
  });
});

describe('memo stream', () => {
  const submitted: MemoSubmitted = {
    type: 'MemoSubmitted',
    data: {
      memoId: 'm1',
      memoNumber: 'MEMO/1000/2026-27/000001',
      baId: 'ba-1',
      companyCode: '1000',
      financialYear: '2026-27',
      fromStateId: 27,
      toStateId: 29,
      invoiceIds: ['i1'],
      totals: { taxableAmount: '1000.00', cgst: '0.00', sgst: '0.00', igst: '0.00', td: '0.00', totalAmount: '1000.00', netPayable: '1000.00' },
      comments: 'For November',
      submittedBy: ba,
    },
  };
  const stateOf = (...events: MemoEvent[]): MemoState => events.reduce(memoDecider.evolve, initialMemoState);
  const decide = (command: MemoCommand, state: MemoState, actor: Actor = accounts) => memoDecider.decide(command, state, metaFor(actor, { at: AT }));
  const advance = (over: Partial<Extract<MemoCommand, { type: 'RecordAdvancePayment' }>> = {}): MemoCommand => ({
    type: 'RecordAdvancePayment',
    advanceId: 'adv-1',
    amount: '400',
    reference: 'UTR 123',
    paidOn: '2026-11-19',
    ...over,
  });

  test('submits once; the same memo again appends nothing; comments follow the text rule', () => {
    expect(decide({ type: 'SubmitMemo', memo: submitted.data }, initialMemoState, ba)).toEqual([submitted]);
    expect(decide({ type: 'SubmitMemo', memo: submitted.data }, stateOf(submitted), ba)).toEqual([]);
    expect(err(decide({ type: 'SubmitMemo', memo: { ...submitted.data, comments: '=cmd()' } }, initialMemoState, ba)).code).toBe('validation');
  });
  test('an advance within the balance is recorded with the amount normalised', () => {
    expect(decide(advance(), stateOf(submitted))).toEqual([
      { type: 'AdvancePaymentRecorded', data: { memoId: 'm1', baId: 'ba-1', advanceId: 'adv-1', amount: '400.00', reference: 'UTR 123', paidOn: '2026-11-19', by: accounts } },
    ]);
  });
  test('the advances together cannot exceed the balance (422)', () => {
    const first = decide(advance({ amount: '600' }), stateOf(submitted)) as MemoEvent[];
    const state = stateOf(submitted, ...first);
    expect(decide(advance({ advanceId: 'adv-2', amount: '400.00' }), state)).toHaveLength(1);
    expect(err(decide(advance({ advanceId: 'adv-2', amount: '400.01' }), state))).toMatchObject({ code: 'rule', message: memoMessages.advanceTooHigh });
  });
  test('the same advance id again is recorded once', () => {
    const first = decide(advance(), stateOf(submitted)) as MemoEvent[];
    expect(decide(advance(), stateOf(submitted, ...first))).toEqual([]);
  });
  test.each([
    [{ amount: 'abc' }, memoMessages.advanceAmount],
    [{ amount: '1.234' }, memoMessages.advanceAmount],
    [{ amount: '0.00' }, memoMessages.advancePositive],
    [{ reference: ' ' }, memoMessages.reference],
    [{ reference: '@SUM(A1)' }, "Text must not start with - = @ # & ^ + | % < ' \" or a tab or line break"],
    [{ paidOn: '2026-02-30' }, memoMessages.paidOn],
    [{ paidOn: '2026-11-21' }, memoMessages.paidOnFuture],
  ])('advance field rule %o → 400', (over, message) => {
    expect(err(decide(advance(over), stateOf(submitted)))).toMatchObject({ code: 'validation', message });
  });
  test('only accounts record advances; an unknown memo is 404', () => {
    expect(err(decide(advance(), stateOf(submitted), commercial)).code).toBe('forbidden');
    expect(err(decide(advance(), stateOf(submitted), ba)).code).toBe('forbidden');
    expect(err(decide(advance(), initialMemoState)).code).toBe('not_found');
  });
});
