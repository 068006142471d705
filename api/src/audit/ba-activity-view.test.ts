import type { ActivityRow } from '../../../projections/src/activity-log/activity-log.queries';
import { baViewOf, ORGANISATION } from './ba-activity-view';

const entry = (over: Partial<ActivityRow>): ActivityRow => ({
  id: 1,
  baId: 'ba-1',
  companyCode: '1000',
  at: '2026-11-20T10:00:00.000Z',
  actorUserId: 'u-procurement',
  actorName: 'Priya Procurement',
  role: 'MLL Procurement',
  action: 'Document Cancelled cheque rejected',
  status: 'rejected',
  changes: null,
  remarks: 'The cheque is unreadable',
  eventId: 'e-1',
  eventType: 'DocumentReviewed',
  streamVersion: 3,
  ...over,
});

describe("the BA's view of its activity log", () => {
  it.each([
    ['OnboardingRejected', 'Rejected at stage 2'],
    ['DocumentReviewed', 'Document Cancelled cheque rejected'],
    ['BankAccountReviewed', 'Bank account 9012 rejected'],
    ['ConcessionReviewed', 'Concession EX-1 rejected'],
    ['VerticalMappingReviewed', 'Vertical mapping rejected'],
    ['ChangeRequestRejected', 'Change request rejected'],
  ])('keeps the remarks of a rejection it must act on (%s), under the organisation’s name', (eventType, action) => {
    const seen = baViewOf(entry({ eventType, action }));
    expect(seen).toMatchObject({ remarks: 'The cheque is unreadable', actorName: ORGANISATION, actorUserId: '' });
  });

  it.each([
    ['DocumentReviewed', 'approved'],
    ['ReviewStageApproved', 'approved'],
    ['ChangeRequestApproved', 'approved'],
  ])('leaves out the internal remarks of an approval (%s)', (eventType, status) => {
    expect(baViewOf(entry({ eventType, status, remarks: 'Checked against the original' })).remarks).toBeNull();
  });

  it("keeps the BA's own entries whole", () => {
    const own = entry({ role: 'BA Admin', actorName: 'Ravi Sharma', actorUserId: 'u-ba', status: 'updated', remarks: 'note' });
    expect(baViewOf(own)).toEqual(own);
  });
});
