import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Release } from './api';
import { COMPLAINTS_COMING_SOON } from '../complaints/ComplaintsButton';
import { baUser, completeDetails, fakeApi, problem, verifiedBaAdmin, type RecordedRequest } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { releasePageTexts } from './ReleasePage';

const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

const release = (over: Partial<Release> = {}): Release => ({
  id: '1.2.0-web',
  versionReleased: '1.2.0',
  deviceType: 'web',
  featureClass: 'all',
  releasedOn: '2026-11-16',
  newFeatures: [
    { featureDesc: 'Help menu with the user manual', releasedOn: '2026-11-16' },
    { featureDesc: 'All states with GST state codes', releasedOn: '2026-11-02' },
  ],
  bugFixes: [{ featureDesc: 'The city list loads for every state', releasedOn: '2026-11-16' }],
  ...over,
});
const android = release({ id: '1.1.0-android', versionReleased: '1.1.0', deviceType: 'android', featureClass: 'ba', releasedOn: '2026-09-04' });

/** Answers the release calls; everything else goes to the fake's own routes. */
const releases =
  (rows: Release[]) =>
  (req: RecordedRequest) => {
    if (req.path === '/api/releases') return { status: 200, body: rows };
    const one = /^\/api\/releases\/([^/]+)\/([^/]+)$/.exec(req.path);
    if (!one) return undefined;
    const found = rows.find((r) => r.versionReleased === decodeURIComponent(one[1]!) && r.deviceType === one[2]);
    return found ? { status: 200, body: found } : { status: 404, body: problem(404, 'Release not found') };
  };

describe("What's New in the BA header", () => {
  it('lists "BA Portal Release {version} - {device type}" for BAs, newest first, each opening its release page', async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa, intercept: releases([release(), android]) });
    renderPortal(api, '/home');
    await user.click(await screen.findByRole('button', { name: "What's New" }));
    const entries = await screen.findAllByRole('menuitem');
    expect(entries.map((e) => within(e).getByText(/^BA Portal Release/).textContent)).toEqual([
      'BA Portal Release 1.2.0 - Web',
      'BA Portal Release 1.1.0 - Android',
    ]);
    expect(entries[1]).toHaveTextContent('04-Sep-2026');
    expect(entries[0]).toHaveAttribute('href', '/newFeaturesList/1.2.0/web');
    // The BA's class: releases meant for BAs and for everyone.
    expect(api.sent('GET', '/api/releases')[0]?.query.get('featureClass')).toBe('ba');

    await user.click(entries[1]!);
    expect(await screen.findByRole('heading', { name: 'BA Portal Release 1.1.0 - Android' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/newFeaturesList/1.1.0/android');
  });

  it('says "No Updates found" when there is none', async () => {
    renderPortal(fakeApi({ session: baUser, intercept: releases([]) }), '/onboard/status');
    await user.click(await screen.findByRole('button', { name: "What's New" }));
    expect(await screen.findByText('No Updates found')).toBeInTheDocument();
  });

  it('shows the failing list the same way', async () => {
    const intercept = (req: RecordedRequest) => (req.path === '/api/releases' ? { status: 503, body: problem(503, 'Down') } : undefined);
    renderPortal(fakeApi({ session: baUser, intercept }), '/onboard/status');
    await user.click(await screen.findByRole('button', { name: "What's New" }));
    expect(await screen.findByText('No Updates found')).toBeInTheDocument();
  });
});

describe('Complaints in the BA header', () => {
  it('says "Feature Coming Soon!!"', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa }), '/home');
    await user.click(await screen.findByRole('button', { name: 'Complaints' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(COMPLAINTS_COMING_SOON);
  });
});

describe('the release page', () => {
  it('needs no sign-in and shows the release date as DD-MMM-YYYY, the new features and the bug fixes', async () => {
    const api = fakeApi({ session: null, intercept: releases([release()]) });
    renderPortal(api, '/newFeaturesList/1.2.0/web');
    expect(await screen.findByRole('heading', { level: 1, name: 'BA Portal Release 1.2.0 - Web' })).toBeInTheDocument();
    expect(screen.getByTestId('release-date')).toHaveTextContent('16-Nov-2026');

    const features = within(screen.getByRole('region', { name: releasePageTexts.newFeatures }));
    expect(features.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Help menu with the user manual',
      // An entry dated otherwise than the release shows its own date.
      'All states with GST state codes02-Nov-2026',
    ]);
    const fixes = within(screen.getByRole('region', { name: releasePageTexts.bugFixes }));
    expect(fixes.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['The city list loads for every state']);
    expect(screen.getByTestId('location')).toHaveTextContent('/newFeaturesList/1.2.0/web');
  });

  it('says when a list is empty', async () => {
    renderPortal(fakeApi({ session: null, intercept: releases([release({ bugFixes: [] })]) }), '/newFeaturesList/1.2.0/web');
    expect(await screen.findByText(releasePageTexts.noBugFixes)).toBeInTheDocument();
  });

  it('says "Release not found" for a version and device type without a release', async () => {
    renderPortal(fakeApi({ session: null, intercept: releases([release()]) }), '/newFeaturesList/9.9.9/ios');
    expect(await screen.findByRole('heading', { name: 'Release not found' })).toBeInTheDocument();
    expect(screen.getByText(releasePageTexts.notFoundText)).toBeInTheDocument();
  });
});
