import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from 'react-admin';
import { activity, baRow, fakeDataProvider, renderConsole, type FakeData } from '../testing/fakes';
import type { AuditActivityEntry, BaAsOf, ChainVerification } from './types';

// The whole console renders per test on shared 2-core machines: give slow runs room (no timing is asserted).

const entry = (over: Partial<AuditActivityEntry> = {}): AuditActivityEntry => ({
  ...activity({
    id: 42,
    baId: 'ba-1',
    actorUserId: 'u-priya',
    actorName: 'Priya Procurement',
    role: 'MLL Procurement',
    action: 'Stage 1 approved',
    remarks: 'PAN checked',
    eventType: 'ReviewStageApproved',
  }),
  companyName: 'Sharma Roadways Pvt Ltd',
  registeredEmail: 'ravi@sharma-roadways.test',
  registeredMobile: '9876543210',
  ...over,
});

const asOfState = (over: Partial<BaAsOf> = {}): BaAsOf => ({
  id: 'ba-1',
  at: '2025-11-03T05:00:59.999Z',
  existed: true,
  status: 'inprogress',
  stage: 1,
  submission: 1,
  companyCode: '1000',
  details: { ...baRow().details!, companyName: 'Sharma Transport (old name)' },
  remarks: null,
  welcomeMessage: null,
  overdueStages: [],
  companyName: 'Sharma Transport (old name)',
  serviceName: 'Transportation',
  cityName: 'Mumbai',
  stateName: 'Maharashtra',
  eventCount: 3,
  lastEvent: { globalPosition: 17, version: 2, type: 'OnboardingSubmitted', recordedAt: '2025-11-03T04:55:00.000Z', at: '2025-11-03T04:55:00.000Z' },
  ...over,
});

const verified = (over: Partial<ChainVerification> = {}): ChainVerification => ({
  ok: true,
  checked: 1234,
  anchorsChecked: 5,
  headPosition: 1234,
  lastAnchoredPosition: 1200,
  anchorFile: { path: '.data/audit-anchors.jsonl', found: true },
  ...over,
});

/** The console's fake data provider with the audit calls mocked (the API's answers as the routes give them). */
function auditProvider(data: FakeData & { search?: AuditActivityEntry[]; verify?: () => Promise<ChainVerification> } = {}) {
  const base = fakeDataProvider(data);
  const getList = base.getList.getMockImplementation()!;
  base.getList.mockImplementation(async (resource: string, params: unknown) =>
    resource === 'audit/activity' ? { data: data.search ?? [entry()], total: (data.search ?? [entry()]).length } : getList(resource, params),
  );
  return Object.assign(base, {
    verifyChain: jest.fn(data.verify ?? (async () => verified())),
    getBaAsOf: jest.fn(async () => asOfState()),
    getAuditExport: jest.fn(async (_id: unknown, format: string) => ({
      blob: new Blob(['x']),
      fileName: `BA-ba-1-audit-2025-11-03.${format}`,
    })),
  });
}

describe('Audit search', () => {
  it('is in the auditor’s menu and lists activity across BAs, newest first, each linking to its BA', async () => {
    const dataProvider = auditProvider();
    renderConsole('/', { dataProvider, roles: ['Auditor'] });
    await userEvent.click(await screen.findByRole('menuitem', { name: /Audit search/ }));
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Stage 1 approved')).toBeInTheDocument();
    expect(within(table).getByText('Priya Procurement')).toBeInTheDocument();
    expect(within(table).getByText('PAN checked')).toBeInTheDocument();
    const link = within(table).getByRole('link', { name: /Open Sharma Roadways/ });
    expect(link).toHaveAttribute('href', '/business-associates/ba-1/show');
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'audit/activity',
      expect.objectContaining({ sort: { field: 'at', order: 'DESC' } }),
    );
  });

  it('sends the actor and action filters to the API', async () => {
    const dataProvider = auditProvider();
    renderConsole('/audit/activity', { dataProvider, roles: ['MLL-ADMIN'] });
    await screen.findByRole('table');
    await userEvent.type(screen.getByLabelText(/Actor/), 'Priya');
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'audit/activity',
        expect.objectContaining({ filter: expect.objectContaining({ actor: 'Priya' }) }),
      ),
    );
  });

  it('reads a picked time as Indian time', async () => {
    const dataProvider = auditProvider();
    renderConsole(`/audit/activity?filter=${encodeURIComponent(JSON.stringify({ from: '2025-11-03T10:30:00+05:30' }))}`, {
      dataProvider,
      roles: ['Auditor'],
    });
    await screen.findByRole('table');
    expect(screen.getByLabelText('From')).toHaveValue('2025-11-03T10:30');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-11-04T09:15' } });
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'audit/activity',
        expect.objectContaining({ filter: expect.objectContaining({ from: '2025-11-04T09:15:00+05:30' }) }),
      ),
    );
  });

  it('is not offered to other staff', async () => {
    renderConsole('/', { dataProvider: auditProvider(), roles: ['MLL Procurement'] });
    await screen.findByRole('menuitem', { name: /All Request/ });
    expect(screen.queryByRole('menuitem', { name: /Audit search/ })).not.toBeInTheDocument();
  });
});

