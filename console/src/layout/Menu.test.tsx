import { screen, waitFor, within } from '@testing-library/react';
import { counts, fakeDataProvider, renderConsole } from '../testing/fakes';

jest.setTimeout(120_000);

const sidebarEntry = (name: RegExp) => screen.getByRole('menuitem', { name });

describe('Sidebar', () => {
  it("shows the spec's entries with their count badges for a reviewer", async () => {
    const dataProvider = fakeDataProvider({
      counts: counts({
        myPendingTasks: 4,
        all: 19,
        verified: 5,
        pendingOnboarding: 8,
        firstStage: 6,
        secondStage: 2,
        registered: 3,
        rejected: 3,
        documentsExpired: 2,
        additionalDocumentsPending: 7,
      }),
    });
    renderConsole('/business-associates', { dataProvider, roles: ['MLL Procurement'] });
    await screen.findByRole('menuitem', { name: /My Pending Task/ });
    const expected: [RegExp, string][] = [
      [/My Pending Task/, '4'],
      [/All Request/, '19'],
      [/Verified Users/, '5'],
      [/Pending Onboarding Request/, '8'],
      [/First Stage Request/, '6'],
      [/Second Stage Request/, '2'],
      [/Registered Users/, '3'],
      [/Additional Documents/, '7'],
      [/Documents expired/, '2'],
    ];
    await waitFor(() => expect(within(sidebarEntry(/My Pending Task/)).getByText('4')).toBeInTheDocument());
    for (const [name, count] of expected) {
      expect(within(sidebarEntry(name)).getByText(count)).toBeInTheDocument();
    }
    const firstStageLink = sidebarEntry(/First Stage Request/).getAttribute('href') ?? '';
    expect(decodeURIComponent(firstStageLink)).toContain('"stage":1');
    const link = (name: RegExp) => decodeURIComponent(sidebarEntry(name).getAttribute('href') ?? '');
    expect(link(/Verified Users/)).toContain('{"status":"verified"}');
    expect(link(/Registered Users/)).toContain('{"status":"pending"}');
    expect(link(/Pending Onboarding Request/)).toContain('{"status":"inprogress"}');
    expect(link(/Documents expired/)).toContain('{"status":"documents_expired"}');
    expect(link(/Additional Documents/)).toMatch(/\/additional-documents$/);
    expect(link(/My Pending Task/)).toMatch(/\/tasks$/);
  });

  it("lists the Onboard entries in the spec's order, without entries the spec does not name", async () => {
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    await screen.findByRole('menuitem', { name: /My Pending Task/ });
    const names = screen
      .getAllByRole('menuitem')
      .map((item) => item.textContent?.replace(/\d+$/, '').trim() ?? '');
    const onboard = names.slice(0, 11);
    expect(onboard).toEqual([
      'My Pending Task',
      'All Request',
      'Verified Users',
      'Pending Onboarding Request',
      'First Stage Request',
      'Second Stage Request',
      'Registered Users',
      // Issue 9: the spec's last two Onboard entries.
      'Nucleus Vendor Codes',
      'Blocked Users',
      'Additional Documents',
      'Documents expired',
    ]);
    expect(names).not.toContain('Rejected');
    expect(screen.getByRole('menuitem', { name: /User Manual/ })).toBeInTheDocument();
  });

  it('has no task queue for an auditor, who lands on the BA list', async () => {
    renderConsole('/', { dataProvider: fakeDataProvider(), roles: ['Auditor'] });
    expect(await screen.findByRole('menuitem', { name: /All Request/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /My Pending Task/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: /All Request/ })).toBeInTheDocument();
  });
});
