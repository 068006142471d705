import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { releaseMessages } from '../../../domain/src/releases/fields';
import { messages } from '../../../domain/src/validation/fields';
import { installFetch, requests } from '../testing/fakeFetch';
import { fakeAuthProvider, fakeDataProvider, renderConsole, type FakeDataProvider } from '../testing/fakes';
import { RELEASE_PUBLISHED_MESSAGE } from './ReleaseCreate';
import type { Release } from './types';
import { RELEASE_WITHDRAWN_MESSAGE } from './WithdrawButton';

jest.setTimeout(120_000);
// No pause between keystrokes: the form re-validates on each, and the machines are shared.
const user = userEvent.setup({ delay: null });
/** Focus and paste: one input event instead of one per character. */
const fill = async (field: HTMLElement, text: string) => {
  await user.click(field);
  await user.paste(text);
};

const admin = () => fakeAuthProvider(['MLL-ADMIN'], 'Asha Admin');

const release = (over: Partial<Release> = {}): Release => ({
  id: '1.2.0-web',
  versionReleased: '1.2.0',
  deviceType: 'web',
  featureClass: 'all',
  releasedOn: '2026-11-16',
  newFeatures: [{ featureDesc: "What's New menu", releasedOn: '2026-11-16' }],
  bugFixes: [{ featureDesc: 'City list loads', releasedOn: '2026-11-10' }],
  ...over,
});
const older = release({ id: '1.1.0-android', versionReleased: '1.1.0', deviceType: 'android', featureClass: 'ba', releasedOn: '2026-09-04', bugFixes: [] });

/** The shared fake data provider, answering the `releases` resource from `rows`. */
function withReleases(rows: Release[]): FakeDataProvider {
  const dp = fakeDataProvider();
  const { getList, getOne } = { getList: dp.getList.getMockImplementation()!, getOne: dp.getOne.getMockImplementation()! };
  dp.getList.mockImplementation(async (resource: string, params: unknown) =>
    resource === 'releases' ? { data: rows, total: rows.length } : getList(resource, params),
  );
  dp.getOne.mockImplementation(async (resource: string, params: { id: unknown }) => {
    if (resource !== 'releases') return getOne(resource, params);
    const found = rows.find((r) => r.id === params.id);
    if (!found) throw Object.assign(new Error('Release not found'), { status: 404 });
    return { data: found };
  });
  dp.create.mockImplementation(async (_r: string, { data }: { data: Record<string, unknown> }) => ({ data: { ...data, id: 'new' } }));
  return dp;
}

