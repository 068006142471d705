import { fold } from '../shared/decider';
import type { Actor } from '../shared/events';
import { givenWhenThen, metaFor, TEST_AT } from '../shared/testing';
import type { BaFacts, VendorCodeCommand } from './commands';
import { erpRetryDelayMs, requestKeys, SAP_CODE_REQUESTED, vendorCodeDecider, vendorCodeMessages as m } from './decide';
import type { VendorCodeEvent } from './events';
import { vendorCodeStatus } from './state';

const BA = 'ba-1';
const CC = '1000';
const of = { baId: BA, companyCode: CC };
const decider = vendorCodeDecider(BA, CC);
const given = givenWhenThen(decider);

const accounts: Actor = { userId: 'u-accounts', role: 'MLL Accounts', name: 'Accounts' };
const head: Actor = { userId: 'u-head', role: 'MLL Accounts_HEAD', name: 'Head' };
const admin: Actor = { userId: 'u-admin', role: 'MLL-ADMIN', name: 'Admin' };
const procurement: Actor = { userId: 'u-proc', role: 'MLL Procurement' };
const system: Actor = { userId: 'system', role: 'system', name: 'ERP' };
const asAccounts = metaFor(accounts);
const asSystem = metaFor(system);

const verified: BaFacts = {
  verified: true,
  gstRows: [
    { gstId: 'g-27', stateId: 27, gstNo: '27ABCDE1234F1Z5' },
    { gstId: 'g-29', stateId: 29, gstNo: '29ABCDE1234F1Z5' },
  ],
};
const terms = (id = 4) => ({ id, status: 'active' as const, code: `Z0${id}` });

const parentKey = requestKeys.parent(BA, CC, 0);
const requested: VendorCodeEvent = { type: 'ParentCodeRequested', data: { ...of, requestKey: parentKey } };
const submitted: VendorCodeEvent = {
  type: 'ErpRequestSubmitted',
  data: { ...of, requestKey: parentKey, operation: 'create-parent', erpRequestId: 'erp-1' },
};
const assigned: VendorCodeEvent = { type: 'ParentCodeAssigned', data: { ...of, requestKey: parentKey, parentCode: '1000000001' } };
const childKey = (stateId: number, refusals = 0) => requestKeys.child(BA, CC, stateId, refusals);
const childRequested = (stateId: number, refusals = 0): VendorCodeEvent => ({
  type: 'ChildCodeRequested',
  data: {
    ...of,
    requestKey: childKey(stateId, refusals),
    stateId,
    gstRowId: `g-${stateId}`,
    gstNo: `${stateId}ABCDE1234F1Z5`,
    paymentTermsId: 4,
    paymentTermsCode: 'Z04',
  },
});
const childAssigned = (stateId: number): VendorCodeEvent => ({
  type: 'ChildCodeAssigned',
  data: { ...of, requestKey: childKey(stateId), stateId, childCode: `10000000${stateId}` },
});
const categorySet: VendorCodeEvent = {
  type: 'VendorCategorySet',
  data: { ...of, vendorCategoryId: 1, vendorCategory: 'Transporter', setBy: accounts.userId },
};
const withParent = [requested, submitted, assigned];
const category = { id: 1, status: 'active' as const, name: 'Transporter' };
const reason = { id: 2, status: 'active' as const, name: 'Bank account details are incorrect' };
const reject = (sendToBa: boolean): VendorCodeCommand => ({
  type: 'RejectVendorCodeRequest',
  reasonId: 2,
  reason,
  remarks: 'Cheque unreadable',
  sendToBa,
  ba: verified,
});
const retry = { initialMs: 2000, maxMs: 600_000 };

describe('the message', () => {
  it('is the spec’s, verbatim', () => expect(SAP_CODE_REQUESTED).toBe('SAP Code requested successfully.'));
});

