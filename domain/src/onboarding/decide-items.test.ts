import { fold } from '../shared/decider';
import { givenWhenThen } from '../shared/testing';
import { messages } from '../validation/fields';
import type { OnboardingCommand } from './commands';
import { onboardingDecider } from './decide';
import { itemRefusals, MAX_ADDITIONAL_BANK_ACCOUNTS } from './decide-items';
import type { OnboardingEvent } from './events';
import { itemMessages } from './items-schema';
import { itemsOf } from './state';
import {
  account,
  accountReviewed,
  accountSaved,
  additionalType,
  admin,
  as,
  auditor,
  baAdmin,
  baId,
  baUser,
  commercial,
  complete,
  concession,
  concessionReviewed,
  concessionSaved,
  created,
  detailsSaved,
  docReviewed,
  docType,
  document,
  docUploaded,
  file,
  gstRow,
  gstSaved,
  inReview,
  mapping,
  mappingReviewed,
  mappingSaved,
  operations,
  PAN,
  procurement,
  stageRejected,
  system,
  verifiedBa,
} from './testing';

const given = givenWhenThen(onboardingDecider);
const stateAfter = (events: OnboardingEvent[]) => fold(onboardingDecider, events);
const pending = [created, detailsSaved()];
const rejectedBa = [...inReview, stageRejected(1, procurement, 'Fix the cheque')];
const AT = procurement.at;

// Bank accounts ------------------------------------------------------------------------------------------------
const saveAccount = (accountId: string, input: unknown = account, primary = false): OnboardingCommand => ({
  type: 'SaveBankAccount',
  accountId,
  primary,
  account: input,
});
const other = { ...account, accountNo: '998877665544', bankName: 'ICICI Bank', ifscCode: 'ICIC0000001' };

describe('SaveBankAccount', () => {
  test('given no account, when the BA saves one, then it is the primary account, every field a change', () => {
    const changes = Object.fromEntries(Object.entries(account).filter(([, v]) => v !== null).map(([f, v]) => [f, { before: null, after: v }]));
    given(pending)
      .when(saveAccount('acc-1', { ...account, ifscCode: 'hdfc0001234', micrNo: '' }, true), baAdmin)
      .then([{ type: 'BankAccountSaved', data: { baId, accountId: 'acc-1', primary: true, account, changes } }]);
  });

  test('given a primary account, when another is saved, then it is additional', () => {
    const [event] = given([...pending, accountSaved()]).when(saveAccount('acc-2', other), baUser).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'BankAccountSaved', data: { accountId: 'acc-2', primary: false } });
  });

  test('given a primary account, when a new one claims to be primary, then conflict', () => {
    given([...pending, accountSaved()]).when(saveAccount('acc-2', other, true), baAdmin).thenError('conflict', { message: itemRefusals.primaryExists });
  });

  test('given an account, when saved unchanged, then nothing is recorded', () => {
    given([...pending, accountSaved()]).when(saveAccount('acc-1', account), baAdmin).thenNothing();
  });

  test('given an account, when one field changes, then only it carries before and after', () => {
    const [event] = given([...pending, accountSaved()]).when(saveAccount('acc-1', { ...account, bankBranch: 'Andheri' }), baAdmin)
      .result as OnboardingEvent[];
    expect(event?.data).toMatchObject({ changes: { bankBranch: { before: 'Fort, Mumbai', after: 'Andheri' } } });
    expect(Object.keys((event?.data as { changes: object }).changes)).toEqual(['bankBranch']);
  });

  test.each([
    ['accountNo', '12345678', messages.accountNumber],
    ['accountNo', '1234567890123456', messages.accountNumber],
    ['ifscCode', 'HDFC1001234', messages.ifsc],
    ['micrNo', '12345', messages.micr],
    ['accountName', '', messages.required],
    ['bankName', '=HYPERLINK()', messages.leadingCharacter],
  ])('when %s is %j, then validation on it', (field, value, message) => {
    given(pending).when(saveAccount('acc-1', { ...account, [field]: value }), baAdmin).thenError('validation', { errors: { [field]: message } });
  });

  test(`given ${MAX_ADDITIONAL_BANK_ACCOUNTS} additional accounts, when a sixth is added, then the rule refuses it`, () => {
    const five = [1, 2, 3, 4, 5].map((n) => accountSaved(`acc-x${n}`, false, { ...other, accountNo: `99887766554${n}` }));
    given([...pending, accountSaved(), ...five]).when(saveAccount('acc-6', other), baAdmin).thenError('rule', { message: itemRefusals.tooManyAccounts });
  });

  test.each([['MLL Procurement'], ['Auditor']])('when %s saves an account, then forbidden', (role) => {
    given(pending).when(saveAccount('acc-1'), as('u-x', role)).thenError('forbidden', { message: itemRefusals.baOnly });
  });

  test('given the application in review, when the BA saves an account, then the rule refuses it', () => {
    given(inReview).when(saveAccount('acc-1', other), baAdmin).thenError('rule', { message: itemRefusals.notEditable });
  });

  describe('after a rejection', () => {
    test('given the account was approved, when the BA changes it, then it is locked', () => {
      given([...rejectedBa.slice(0, -1), accountReviewed('acc-1', 'approved'), rejectedBa.at(-1)!])
        .when(saveAccount('acc-1', other), baAdmin)
        .thenError('rule', { message: 'This item was approved and cannot be changed' });
    });

    test('given the account was rejected, when the BA corrects it, then it is saved and its review starts over', () => {
      const history = [...rejectedBa.slice(0, -1), accountReviewed('acc-1', 'rejected', procurement, 'Wrong IFSC'), rejectedBa.at(-1)!];
      const [event] = given(history).when(saveAccount('acc-1', other), baAdmin).result as OnboardingEvent[];
      expect(event).toMatchObject({ type: 'BankAccountSaved', data: { accountId: 'acc-1', primary: true } });
      expect(itemsOf(stateAfter([...history, event!])).bankAccounts['acc-1']?.review.status).toBe('pending');
    });
  });

  test('given a verified BA, when it adds an additional account, then it is recorded; the primary changes by request only', () => {
    const [event] = given(verifiedBa).when(saveAccount('acc-2', other), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'BankAccountSaved', data: { primary: false } });
    given(verifiedBa).when(saveAccount('acc-1', other), baAdmin).thenError('rule');
  });
});

