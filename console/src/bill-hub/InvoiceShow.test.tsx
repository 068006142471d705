import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../providers/httpClient';
import { me, renderConsole } from '../testing/fakes';
import { captureDownloads, stubFetch } from '../vendor-code/testing';
import { billHubDataProvider, invoiceRow } from './testing';
import type { InvoiceDetail } from './types';

const user = userEvent.setup({ delay: null });

type Posted = { url: URL; init: RequestInit & { headers: Headers }; body: Record<string, unknown> };

/** The invoice's show page at /invoices/inv-1/show, the API stubbed for the commands. */
function open(over: Partial<InvoiceDetail>, roles: string[], reply: (url: URL) => { status?: number; body?: unknown } | undefined = () => undefined) {
  const posted: Posted[] = [];
  const invoices = [invoiceRow(over)];
  const fetchMock = stubFetch((url, init) => {
    if (init.method === 'POST') {
      posted.push({ url, init, body: JSON.parse(String(init.body ?? '{}')) as Record<string, unknown> });
      return reply(url);
    }
    return reply(url);
  });
  const dataProvider = billHubDataProvider({ invoices });
  renderConsole('/invoices/inv-1/show', { dataProvider, roles });
  return { posted, invoices, dataProvider, fetchMock };
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Invoice SR/2026/001' });
const actionButtons = () =>
  ['Acknowledge', 'Verify', 'Book', 'Release', 'Reject', 'Revoke'].filter((name) => screen.queryByRole('button', { name }));

describe('Bill-Hub invoice page (/invoices/:id/show)', () => {
  afterEach(() => sessionStore.set(null));

  it('shows every field, the attachments and the history', async () => {
    open({}, ['Auditor']);
    await heading();
    expect(screen.getByText('Sharma Roadways Pvt Ltd')).toBeInTheDocument();
    expect(screen.getByText('1000000043 – Maharashtra')).toBeInTheDocument();
    expect(screen.getByText('CHK – Chakan Plant, Maharashtra')).toBeInTheDocument();
    expect(screen.getByText('996511')).toBeInTheDocument();
    expect(screen.getByText('Chetan Commercial')).toBeInTheDocument();
    expect(screen.getByText('₹1,18,000.00')).toBeInTheDocument();
    expect(screen.getByText('₹1,16,000.00')).toBeInTheDocument();
    expect(screen.getByText('Freight for November')).toBeInTheDocument();
    expect(screen.getByText('invoice.pdf')).toBeInTheDocument();
    const history = screen.getByRole('table', { name: 'History' });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('Submitted');
    expect(rows[1]).toHaveTextContent('Ravi Sharma (BA Admin)');
  });

  it('offers only the actions the API allows: none for the Auditor', async () => {
    open({ allowedActions: [] }, ['Auditor']);
    await heading();
    expect(actionButtons()).toEqual([]);
  });

  it('offers acknowledge and reject on a submitted invoice for commercial staff', async () => {
    open({ allowedActions: ['acknowledge', 'reject'] }, ['MLL Commercial']);
    await heading();
    expect(actionButtons()).toEqual(['Acknowledge', 'Reject']);
  });

  it('offers book, reject and revoke on a verified invoice for accounts, in workflow order', async () => {
    open({ status: 'V', statusLabel: 'Verified', allowedActions: ['revoke', 'reject', 'book'] }, ['MLL Accounts']);
    await heading();
    expect(actionButtons()).toEqual(['Book', 'Reject', 'Revoke']);
  });

  it('acknowledges with an Idempotency-Key and shows the API’s message', async () => {
    const { posted } = open({ allowedActions: ['acknowledge', 'reject'] }, ['MLL Commercial'], (url) =>
      url.pathname === '/api/invoices/inv-1/acknowledge' ? { body: { message: 'Invoice acknowledged', invoice: invoiceRow({ status: 'A' }) } } : undefined,
    );
    await heading();
    await user.click(screen.getByRole('button', { name: 'Acknowledge' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acknowledge invoice SR/2026/001' });
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText('Invoice acknowledged')).toBeInTheDocument();
    expect(posted).toHaveLength(1);
    expect(posted[0]!.init.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('requires remarks to reject, then posts them', async () => {
    const { posted } = open({ allowedActions: ['acknowledge', 'reject'] }, ['MLL Commercial'], (url) =>
      url.pathname === '/api/invoices/inv-1/reject' ? { body: { message: 'Invoice rejected', invoice: invoiceRow({ status: 'C' }) } } : undefined,
    );
    await heading();
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject invoice SR/2026/001' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Remarks are required')).toBeInTheDocument();
    expect(posted).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Remarks/ }), 'GST amount does not match');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.url.pathname).toBe('/api/invoices/inv-1/reject');
    expect(posted[0]!.body).toEqual({ remarks: 'GST amount does not match' });
    expect(await screen.findByText('Invoice rejected')).toBeInTheDocument();
  });

  it('revokes without remarks (they are optional)', async () => {
    const { posted } = open({ allowedActions: ['revoke'] }, ['MLL Accounts'], (url) =>
      url.pathname === '/api/invoices/inv-1/revoke' ? { body: { message: 'Invoice revoked' } } : undefined,
    );
    await heading();
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke invoice SR/2026/001' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toEqual({ remarks: null });
    expect(await screen.findByText('Invoice revoked')).toBeInTheDocument();
  });

  it('says "Booking requested; waiting for ERP" on a 202 and then shows the invoice waiting with the last ERP error', async () => {
    const { posted, invoices } = open({ status: 'V', statusLabel: 'Verified', allowedActions: ['book', 'reject', 'revoke'] }, ['MLL Accounts'], (url) => {
      if (url.pathname !== '/api/invoices/inv-1/book') return undefined;
      // What the API's read model says once the booking waits on the ERP (the refresh re-reads it).
      invoices[0] = invoiceRow({ status: 'V', statusLabel: 'Verified', booking: true, lastErpError: 'ERP timed out', allowedActions: ['book', 'reject', 'revoke'] });
      return { status: 202, body: { message: 'Booking requested; waiting for ERP', invoice: invoices[0] } };
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Book' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book invoice SR/2026/001' });
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('Booking requested; waiting for ERP')).toBeInTheDocument();
    expect(posted.map((p) => p.url.pathname)).toEqual(['/api/invoices/inv-1/book']);
    expect(await screen.findByTestId('invoice-booking')).toHaveTextContent('Waiting for the ERP to book this invoice.');
    expect(screen.getByTestId('invoice-erp-error')).toHaveTextContent('ERP timed out');
    // A booking already waits: no second Book button.
    expect(actionButtons()).toEqual(['Reject', 'Revoke']);
  });

  it('shows the ERP’s refusal (400) in the error dialog', async () => {
    open({ status: 'V', statusLabel: 'Verified', allowedActions: ['book'] }, ['MLL Accounts'], (url) =>
      url.pathname === '/api/invoices/inv-1/book' ? { status: 400, body: { message: 'Vendor 1000000042 is not extended to company code 1000' } } : undefined,
    );
    await heading();
    await user.click(screen.getByRole('button', { name: 'Book' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Book invoice SR/2026/001' })).getByRole('button', { name: 'Book' }));
    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(error).toHaveTextContent('Vendor 1000000042 is not extended to company code 1000');
  });

  it('shows a refused release (422) in the error dialog', async () => {
    open({ status: 'B', statusLabel: 'Booked', allowedActions: ['release'] }, ['MLL Accounts_HEAD'], (url) =>
      url.pathname === '/api/invoices/inv-1/release' ? { status: 422, body: { message: 'Payments to this BA are on hold' } } : undefined,
    );
    await heading();
    await user.click(screen.getByRole('button', { name: 'Release' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Release invoice SR/2026/001' })).getByRole('button', { name: 'Release' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent('Payments to this BA are on hold');
  });

  it('downloads an attachment with the session’s token', async () => {
    sessionStore.set({ accessToken: 'tok-staff', user: me() });
    const names = captureDownloads();
    const { fetchMock } = open({}, ['Auditor'], (url) =>
      url.pathname === '/api/invoices/inv-1/attachments/att-1' ? { body: {}, headers: { 'Content-Disposition': 'attachment; filename="invoice.pdf"' } } : undefined,
    );
    await heading();
    await user.click(screen.getByRole('button', { name: 'Download invoice.pdf' }));
    await waitFor(() => expect(names).toEqual(['invoice.pdf']));
    const call = fetchMock.mock.calls.find(([u]) => String(u).includes('/attachments/att-1'))!;
    expect(new Headers(call[1]?.headers).get('Authorization')).toBe('Bearer tok-staff');
  });

  it('views an attachment inline in a new tab, fetched with the session’s token', async () => {
    sessionStore.set({ accessToken: 'tok-staff', user: me() });
    captureDownloads();
    const tab = { location: { href: '' }, close: jest.fn() };
    const openSpy = jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { fetchMock } = open({}, ['MLL Commercial'], (url) =>
      url.pathname === '/api/invoices/inv-1/attachments/att-1' ? { body: {} } : undefined,
    );
    await heading();
    await user.click(screen.getByRole('button', { name: 'View invoice.pdf' }));
    await waitFor(() => expect(tab.location.href).toBe('blob:sap'));
    const call = fetchMock.mock.calls.find(([u]) => String(u).includes('/attachments/att-1'))!;
    expect(String(call[0])).toBe('/api/invoices/inv-1/attachments/att-1?inline=1');
    expect(new Headers(call[1]?.headers).get('Authorization')).toBe('Bearer tok-staff');
    openSpy.mockRestore();
  });
});
