import { STAFF_ROLES } from '../identity/roles';
import { mayRfp, RFP_ACTION_ROLES, RFP_DECIDERS, RFP_STAFF, type RfpAction } from './roles';

describe('RFP roles', () => {
  it('names real staff roles, and the deciders are RFP staff', () => {
    for (const role of RFP_STAFF) expect(STAFF_ROLES).toContain(role);
    for (const role of RFP_DECIDERS) expect(RFP_STAFF).toContain(role);
  });

  const table: [RfpAction, string, boolean][] = [
    ['create', 'MLL Legal', true],
    ['create', 'MDM', false],
    ['create', 'BA Admin', false],
    ['float', 'MLL Commercial', true],
    ['award', 'MLL-ADMIN', true],
    ['award', 'MLL Procurement', true],
    ['award', 'MLL Accounts', false],
    ['close', 'MLL Operations', false],
    ['reopen', 'MLL Commercial', false],
    ['closeBidding', 'system', true],
    ['closeBidding', 'MLL Operations', false],
    ['respond', 'BA User', true],
    ['respond', 'MLL-ADMIN', false],
    ['read', 'Auditor', true],
    ['read', 'BA Admin', true],
    ['inviteBackhaul', 'MLL Operations', true],
    ['uploadTerms', 'MLL Legal', true],
  ];
  test.each(table)('%s by %s: %s', (action, role, allowed) => {
    expect(mayRfp(action, role)).toBe(allowed);
  });
});