describe('DeleteBankAccount', () => {
  const del = (accountId: string): OnboardingCommand => ({ type: 'DeleteBankAccount', accountId });
  test('given an additional account, when deleted, then BankAccountDeleted', () => {
    given([...pending, accountSaved(), accountSaved('acc-2', false, other)]).when(del('acc-2'), baAdmin).then([
      { type: 'BankAccountDeleted', data: { baId, accountId: 'acc-2' } },
    ]);
  });
  test('given the primary account, when deleted, then the rule refuses it', () => {
    given([...pending, accountSaved()]).when(del('acc-1'), baAdmin).thenError('rule', { message: 'The primary bank account cannot be deleted' });
  });
  test('given no such account, then not_found', () => {
    given(pending).when(del('nope'), baAdmin).thenError('not_found', { message: itemRefusals.bankAccountNotFound });
  });
  test('given a place of business pays into the account, when deleted, then refused', () => {
    given([...pending, accountSaved(), accountSaved('acc-2', false, other), gstSaved('gst-27', { ...gstRow, bankAccountId: 'acc-2' })])
      .when(del('acc-2'), baAdmin)
      .thenError('rule', { message: itemRefusals.accountInUse });
  });
});

describe('ReviewBankAccount', () => {
  const review = (decision: 'approved' | 'rejected', remarks?: string | null): OnboardingCommand => ({ type: 'ReviewBankAccount', accountId: 'acc-1', decision, remarks });
  test.each([
    ['MLL Procurement', procurement],
    ['MLL Commercial', commercial],
    ['MLL-ADMIN', admin],
  ])('given the application in review, when %s approves the account, then it is approved at the decision time', (_l, meta) => {
    given(inReview).when(review('approved'), meta).then([accountReviewed('acc-1', 'approved', meta)]);
  });
  test('the review carries `at` = the command time', () => {
    const [event] = given(inReview).when(review('approved'), procurement).result as OnboardingEvent[];
    expect(event?.data).toMatchObject({ at: AT });
  });
  test.each([['MLL Operations'], ['MLL Accounts'], ['Auditor'], ['BA Admin'], ['system']])('when %s reviews, then forbidden', (role) => {
    given(inReview).when(review('approved'), as('u-x', role)).thenError('forbidden', { message: itemRefusals.notReviewer });
  });
  test('when rejected without remarks, then validation: remarks are required', () => {
    given(inReview).when(review('rejected', ' '), procurement).thenError('validation', { errors: { remarks: 'Remarks are required to reject' } });
  });
  test('when rejected with remarks, then rejected with them', () => {
    given(inReview).when(review('rejected', ' Wrong IFSC '), procurement).then([accountReviewed('acc-1', 'rejected', procurement, 'Wrong IFSC')]);
  });
  test('given the same verdict already recorded (a retry), then nothing', () => {
    given([...inReview, accountReviewed('acc-1', 'approved')]).when(review('approved'), procurement).thenNothing();
  });
  test('given the application not submitted, when reviewed, then the rule refuses it', () => {
    given(complete).when(review('approved'), procurement).thenError('rule', { message: itemRefusals.notReviewable });
  });
  test('given a verified BA, its additional account is reviewable, its primary one is not', () => {
    const history = [...verifiedBa, accountSaved('acc-2', false, other)];
    given(history).when({ type: 'ReviewBankAccount', accountId: 'acc-2', decision: 'approved' }, commercial).then([accountReviewed('acc-2', 'approved', commercial)]);
    given(history).when(review('rejected', 'x'), commercial).thenError('rule', { message: itemRefusals.notReviewable });
  });
});

