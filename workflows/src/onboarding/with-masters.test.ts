import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { parseCompanyDetails, referencesIn, withReferences, type CompanyDetails } from '../../../domain/src/onboarding/details';
import type { MasterLookup } from '../shared/master-references';
import { withMasters } from './activities';
import { validDetails } from './scenarios';

/** The verified BA's profile: the scenarios' company details (service 1, Maharashtra, Mumbai). */
const parsed = parseCompanyDetails(validDetails);
if (!parsed.ok) throw new Error('the scenarios’ company details no longer pass the rules');
const current: CompanyDetails = parsed.details;

/** The masters as they are at the command's turn: city 2702 was deactivated after the API checked it. */
const items: Record<string, Record<string, { id: number; status: 'active' | 'inactive'; stateId?: number }>> = {
  services: { 1: { id: 1, status: 'active' } },
  states: { 27: { id: 27, status: 'active' } },
  cities: { 2701: { id: 2701, status: 'active', stateId: 27 }, 2702: { id: 2702, status: 'inactive', stateId: 27 } },
};
const asked: string[] = [];
const lookup: MasterLookup = async (resource, ids) => {
  asked.push(`${resource}:${ids === 'all' ? 'all' : ids.join(',')}`);
  const rows = items[resource] ?? {};
  return (ids === 'all' ? Object.values(rows) : ids.map((id) => rows[String(id)]).filter(Boolean)) as never;
};

describe('a company change request at its turn in the activity', () => {
  it('is judged against the masters as they are now, for the profile it would make, not the references the API sent', async () => {
    const apiSaw = { service: { id: 1, status: 'active' as const }, state: { id: 27, status: 'active' as const }, city: { id: 2702, status: 'active' as const, stateId: 27 } };
    const command: OnboardingCommand = {
      type: 'RaiseChangeRequest',
      requestId: 'cr-1',
      section: 'company',
      proposed: withReferences({ cityId: 2702, addressLine1: '2 Link Road' }, apiSaw),
    };
    asked.length = 0;
    const resolved = await withMasters(lookup, command, async () => current);
    if (resolved.type !== 'RaiseChangeRequest') throw new Error('the command changed type');
    // The state the change keeps comes from the current profile.
    expect(asked).toEqual(expect.arrayContaining(['states:27', 'cities:2702', 'services:1']));
    expect(referencesIn(resolved.proposed)).toEqual({
      service: { id: 1, status: 'active' },
      state: { id: 27, status: 'active' },
      city: { id: 2702, status: 'inactive', stateId: 27 },
    });
    expect(resolved.proposed).toMatchObject({ cityId: 2702, addressLine1: '2 Link Road' });
  });

  it('leaves a bank change request as it came', async () => {
    const command: OnboardingCommand = { type: 'RaiseChangeRequest', requestId: 'cr-2', section: 'bank', proposed: { accountNo: '1234' } };
    await expect(withMasters(lookup, command, async () => current)).resolves.toEqual(command);
  });
});
