import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { renderConsole } from '../testing/fakes';
import { captureDownloads, sapDataProvider, stubFetch, type StubReply } from '../vendor-code/testing';
import { AWARD_TEXTS } from './AwardDialog';
import { laneComparison, rfpView, RFP_CODE } from './testing';
import type { RfpStaffView } from './types';

const user = userEvent.setup({ delay: null });
const base = `/api/rfps/${RFP_CODE}`;
const VIEW = `/rfp/MLL/view/${RFP_CODE}/standard`;

type Posted = { path: string; body: unknown; key: string | null };

/** The view's reads for `rfp`, and `posts` answering (and recording) its commands. */
function serve(rfp: RfpStaffView, posts: Record<string, (body: unknown) => StubReply> = {}) {
  const posted: Posted[] = [];
  const fetch = stubFetch((url, init) => {
    if (init.method === 'POST') {
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
      posted.push({ path: url.pathname, body, key: init.headers.get('Idempotency-Key') });
      return posts[url.pathname]?.(body);
    }
    if (url.pathname === base) return { body: rfp };
    if (url.pathname === `${base}/lanes`)
      return {
        body: {
          rows: [
            { laneId: 'L0001', position: 0, values: { fromCity: 'Pune', toCity: 'Bengaluru', vehicleType: '32 ft MXL' } },
            { laneId: 'L0002', position: 1, values: { fromCity: 'Pune', toCity: 'Chennai', vehicleType: '20 ft SXL' } },
          ],
          total: 2,
          round: 1,
          columns: rfp.columns,
        },
      };
    if (url.pathname === `${base}/comparison`) return { body: laneComparison() };
    if (url.pathname === `${base}/activity`) return { body: { rows: [], total: 0 } };
    return undefined;
  });
  return { fetch, posted };
}

const open = (roles: string[]) => renderConsole(VIEW, { dataProvider: sapDataProvider(), roles });
const actions = () => screen.queryByRole('group', { name: 'RFP actions' });