// GST registrations ----------------------------------------------------------------------------------------------
const saveGst = (gstId: string, input: unknown, refs: Partial<Pick<Extract<OnboardingCommand, { type: 'SaveGstRegistration' }>, 'state' | 'city'>> = {}): OnboardingCommand => ({
  type: 'SaveGstRegistration',
  gstId,
  registration: input,
  ...refs,
});
const karnataka = { ...gstRow, stateId: 29, gstNo: `29${PAN}1Z5`, pinCode: '560058', cityId: 2901 };

describe('SaveGstRegistration', () => {
  test('given a BA with PAN, when a registered place of business in its state is saved, then recorded', () => {
    const [event] = given(pending).when(saveGst('gst-27', { ...gstRow, gstNo: gstRow.gstNo?.toLowerCase() }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'GstRegistrationSaved', data: { gstId: 'gst-27', registration: gstRow } });
  });

  test('given a row for Maharashtra, when a second row for Maharashtra is saved, then conflict', () => {
    given([...pending, gstSaved()]).when(saveGst('gst-2', gstRow), baAdmin).thenError('conflict', {
      message: 'A place of business for this state already exists',
    });
  });

  test('given a row for Maharashtra, when a row for Karnataka is saved, then recorded', () => {
    const [event] = given([...pending, gstSaved()]).when(saveGst('gst-29', karnataka), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'GstRegistrationSaved' });
  });

  test('when the GSTIN starts with another state code, then validation on gstNo', () => {
    given(pending).when(saveGst('gst-27', { ...gstRow, gstNo: `29${PAN}1Z5` }), baAdmin).thenError('validation', {
      errors: { gstNo: 'GSTIN does not match the selected state' },
    });
  });

  test("when the GSTIN carries another PAN, then validation on gstNo", () => {
    given(pending).when(saveGst('gst-27', { ...gstRow, gstNo: '27BBBCB9999X1Z5' }), baAdmin).thenError('validation', {
      errors: { gstNo: "GSTIN does not contain the company's PAN" },
    });
  });

  test('when the state master gives the GST code, then the GSTIN must start with it', () => {
    given(pending)
      .when(saveGst('gst-27', gstRow, { state: { id: 27, status: 'active', gstStateCode: '28' }, city: { id: 2701, status: 'active', stateId: 27 } }), baAdmin)
      .thenError('validation', { errors: { gstNo: itemMessages.gstinState } });
  });

  test.each([
    ['not registered with a GSTIN', { gstType: '0' }, { gstNo: itemMessages.gstNoNotRegistered }],
    ['registered without a GSTIN', { gstNo: '' }, { gstNo: itemMessages.gstNoRequired }],
    ['a composition dealer without a GSTIN', { gstType: '1', gstNo: null }, { gstNo: itemMessages.gstNoRequired }],
    ['an unknown GST type', { gstType: '7' }, { gstType: itemMessages.gstType }],
    ['a Delhi pincode', { pinCode: '110001' }, { pinCode: 'Pincode does not belong to the selected state' }],
    ['an address starting with #', { addressLine1: '#42, 2nd Main Road' }, { addressLine1: messages.addressHash }],
    ['a malformed GSTIN', { gstNo: '27ABC' }, { gstNo: messages.gstin }],
  ])('when %s, then validation names the field', (_label, change, errors) => {
    given(pending).when(saveGst('gst-27', { ...gstRow, ...change }), baAdmin).thenError('validation', { errors });
  });

  test('given not registered and no GSTIN, then recorded', () => {
    const [event] = given(pending).when(saveGst('gst-27', { ...gstRow, gstType: '0', gstNo: '' }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { registration: { gstType: '0', gstNo: null } } });
  });

  test.each([
    ['a city of another state', { city: { id: 2701, status: 'active' as const, stateId: 29 } }, { cityId: 'The city does not belong to the selected state' }],
    ['an inactive state', { state: { id: 27, status: 'inactive' as const } }, { stateId: 'Please select a state' }],
    ['an unknown city', { city: null }, { cityId: 'Please select a city' }],
  ])('given %s in the masters, then validation', (_label, refs, errors) => {
    given(pending).when(saveGst('gst-27', gstRow, refs), baAdmin).thenError('validation', { errors });
  });

  test('when it names a bank account the BA does not have, then validation on bankAccountId', () => {
    given(pending).when(saveGst('gst-27', { ...gstRow, bankAccountId: 'acc-9' }), baAdmin).thenError('validation', {
      errors: { bankAccountId: itemRefusals.unknownBankAccount },
    });
  });

  test('given a row, when saved unchanged, then nothing; when deleted, then GstRegistrationDeleted', () => {
    given([...pending, gstSaved()]).when(saveGst('gst-27', gstRow), baAdmin).thenNothing();
    given([...pending, gstSaved()]).when({ type: 'DeleteGstRegistration', gstId: 'gst-27' }, baAdmin).then([
      { type: 'GstRegistrationDeleted', data: { baId, gstId: 'gst-27' } },
    ]);
    given(pending).when({ type: 'DeleteGstRegistration', gstId: 'gst-27' }, baAdmin).thenError('not_found');
  });

  test('given the application in review, when a row is saved, then the rule refuses it', () => {
    given(inReview).when(saveGst('gst-29', karnataka), baAdmin).thenError('rule', { message: itemRefusals.notEditable });
  });
});

