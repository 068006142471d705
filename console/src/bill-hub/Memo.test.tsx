import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../providers/httpClient';
import { me, renderConsole } from '../testing/fakes';
import { captureDownloads, stubFetch } from '../vendor-code/testing';
import { advanceErrors } from './AdvanceDialog';
import { memoPdfName } from './labels';
import { billHubDataProvider, memoRow } from './testing';

const user = userEvent.setup({ delay: null });

type Posted = { url: URL; headers: Headers; body: Record<string, unknown> };

function serve(posted: Posted[], pdfHeaders: Record<string, string> = {}) {
  return stubFetch((url, init) => {
    if (url.pathname === '/api/memos/memo-1/pdf') return { blob: new Blob(['%PDF-1.7']), headers: { 'Content-Type': 'application/pdf', ...pdfHeaders } };
    if (init.method === 'POST' && url.pathname === '/api/memos/memo-1/advances') {
      posted.push({ url, headers: init.headers, body: JSON.parse(String(init.body)) as Record<string, unknown> });
      return { status: 201, body: { message: 'Advance payment recorded', memo: memoRow() } };
    }
    return undefined;
  });
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Memo MEMO/1000/2026-27/000001' });

describe('Bill-Hub memos (/memos)', () => {
  afterEach(() => sessionStore.set(null));

  it('lists memos with BA, states, invoices, total, advance, balance and date', async () => {
    serve([]);
    renderConsole('/memos', { dataProvider: billHubDataProvider({ memos: [memoRow()] }), roles: ['Auditor'] });
    const row = (await screen.findByText('MEMO/1000/2026-27/000001')).closest('tr')!;
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Memo number',
      'BA',
      'From → to',
      'Invoices',
      'Total',
      'Advance',
      'Balance',
      'Submitted',
    ]);
    expect(within(row).getByText('Maharashtra → Karnataka')).toBeInTheDocument();
    expect(within(row).getByText('₹1,18,000.00')).toBeInTheDocument();
    expect(within(row).getByText('₹16,000.00')).toBeInTheDocument();
    expect(within(row).getByText('₹1,00,000.00')).toBeInTheDocument();
    expect(within(row).getByText('22-Nov-2026')).toBeInTheDocument();
  });

  it('shows the memo with its invoices, totals and advances', async () => {
    serve([]);
    renderConsole('/memos/memo-1/show', { dataProvider: billHubDataProvider({ memos: [memoRow({ balance: '102000.00' })] }), roles: ['MLL Commercial'] });
    await heading();
    const invoices = screen.getByRole('table', { name: 'Memo invoices' });
    expect(within(invoices).getByRole('link', { name: 'SR/2026/001' })).toHaveAttribute('href', '/invoices/inv-1/show');
    expect(within(screen.getByRole('table', { name: 'Advance payments' })).getByText('UTR123456')).toBeInTheDocument();
    expect(screen.getByText('₹1,02,000.00')).toBeInTheDocument();
    // Commercial staff read; only accounts record advances.
    expect(screen.queryByRole('button', { name: 'Record advance' })).not.toBeInTheDocument();
  });

  it('downloads the PDF with the session’s token under the API’s name', async () => {
    sessionStore.set({ accessToken: 'tok-staff', user: me() });
    const names = captureDownloads();
    const fetchMock = serve([], { 'Content-Disposition': 'attachment; filename="Memo-MEMO-1000-2026-27-000001.pdf"' });
    renderConsole('/memos/memo-1/show', { dataProvider: billHubDataProvider({ memos: [memoRow()] }), roles: ['Auditor'] });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(names).toEqual(['Memo-MEMO-1000-2026-27-000001.pdf']));
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/memos/memo-1/pdf')!;
    expect(new Headers(call[1]?.headers).get('Authorization')).toBe('Bearer tok-staff');
  });

  it('names the PDF after the memo number when the API sends no name', () => {
    expect(memoPdfName('MEMO/1000/2026-27/000001')).toBe('Memo-MEMO-1000-2026-27-000001.pdf');
  });

  it('records an advance (accounts): checks the fields, then posts amount, reference and paid-on', async () => {
    const posted: Posted[] = [];
    serve(posted);
    renderConsole('/memos/memo-1/show', { dataProvider: billHubDataProvider({ memos: [memoRow()] }), roles: ['MLL Accounts'] });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Record advance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record advance for MEMO/1000/2026-27/000001' });
    await user.click(within(dialog).getByRole('button', { name: 'Record advance' }));
    expect(await within(dialog).findByText('Please enter a valid amount')).toBeInTheDocument();
    expect(within(dialog).getByText('Reference is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Paid on date is required')).toBeInTheDocument();
    expect(posted).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Amount/ }), '5000.50');
    await user.type(within(dialog).getByRole('textbox', { name: /Reference/ }), 'UTR998877');
    await user.type(within(dialog).getByLabelText(/Paid on/), '2026-11-24');
    await user.click(within(dialog).getByRole('button', { name: 'Record advance' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toEqual({ amount: '5000.50', reference: 'UTR998877', paidOn: '2026-11-24' });
    expect(posted[0]!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('Advance payment recorded')).toBeInTheDocument();
  });

  it('checks the advance amount: two decimals at most, not zero (pure)', () => {
    const ok = { amount: '100', reference: 'UTR1', paidOn: '2026-11-24' };
    expect(advanceErrors(ok)).toEqual({});
    expect(advanceErrors({ ...ok, amount: '10.123' }).amount).toBe('Please enter a valid amount');
    expect(advanceErrors({ ...ok, amount: '-5' }).amount).toBe('Please enter a valid amount');
    expect(advanceErrors({ ...ok, amount: '0.00' }).amount).toBe('Amount must be greater than zero');
    expect(advanceErrors({ ...ok, reference: '  ' }).reference).toBe('Reference is required');
  });
});
