import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderConsole } from '../testing/fakes';
import { stubFetch } from '../vendor-code/testing';
import { dateRangeError } from './filters';
import { billHubDataProvider, invoiceRow } from './testing';

const user = userEvent.setup({ delay: null });

const ROWS = [
  invoiceRow(),
  invoiceRow({
    id: 'inv-2',
    invoiceNumber: 'SR/2026/002',
    status: 'A',
    statusLabel: 'Acknowledged',
    totalAmount: '1250000.50',
    slaBreached: true,
    memoId: 'memo-1',
    memoNumber: 'MEMO/1000/2026-27/000001',
  }),
];

const listCalls = (dp: ReturnType<typeof billHubDataProvider>) =>
  dp.getList.mock.calls
    .filter(([r]) => r === 'invoices')
    .map(([, p]) => p as { filter: Record<string, unknown>; sort: { field: string; order: string } });

describe('Bill-Hub invoice list (/invoices)', () => {
  beforeEach(() => stubFetch(() => undefined));

  it('shows the invoices with BA, code, DD-MMM-YYYY date, total in ₹ en-IN, status chip, SLA badge and memo', async () => {
    const dataProvider = billHubDataProvider({ invoices: ROWS });
    renderConsole('/invoices', { dataProvider, roles: ['MLL Commercial'] });
    const row = (await screen.findByText('SR/2026/002')).closest('tr')!;
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Invoice number',
      'BA',
      'BA code',
      'Invoice date',
      'Total',
      'Status',
      'Memo',
    ]);
    expect(within(row).getByText('Sharma Roadways Pvt Ltd')).toBeInTheDocument();
    expect(within(row).getByText('1000000042')).toBeInTheDocument();
    expect(within(row).getByText('20-Nov-2026')).toBeInTheDocument();
    expect(within(row).getByText('₹12,50,000.50')).toBeInTheDocument();
    const chip = within(row).getByTestId('invoice-status-chip');
    expect(chip).toHaveTextContent('Acknowledged');
    expect(chip).toHaveAttribute('data-status-colour', 'acknowledged');
    expect(chip.className).toMatch(/MuiChip-colorPrimary/);
    expect(within(row).getByTestId('sla-breached')).toHaveTextContent('SLA breached');
    expect(within(row).getByText('MEMO/1000/2026-27/000001')).toBeInTheDocument();
    const first = screen.getByText('SR/2026/001').closest('tr')!;
    expect(within(first).queryByTestId('sla-breached')).not.toBeInTheDocument();
    expect(within(first).getByTestId('invoice-status-chip').className).toMatch(/MuiChip-colorInfo/);
    expect(listCalls(dataProvider)[0]).toMatchObject({ sort: { field: 'invoiceDate', order: 'DESC' } });
  });

  it('has the status tabs in order and filters by the chosen status, keeping the other filters', async () => {
    const dataProvider = billHubDataProvider({ invoices: ROWS });
    renderConsole('/invoices', { dataProvider, roles: ['Auditor'] });
    await screen.findByText('SR/2026/001');
    const tabs = within(screen.getByRole('tablist', { name: 'Invoice status' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Submitted', 'Acknowledged', 'Verified', 'Booked', 'Released', 'Rejected', 'Revoked', 'All']);
    expect(screen.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
    await user.type(screen.getByRole('textbox', { name: 'Invoice number' }), '002');
    await waitFor(() => expect(listCalls(dataProvider).some((p) => p.filter['q'] === '002')).toBe(true));
    await user.click(screen.getByRole('tab', { name: 'Verified' }));
    await waitFor(() => expect(listCalls(dataProvider).some((p) => p.filter['status'] === 'V' && p.filter['q'] === '002')).toBe(true));
    expect(screen.getByRole('tab', { name: 'Verified' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => {
      const last = listCalls(dataProvider).at(-1)!;
      expect(last.filter).toEqual({ q: '002' });
    });
  });

  it('filters by BA id and an invoice-date range', async () => {
    const dataProvider = billHubDataProvider({ invoices: ROWS });
    renderConsole('/invoices', { dataProvider, roles: ['MLL Accounts'] });
    await screen.findByText('SR/2026/001');
    await user.type(screen.getByRole('textbox', { name: 'BA id' }), 'ba-7');
    await waitFor(() => expect(listCalls(dataProvider).some((p) => p.filter['baId'] === 'ba-7')).toBe(true));
    const today = new Date().toISOString().slice(0, 10);
    fireEvent.change(screen.getByLabelText('Invoice date to'), { target: { value: today } });
    await waitFor(() => expect(listCalls(dataProvider).some((p) => p.filter['dateTo'] === today)).toBe(true));
  });

  it('does not send a date filter outside the 61-day window', async () => {
    const dataProvider = billHubDataProvider({ invoices: ROWS });
    renderConsole('/invoices', { dataProvider, roles: ['MLL Accounts'] });
    await screen.findByText('SR/2026/001');
    fireEvent.change(screen.getByLabelText('Invoice date from'), { target: { value: '2020-01-01' } });
    fireEvent.blur(screen.getByLabelText('Invoice date from'));
    expect(await screen.findByText('Please choose dates within the last 61 days')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 700));
    expect(listCalls(dataProvider).some((p) => p.filter['dateFrom'] !== undefined)).toBe(false);
  });

  it('applies the 61-day rule and start-before-end to the filter dates (pure)', () => {
    const today = '2026-11-26';
    expect(dateRangeError({ dateFrom: '2026-09-26' }, today)).toBeUndefined();
    expect(dateRangeError({ dateFrom: '2026-09-25' }, today)).toBe('Please choose dates within the last 61 days');
    expect(dateRangeError({ dateFrom: '2026-11-20', dateTo: '2026-11-10' }, today)).toBe('The start date must not be after the end date');
    expect(dateRangeError({}, today)).toBeUndefined();
  });

  it('puts a Bill-Hub section with Invoices and Memos in the sidebar for staff and the Auditor', async () => {
    const { unmount } = renderConsole('/invoices', { dataProvider: billHubDataProvider({ invoices: ROWS }), roles: ['Auditor'] });
    expect(await screen.findByRole('menuitem', { name: 'Invoices' })).toHaveAttribute('href', '/invoices');
    expect(screen.getByRole('menuitem', { name: 'Memos' })).toHaveAttribute('href', '/memos');
    expect(screen.getByText('Bill-Hub', { selector: '.MuiListSubheader-root' })).toBeInTheDocument();
    unmount();
    renderConsole('/invoices', { dataProvider: billHubDataProvider({ invoices: ROWS }), roles: ['MLL Operations'] });
    expect(await screen.findByRole('menuitem', { name: 'Invoices' })).toBeInTheDocument();
    expect(await screen.findByText('SR/2026/001')).toBeInTheDocument();
  });

  it('opens the invoice from a row', async () => {
    renderConsole('/invoices', { dataProvider: billHubDataProvider({ invoices: ROWS }), roles: ['MLL Commercial'] });
    await user.click(await screen.findByText('SR/2026/002'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice SR/2026/002' })).toBeInTheDocument();
  });
});