// Documents --------------------------------------------------------------------------------------------------
const upload = (docId: string, typeId: number, input: object = {}, type = docType(typeId)): OnboardingCommand => ({
  type: 'UploadDocument',
  docId,
  document: { documentTypeId: String(typeId), file: file(typeId), ...input },
  documentType: type,
});

describe('UploadDocument', () => {
  test('given a draft, when the PAN card is uploaded, then DocumentUploaded with the type name and uploader', () => {
    given(pending).when(upload('d1', 1), baAdmin).then([
      { type: 'DocumentUploaded', data: { baId, docId: 'd1', document: document(1), replaces: null, uploadedBy: 'u-ba-admin', role: 'BA Admin' } },
    ]);
  });

  test('when a type that needs a validity date comes without one, then "Please enter the validity date"', () => {
    given(pending).when(upload('d1', 7), baAdmin).thenError('validation', { errors: { validTill: 'Please enter the validity date' } });
  });

  test('when the validity date lies in the past, then validation; today is accepted', () => {
    given(pending).when(upload('d1', 7, { validTill: '2026-01-14' }), baAdmin).thenError('validation', { errors: { validTill: itemMessages.validTillPast } });
    const [event] = given(pending).when(upload('d1', 7, { validTill: '2026-01-15' }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { document: { validTill: '2026-01-15' } } });
  });

  test('when the validity date is no calendar date, then validation', () => {
    given(pending).when(upload('d1', 7, { validTill: '2026-02-30' }), baAdmin).thenError('validation', { errors: { validTill: messages.date } });
  });

  test('given a GST row for Maharashtra, a GST certificate needs its state', () => {
    const history = [...pending, gstSaved()];
    given(history).when(upload('d1', 2), baAdmin).thenError('validation', { errors: { stateId: itemRefusals.gstDocumentState } });
    given(history).when(upload('d1', 2, { stateId: 29 }), baAdmin).thenError('validation', { errors: { stateId: itemRefusals.gstDocumentState } });
    const [event] = given(history).when(upload('d1', 2, { stateId: '27' }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { document: { stateId: 27 } } });
  });

  test('a state given for a document that is no GST document is dropped', () => {
    const [event] = given(pending).when(upload('d1', 1, { stateId: 27 }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { document: { stateId: null } } });
  });

  test.each([
    ['an inactive type', { ...docType(1), status: 'inactive' as const }],
    ['another type than named', docType(3)],
    ['no type in the masters', null],
    ['an additional type for an onboarding upload', { ...additionalType, id: 1 }],
  ])('given %s, then validation on documentTypeId', (_label, type) => {
    given(pending).when(upload('d1', 1, {}, type as never), baAdmin).thenError('validation', { errors: { documentTypeId: itemMessages.documentTypeId } });
  });

  test('given a PAN card, when another PAN card is uploaded, then it replaces the first', () => {
    const history = [...pending, docUploaded('d1', document(1))];
    const [event] = given(history).when(upload('d2', 1), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { docId: 'd2', replaces: 'd1' } });
    expect(Object.keys(itemsOf(stateAfter([...history, event!])).documents)).toEqual(['d2']);
  });

  test('given a retried upload under the same id, then nothing; different content under that id, conflict', () => {
    const history = [...pending, docUploaded('d1', document(1))];
    given(history).when(upload('d1', 1), baAdmin).thenNothing();
    given(history).when(upload('d1', 1, { documentNumber: 'X1' }), baAdmin).thenError('conflict');
  });

  describe('after a rejection', () => {
    const history = [
      ...inReview,
      docReviewed('doc-pan', 'approved'),
      docReviewed('doc-cheque', 'rejected', procurement, null, 'Unreadable'),
      stageRejected(1, procurement, 'Fix the cheque'),
    ];
    test('given an approved document, when the BA replaces or deletes it, then it is locked', () => {
      given(history).when(upload('new-pan', 1), baAdmin).thenError('rule', { message: 'This item was approved and cannot be changed' });
      given(history).when({ type: 'DeleteDocument', docId: 'doc-pan' }, baAdmin).thenError('rule', { message: itemRefusals.locked });
    });
    test('given a rejected document, when the BA uploads a new one, then it replaces it', () => {
      const [event] = given(history).when(upload('new-cheque', 3), baAdmin).result as OnboardingEvent[];
      expect(event).toMatchObject({ data: { replaces: 'doc-cheque' } });
    });
  });

  test('given the application in review, when a document is uploaded, then the rule refuses it', () => {
    given(inReview).when(upload('d9', 4), baAdmin).thenError('rule', { message: itemRefusals.notEditable });
  });

  test('additional documents only once verified', () => {
    const additional = upload('a1', 2, { kind: 'additional', validTill: '2027-01-01' }, additionalType);
    given(pending).when(additional, baAdmin).thenError('rule', { message: itemRefusals.additionalOnlyVerified });
    const [event] = given(verifiedBa).when(additional, baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { document: { kind: 'additional', documentTypeName: 'ISO 9001 Certificate' } } });
  });

  test('given a verified BA, an onboarding document may be renewed but not added', () => {
    const [event] = given(verifiedBa).when(upload('rc-2', 6, { validTill: '2029-01-01' }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { replaces: 'doc-rc' } });
    given(verifiedBa).when(upload('inc', 4), baAdmin).thenError('rule', { message: itemRefusals.notEditable });
  });

  test('staff may not upload a BA document', () => {
    given(pending).when(upload('d1', 1), procurement).thenError('forbidden');
  });
});

