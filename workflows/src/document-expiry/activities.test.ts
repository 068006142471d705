import { initialState, type OnboardingState } from '../../../domain/src/onboarding/state';
import { PENDING_REVIEW, type BaDocument } from '../../../domain/src/onboarding/items';
import { expiryCommand, expiryRequestId, whyNotWatched } from './activities';

const document: BaDocument = {
  kind: 'onboarding',
  documentTypeId: 6,
  documentTypeName: 'Insurance',
  documentNumber: null,
  validTill: '2027-01-31',
  stateId: null,
  file: { name: 'p.pdf', size: 1, type: 'application/pdf', sha256: 'a'.repeat(64) },
};
const approved = { ...PENDING_REVIEW, status: 'approved' as const };
const withDocument = (entry: Partial<NonNullable<OnboardingState['documents']>[string]>): OnboardingState => ({
  ...initialState,
  status: 'verified',
  documents: { d1: { document, review: approved, expired: false, remindedDays: [], ...entry } },
});

describe('document expiry activity', () => {
  test('request ids are stable per document, date and step, so a retry is the same update and a re-dating is not', () => {
    const base = { docId: 'd1', validTill: '2027-01-31', round: 0 };
    expect(expiryRequestId({ ...base, daysBefore: 7 })).toBe('expiry:d1:2027-01-31:7');
    expect(expiryRequestId({ ...base, daysBefore: null })).toBe('expiry:d1:2027-01-31:expired');
    expect(expiryRequestId({ ...base, validTill: '2027-03-31', daysBefore: 7 })).not.toBe(expiryRequestId({ ...base, daysBefore: 7 }));
    // After the lifecycle failed a command for good, the timer asks under a new id (the decider dedupes).
    expect(expiryRequestId({ ...base, daysBefore: 7, round: 2 })).toBe('expiry:d1:2027-01-31:7:r2');
  });

  test('a step becomes the matching system command', () => {
    expect(expiryCommand({ docId: 'd1', validTill: '2027-01-31', daysBefore: 0 })).toEqual({
      type: 'MarkDocumentExpiring',
      docId: 'd1',
      validTill: '2027-01-31',
      daysBefore: 0,
    });
    expect(expiryCommand({ docId: 'd1', validTill: '2027-01-31', daysBefore: null })).toEqual({
      type: 'MarkDocumentExpired',
      docId: 'd1',
      validTill: '2027-01-31',
    });
  });

  test('the timer watches only the current approved document with its date', () => {
    expect(whyNotWatched(withDocument({}), 'd1', '2027-01-31')).toBeNull();
    expect(whyNotWatched(withDocument({ expired: true }), 'd1', '2027-01-31')).toBeNull();
    expect(whyNotWatched(withDocument({}), 'd2', '2027-01-31')).toBe('The document was replaced or deleted');
    expect(whyNotWatched(withDocument({ review: PENDING_REVIEW }), 'd1', '2027-01-31')).toBe('The document is pending');
    expect(whyNotWatched(withDocument({}), 'd1', '2027-02-28')).toBe('The document is now valid till 2027-01-31');
  });
});