describe('refusals (table)', () => {
  const notVerified: BaFacts = { verified: false, gstRows: [] };
  const cases: [string, VendorCodeEvent[], VendorCodeCommand, Actor, string, string | undefined][] = [
    ['not verified → 422', [], { type: 'RequestParentCode', ba: notVerified }, accounts, 'rule', m.notVerified(CC)],
    ['request twice', [requested], { type: 'RequestParentCode', ba: verified }, accounts, 'rule', m.parentRequested],
    ['request after the code exists', withParent, { type: 'RequestParentCode', ba: verified }, accounts, 'rule', m.parentExists],
    ['child before parent', [requested], { type: 'RequestChildCode', stateId: 27, paymentTermsId: 4, paymentTerms: terms(), ba: verified }, accounts, 'rule', m.parentFirst],
    ['child for a state without a GST row', withParent, { type: 'RequestChildCode', stateId: 9, paymentTermsId: 4, paymentTerms: terms(), ba: verified }, accounts, 'rule', m.noGstRow],
    ['child requested twice', [...withParent, childRequested(27)], { type: 'RequestChildCode', stateId: 27, paymentTermsId: 4, paymentTerms: terms(), ba: verified }, accounts, 'rule', m.childRequested],
    ['child when it exists', [...withParent, childRequested(27), childAssigned(27)], { type: 'RequestChildCode', stateId: 27, paymentTermsId: 4, paymentTerms: terms(), ba: verified }, accounts, 'rule', m.childExists],
    ['child with an unknown payment term', withParent, { type: 'RequestChildCode', stateId: 27, paymentTermsId: 4, paymentTerms: null, ba: verified }, accounts, 'validation', m.paymentTerms],
    ['payment terms before the child code', withParent, { type: 'SetPaymentTerms', stateId: 27, paymentTermsId: 5, paymentTerms: terms(5), ba: verified }, accounts, 'rule', m.childFirst],
    ['category before the parent code', [requested], { type: 'SetVendorCategory', vendorCategoryId: 1, vendorCategory: category, ba: verified }, accounts, 'rule', m.parentFirst],
    ['category approved by its setter', [...withParent, categorySet], { type: 'ApproveVendorCategory', ba: verified }, { ...head, userId: accounts.userId }, 'rule', m.categoryBySomeoneElse],
    ['category rejected by its setter', [...withParent, categorySet], { type: 'RejectVendorCategory', remarks: 'no', ba: verified }, { ...admin, userId: accounts.userId }, 'rule', m.categoryBySomeoneElse],
    ['category approved by a requester who is not an approver', [...withParent, categorySet], { type: 'ApproveVendorCategory', ba: verified }, { ...accounts, userId: 'other' }, 'forbidden', m.forbidden],
    ['approval with nothing pending', withParent, { type: 'ApproveVendorCategory', ba: verified }, head, 'rule', m.noCategoryPending],
    ['category rejected without remarks', [...withParent, categorySet], { type: 'RejectVendorCategory', remarks: ' ', ba: verified }, head, 'validation', m.remarksRequired],
    ['recon account before the parent code', [], { type: 'ChangeReconAccount', reconAccountId: 1, reconAccount: { id: 1, status: 'active', name: '31100010' }, ba: verified }, accounts, 'rule', m.parentFirst],
    ['inactive recon account', withParent, { type: 'ChangeReconAccount', reconAccountId: 1, reconAccount: { id: 1, status: 'inactive', name: '31100010' }, ba: verified }, accounts, 'validation', m.reconAccount],
    ['withholding tax before the parent code', [], { type: 'UpdateWithholdingTax', taxCodeId: 1, taxCode: { id: 1, status: 'active', taxType: 'WC', taxCode: 'C1' }, ba: verified }, accounts, 'rule', m.parentFirst],
    ['reject with nothing requested', [], reject(true), accounts, 'rule', m.nothingToReject],
    ['reject once the code exists', withParent, reject(true), accounts, 'rule', m.nothingToReject],
    ['reject with an unknown reason', [requested], { ...reject(false), reason: null } as VendorCodeCommand, accounts, 'validation', m.reason],
    ['a role outside SAP_REQUESTERS', [], { type: 'RequestParentCode', ba: verified }, procurement, 'forbidden', m.forbidden],
    ['an ERP outcome recorded by a person', [requested], { type: 'RecordErpOutcome', requestKey: parentKey, outcome: { kind: 'failed', error: 'x' }, retry }, accounts, 'forbidden', m.forbidden],
  ];
  it.each(cases)('%s', (_name, events, command, actor, code, message) => {
    given(events).when(command, metaFor(actor)).thenError(code as never, message ? { message } : {});
  });
});

