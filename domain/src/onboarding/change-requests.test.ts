import { fold } from '../shared/decider';
import { givenWhenThen } from '../shared/testing';
import { messages } from '../validation/fields';
import { changeRequestMessages } from './change-requests';
import type { OnboardingCommand } from './commands';
import { onboardingDecider } from './decide';
import type { OnboardingEvent } from './events';
import { itemsOf } from './state';
import { account, accountsHead, admin, as, baAdmin, baId, baUser, commercial, complete, procurement, verifiedBa } from './testing';

const given = givenWhenThen(onboardingDecider);
const stateAfter = (events: OnboardingEvent[]) => fold(onboardingDecider, events);

const raise = (requestId: string, section: 'company' | 'bank', proposed: unknown): OnboardingCommand => ({
  type: 'RaiseChangeRequest',
  requestId,
  section,
  proposed,
});
const approve = (requestId = 'cr-1'): OnboardingCommand => ({ type: 'ApproveChangeRequest', requestId });
const reject = (requestId = 'cr-1', remarks?: string): OnboardingCommand => ({ type: 'RejectChangeRequest', requestId, remarks });
const newAccount = { ...account, accountNo: '555566667777', ifscCode: 'SBIN0000300', bankName: 'State Bank of India', bankBranch: 'Nariman Point' };

const bankRaised: OnboardingEvent = {
  type: 'ChangeRequestRaised',
  data: {
    baId,
    requestId: 'cr-1',
    section: 'bank',
    proposed: newAccount,
    changes: {
      accountNo: { before: account.accountNo, after: newAccount.accountNo },
      ifscCode: { before: account.ifscCode, after: newAccount.ifscCode },
      bankName: { before: account.bankName, after: newAccount.bankName },
      bankBranch: { before: account.bankBranch, after: newAccount.bankBranch },
    },
  },
};
const held: OnboardingEvent = { type: 'PaymentsHeld', data: { baId, reason: 'Bank account change awaiting approval', changeRequestId: 'cr-1' } };
const releasedEvent: OnboardingEvent = { type: 'PaymentsReleased', data: { baId, changeRequestId: 'cr-1' } };
const approvedBy = (meta: typeof admin, final: boolean): OnboardingEvent => ({
  type: 'ChangeRequestApproved',
  data: { baId, requestId: 'cr-1', approvedBy: meta.actor.userId, role: meta.actor.role, at: meta.at, final },
});

describe('RaiseChangeRequest', () => {
  test('given a verified BA, when its admin asks for a new bank account, then the request is raised and payments held', () => {
    given(verifiedBa).when(raise('cr-1', 'bank', { ...newAccount, ifscCode: 'sbin0000300' }), baAdmin).then([bankRaised, held]);
    expect(itemsOf(stateAfter([...verifiedBa, bankRaised, held])).paymentsHeldFor).toBe('cr-1');
  });

  test('given a verified BA, when its admin changes the contact person, then only that field is proposed', () => {
    given(verifiedBa)
      .when(raise('cr-2', 'company', { contactPersonName: 'Asha Rao', contactPersonMobileNumber: '9876543210' }), baAdmin)
      .then([
        {
          type: 'ChangeRequestRaised',
          data: {
            baId,
            requestId: 'cr-2',
            section: 'company',
            proposed: { contactPersonName: 'Asha Rao' },
            changes: { contactPersonName: { before: 'Ravi Kumar', after: 'Asha Rao' } },
          },
        },
      ]);
  });

  test.each([
    ['a BA User', baUser, verifiedBa, 'forbidden'],
    ['staff', admin, verifiedBa, 'forbidden'],
    ['an unverified BA', baAdmin, complete, 'rule'],
  ] as const)('%s may not raise one', (_l, meta, history, code) => {
    given([...history]).when(raise('cr-1', 'bank', newAccount), meta).thenError(code);
  });

  test('the proposal is checked by the field rules of its section', () => {
    given(verifiedBa).when(raise('cr-1', 'bank', { ...newAccount, accountNo: '12' }), baAdmin).thenError('validation', {
      errors: { accountNo: messages.accountNumber },
    });
    given(verifiedBa).when(raise('cr-1', 'company', { ownFleet: '-5' }), baAdmin).thenError('validation', {
      errors: { ownFleet: messages.fleetSize },
    });
    given(verifiedBa).when(raise('cr-1', 'company', { pinCode: '110001' }), baAdmin).thenError('validation', {
      errors: { pinCode: 'Pincode does not belong to the selected state' },
    });
    given(verifiedBa).when(raise('cr-1', 'company', { companyName: '' }), baAdmin).thenError('validation', {
      errors: { companyName: messages.required },
    });
  });

  test('a proposal that changes nothing is refused', () => {
    given(verifiedBa).when(raise('cr-1', 'bank', account), baAdmin).thenError('rule', { message: changeRequestMessages.nothingChanged });
  });

  test('one open request per section', () => {
    const open = [...verifiedBa, bankRaised, held];
    given(open).when(raise('cr-9', 'bank', { ...newAccount, accountNo: '999988887777' }), baAdmin).thenError('conflict', {
      message: changeRequestMessages.alreadyOpen,
    });
    expect(given(open).when(raise('cr-9', 'company', { contactPersonName: 'Asha Rao' }), baAdmin).result).toHaveLength(1);
    given(open).when(raise('cr-1', 'bank', newAccount), baAdmin).thenNothing();
  });
});

