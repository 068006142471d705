import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { counts, renderConsole } from '../testing/fakes';
import { sapCounts, sapDataProvider, stubFetch, vendorCodeRow } from './testing';

const user = userEvent.setup({ delay: null });

const ROWS = [
  vendorCodeRow(),
  vendorCodeRow({
    id: 'ba-2:1000',
    baId: 'ba-2',
    companyName: 'Patil Carriers',
    panNumber: 'PQRSX6789K',
    status: 'processed',
    parentCode: '1000000042',
    childCodes: [
      { stateId: 27, stateName: 'Maharashtra', gstNo: '27PQRSX6789K1Z2', childCode: '1000000043', paymentTermsCode: 'NT30', status: 'created' },
      { stateId: 29, stateName: 'Karnataka', gstNo: '29PQRSX6789K1Z0', childCode: null, paymentTermsCode: null, status: 'requested' },
    ],
    vendorCategory: 'Transporter',
    vendorCategoryStatus: 'approved',
    waitingForErp: true,
  }),
];

const NUCLEUS = [
  {
    id: 'NUCLE1234A',
    pan: 'NUCLE1234A',
    name: 'Nucleus Movers',
    companyCode: '1000',
    city: 'Pune',
    region: 'MH',
    mobile: null,
    email: null,
    gstin: null,
    parentCode: '2000000001',
    childCodes: [],
    source: 'nucleus',
    blocked: false,
    uploadId: 'up-1',
    updatedAt: '2026-11-20T06:30:00.000Z',
  },
];

const withCounts = () =>
  stubFetch((url) => (url.pathname === '/api/vendor-codes/counts' ? { body: sapCounts() } : undefined));

const tab = (name: RegExp) => screen.getByRole('tab', { name });