describe('DeleteDocument', () => {
  test('given a draft, when a document is deleted, then DocumentDeleted; unknown: not_found', () => {
    const history = [...pending, docUploaded('d1', document(1))];
    given(history).when({ type: 'DeleteDocument', docId: 'd1' }, baAdmin).then([{ type: 'DocumentDeleted', data: { baId, docId: 'd1' } }]);
    given(history).when({ type: 'DeleteDocument', docId: 'd2' }, baAdmin).thenError('not_found', { message: itemRefusals.documentNotFound });
  });
});

describe('ReviewDocument', () => {
  const review = (docId: string, decision: 'approved' | 'rejected', extra: object = {}): OnboardingCommand => ({ type: 'ReviewDocument', docId, decision, ...extra });

  test('given a document with a validity date, when approved without approvedTill, then validation', () => {
    given(inReview).when(review('doc-rc', 'approved'), procurement).thenError('validation', { errors: { approvedTill: itemRefusals.approvedTillRequired } });
  });

  test('given a document with a validity date, when approved till a date, then that date is its validity', () => {
    given(inReview).when(review('doc-rc', 'approved', { approvedTill: '2027-06-30' }), procurement).then([docReviewed('doc-rc', 'approved', procurement, '2027-06-30')]);
    const after = stateAfter([...inReview, docReviewed('doc-rc', 'approved', procurement, '2027-06-30')]);
    expect(itemsOf(after).documents['doc-rc']?.document.validTill).toBe('2027-06-30');
  });

  test('when approvedTill lies in the past, then validation', () => {
    given(inReview).when(review('doc-rc', 'approved', { approvedTill: '2025-12-31' }), procurement).thenError('validation', {
      errors: { approvedTill: itemRefusals.approvedTillPast },
    });
  });

  test('when approvedTill is no date, then validation', () => {
    given(inReview).when(review('doc-rc', 'approved', { approvedTill: '31/12/2027' }), procurement).thenError('validation', {
      errors: { approvedTill: messages.date },
    });
  });

  test('given a document without a validity date, when approved, then approved without a date', () => {
    given(inReview).when(review('doc-pan', 'approved'), commercial).then([docReviewed('doc-pan', 'approved', commercial)]);
  });

  test('when rejected without remarks, then validation; with remarks, rejected', () => {
    given(inReview).when(review('doc-pan', 'rejected'), procurement).thenError('validation', { message: 'Remarks are required to reject' });
    given(inReview).when(review('doc-pan', 'rejected', { remarks: 'Blurred' }), procurement).then([docReviewed('doc-pan', 'rejected', procurement, null, 'Blurred')]);
  });

  test.each([['MLL Operations', operations], ['Auditor', auditor], ['BA Admin', baAdmin]])('when %s reviews, then forbidden', (_l, meta) => {
    given(inReview).when(review('doc-pan', 'approved'), meta).thenError('forbidden');
  });

  test('given a draft, when a document is reviewed, then the rule refuses it', () => {
    given(complete).when(review('doc-pan', 'approved'), procurement).thenError('rule', { message: itemRefusals.notReviewable });
  });

  test('given a verified BA, its pending additional document is reviewable', () => {
    const history = [...verifiedBa, docUploaded('a1', { ...document(1), kind: 'additional', documentTypeId: 2, documentTypeName: 'ISO 9001 Certificate', validTill: '2027-01-01' })];
    given(history).when(review('a1', 'approved', { approvedTill: '2027-01-01' }), admin).then([docReviewed('a1', 'approved', admin, '2027-01-01')]);
  });
});

