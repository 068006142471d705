import type { RfpEvent } from '../../../domain/src/rfp/events';
import { RFP_CODE, baUser, procurement, rfpEvents, termsFile } from '../../../domain/src/rfp/testing';
import { describeRfpEvent } from './rfp-activity';

describe('RFP history lines', () => {
  it('name what happened for every kind of event', () => {
    const e = rfpEvents;
    const lines = [e.created, e.step2Saved, e.lanesUploaded, e.floated, e.biddingClosed, e.awarded, e.closed, e.reopened].map(
      (event) => describeRfpEvent(event as RfpEvent).action,
    );
    expect(lines).toEqual([
      'RFP created',
      'Step 2 saved',
      '2 lanes uploaded',
      'Floated to 2 BAs',
      'Bidding closed',
      '1 lane awarded',
      'RFP closed',
      'Reopened for round 2',
    ]);
    expect(describeRfpEvent({ type: 'RfpTermsUploaded', data: { rfpCode: RFP_CODE, file: termsFile, uploadedBy: procurement } } as RfpEvent)).toEqual({
      action: 'Terms and conditions uploaded',
      detail: 'terms.pdf',
      baId: null,
    });
  });

  it('count a BA’s saved and withdrawn lanes and never copy its rates', () => {
    const event: RfpEvent = {
      type: 'LaneResponsesSubmitted',
      data: { rfpCode: RFP_CODE, round: 1, baId: 'ba-1', quotes: { L0001: { ratePerTrip: '45123' }, L0002: null, L0003: { ratePerTrip: '9' } }, submittedBy: baUser('ba-1') },
    };
    const line = describeRfpEvent(event);
    expect(line).toEqual({ action: 'Lane responses saved', detail: '2 lanes quoted, 1 lane withdrawn', baId: 'ba-1' });
  });

  it('say whether bidding closed at the due date or by staff, and who was invited for backhaul', () => {
    const closed = (reason: 'due' | 'staff') => describeRfpEvent({ ...rfpEvents.biddingClosed, data: { ...rfpEvents.biddingClosed.data, reason } } as RfpEvent);
    expect(closed('due').detail).toBe('The due date was reached');
    expect(closed('staff').detail).toBe('Closed by staff');
    const backhaul = (isInvited: boolean) =>
      describeRfpEvent({ type: 'BackhaulInvitationChanged', data: { rfpCode: RFP_CODE, baId: 'ba-2', isInvited, by: baUser('x') } });
    expect(backhaul(true)).toEqual({ action: 'Invited for backhaul', detail: null, baId: 'ba-2' });
    expect(backhaul(false).action).toBe('Backhaul invitation withdrawn');
  });
});