describe('SAP dashboard', () => {
  it('shows the six tabs with their counts and the rows of the tab, and switches tabs by route', async () => {
    withCounts();
    const dataProvider = sapDataProvider({ 'vendor-codes': ROWS, 'nucleus-vendors': NUCLEUS });
    renderConsole('/sap/dashboard/all', { dataProvider, roles: ['MLL Accounts'] });
    const row = (await screen.findByText('Patil Carriers')).closest('tr')!;
    expect(within(row).getByText('PQRSX6789K')).toBeInTheDocument();
    expect(within(row).getByText('1000000042')).toBeInTheDocument();
    expect(within(row).getByText('1 of 2')).toBeInTheDocument();
    expect(within(row).getByText('Processed')).toBeInTheDocument();
    expect(within(row).getByText('Waiting for ERP')).toBeInTheDocument();

    const expected: [RegExp, string][] = [
      [/^All BA/, '12'],
      [/^Requested BA/, '3'],
      [/^SAP Verification Pending/, '2'],
      [/^SAP Verified/, '4'],
      [/^SAP Code Created/, '5'],
      [/^Nucleus Vendor Codes/, '7'],
    ];
    await waitFor(() => expect(within(tab(/^All BA/)).getByText('12')).toBeInTheDocument());
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(expected.map(([name, n]) => `${name.source.slice(1)}${n}`));
    for (const [name, n] of expected) expect(within(tab(name)).getByText(n)).toBeInTheDocument();
    const listCall = dataProvider.getList.mock.calls.find(([r]) => r === 'vendor-codes')!;
    expect(listCall[1]).toMatchObject({ filter: { tab: 'all' }, pagination: { page: 1, perPage: 10 } });

    await user.click(tab(/^SAP Verification Pending/));
    await waitFor(() =>
      expect(dataProvider.getList.mock.calls.some(([r, p]) => r === 'vendor-codes' && p.filter.tab === 'verification-pending')).toBe(true),
    );
    expect(tab(/^SAP Verification Pending/)).toHaveAttribute('aria-selected', 'true');

    await user.click(tab(/^Nucleus Vendor Codes/));
    expect(await screen.findByText('Nucleus Movers')).toBeInTheDocument();
    expect(dataProvider.getList.mock.calls.some(([r]) => r === 'nucleus-vendors')).toBe(true);
  });

  it('filters by name or PAN (the API’s q) within the tab', async () => {
    withCounts();
    const dataProvider = sapDataProvider({ 'vendor-codes': ROWS });
    renderConsole('/sap/dashboard/requested', { dataProvider, roles: ['Auditor'] });
    await screen.findByText('Patil Carriers');
    await user.type(screen.getByPlaceholderText('Search name or PAN'), 'pqrsx');
    await waitFor(() =>
      expect(
        dataProvider.getList.mock.calls.some(([r, p]) => r === 'vendor-codes' && p.filter.q === 'pqrsx' && p.filter.tab === 'requested'),
      ).toBe(true),
    );
  });

  it('opens the BA’s ERP page from a row', async () => {
    stubFetch((url) => {
      if (url.pathname === '/api/vendor-codes/counts') return { body: sapCounts() };
      if (url.pathname === '/api/vendor-codes') return { body: [ROWS[1]], headers: { 'Content-Range': 'vendor-codes 0-0/1' } };
      if (url.pathname === '/api/vendor-codes/ba-2:1000/history') return { body: [] };
      return undefined;
    });
    renderConsole('/sap/dashboard/processed', { dataProvider: sapDataProvider({ 'vendor-codes': ROWS }), roles: ['MLL Accounts'] });
    await user.click(await screen.findByText('Patil Carriers'));
    expect(await screen.findByRole('heading', { level: 1, name: /Patil Carriers — SAP \/ ERP/ })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Child codes' })).toBeInTheDocument();
  });
});

describe('SAP and Onboard sidebars', () => {
  it('lists the SAP entries in the spec’s order with counts; the create entries are for MLL-ADMIN only', async () => {
    withCounts();
    renderConsole('/sap/dashboard/all', { dataProvider: sapDataProvider({ 'vendor-codes': ROWS }), roles: ['MLL-ADMIN'] });
    const all = await screen.findByRole('menuitem', { name: /^All BA/ });
    await waitFor(() => expect(within(all).getByText('12')).toBeInTheDocument());
    const names = screen.getAllByRole('menuitem').map((i) => i.textContent?.replace(/\d+$/, '').trim());
    const start = names.indexOf('All BA');
    expect(names.slice(start, start + 9)).toEqual([
      'All BA',
      'Requested BA',
      'SAP Verification Pending',
      'SAP Code Created',
      'Nucleus Vendor Codes',
      'Create Utility/Government Vendor Code',
      'Create Other Company Vendor Code',
      'Block Requests',
      'Mass Upload',
    ]);
    expect(screen.getByRole('link', { name: 'SAP' })).toHaveAttribute('href', '/sap/dashboard/all');
  });

  it('adds Nucleus Vendor Codes and Blocked Users after Registered Users, with their counts', async () => {
    withCounts();
    const dataProvider = sapDataProvider({}, { counts: { ...counts(), blockedUsers: 4 } as ReturnType<typeof counts> });
    renderConsole('/business-associates', { dataProvider, roles: ['MLL Procurement'] });
    await screen.findByRole('menuitem', { name: /My Pending Task/ });
    const names = screen.getAllByRole('menuitem').map((i) => i.textContent?.replace(/\d+$/, '').trim());
    const start = names.indexOf('Registered Users');
    expect(names.slice(start, start + 3)).toEqual(['Registered Users', 'Nucleus Vendor Codes', 'Blocked Users']);
    const blocked = screen.getByRole('menuitem', { name: /Blocked Users/ });
    await waitFor(() => expect(within(blocked).getByText('4')).toBeInTheDocument());
    expect(decodeURIComponent(blocked.getAttribute('href') ?? '')).toContain('{"status":"blocked"}');
    const nucleus = screen.getAllByRole('menuitem', { name: /Nucleus Vendor Codes/ })[0]!;
    expect(nucleus).toHaveAttribute('href', '/onboard/nucleus/view');
    await waitFor(() => expect(within(nucleus).getByText('7')).toBeInTheDocument());
    // Procurement is neither a creator nor an uploader.
    expect(screen.queryByRole('menuitem', { name: /Create Utility/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Mass Upload' })).not.toBeInTheDocument();
  });
});