describe('Verify chain', () => {
  const run = async (verify: () => Promise<ChainVerification>) => {
    const dataProvider = auditProvider({ verify });
    renderConsole('/audit/activity', { dataProvider, roles: ['Auditor'] });
    await userEvent.click(await screen.findByRole('button', { name: 'Verify chain' }));
    expect(dataProvider.verifyChain).toHaveBeenCalledTimes(1);
    return screen.findByRole('dialog');
  };

  it('says plainly how much was checked when the chain is intact', async () => {
    const dialog = await run(async () => verified());
    expect(within(dialog).getByText('Hash chain intact: 1,234 events and 5 anchors checked')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('names the first broken position and the reason in the error dialog', async () => {
    const dialog = await run(async () =>
      verified({
        ok: false,
        checked: 41,
        anchorsChecked: 2,
        broken: { globalPosition: 42, eventId: 'evt-42', streamId: 'ba-ba-1', reason: 'hash does not match its content' },
      }),
    );
    expect(within(dialog).getByText('Hash chain broken')).toBeInTheDocument();
    const message = within(dialog).getByTestId('error-message');
    expect(message).toHaveTextContent('broken at global position 42 (event evt-42, stream ba-ba-1)');
    expect(message).toHaveTextContent('Reason: hash does not match its content');
  });

  it('reports a fault of the anchor file itself', async () => {
    const dialog = await run(async () =>
      verified({ ok: false, anchorProblem: { line: 3, reason: 'signature does not verify' } }),
    );
    expect(within(dialog).getByTestId('error-message')).toHaveTextContent('The anchor file does not verify at line 3: signature does not verify');
  });

  it('shows a failed request as an error, not as a result', async () => {
    const dialog = await run(async () => {
      throw new HttpError('The event store is unavailable', 503, { message: 'The event store is unavailable' });
    });
    expect(within(dialog).getByText('Verification failed')).toBeInTheDocument();
    expect(within(dialog).getByTestId('error-message')).toHaveTextContent('The event store is unavailable');
  });
});

describe('BA page for auditors', () => {
  const openBa = async (roles: string[]) => {
    const dataProvider = auditProvider({ records: [baRow({ id: 'ba-1', status: 'verified', stage: null })], log: [activity()] });
    renderConsole('/business-associates/ba-1/show', { dataProvider, roles });
    await screen.findByRole('heading', { name: 'Company details' });
    return dataProvider;
  };

  it('shows the BA as of a picked date and time, under a clear banner', async () => {
    const dataProvider = await openBa(['Auditor']);
    fireEvent.change(screen.getByLabelText('Show as of'), { target: { value: '2025-11-03T10:30' } });
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    const view = await screen.findByRole('region', { name: 'As of view' });
    // The whole picked minute, in Indian time.
    expect(dataProvider.getBaAsOf).toHaveBeenCalledWith('ba-1', '2025-11-03T10:30:59.999+05:30');
    expect(within(view).getByTestId('as-of-banner')).toHaveTextContent('As of 03-Nov-2025 10:30');
    expect(within(view).getByText('In progress')).toBeInTheDocument();
    expect(within(view).getByText('Stage 1')).toBeInTheDocument();
    expect(within(view).getByText('Sharma Transport (old name)')).toBeInTheDocument();
    expect(within(view).getByTestId('as-of-last-event')).toHaveTextContent('OnboardingSubmitted (version 2, global position 17)');
    await userEvent.click(screen.getByRole('button', { name: 'Back to today' }));
    expect(screen.queryByRole('region', { name: 'As of view' })).not.toBeInTheDocument();
  });

  it('says so when the BA did not exist yet', async () => {
    const dataProvider = await openBa(['MLL-ADMIN']);
    dataProvider.getBaAsOf.mockResolvedValueOnce(asOfState({ existed: false, status: 'none', eventCount: 0, lastEvent: null, details: null }));
    fireEvent.change(screen.getByLabelText('Show as of'), { target: { value: '2024-01-01T00:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    const view = await screen.findByRole('region', { name: 'As of view' });
    expect(within(view).getByText(/had not registered yet/)).toBeInTheDocument();
  });

  it('downloads the .xlsx and JSON exports under the API’s file name', async () => {
    const createObjectURL = jest.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    try {
      const dataProvider = await openBa(['Auditor']);
      await userEvent.click(screen.getByRole('button', { name: 'Export .xlsx' }));
      await waitFor(() => expect(clicked).toEqual(['BA-ba-1-audit-2025-11-03.xlsx']));
      await userEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
      await waitFor(() => expect(clicked).toHaveLength(2));
      expect(dataProvider.getAuditExport.mock.calls).toEqual([
        ['ba-1', 'xlsx'],
        ['ba-1', 'json'],
      ]);
    } finally {
      click.mockRestore();
    }
  });

  it('is not there for a reviewer', async () => {
    await openBa(['MLL Procurement']);
    expect(screen.queryByRole('heading', { name: 'Audit' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Show as of')).not.toBeInTheDocument();
  });

  it('shows the global position beside each hash and why positions jump', async () => {
    await openBa(['Auditor']);
    await userEvent.click(screen.getByRole('tab', { name: 'Event history' }));
    const table = await screen.findByRole('table', { name: 'Event history' });
    // The fake event stands at global position 7: its hash is #7's, its previous hash #6's (another BA's).
    expect(within(table).getAllByTestId('hash-position').map((e) => e.textContent)).toEqual(['#6', '#7']);
    expect(screen.getByTestId('global-chain-note')).toHaveTextContent(/chain is global/);
    expect(screen.getByTestId('global-chain-note')).toHaveTextContent(/gaps between the positions/);
  });
});