describe('the parent code', () => {
  it('is requested once with a key derived from the stream', () => {
    given([]).when({ type: 'RequestParentCode', ba: verified }, asAccounts).then([requested]);
    expect(parentKey).toBe(`vendor-code:${BA}:${CC}:parent:1`);
  });

  it('follows the ERP: accepted, an outage (retried with backoff), done', () => {
    given([requested]).when({ type: 'RecordErpOutcome', requestKey: parentKey, outcome: { kind: 'submitted', erpRequestId: 'erp-1' }, retry }, asSystem).then([submitted]);
    given([requested, submitted])
      .when({ type: 'RecordErpOutcome', requestKey: parentKey, outcome: { kind: 'failed', error: 'ERP unavailable: 503' }, retry }, asSystem)
      .then([
        {
          type: 'ErpCallFailed',
          data: { ...of, requestKey: parentKey, operation: 'create-parent', error: 'ERP unavailable: 503', attempt: 1, retryAt: new Date(Date.parse(TEST_AT) + 2000).toISOString() },
        },
      ]);
    given([requested, submitted]).when({ type: 'RecordErpOutcome', requestKey: parentKey, outcome: { kind: 'done', vendorCode: '1000000001', message: 'ok' }, retry }, asSystem).then([assigned]);
    // The same acceptance twice records once; an answer for a job that is closed records nothing.
    given([requested, submitted]).when({ type: 'RecordErpOutcome', requestKey: parentKey, outcome: { kind: 'submitted', erpRequestId: 'erp-1' }, retry }, asSystem).thenNothing();
    given(withParent).when({ type: 'RecordErpOutcome', requestKey: parentKey, outcome: { kind: 'done', vendorCode: '1000000002', message: 'ok' }, retry }, asSystem).thenNothing();
  });

  it('backs off 2 s doubling up to 10 minutes', () => {
    expect([1, 2, 3, 4, 9, 10, 30].map((a) => erpRetryDelayMs(a))).toEqual([2000, 4000, 8000, 16000, 512000, 600000, 600000]);
  });

  it('gets a new key only after the ERP refused the last one', () => {
    const refused: VendorCodeEvent = { type: 'ErpRequestRefused', data: { ...of, requestKey: parentKey, operation: 'create-parent', message: 'PAN invalid' } };
    given([requested, submitted, refused])
      .when({ type: 'RequestParentCode', ba: verified }, asAccounts)
      .then([{ type: 'ParentCodeRequested', data: { ...of, requestKey: requestKeys.parent(BA, CC, 1) } }]);
  });
});

describe('rejection and re-request', () => {
  const rejected = (sendToBa: boolean): VendorCodeEvent => ({
    type: 'VendorCodeRequestRejected',
    data: { ...of, reasonId: 2, reason: reason.name, remarks: 'Cheque unreadable', sendToBa, rejectedBy: accounts.userId },
  });

  it('rejects an open request with the master’s reason, sent to the BA when asked', () => {
    given([requested, submitted]).when(reject(true), asAccounts).then([rejected(true)]);
    given([requested]).when(reject(false), asAccounts).then([rejected(false)]);
    const state = fold(decider, [requested, submitted, rejected(true)]);
    expect(vendorCodeStatus(state, [])).toBe('rejected');
    expect(state.rejection).toMatchObject({ sendToBa: true, reason: reason.name });
    expect(state.jobs).toEqual({});
  });

  it('a later request reopens it under the same ERP key (whatever the ERP made of the first is picked up)', () => {
    given([requested, submitted, rejected(true)]).when({ type: 'RequestParentCode', ba: verified }, asAccounts).then([requested]);
    const state = fold(decider, [requested, submitted, rejected(true), requested]);
    expect(vendorCodeStatus(state, [])).toBe('requested');
    expect(state.rejection).toBeNull();
    expect(state.jobs[parentKey]?.erpRequestId).toBeNull();
  });

  it('an ERP answer arriving after the rejection records nothing', () => {
    given([requested, submitted, rejected(false)])
      .when({ type: 'RecordErpOutcome', requestKey: parentKey, outcome: { kind: 'done', vendorCode: '1', message: '' }, retry }, asSystem)
      .thenNothing();
  });
});

