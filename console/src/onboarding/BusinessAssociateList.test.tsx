import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDataProvider } from '../providers/dataProvider';
import { sessionStore } from '../providers/httpClient';
import { baRow, counts, me, renderConsole } from '../testing/fakes';
import { installFetch, requests, type FakeRoute } from '../testing/fakeFetch';


const TOTAL = 42;
const UNAVAILABLE = 'A service the portal depends on is unavailable. Please try again shortly';
const page = Array.from({ length: 10 }, (_, i) =>
  baRow({
    id: `ba-${i + 1}`,
    companyName: `Transporter ${i + 1}`,
    panNumber: `ABCDE${1000 + i}F`,
    status: 'inprogress',
    stage: 1,
  }),
);

const api: FakeRoute = (url) => {
  if (url.pathname === '/api/ba-counts') return { body: counts({ all: TOTAL, firstStage: 7 }) };
  if (url.pathname === '/api/business-associates')
    return { body: page, headers: { 'Content-Range': `business-associates 0-9/${TOTAL}` } };
  return undefined;
};

const listRequests = (mock: jest.Mock) =>
  requests(mock).filter((r) => r.url.pathname === '/api/business-associates');

beforeEach(() => {
  sessionStore.set({
    accessToken: 'token-abc',
    user: me({ id: 'u1', name: 'Priya' }),
  });
});
afterEach(() => sessionStore.set(null));

describe('BA list over the real ra-data-simple-rest provider', () => {
  it('renders the rows and the Content-Range total, 10 rows per page, with the bearer token', async () => {
    const fetch = installFetch(api);
    renderConsole('/business-associates', { dataProvider: createDataProvider(), roles: ['MLL Procurement'] });

    // The loading skeleton is a table too, replaced once the rows arrive: find a row's text first.
    const table = (await screen.findByText('Transporter 1')).closest('table') as HTMLElement;
    expect(within(table).getByText('Transporter 1')).toBeInTheDocument();
    expect(within(table).getByText('Transporter 10')).toBeInTheDocument();
    expect(within(table).getByText('ABCDE1000F')).toBeInTheDocument();
    expect(within(table).getAllByText('03-Nov-2025').length).toBeGreaterThan(0);
    expect(screen.getByText(`1-10 of ${TOTAL}`)).toBeInTheDocument();

    const [first] = listRequests(fetch);
    expect(first!.url.searchParams.get('range')).toBe('[0,9]');
    expect(first!.url.searchParams.get('sort')).toBe('["updatedAt","DESC"]');
    expect(first!.headers.get('Authorization')).toBe('Bearer token-abc');
  });

  it('offers 5, 10 and 20 rows per page', async () => {
    installFetch(api);
    renderConsole('/business-associates', { dataProvider: createDataProvider(), roles: ['MLL Procurement'] });
    await screen.findByText(`1-10 of ${TOTAL}`);
    await userEvent.click(screen.getByRole('combobox', { name: /rows per page/i }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['5', '10', '20']);
  });

  it('switches status tab to the matching filter and shows count badges', async () => {
    const fetch = installFetch(api);
    renderConsole('/business-associates', { dataProvider: createDataProvider(), roles: ['MLL Procurement'] });
    const tab = await screen.findByRole('tab', { name: /First Stage Request/ });
    await waitFor(() => expect(within(tab).getByText('7')).toBeInTheDocument());
    const allTab = screen.getByRole('tab', { name: /All Request/ });
    expect(within(allTab).getByText(String(TOTAL))).toBeInTheDocument();

    await userEvent.click(tab);
    const filters = () =>
      listRequests(fetch).map((r) => JSON.parse(r.url.searchParams.get('filter') ?? '{}') as unknown);
    await waitFor(() => expect(filters()).toContainEqual({ status: 'inprogress', stage: 1 }));
    expect(tab).toHaveAttribute('aria-selected', 'true');
  });

  it("shows a failed load's API message in the error dialog", async () => {
    installFetch((url) =>
      url.pathname === '/api/business-associates'
        ? { status: 503, body: { status: 503, message: UNAVAILABLE } }
        : api(url, { headers: new Headers() }),
    );
    renderConsole('/business-associates', { dataProvider: createDataProvider(), roles: ['MLL Procurement'] });
    expect(await screen.findByTestId('error-message')).toHaveTextContent(UNAVAILABLE);
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });
});
