import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderConsole } from '../testing/fakes';
import { sapDataProvider, stubFetch } from '../vendor-code/testing';
import { rfpListRow, rfpView, RFP_CODE } from './testing';

const user = userEvent.setup({ delay: null });

const ROWS = [
  rfpListRow(),
  rfpListRow({ id: 'RFP-2026-0002', serialNo: 2, rfpCode: 'RFP-2026-0002', status: 'awarded', statusColour: 'released', rfpType: 'non-standard' }),
];

const listCalls = (dp: ReturnType<typeof sapDataProvider>) =>
  dp.getList.mock.calls.filter(([r]) => r === 'rfps').map(([, p]) => p as { filter: Record<string, unknown>; pagination: { perPage: number } });

describe('RFP dashboard (/rfp/MLL/dashboard)', () => {
  it('lists the spec’s columns with the status as a chip in its colour', async () => {
    stubFetch(() => undefined);
    const dataProvider = sapDataProvider({ rfps: ROWS });
    renderConsole('/rfp/MLL/dashboard', { dataProvider, roles: ['MLL Commercial'] });
    const row = (await screen.findByText('RFP-2026-0002')).closest('tr')!;
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['S.No', 'RFP ID', 'Due Date', 'Receive Date', 'Status', 'RFP Type']);
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(within(row).getByText('31-Jan-2026')).toBeInTheDocument();
    expect(within(row).getByText('10-Jan-2026')).toBeInTheDocument();
    expect(within(row).getByText('Non-standard')).toBeInTheDocument();
    const chip = within(row).getByTestId('rfp-status-chip');
    expect(chip).toHaveTextContent('Awarded');
    expect(chip).toHaveAttribute('data-status-colour', 'released');
    expect(chip.className).toMatch(/MuiChip-colorSuccess/);
    const floated = within(screen.getByText(RFP_CODE).closest('tr')!).getByTestId('rfp-status-chip');
    expect(floated).toHaveAttribute('data-status-colour', 'submitted');
    expect(floated.className).toMatch(/MuiChip-colorInfo/);
    expect(listCalls(dataProvider)[0]).toMatchObject({ pagination: { page: 1, perPage: 25 } });
  });

  it('sends the rfpCode, casshId and status filters to the API', async () => {
    stubFetch(() => undefined);
    const dataProvider = sapDataProvider({ rfps: ROWS });
    renderConsole('/rfp/MLL/dashboard', { dataProvider, roles: ['Auditor'] });
    await screen.findByText('RFP-2026-0002');
    await user.type(screen.getByRole('textbox', { name: 'RFP ID' }), '0002');
    await waitFor(() => expect(listCalls(dataProvider).some((p) => p.filter['rfpCode'] === '0002')).toBe(true));
    await user.type(screen.getByRole('textbox', { name: 'Opportunity ID' }), 'OPP-7');
    await waitFor(() => expect(listCalls(dataProvider).some((p) => p.filter['casshId'] === 'OPP-7' && p.filter['rfpCode'] === '0002')).toBe(true));
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Evaluation' }));
    await waitFor(() => expect(listCalls(dataProvider).some((p) => p.filter['status'] === 'evaluation')).toBe(true));
  });

  it('says “No RFPs found” when there is none (not react-admin’s “No Rfps found”)', async () => {
    stubFetch(() => undefined);
    renderConsole('/rfp/MLL/dashboard', { dataProvider: sapDataProvider({ rfps: [] }), roles: ['MLL Commercial'] });
    expect(await screen.findByText('No RFPs found')).toBeInTheDocument();
    expect(screen.queryByText(/No Rfps found/)).not.toBeInTheDocument();
  });

  it('opens the RFP’s view from a row', async () => {
    stubFetch((url) => {
      if (url.pathname === `/api/rfps/${RFP_CODE}`) return { body: rfpView() };
      if (url.pathname === `/api/rfps/${RFP_CODE}/lanes`) return { body: { rows: [], total: 0, round: 1, columns: [] } };
      return undefined;
    });
    renderConsole('/rfp/MLL/dashboard', { dataProvider: sapDataProvider({ rfps: ROWS }), roles: ['MLL Procurement'] });
    await user.click(await screen.findByText(RFP_CODE));
    expect(await screen.findByRole('heading', { level: 1, name: `RFP ${RFP_CODE}` })).toBeInTheDocument();
  });

  it('shows the RFP menu entry to RFP staff and the Auditor only', async () => {
    stubFetch(() => undefined);
    const { unmount } = renderConsole('/business-associates', { dataProvider: sapDataProvider(), roles: ['Auditor'] });
    const rfpEntry = () => screen.queryByRole('menuitem', { name: 'RFP Dashboard' });
    expect(await screen.findByRole('menuitem', { name: 'RFP Dashboard' })).toHaveAttribute('href', '/rfp/MLL/dashboard');
    expect(screen.getByText('RFP', { selector: '.MuiListSubheader-root' })).toBeInTheDocument();
    unmount();
    renderConsole('/business-associates', { dataProvider: sapDataProvider(), roles: ['MDM'] });
    await screen.findByRole('menuitem', { name: /Additional Documents/ });
    expect(rfpEntry()).not.toBeInTheDocument();
  });
});