describe('document expiry', () => {
  const approvedRc = [...inReview, docReviewed('doc-rc', 'approved', procurement, '2027-12-31')];
  const expiring = (daysBefore: number, validTill = '2027-12-31'): OnboardingCommand => ({ type: 'MarkDocumentExpiring', docId: 'doc-rc', validTill, daysBefore });
  const expired = (validTill = '2027-12-31'): OnboardingCommand => ({ type: 'MarkDocumentExpired', docId: 'doc-rc', validTill });
  const reminded = (daysBefore: number): OnboardingEvent => ({
    type: 'DocumentExpiryReminded',
    data: { baId, docId: 'doc-rc', documentTypeName: 'Vehicle Registration Certificate (RC)', validTill: '2027-12-31', daysBefore },
  });
  const expiredEvent: OnboardingEvent = {
    type: 'DocumentExpired',
    data: { baId, docId: 'doc-rc', documentTypeName: 'Vehicle Registration Certificate (RC)', validTill: '2027-12-31' },
  };

  test('given an approved document, the reminder for 30 days before is recorded once', () => {
    given(approvedRc).when(expiring(30), system).then([reminded(30)]);
    given([...approvedRc, reminded(30)]).when(expiring(30), system).thenNothing();
    given([...approvedRc, reminded(30)]).when(expiring(7), system).then([reminded(7)]);
  });

  test('given an approved document, it expires once', () => {
    given(approvedRc).when(expired(), system).then([expiredEvent]);
    given([...approvedRc, expiredEvent]).when(expired(), system).thenNothing();
    expect(itemsOf(stateAfter([...approvedRc, expiredEvent])).documents['doc-rc']?.expired).toBe(true);
  });

  test.each([
    ['the document is not approved', inReview, expired()],
    ['the date changed since the timer started', approvedRc, expired('2027-06-30')],
    ['the document was replaced', [...approvedRc, { type: 'DocumentDeleted', data: { baId, docId: 'doc-rc' } } as OnboardingEvent], expired()],
    ['a reminder for an old date', approvedRc, expiring(7, '2027-06-30')],
  ])('given %s, then a late timer records nothing', (_l, history, command) => {
    given(history).when(command, system).thenNothing();
  });

  test('given a document approved again with a new date, its reminders and expiry start over', () => {
    const redated = docReviewed('doc-rc', 'approved', procurement, '2028-12-31');
    const history = [...approvedRc, reminded(30), expiredEvent, redated];
    expect(itemsOf(stateAfter(history)).documents['doc-rc']).toMatchObject({ expired: false, remindedDays: [] });
    given(history)
      .when(expiring(30, '2028-12-31'), system)
      .then([{ ...reminded(30), data: { ...reminded(30).data, validTill: '2028-12-31' } } as OnboardingEvent]);
  });

  test('only the system marks expiry', () => {
    given(approvedRc).when(expired(), procurement).thenError('forbidden');
  });
});

