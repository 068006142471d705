import { DEFAULT_SOURCE_SYSTEM, RFP_STATUS_COLOURS, RFP_STATUSES, RFP_TYPES } from './model';

describe('the RFP model', () => {
  it('has the spec’s three types and SCM as the default source system', () => {
    expect(RFP_TYPES).toEqual(['standard', 'non-standard', 'single']);
    expect(DEFAULT_SOURCE_SYSTEM).toBe('SCM');
  });

  it('shows every status in one of the spec’s five status colours', () => {
    expect(RFP_STATUS_COLOURS).toEqual({
      draft: 'inProgress',
      floated: 'submitted',
      evaluation: 'acknowledged',
      awarded: 'released',
      closed: 'rejected',
    });
    expect(Object.keys(RFP_STATUS_COLOURS)).toEqual([...RFP_STATUSES]);
  });
});
