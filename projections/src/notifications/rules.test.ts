import type { OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { evolveSubject, onboardingNotifications, type BaSubject, type NotificationRequest } from './rules';

const file = { name: 'pan.pdf', size: 10, type: 'application/pdf', sha256: 'x' };
let position = 0;

/** The stored envelope of an event, acted by `actorId`. */
const stored = (event: OnboardingEvent, actorId = 'u-procurement'): StoredEvent => {
  position += 1;
  return {
    eventId: `e${position}`,
    type: event.type,
    data: event.data,
    metadata: {
      actor: { userId: actorId, role: 'MLL Procurement' },
      companyCode: '1000',
      correlationId: 'c',
      causationId: null,
      workflowId: null,
      requestId: null,
      at: '2026-11-26T04:30:00.000Z',
    },
    streamId: 'ba-b1',
    version: position,
    globalPosition: position,
    recordedAt: '2026-11-26T04:30:00.000Z',
    prevHash: '',
    hash: '',
  };
};

const start: BaSubject = {
  baId: 'b1',
  companyCode: '1000',
  companyName: 'Sharma Roadways',
  stage1ApprovedBy: null,
  labels: {},
  version: 0,
};

/** Folds the events like the projection does and returns every notification asked for. */
function run(events: { event: OnboardingEvent; actor?: string }[], subject = start): NotificationRequest[] {
  const out: NotificationRequest[] = [];
  let s = subject;
  for (const { event, actor } of events) {
    out.push(...onboardingNotifications(stored(event, actor), event, s));
    s = evolveSubject(s, event);
  }
  return out;
}

const BA_ROLES = ['BA Admin', 'BA User'];
const STAGE_1 = ['MLL Procurement', 'MLL-ADMIN'];
const STAGE_2 = ['MLL Commercial', 'MLL Accounts_HEAD', 'MLL-ADMIN'];
const review = { remarks: null, reviewedBy: 'u-procurement', role: 'MLL Procurement', at: '2026-11-26T04:30:00.000Z' };

const uploaded = (docId: string, name: string, replaces: string | null = null): OnboardingEvent => ({
  type: 'DocumentUploaded',
  data: {
    baId: 'b1',
    docId,
    replaces,
    uploadedBy: 'ba-user',
    role: 'BA Admin',
    document: { kind: 'onboarding', documentTypeId: 1, documentTypeName: name, documentNumber: null, validTill: '2027-01-31', stateId: null, file },
  },
});

describe('notification rules of the onboarding items (issue 8)', () => {
  test('a document verdict names the document to the BA’s users: approved with its date, rejected with the remarks', () => {
    const notes = run([
      { event: uploaded('d1', 'PAN Card'), actor: 'ba-user' },
      { event: { type: 'DocumentReviewed', data: { baId: 'b1', docId: 'd1', decision: 'approved', approvedTill: '2027-01-31', ...review } } },
      { event: { type: 'DocumentReviewed', data: { baId: 'b1', docId: 'd1', decision: 'rejected', approvedTill: null, ...review, remarks: 'Blurred scan' } } },
    ]);
    expect(notes.map((n) => [n.kind, n.body, n.audience.roles, n.audience.baId])).toEqual([
      ['document.approved', 'Your PAN Card was approved, valid till 31-Jan-2027.', BA_ROLES, 'b1'],
      ['document.rejected', 'Your PAN Card was rejected: Blurred scan', BA_ROLES, 'b1'],
    ]);
    // The reviewer who decided is never told about their own decision.
    expect(notes[0]?.audience.exclude).toEqual(['u-procurement']);
  });

  test('a replaced document is named by its new upload; a deleted one is forgotten', () => {
    let s = evolveSubject(start, uploaded('d1', 'PAN Card'));
    s = evolveSubject(s, uploaded('d2', 'PAN Card (renewed)', 'd1'));
    expect(s.labels).toEqual({ 'doc:d2': 'PAN Card (renewed)' });
    s = evolveSubject(s, { type: 'DocumentDeleted', data: { baId: 'b1', docId: 'd2' } });
    expect(s.labels).toEqual({});
  });

  test('bank account, concession and vertical mapping verdicts go to the BA’s users with the item named', () => {
    const notes = run([
      {
        event: {
          type: 'BankAccountSaved',
          data: {
            baId: 'b1',
            accountId: 'a1',
            primary: true,
            changes: {},
            account: { accountNo: '001234567890', ifscCode: 'HDFC0000001', micrNo: null, accountName: 'Sharma', bankName: 'HDFC', bankBranch: 'Fort' },
          },
        },
        actor: 'ba-user',
      },
      { event: { type: 'BankAccountReviewed', data: { baId: 'b1', accountId: 'a1', decision: 'rejected', ...review, remarks: 'Cheque unreadable' } } },
      {
        event: {
          type: 'ConcessionSaved',
          data: {
            baId: 'b1',
            concessionId: 'c1',
            changes: {},
            concession: {
              exemptionNumber: 'LDC-77',
              exemptionRate: '1',
              exemptionFrom: '2026-04-01',
              exemptionTo: '2027-03-31',
              exemptionReasonId: 1,
              exemptionThreshold: '100000',
              withHoldingTaxType: 'T1',
              withHoldingTaxCode: 'C1',
              sectionCode: '194C',
              file,
              isInternalUpload: false,
            },
          },
        },
        actor: 'ba-user',
      },
      { event: { type: 'ConcessionReviewed', data: { baId: 'b1', concessionId: 'c1', decision: 'approved', ...review } } },
      { event: { type: 'VerticalMappingReviewed', data: { baId: 'b1', decision: 'rejected', ...review, remarks: 'Add the pickup zones' } } },
    ]);
    expect(notes.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['bank-account.rejected', 'Bank account rejected', 'Your bank account ending 7890 was rejected: Cheque unreadable'],
      ['concession.approved', 'Concession approved', 'Your concession certificate LDC-77 was approved.'],
      ['vertical-mapping.rejected', 'Vertical mapping rejected', 'Your vertical mapping was rejected: Add the pickup zones'],
    ]);
    expect(notes.every((n) => n.audience.baId === 'b1' && n.link === '/onboard/status')).toBe(true);
  });

  test('expiry reminders and the expiry go to the BA’s users and to the stage-1 reviewers of its company code', () => {
    const notes = run([
      {
        event: { type: 'DocumentExpiryReminded', data: { baId: 'b1', docId: 'd1', documentTypeName: 'GST Certificate', validTill: '2027-01-31', daysBefore: 7 } },
        actor: 'system',
      },
      { event: { type: 'DocumentExpired', data: { baId: 'b1', docId: 'd1', documentTypeName: 'GST Certificate', validTill: '2027-01-31' } }, actor: 'system' },
    ]);
    expect(notes.map((n) => [n.kind, n.audience.roles, n.audience.baId, n.audience.companyCode])).toEqual([
      ['document.expiring', BA_ROLES, 'b1', null],
      ['document.expiring', STAGE_1, null, '1000'],
      ['document.expired', BA_ROLES, 'b1', null],
      ['document.expired', STAGE_1, null, '1000'],
    ]);
    expect(notes[0]?.body).toContain('Your GST Certificate expires on 31-Jan-2027');
    expect(notes[1]?.body).toBe('Sharma Roadways: GST Certificate expires on 31-Jan-2027.');
    expect(notes[2]?.body).toContain('Your GST Certificate was valid till 31-Jan-2027 and has expired');
  });

  test('a bank change: reviewers asked, payments held, second approver asked (not the first), approval and release told to the BA', () => {
    const notes = run([
      {
        event: { type: 'ChangeRequestRaised', data: { baId: 'b1', requestId: 'r1', section: 'bank', proposed: {}, changes: {} } },
        actor: 'ba-admin',
      },
      { event: { type: 'PaymentsHeld', data: { baId: 'b1', reason: 'Bank account change', changeRequestId: 'r1' } }, actor: 'ba-admin' },
      {
        event: { type: 'ChangeRequestApproved', data: { baId: 'b1', requestId: 'r1', approvedBy: 'u-procurement', role: 'MLL Procurement', at: 'x', final: false } },
      },
      {
        event: { type: 'ChangeRequestApproved', data: { baId: 'b1', requestId: 'r1', approvedBy: 'u-commercial', role: 'MLL Commercial', at: 'x', final: true } },
        actor: 'u-commercial',
      },
      { event: { type: 'PaymentsReleased', data: { baId: 'b1', changeRequestId: 'r1' } }, actor: 'u-commercial' },
    ]);
    expect(notes.map((n) => [n.kind, n.audience.roles, n.audience.baId])).toEqual([
      ['change-request.raised', STAGE_1, null],
      ['payments.held', BA_ROLES, 'b1'],
      ['change-request.first-approved', STAGE_2, null],
      ['change-request.approved', BA_ROLES, 'b1'],
      ['payments.released', BA_ROLES, 'b1'],
    ]);
    expect(notes[0]?.body).toBe('Sharma Roadways asked to change its bank account; its payments are on hold until the change is decided.');
    expect(notes[2]?.audience.exclude).toContain('u-procurement');
    expect(notes[3]?.body).toBe('Your change to the bank account was approved and now applies.');
  });

  test('a rejected company change tells the BA’s users why, and the request is forgotten once decided', () => {
    const raised: OnboardingEvent = {
      type: 'ChangeRequestRaised',
      data: { baId: 'b1', requestId: 'r2', section: 'company', proposed: {}, changes: {} },
    };
    const rejected: OnboardingEvent = {
      type: 'ChangeRequestRejected',
      data: { baId: 'b1', requestId: 'r2', remarks: 'The new address has no proof', rejectedBy: 'u-procurement', role: 'MLL Procurement' },
    };
    const notes = run([{ event: raised, actor: 'ba-admin' }, { event: rejected }]);
    expect(notes.map((n) => [n.kind, n.body])).toEqual([
      ['change-request.raised', 'Sharma Roadways asked to change its company details.'],
      ['change-request.rejected', 'Your change to the company details was rejected: The new address has no proof'],
    ]);
    expect(evolveSubject(evolveSubject(start, raised), rejected).labels).toEqual({});
  });

  test('saving items tells nobody', () => {
    expect(run([{ event: uploaded('d9', 'PAN Card'), actor: 'ba-user' }])).toEqual([]);
  });
});