describe('child codes, category and changes', () => {
  it('one child per GST row, with its GSTIN and payment term', () => {
    given(withParent).when({ type: 'RequestChildCode', stateId: 27, paymentTermsId: 4, paymentTerms: terms(), ba: verified }, asAccounts).then([childRequested(27)]);
    given([...withParent, childRequested(27)])
      .when({ type: 'RequestChildCode', stateId: 29, paymentTermsId: 4, paymentTerms: terms(), ba: verified }, asAccounts)
      .then([childRequested(29)]);
  });

  it('a category approved by someone else, then every GST state’s child: processed', () => {
    const approved: VendorCodeEvent = {
      type: 'VendorCategoryApproved',
      data: { ...of, requestKey: requestKeys.change(BA, CC, 'set-vendor-category', 1), approvedBy: head.userId },
    };
    given(withParent).when({ type: 'SetVendorCategory', vendorCategoryId: 1, vendorCategory: category, ba: verified }, asAccounts).then([categorySet]);
    given([...withParent, categorySet]).when({ type: 'ApproveVendorCategory', ba: verified }, metaFor(head)).then([approved]);
    const status = (events: VendorCodeEvent[]) => vendorCodeStatus(fold(decider, events), [27, 29]);
    expect(status([])).toBe('not-requested');
    expect(status([requested])).toBe('requested');
    expect(status(withParent)).toBe('verification-pending');
    expect(status([...withParent, categorySet])).toBe('verification-pending');
    expect(status([...withParent, categorySet, approved])).toBe('verified');
    expect(status([...withParent, categorySet, approved, childRequested(27), childAssigned(27)])).toBe('verified');
    expect(status([...withParent, categorySet, approved, childRequested(27), childAssigned(27), childRequested(29), childAssigned(29)])).toBe('processed');
  });

  it('a rejected category keeps the remarks and may be set again', () => {
    const rejected: VendorCodeEvent = { type: 'VendorCategoryRejected', data: { ...of, remarks: 'Not a broker', rejectedBy: head.userId } };
    given([...withParent, categorySet]).when({ type: 'RejectVendorCategory', remarks: 'Not a broker', ba: verified }, metaFor(head)).then([rejected]);
    given([...withParent, categorySet, rejected]).when({ type: 'SetVendorCategory', vendorCategoryId: 1, vendorCategory: category, ba: verified }, asAccounts).then([categorySet]);
  });

  it('payment terms, recon account and withholding tax each go to the ERP under their own key; the same value again records nothing', () => {
    const withChild = [...withParent, childRequested(27), childAssigned(27)];
    given(withChild)
      .when({ type: 'SetPaymentTerms', stateId: 27, paymentTermsId: 5, paymentTerms: terms(5), ba: verified }, asAccounts)
      .then([{ type: 'PaymentTermsSet', data: { ...of, requestKey: requestKeys.change(BA, CC, 'set-payment-terms', 1), stateId: 27, paymentTermsId: 5, paymentTermsCode: 'Z05' } }]);
    given(withChild).when({ type: 'SetPaymentTerms', stateId: 27, paymentTermsId: 4, paymentTerms: terms(4), ba: verified }, asAccounts).thenNothing();
    given(withParent)
      .when({ type: 'ChangeReconAccount', reconAccountId: 3, reconAccount: { id: 3, status: 'active', name: '31100030' }, ba: verified }, asAccounts)
      .then([{ type: 'ReconAccountChanged', data: { ...of, requestKey: requestKeys.change(BA, CC, 'change-recon-account', 1), reconAccountId: 3, reconAccount: '31100030' } }]);
    given(withParent)
      .when({ type: 'UpdateWithholdingTax', taxCodeId: 2, taxCode: { id: 2, status: 'active', taxType: 'WC', taxCode: 'C2' }, ba: verified }, asAccounts)
      .then([{ type: 'WithholdingTaxUpdated', data: { ...of, requestKey: requestKeys.change(BA, CC, 'update-withholding-tax', 1), taxCodeId: 2, taxType: 'WC', taxCode: 'C2' } }]);
  });
});