// Concessions --------------------------------------------------------------------------------------------------
const { file: _file, isInternalUpload: _internal, ...concessionFields } = concession;
const saveConcession = (concessionId: string, input: object, withFile = true): OnboardingCommand => ({
  type: 'SaveConcession',
  concessionId,
  concession: { ...concessionFields, ...(withFile ? { file: concession.file } : {}), ...input },
  exemptionReason: { id: 1, status: 'active' },
});

describe('SaveConcession', () => {
  test('given a draft, when the BA saves a concession, then it is the BA upload', () => {
    const [event] = given(pending).when(saveConcession('c1', {}), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'ConcessionSaved', data: { concessionId: 'c1', concession: { ...concession, isInternalUpload: false } } });
  });

  test.each([['in review', inReview], ['verified', verifiedBa]])('given the BA %s, when a reviewer uploads one on its behalf, then it is internal', (_l, history) => {
    const [event] = given(history).when(saveConcession('c1', {}), procurement).result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { concession: { isInternalUpload: true } } });
  });

  test('given a verified BA, the BA may add a concession; in review it may not', () => {
    expect(given(verifiedBa).when(saveConcession('c1', {}), baAdmin).result).toHaveLength(1);
    given(inReview).when(saveConcession('c1', {}), baAdmin).thenError('rule', { message: itemRefusals.notEditable });
  });

  test.each([
    ['the period ends before it starts', { exemptionFrom: '2027-04-01', exemptionTo: '2027-03-31' }, { exemptionTo: itemMessages.exemptionPeriod }],
    ['a rate above 100', { exemptionRate: '100.5' }, { exemptionRate: itemMessages.exemptionRate }],
    ['a rate with 3 decimals', { exemptionRate: '1.255' }, { exemptionRate: messages.amount }],
    ['a negative threshold', { exemptionThreshold: '-1' }, { exemptionThreshold: messages.amount }],
    ['no exemption number', { exemptionNumber: '' }, { exemptionNumber: messages.required }],
  ])('when %s, then validation', (_label, change, errors) => {
    given(pending).when(saveConcession('c1', change), baAdmin).thenError('validation', { errors });
  });

  test('a rate of 100 and a one-day period are accepted', () => {
    const result = given(pending).when(saveConcession('c1', { exemptionRate: '100', exemptionTo: '2026-04-01' }), baAdmin).result;
    expect(result).toHaveLength(1);
  });

  test('a new concession needs its certificate; an update may keep it', () => {
    given(pending).when(saveConcession('c1', {}, false), baAdmin).thenError('validation', { errors: { file: 'Please choose a file' } });
    const [event] = given([...pending, concessionSaved()]).when(saveConcession('con-1', { exemptionRate: '2' }, false), baAdmin)
      .result as OnboardingEvent[];
    expect(event).toMatchObject({ data: { concession: { exemptionRate: '2', file: concession.file }, changes: { exemptionRate: { before: '1.5', after: '2' } } } });
  });

  test('given an inactive exemption reason, then validation', () => {
    given(pending)
      .when({ ...saveConcession('c1', {}), exemptionReason: { id: 1, status: 'inactive' } } as OnboardingCommand, baAdmin)
      .thenError('validation', { errors: { exemptionReasonId: itemMessages.exemptionReasonId } });
  });

  test('reviewers approve and reject concessions (remarks to reject)', () => {
    const history = [...inReview, concessionSaved()];
    given(history).when({ type: 'ReviewConcession', concessionId: 'con-1', decision: 'approved' }, commercial).then([concessionReviewed('con-1', 'approved', commercial)]);
    given(history).when({ type: 'ReviewConcession', concessionId: 'con-1', decision: 'rejected' }, commercial).thenError('validation');
    given(history).when({ type: 'ReviewConcession', concessionId: 'con-9', decision: 'approved' }, commercial).thenError('not_found');
  });
});