describe('approving a bank change: two different people, the second with a stage 2 role', () => {
  const raised = [...verifiedBa, bankRaised, held];

  test('given a raised request, the first approval is not final and payments stay held', () => {
    given(raised).when(approve(), procurement).then([approvedBy(procurement, false)]);
    const after = stateAfter([...raised, approvedBy(procurement, false)]);
    expect(itemsOf(after).changeRequests['cr-1']?.status).toBe('first-approved');
    expect(itemsOf(after).paymentsHeldFor).toBe('cr-1');
  });

  test('given the first approval, the same person may not approve again', () => {
    given([...raised, approvedBy(admin, false)]).when(approve(), admin).thenError('rule', { message: changeRequestMessages.secondApproverSamePerson });
  });

  test('given the first approval, a second approver without a stage 2 role is refused', () => {
    given([...raised, approvedBy(procurement, false)])
      .when(approve(), as('u-procurement-2', 'MLL Procurement'))
      .thenError('forbidden', { message: changeRequestMessages.secondApproverRole });
  });

  test('given the first approval, a stage 2 reviewer approves finally: the account changes and payments are released', () => {
    const first = [...raised, approvedBy(procurement, false)];
    given(first).when(approve(), accountsHead).then([approvedBy(accountsHead, true), releasedEvent]);
    const after = stateAfter([...first, approvedBy(accountsHead, true), releasedEvent]);
    const primary = Object.values(itemsOf(after).bankAccounts).find((a) => a.primary);
    expect(primary?.account).toEqual(newAccount);
    expect(itemsOf(after).paymentsHeldFor).toBeNull();
    expect(itemsOf(after).changeRequests['cr-1']?.status).toBe('approved');
  });

  test('a rejection ends it and releases payments; remarks required', () => {
    given(raised).when(reject('cr-1'), commercial).thenError('validation', { message: 'Remarks are required to reject' });
    given(raised)
      .when(reject('cr-1', 'Cheque does not match'), commercial)
      .then([
        { type: 'ChangeRequestRejected', data: { baId, requestId: 'cr-1', remarks: 'Cheque does not match', rejectedBy: 'u-commercial', role: 'MLL Commercial' } },
        releasedEvent,
      ]);
  });

  test('a decided request cannot be decided again', () => {
    const done = [...raised, approvedBy(procurement, false), approvedBy(accountsHead, true), releasedEvent];
    given(done).when(approve(), admin).thenError('conflict', { message: changeRequestMessages.alreadyDecided });
    given(done).when(reject('cr-1', 'x'), admin).thenError('conflict');
  });

  test.each([['MLL Operations'], ['Auditor'], ['BA Admin']])('%s may not decide change requests', (role) => {
    given(raised).when(approve(), as('u-x', role)).thenError('forbidden', { message: changeRequestMessages.notReviewer });
  });

  test('an unknown request: not_found', () => {
    given(raised).when(approve('cr-404'), admin).thenError('not_found', { message: changeRequestMessages.notFound });
  });
});

describe('approving a company change: one reviewer', () => {
  const companyRaised: OnboardingEvent = {
    type: 'ChangeRequestRaised',
    data: {
      baId,
      requestId: 'cr-1',
      section: 'company',
      proposed: { contactPersonName: 'Asha Rao' },
      changes: { contactPersonName: { before: 'Ravi Kumar', after: 'Asha Rao' } },
    },
  };
  test('given a raised company change, one approval is final and applies it; no payments were held', () => {
    given([...verifiedBa, companyRaised]).when(approve(), procurement).then([approvedBy(procurement, true)]);
    const after = stateAfter([...verifiedBa, companyRaised, approvedBy(procurement, true)]);
    expect(after.details?.contactPersonName).toBe('Asha Rao');
  });

  test('the messages the API answers with', () => {
    expect(changeRequestMessages.approved).toBe('Change request approved successfully');
    expect(changeRequestMessages.rejected).toBe('Change request rejected successfully');
  });
});