describe('RFP view (/rfp/MLL/view/:id/:rfpType)', () => {
  it('shows the header and the lanes', async () => {
    serve(rfpView());
    open(['MLL Commercial']);
    const header = await screen.findByRole('group', { name: 'RFP details' });
    expect(within(header).getByText('Sahyadri Foods Pvt Ltd')).toBeInTheDocument();
    expect(within(header).getByText(/OPP-2026-0001/)).toBeInTheDocument();
    expect(within(header).getByText('₹25,00,000.00')).toBeInTheDocument();
    expect(within(header).getByTestId('rfp-status-chip')).toHaveTextContent('Floated');
    const lanes = await screen.findByRole('table', { name: 'Lanes' });
    expect(within(lanes).getByText('L0002')).toBeInTheDocument();
    expect(within(lanes).getByText('Chennai')).toBeInTheDocument();
  });

  it('shows when bidding closes while it is open, and when it closed once closed, even before the due time', async () => {
    serve(rfpView());
    const view = open(['MLL Commercial']);
    let header = await screen.findByRole('group', { name: 'RFP details' });
    expect(within(header).getByText('Bidding closes').nextSibling).toHaveTextContent('31-Jan-2026 23:59');
    expect(within(header).queryByText('Bidding closed')).toBeNull();
    view.unmount();

    serve(rfpView({ status: 'evaluation', biddingClosedAt: '2026-01-20T06:30:00.000Z' }));
    open(['MLL Commercial']);
    header = await screen.findByRole('group', { name: 'RFP details' });
    expect(within(header).getByText('Bidding closed').nextSibling).toHaveTextContent('20-Jan-2026 12:00');
    expect(within(header).queryByText('Bidding closes')).toBeNull();
    expect(within(header).queryByText('31-Jan-2026 23:59')).toBeNull();
  });

  it('shows the decision actions to deciders only, each enabled only when the status allows it', async () => {
    serve(rfpView({ status: 'evaluation' }));
    const { unmount } = open(['MLL Procurement']);
    const group = await waitFor(() => {
      const g = actions();
      expect(g).not.toBeNull();
      return g!;
    });
    expect(within(group).getByRole('button', { name: 'Close bidding' })).toBeDisabled();
    expect(within(group).getByRole('button', { name: 'Close bidding' })).toHaveAccessibleDescription('Not possible while the RFP is evaluation');
    expect(within(group).getByRole('button', { name: 'Award' })).toBeEnabled();
    expect(within(group).getByRole('button', { name: 'Close' })).toBeEnabled();
    expect(within(group).getByRole('button', { name: 'Reopen' })).toBeEnabled();
    unmount();

    for (const roles of [['MLL Commercial'], ['Auditor']]) {
      const view = open(roles);
      await screen.findByRole('group', { name: 'RFP details' });
      expect(actions()).toBeNull();
      view.unmount();
    }
  });

  it('refuses an award whose shares do not add up to 100 before sending, then sends a corrected one', async () => {
    const { posted } = serve(rfpView({ status: 'evaluation' }), {
      [`${base}/award`]: () => ({ body: rfpView({ status: 'awarded' }) }),
    });
    open(['MLL-ADMIN']);
    await user.click(await screen.findByRole('button', { name: 'Award' }));
    const dialog = await screen.findByRole('dialog', { name: `Award RFP ${RFP_CODE}` });
    const share = await within(dialog).findByRole('textbox', { name: 'Share 1 of lane L0001' });
    // The lowest bidder of each lane starts at 100%.
    expect(share).toHaveValue('100');
    await user.clear(share);
    await user.type(share, '60');
    await user.click(within(dialog).getByRole('button', { name: 'Award' }));
    expect(await within(dialog).findByText(rfpMessages.sharesSum('L0001'))).toBeInTheDocument();
    expect(within(dialog).getByText(new RegExp(AWARD_TEXTS.fix))).toBeInTheDocument();
    expect(posted).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Add BA' }));
    const split = within(within(dialog).getByTestId('award-lane-L0001'));
    expect(split.getByRole('combobox', { name: 'BA for share 1' })).toHaveTextContent('L1 Patil Carriers (₹41,000.00)');
    await user.click(split.getByRole('combobox', { name: 'BA for share 2' }));
    await user.click(await screen.findByRole('option', { name: /Sharma Roadways/ }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Share 2 of lane L0001' }), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Award' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      path: `${base}/award`,
      key: expect.any(String),
      body: {
        lanes: [
          { laneId: 'L0001', shares: [{ baId: 'ba-2', sharePercent: 60 }, { baId: 'ba-1', sharePercent: 40 }] },
          { laneId: 'L0002', shares: [{ baId: 'ba-1', sharePercent: 100 }] },
        ],
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: `Award RFP ${RFP_CODE}` })).not.toBeInTheDocument());
  });

  it('shows the API’s refusal of an award, closes the dialog and reads the RFP again', async () => {
    const refusal = rfpMessages.notQuoted('ba-1', 'L0001');
    const { fetch } = serve(rfpView({ status: 'evaluation' }), {
      [`${base}/award`]: () => ({ status: 422, body: { message: refusal } }),
    });
    open(['MLL Procurement']);
    await user.click(await screen.findByRole('button', { name: 'Award' }));
    const dialog = await screen.findByRole('dialog', { name: `Award RFP ${RFP_CODE}` });
    await within(dialog).findByRole('textbox', { name: 'Share 1 of lane L0001' });
    const readsBefore = fetch.mock.calls.filter(([u, i]) => String(u).endsWith(base) && !i?.method).length;
    await user.click(within(dialog).getByRole('button', { name: 'Award' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: `Award RFP ${RFP_CODE}` })).not.toBeInTheDocument());
    await waitFor(() => expect(fetch.mock.calls.filter(([u, i]) => String(u).endsWith(base) && !i?.method).length).toBeGreaterThan(readsBefore));
  });

  it('reopens with a new due date, which is required', async () => {
    const { posted } = serve(rfpView({ status: 'closed' }), { [`${base}/reopen`]: () => ({ body: rfpView({ status: 'floated', round: 2 }) }) });
    open(['MLL Procurement']);
    await user.click(await screen.findByRole('button', { name: 'Reopen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reopen RFP' });
    await user.click(within(dialog).getByRole('button', { name: 'Reopen' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(posted).toEqual([]);
    await user.type(within(dialog).getByLabelText(/New due date/), '2026-02-20');
    await user.click(within(dialog).getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(posted).toEqual([expect.objectContaining({ path: `${base}/reopen`, body: { dueDate: '2026-02-20' } })]));
  });

  it('invites a BA for backhaul with the toggle and tells the spec’s message', async () => {
    const { posted } = serve(rfpView(), {
      [`${base}/backhaul-invitations`]: () => ({ body: { message: rfpMessages.inviteSent, invitations: [] } }),
    });
    open(['MLL Operations']);
    await user.click(await screen.findByRole('tab', { name: 'Invited BAs' }));
    const toggle = await screen.findByRole('switch', { name: 'Backhaul invite Sharma Roadways Pvt Ltd' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(posted).toEqual([expect.objectContaining({ path: `${base}/backhaul-invitations`, body: { baId: 'ba-1', isInvited: true } })]));
    expect(await screen.findByText(rfpMessages.inviteSent)).toBeInTheDocument();
  });

  it('compares the responses by the chosen grouping, lowest first with min/avg/max', async () => {
    const { fetch } = serve(rfpView());
    open(['Auditor']);
    await user.click(await screen.findByRole('tab', { name: 'Responses' }));
    const table = await screen.findByRole('table', { name: 'Comparison' });
    const first = within(table).getAllByRole('row')[1]!;
    const listed = within(first).getAllByRole('listitem').map((li) => li.textContent);
    expect(listed).toEqual(['Patil Carriers: ₹41,000.00', 'Sharma Roadways Pvt Ltd: ₹45,000.00']);
    expect(within(first).getByText('₹43,000.00')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Location & vehicle' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([u]) => String(u).includes('/comparison?') && new URL(String(u), 'http://x').searchParams.get('by') === 'location-vehicle')).toBe(true),
    );
  });

  it('downloads the quote matrix, and uploads the T&C as a PDF only', async () => {
    const names = captureDownloads();
    const { posted } = serve(rfpView(), {
      [`${base}/terms`]: () => ({ body: { message: rfpMessages.termsUploaded } }),
    });
    stubFetchAlso(`${base}/quote-matrix`, { blob: new Blob(['x']), headers: { 'Content-Disposition': `attachment; filename="BA Quote-Matrix format-${RFP_CODE}.xlsx"` } });
    open(['MLL Procurement']);
    const files = await screen.findByRole('group', { name: 'RFP files' });
    expect(within(files).getByRole('button', { name: 'Download T&C' })).toBeDisabled();
    await user.click(within(files).getByRole('button', { name: 'Quote matrix' }));
    await waitFor(() => expect(names).toEqual([`BA Quote-Matrix format-${RFP_CODE}.xlsx`]));

    const input = screen.getByTestId('rfp-terms-input');
    // The picker offers PDFs only; a browser may still hand over another file ("All files").
    await userEvent.setup({ delay: null, applyAccept: false }).upload(input, new File(['%PDF'], 'terms.docx', { type: 'application/msword' }));
    expect(await screen.findByText(rfpMessages.termsPdf)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.upload(input, new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(posted.map((p) => p.path)).toEqual([`${base}/terms`]));
    expect(await screen.findByText(rfpMessages.termsUploaded)).toBeInTheDocument();
  });
});

/** Adds one answer to the current fetch stub (for a file route the shared `serve` does not know). */
function stubFetchAlso(path: string, reply: StubReply) {
  const current = globalThis.fetch as jest.Mock;
  const inner = current.getMockImplementation()!;
  current.mockImplementation(async (input: string, init: RequestInit = {}) => {
    if (new URL(input, 'http://console.test').pathname !== path) return inner(input, init);
    return {
      status: 200,
      ok: true,
      statusText: '200',
      headers: new Headers(reply.headers ?? {}),
      text: async () => '',
      json: async () => ({}),
      blob: async () => reply.blob ?? new Blob([]),
    };
  });
}
