import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { completeDetails, fakeApi, verifiedBaAdmin, baUser, type RecordedRequest } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import type { HomeResponse } from '../performance/api';
import { HOME_TEXTS } from './HomePage';

const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

const HOME: HomeResponse = {
  companyCodes: [{ companyCode: '1000', status: 'verified', parentCode: '100200', blocked: false }],
  openRfps: [
    { rfpCode: 'RFP-7', customerName: 'Acme Foods', dueDate: '2026-12-10', dueAt: '2026-12-10T12:30:00.000Z', rfpType: 'standard', quoted: false },
    { rfpCode: 'RFP-8', customerName: 'Zen Steel', dueDate: '2026-12-12', dueAt: '2026-12-12T12:30:00.000Z', rfpType: 'backhaul', quoted: true },
  ],
  invoicesByStatus: { draft: 2, S: 3, C: 1 },
  expiringDocuments: [{ name: 'GST Certificate (Maharashtra)', expiresOn: '2026-12-20' }],
  pendingActions: [
    { label: 'Invoice INV-9 was rejected: correct and submit it again', to: '/bill-hub/invoice/inv-9' },
    { label: '2 draft invoices not yet submitted', to: '/bill-hub' },
  ],
  notifications: [
    { id: 'n1', kind: 'rfp', title: 'New RFP RFP-7', body: 'Please quote by 10-Dec-2026', link: '/rfp/BA/view/RFP-7/standard', createdAt: '2026-11-20T05:00:00.000Z', read: false },
  ],
};

const homeApi = (home: HomeResponse | null = HOME) =>
  fakeApi({
    session: verifiedBaAdmin,
    ba: verifiedBa,
    intercept: (req: RecordedRequest) =>
      req.method === 'GET' && req.path === '/api/home' ? (home ? { status: 200, body: home } : { status: 500, body: { message: 'x' } }) : undefined,
  });

describe('HomePage (verified BA)', () => {
  it('shows pending actions, open RFPs, invoices by status, expiring documents and the latest notifications with links', async () => {
    renderPortal(homeApi(), '/home');
    expect(await screen.findByRole('heading', { name: `Welcome, ${verifiedBaAdmin.name}` })).toBeInTheDocument();

    const actions = await screen.findByRole('region', { name: 'Pending actions' });
    expect(within(actions).getByRole('link', { name: 'Invoice INV-9 was rejected: correct and submit it again' })).toHaveAttribute(
      'href',
      '/bill-hub/invoice/inv-9',
    );

    const rfps = screen.getByRole('region', { name: 'Open RFPs to quote' });
    expect(within(rfps).getByRole('link', { name: 'RFP-7' })).toHaveAttribute('href', '/rfp/BA/view/RFP-7/standard');
    expect(within(rfps).getByRole('link', { name: 'RFP-8' })).toHaveAttribute('href', '/rfp/BA/view/RFP-8/backhaul');
    expect(within(rfps).getByText('10-Dec-2026')).toBeInTheDocument();

    const invoices = screen.getByRole('region', { name: 'Invoices by status' });
    expect(within(invoices).getAllByRole('link').map((l) => l.textContent)).toEqual(['Draft: 2', 'Submitted: 3', 'Rejected: 1']);

    const documents = screen.getByRole('region', { name: 'Documents about to expire' });
    expect(within(documents).getByText('GST Certificate (Maharashtra)')).toBeInTheDocument();
    expect(within(documents).getByText('Expires on 20-Dec-2026')).toBeInTheDocument();

    const notifications = screen.getByRole('region', { name: 'Latest notifications' });
    expect(within(notifications).getByRole('link', { name: 'New RFP RFP-7' })).toHaveAttribute('href', '/rfp/BA/view/RFP-7/standard');

    // What the home showed before stays: the vendor codes and the shortcuts, now with Performance.
    expect(screen.getByRole('heading', { name: 'Performance' })).toBeInTheDocument();
  });

  it('opens a pending action in the portal', async () => {
    renderPortal(homeApi(), '/home');
    await user.click(await screen.findByRole('link', { name: '2 draft invoices not yet submitted' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/bill-hub');
  });

  it('says so when a section is empty', async () => {
    renderPortal(homeApi({ ...HOME, openRfps: [], invoicesByStatus: {}, expiringDocuments: [], pendingActions: [], notifications: [] }), '/home');
    for (const text of [HOME_TEXTS.noActions, HOME_TEXTS.noRfps, HOME_TEXTS.noInvoices, HOME_TEXTS.noDocuments, HOME_TEXTS.noNotifications])
      expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('keeps the page when the summary cannot be loaded', async () => {
    renderPortal(homeApi(null), '/home');
    expect(await screen.findByText(HOME_TEXTS.failed)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: `Welcome, ${verifiedBaAdmin.name}` })).toBeInTheDocument();
  });

  it('sends a BA not yet verified to its onboarding status without asking for the home', async () => {
    const api = fakeApi({ session: baUser });
    renderPortal(api, '/home');
    await screen.findByText((_t, el) => el?.getAttribute('data-testid') === 'location' && el.textContent === '/onboard/status');
    expect(api.sent('GET', '/api/home')).toHaveLength(0);
  });
});
