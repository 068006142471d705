import { documentValidity } from './performance.queries';

const doc = (validTill: string | null, over: { expired?: boolean; reviewStatus?: 'pending' | 'approved' | 'rejected' } = {}) => ({
  validTill,
  expired: over.expired ?? false,
  reviewStatus: over.reviewStatus ?? 'approved',
});

describe('documentValidity', () => {
  it('sorts current documents into valid, expiring within 30 days and expired; rejected ones are left out', () => {
    expect(
      documentValidity(
        [
          doc(null),
          doc('2027-06-30'),
          doc('2026-12-26'), // exactly 30 days ahead: expiring
          doc('2026-12-27'), // 31 days: valid
          doc('2026-11-26'), // today: expiring, not yet expired
          doc('2026-11-25'), // yesterday: expired
          doc('2027-01-31', { expired: true }), // marked expired by the timer
          doc('2026-12-01', { reviewStatus: 'rejected' }),
          doc('2026-12-01', { reviewStatus: 'pending' }),
        ],
        '2026-11-26',
      ),
    ).toEqual({ valid: 3, expiring: 3, expired: 2 });
  });
});