// Vertical mapping ---------------------------------------------------------------------------------------------
describe('SaveVerticalMapping', () => {
  const save = (input: unknown, references?: Record<string, { id: number; status: 'active' | 'inactive' }[]>): OnboardingCommand => ({
    type: 'SaveVerticalMapping',
    mapping: input,
    ...(references ? { references } : {}),
  });
  test('given a draft, when saved with ids as strings, then recorded as numbers without duplicates', () => {
    const [event] = given(pending).when(save({ ...mapping, verticalIds: ['1', 1], vehicleTypeIds: ['2'] }), baAdmin).result as OnboardingEvent[];
    expect(event).toMatchObject({ type: 'VerticalMappingSaved', data: { mapping } });
  });
  test('when no vertical is chosen, then validation', () => {
    given(pending).when(save({ ...mapping, verticalIds: [] }), baAdmin).thenError('validation', { errors: { verticalIds: itemMessages.verticalsRequired } });
  });
  test('when an id is not an active master item, then validation on that list', () => {
    given(pending)
      .when(save(mapping, { verticalIds: [{ id: 1, status: 'active' }], vehicleTypeIds: [{ id: 2, status: 'inactive' }] }), baAdmin)
      .thenError('validation', { errors: { vehicleTypeIds: itemMessages.masterIds } });
  });
  test('given a mapping, when saved unchanged, then nothing', () => {
    given([...pending, mappingSaved()]).when(save(mapping), baAdmin).thenNothing();
  });
  test('given an approved mapping after a rejection, then it is locked', () => {
    given([...inReview, mappingReviewed('approved'), stageRejected(1, procurement, 'x')])
      .when(save({ ...mapping, zoneIds: [3] }), baAdmin)
      .thenError('rule', { message: itemRefusals.locked });
  });
  test('reviewers reject the mapping with remarks', () => {
    given(inReview).when({ type: 'ReviewVerticalMapping', decision: 'rejected', remarks: 'Add zones' }, procurement).then([mappingReviewed('rejected', procurement, 'Add zones')]);
    given(inReview).when({ type: 'ReviewVerticalMapping', decision: 'rejected' }, procurement).thenError('validation');
  });
});

describe('given a BA that does not exist', () => {
  test.each<[string, OnboardingCommand]>([
    ['SaveBankAccount', saveAccount('a')],
    ['UploadDocument', upload('d', 1)],
    ['ReviewDocument', { type: 'ReviewDocument', docId: 'd', decision: 'approved' }],
    ['MarkDocumentExpired', { type: 'MarkDocumentExpired', docId: 'd', validTill: '2027-01-01' }],
  ])('when %s is sent, then not_found', (_l, command) => {
    given([]).when(command, command.type.startsWith('Review') ? procurement : command.type.startsWith('Mark') ? system : baAdmin).thenError('not_found');
  });
});
