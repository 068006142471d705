import { rfpMessages } from '../../../domain/src/rfp/messages';
import { awardBody, awardProblems, initialAward } from './award';
import { laneComparison } from './testing';

describe('award shares (pure)', () => {
  it('starts each quoted lane with its lowest bidder at 100%', () => {
    const groups = laneComparison().groups;
    const unquoted = { ...groups[1]!, laneId: 'L0003', quotes: [] };
    expect(initialAward([...groups, unquoted])).toEqual({
      L0001: [{ baId: 'ba-2', share: '100' }],
      L0002: [{ baId: 'ba-1', share: '100' }],
      L0003: [],
    });
  });

  it('accepts shares adding up to exactly 100 in hundredths, and a lane without shares', () => {
    expect(
      awardProblems({
        L0001: [
          { baId: 'a', share: '33.33' },
          { baId: 'b', share: '33.33' },
          { baId: 'c', share: '33.34' },
        ],
        L0002: [],
      }),
    ).toEqual({});
  });

  it('refuses a sum other than 100, a share of 0 or with 3 decimals, a BA twice, and a share without a BA', () => {
    expect(awardProblems({ L1: [{ baId: 'a', share: '60' }] })).toEqual({ L1: rfpMessages.sharesSum('L1') });
    expect(awardProblems({ L1: [{ baId: 'a', share: '0' }, { baId: 'b', share: '100' }] })).toEqual({ L1: rfpMessages.sharePositive });
    expect(awardProblems({ L1: [{ baId: 'a', share: '99.999' }] })).toEqual({ L1: rfpMessages.sharePositive });
    expect(awardProblems({ L1: [{ baId: 'a', share: '50' }, { baId: 'a', share: '50' }] })).toEqual({ L1: rfpMessages.duplicateBaInLane('L1') });
    expect(awardProblems({ L1: [{ baId: '', share: '100' }] })).toEqual({ L1: 'Please choose a BA for each share' });
  });

  it('sends only the lanes with shares, as numbers', () => {
    expect(awardBody({ L1: [{ baId: 'a', share: '62.5' }, { baId: 'b', share: '37.5' }], L2: [] })).toEqual({
      lanes: [{ laneId: 'L1', shares: [{ baId: 'a', sharePercent: 62.5 }, { baId: 'b', sharePercent: 37.5 }] }],
    });
  });
});