describe('Releases (MLL-ADMIN)', () => {
  it('is in the sidebar for MLL-ADMIN only', async () => {
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    await screen.findByRole('menuitem', { name: /All Request/ });
    expect(screen.queryByRole('menuitem', { name: 'Releases' })).not.toBeInTheDocument();
  });

  it('lists version, device type, who it is for and the release date as DD-MMM-YYYY, newest first', async () => {
    const dataProvider = withReleases([release(), older]);
    renderConsole('/business-associates', { dataProvider, authProvider: admin() });
    await user.click(await screen.findByRole('menuitem', { name: 'Releases' }));
    const table = await screen.findByRole('table');
    const row = (await within(table).findByText('1.2.0')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Web')).toBeInTheDocument();
    expect(within(row).getByText('All users')).toBeInTheDocument();
    expect(within(row).getByText('16-Nov-2026')).toBeInTheDocument();
    const second = within(table).getByText('1.1.0').closest('tr') as HTMLElement;
    expect(within(second).getByText('Android')).toBeInTheDocument();
    expect(within(second).getByText('BA users')).toBeInTheDocument();
    expect(within(second).getByText('04-Sep-2026')).toBeInTheDocument();
    const [, params] = dataProvider.getList.mock.calls.find(([resource]) => resource === 'releases')!;
    expect(params).toMatchObject({ sort: { field: 'releasedOn', order: 'DESC' } });
  });

  it('checks the form with the rules the API applies, then publishes and goes back to the list', async () => {
    const dataProvider = withReleases([older]);
    renderConsole('/releases/create', { dataProvider, authProvider: admin() });
    const version = await screen.findByLabelText(/^Version/);
    await fill(version, 'v1.3');
    await fill(screen.getByLabelText(/^Description/), '=SUM(A1)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(releaseMessages.version)).toBeInTheDocument();
    expect(screen.getByText(messages.leadingCharacter)).toBeInTheDocument();
    expect(dataProvider.create).not.toHaveBeenCalled();

    // No feature and no fix at all.
    await user.clear(version);
    await fill(version, '1.3.0');
    await user.click(screen.getByRole('button', { name: 'Clear the list' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(releaseMessages.nothingListed)).toBeInTheDocument();
    expect(dataProvider.create).not.toHaveBeenCalled();

    const [addFeature, addFix] = screen.getAllByRole('button', { name: 'Add' });
    await user.click(addFeature!);
    await fill(screen.getByLabelText(/^Description/), 'Release notes page');
    await user.click(addFix!);
    await fill(screen.getAllByLabelText(/^Description/)[1]!, 'Pincode check');
    const releaseDate = screen.getByLabelText(/^Release date/);
    await user.clear(releaseDate);
    await fill(releaseDate, '2026-11-20');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(dataProvider.create).toHaveBeenCalledTimes(1));
    expect(dataProvider.create.mock.calls[0]![1].data).toEqual({
      versionReleased: '1.3.0',
      deviceType: 'web',
      featureClass: 'ba',
      releasedOn: '2026-11-20',
      newFeatures: [{ featureDesc: 'Release notes page' }],
      bugFixes: [{ featureDesc: 'Pincode check' }],
    });
    expect(await screen.findByText(RELEASE_PUBLISHED_MESSAGE)).toBeInTheDocument();
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('edits the content only, and withdraws after a confirmation', async () => {
    const fetch = installFetch((url) =>
      url.pathname === '/api/releases/1.2.0-web/withdraw' ? { body: { id: '1.2.0-web', message: 'Release withdrawn successfully' } } : undefined,
    );
    renderConsole('/releases/1.2.0-web', { dataProvider: withReleases([release()]), authProvider: admin() });
    expect(await screen.findByDisplayValue('1.2.0')).toBeDisabled();
    expect(screen.getByDisplayValue("What's New menu")).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Withdraw BA Portal Release 1.2.0 - Web?')).toBeInTheDocument();
    const releaseCalls = () => requests(fetch).filter((r) => r.url.pathname.startsWith('/api/releases'));
    expect(releaseCalls()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(RELEASE_WITHDRAWN_MESSAGE)).toBeInTheDocument();
    expect(releaseCalls().map((r) => `${r.method} ${r.url.pathname}`)).toEqual(['POST /api/releases/1.2.0-web/withdraw']);
  });
});

describe("What's New in the console header", () => {
  it('lists the releases for all users, each opening its public release page in a new tab', async () => {
    const fetch = installFetch((url) => (url.pathname === '/api/releases' ? { body: [release(), release({ id: '1.0.0-ios', versionReleased: '1.0.0', deviceType: 'ios', releasedOn: '2026-07-06' })] } : undefined));
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    await user.click(await screen.findByRole('button', { name: "What's New" }));
    const entry = await screen.findByRole('menuitem', { name: /BA Portal Release 1.2.0 - Web/ });
    expect(entry).toHaveAttribute('href', '/newFeaturesList/1.2.0/web');
    expect(entry).toHaveAttribute('target', '_blank');
    expect(entry).toHaveTextContent('16-Nov-2026');
    expect(screen.getByRole('menuitem', { name: /BA Portal Release 1.0.0 - iOS/ })).toHaveAttribute('href', '/newFeaturesList/1.0.0/ios');
    const [sent] = requests(fetch).filter((r) => r.url.pathname === '/api/releases');
    expect(sent?.url.searchParams.get('featureClass')).toBe('all');
  });

  it('says "No Updates found" when there is none', async () => {
    installFetch((url) => (url.pathname === '/api/releases' ? { body: [] } : undefined));
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['Auditor'] });
    await user.click(await screen.findByRole('button', { name: "What's New" }));
    expect(await screen.findByText('No Updates found')).toBeInTheDocument();
  });
});
