import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LaneColumn } from '../../../domain/src/rfp/model';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { completeDetails, fakeApi, problem, verifiedBaAdmin, type FakeApi, type RecordedRequest } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { rfpTexts, type LaneRow, type RfpBaListRow, type RfpBaView } from './api';
import { DEFAULT_COLUMN_WIDTH, defaultLaneColDef, laneColumnDefs, laneProblemsText, quotesToSave, rowsOf } from './laneColumns';
import { RFP_SIDEBAR } from './RfpLayout';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

const COLUMNS: LaneColumn[] = [
  { key: 'fromCity', label: 'From City', owner: 'mll', type: 'text', required: true },
  { key: 'toCity', label: 'To City', owner: 'mll', type: 'text', required: true },
  { key: 'vehicleType', label: 'Vehicle Type', owner: 'mll', type: 'select', options: ['32FT', '20FT'], required: true },
  { key: 'rate', label: 'Rate', owner: 'ba', type: 'number', required: true },
  { key: 'availability', label: 'Availability', owner: 'ba', type: 'select', options: ['Yes', 'No'], required: false },
];

const LANES: LaneRow[] = [
  { laneId: 'L0001', position: 0, values: { fromCity: 'Pune', toCity: 'Delhi', vehicleType: '32FT' }, quote: { rate: '41000', availability: 'Yes' } },
  { laneId: 'L0002', position: 1, values: { fromCity: 'Pune', toCity: 'Chennai', vehicleType: '20FT' }, quote: null },
  { laneId: 'L0003', position: 2, values: { fromCity: 'Nashik', toCity: 'Surat', vehicleType: '20FT' }, quote: null },
];

const listRow = (n: number): RfpBaListRow => ({
  id: `RFP-${n}`,
  serialNo: n,
  rfpCode: `RFP-${n}`,
  casshOppId: `OPP-${n}`,
  oppDescription: 'Outbound FG',
  customerName: `Customer ${n}`,
  rfpType: 'standard',
  status: 'floated',
  statusColour: 'submitted',
  round: 1,
  receiveDate: '2026-11-01',
  dueDate: '2026-12-10',
  dueAt: '2026-12-10T18:29:59.999Z',
  biddingClosedAt: null,
  createdAt: '2026-11-01T05:00:00.000Z',
  floatedAt: '2026-11-02T05:00:00.000Z',
  updatedAt: '2026-11-02T05:00:00.000Z',
  laneCount: 3,
  roundInvited: 1,
  invitedAt: '2026-11-02T05:00:00.000Z',
  comments: '',
  backhaulInvited: false,
  lanesQuoted: 1,
  lanesAwarded: null,
});

const rfpView = (over: Partial<RfpBaView> = {}): RfpBaView =>
  ({
    ...listRow(1),
    header: {} as RfpBaView['header'],
    columns: COLUMNS,
    comment: 'Please quote all lanes',
    terms: null,
    awards: [],
    ...over,
  }) as RfpBaView;

type Served = {
  total?: number;
  rfp?: RfpBaView;
  save?: (req: RecordedRequest) => { status: number; body?: unknown };
  /** The answer to POST bids: 400 = the error workbook. */
  bidStatus?: number;
  /** The lanes' round (a reopened RFP is in round 2) and the BA's quotes of the round before it. */
  round?: number;
  earlier?: { laneId: string; values: Record<string, string | null> }[];
};

/** The portal's fake API plus the BA RFP routes; bids answer with a Blob (the fake's replies are JSON only). */
function rfpFakeApi(served: Served = {}): FakeApi {
  const total = served.total ?? 23;
  const api = fakeApi({
    session: verifiedBaAdmin,
    ba: verifiedBa,
    intercept: (req) => {
      if (req.method === 'GET' && req.path === '/api/rfps') {
        const [start, end] = JSON.parse(req.query.get('range') ?? '[0,9]') as [number, number];
        const rows = Array.from({ length: Math.max(0, Math.min(end, total - 1) - start + 1) }, (_, i) => listRow(start + i + 1));
        return { status: 200, body: rows, headers: { 'Content-Range': `rfps ${start}-${start + rows.length - 1}/${total}` } };
      }
      if (req.method === 'GET' && req.path === '/api/rfps/RFP-1') return { status: 200, body: served.rfp ?? rfpView() };
      if (req.method === 'GET' && req.path === '/api/rfps/RFP-1/lanes')
        return { status: 200, body: { rows: LANES, total: LANES.length, round: served.round ?? 1, columns: COLUMNS } };
      if (req.method === 'GET' && req.path === '/api/rfps/RFP-1/responses/mine')
        return { status: 200, body: { round: Number(req.query.get('round')), quotes: served.earlier ?? [] } };
      if (req.method === 'PUT' && req.path === '/api/rfps/RFP-1/responses/mine')
        return served.save?.(req) ?? { status: 200, body: { message: rfpMessages.laneResponseSaved, round: 1, quotes: [] } };
      return undefined;
    },
  });
  const base = api.fetch;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://portal.test');
    if (url.pathname !== '/api/rfps/RFP-1/bids') return base(input, init);
    api.requests.push({ method: init?.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: {}, body: init?.body });
    const status = served.bidStatus ?? 200;
    const headers: Record<string, string> =
      status === 400
        ? {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'x-upload-error': encodeURIComponent('Row 2: Please enter the Rate'),
          }
        : { 'content-type': 'application/json' };
    const body = status === 200 ? JSON.stringify({ message: rfpMessages.fileUploadSuccessful, round: 1, lanes: 2 }) : '';
    return {
      status,
      ok: status === 200,
      headers: { get: (n: string) => headers[n.toLowerCase()] ?? null },
      blob: async () => new Blob(['xlsx-bytes']),
      text: async () => body,
      json: async () => JSON.parse(body) as unknown,
    } as unknown as Response;
  };
  return { ...api, fetch: fetch as typeof globalThis.fetch };
}

const rangesAsked = (api: FakeApi) =>
  api.requests.filter((r) => r.method === 'GET' && r.path === '/api/rfps').map((r) => r.query.get('range'));

describe('lane grid columns', () => {
  it('makes only the BA columns editable, the lane id frozen left, selects with their options', () => {
    const defs = laneColumnDefs(COLUMNS, { editable: true });
    expect(defs.map((d) => d.colId)).toEqual(['laneId', 'fromCity', 'toCity', 'vehicleType', 'rate', 'availability']);
    const editable = Object.fromEntries(defs.map((d) => [d.colId, d.editable]));
    expect(editable).toEqual({ laneId: false, fromCity: false, toCity: false, vehicleType: false, rate: true, availability: true });
    expect(defs[0]).toMatchObject({ pinned: 'left' });
    expect(defs.find((d) => d.colId === 'availability')).toMatchObject({
      cellEditor: 'agSelectCellEditor',
      cellEditorParams: { values: ['', 'Yes', 'No'] },
    });
    // An MLL select is read-only: no editor.
    expect(defs.find((d) => d.colId === 'vehicleType')?.cellEditor).toBeUndefined();
    expect(defs.find((d) => d.colId === 'rate')?.filter).toBe('agNumberColumnFilter');
  });

  it('is sortable, filterable and resizable, 160 wide by default', () => {
    expect(defaultLaneColDef).toMatchObject({ sortable: true, filter: true, resizable: true, width: DEFAULT_COLUMN_WIDTH });
    expect(DEFAULT_COLUMN_WIDTH).toBe(160);
  });

  it('makes nothing editable once bidding is closed', () => {
    expect(laneColumnDefs(COLUMNS, { editable: false }).some((d) => d.editable)).toBe(false);
  });

  it('saves only the changed lanes, each with all its BA columns', () => {
    const rows = rowsOf(LANES);
    rows[1]!.quote['rate'] = '39000';
    expect(quotesToSave(rows, new Set(['L0002']), COLUMNS)).toEqual({ L0002: { rate: '39000', availability: null } });
  });
});

describe('a refused save', () => {
  it('names the lane of each problem, lanes in order, at most ten', () => {
    expect(laneProblemsText({ 'L0010.transitDays': 'Transit Time (days) is required', 'L0002.ratePerTrip': 'Rate per Trip must be a number' })).toBe(
      'Lane L0002: Rate per Trip must be a number\nLane L0010: Transit Time (days) is required',
    );
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`L${String(i + 1).padStart(4, '0')}.rate`, 'is required']));
    const text = laneProblemsText(many)!.split('\n');
    expect(text).toHaveLength(11);
    expect(text[10]).toBe('…and 2 more');
    expect(laneProblemsText({ quotes: 'Quote at least one lane' })).toBeNull();
  });
});

describe('BA RFP dashboard', () => {
  it('asks for page 0 of 10 first and offers 5, 10 and 20 a page', async () => {
    const api = rfpFakeApi();
    renderPortal(api, '/rfp/BA/dashboard');
    expect(await screen.findByText('Customer 1')).toBeInTheDocument();
    expect(rangesAsked(api)).toEqual(['[0,9]']);
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'RFPs' })).getAllByRole('row')).toHaveLength(11);

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('Customer 11')).toBeInTheDocument();
    expect(rangesAsked(api)).toEqual(['[0,9]', '[10,19]']);

    await user.click(screen.getByRole('combobox'));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['5', '10', '20']);
    await user.click(screen.getByRole('option', { name: '20' }));
    // A new page size starts again at page 0.
    await waitFor(() => expect(rangesAsked(api).at(-1)).toBe('[0,19]'));
  });

  it('shows the RFP sidebar and opens an RFP from its row', async () => {
    const api = rfpFakeApi({ total: 1 });
    renderPortal(api, '/rfp/BA/dashboard');
    const sidebar = await screen.findByRole('navigation', { name: 'RFP' });
    expect(within(sidebar).getAllByRole('link').map((l) => l.textContent)).toEqual(RFP_SIDEBAR.map((e) => e.label));
    expect(within(sidebar).getByRole('link', { name: 'Awarded RFP' })).toHaveAttribute('href', '/workInProgress');
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'RFP' })).toHaveAttribute(
      'href',
      '/rfp/BA/dashboard',
    );
    await user.click(await screen.findByText('Customer 1'));
    expect(await screen.findByTestId('location')).toHaveTextContent('/rfp/BA/view/RFP-1/standard');
  });

  it('sends a BA that is not verified to its onboarding status', async () => {
    const api = fakeApi({ session: { ...verifiedBaAdmin, baStatus: 'pending' }, ba: { status: 'pending' } });
    renderPortal(api, '/rfp/BA/dashboard');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/onboard/status'));
    expect(api.requests.some((r) => r.path === '/api/rfps')).toBe(false);
  });
});

/** The grid cell of a lane's column (AG Grid marks rows with row-id, cells with col-id). */
const cellOf = (laneId: string, colId: string): HTMLElement => {
  // A row is split in parts (pinned left, scrolling): the cell is in one of them.
  const cell = Array.from(document.querySelectorAll(`[row-id="${laneId}"]`))
    .map((part) => part.querySelector(`[role="gridcell"][col-id="${colId}"]`))
    .find((c) => c !== null);
  if (!(cell instanceof HTMLElement)) throw new Error(`no cell ${laneId}/${colId}`);
  return cell;
};

/** The grid's open cell editor, if any. */
const gridEditor = (): HTMLInputElement | null =>
  document.querySelector<HTMLInputElement>('[data-testid="lane-grid"] .ag-cell-inline-editing input');

/** Clicks a cell (the grid edits on a single click) and answers its editor. */
async function editorOf(laneId: string, colId: string): Promise<HTMLInputElement> {
  await user.click(cellOf(laneId, colId));
  return waitFor(() => {
    const input = gridEditor();
    if (!input) throw new Error('no editor');
    return input;
  });
}

describe('BA RFP view', () => {
  const openView = async (api: FakeApi) => {
    renderPortal(api, '/rfp/BA/view/RFP-1/standard');
    expect(await screen.findByRole('heading', { name: 'RFP RFP-1' })).toBeInTheDocument();
    await waitFor(() => expect(cellOf('L0002', 'fromCity')).toHaveTextContent('Pune'));
  };

  it('saves only the lanes the BA changed and shows the API message', async () => {
    const api = rfpFakeApi();
    await openView(api);
    await user.type(await editorOf('L0002', 'rate'), '39000{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(rfpMessages.laneResponseSaved.trim())).toBeInTheDocument();
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe('/api/rfps/RFP-1/responses/mine');
    expect(put?.body).toEqual({ round: 1, quotes: { L0002: { rate: '39000', availability: null } } });
  });

  it('fills a reopened round with the BA’s quotes of the round before, to revise and save as this round’s', async () => {
    const earlier = [
      { laneId: 'L0001', values: { rate: '40000', availability: 'No' } },
      { laneId: 'L0002', values: { rate: '38000', availability: 'Yes' } },
    ];
    const api = rfpFakeApi({ round: 2, earlier, rfp: rfpView({ round: 2 }) });
    await openView(api);
    // L0001 already has a quote in this round (the fake's lane row): it stays; L0002 gets its round-1 quote.
    await waitFor(() => expect(cellOf('L0002', 'rate')).toHaveTextContent('38000'));
    expect(cellOf('L0001', 'rate')).toHaveTextContent('41000');
    expect(cellOf('L0003', 'rate')).toHaveTextContent('');
    expect(screen.getByTestId('carried-forward')).toHaveTextContent(rfpTexts.carriedForward(1, 1));
    expect(api.requests.some((r) => r.path === '/api/rfps/RFP-1/responses/mine' && r.query.get('round') === '1')).toBe(true);

    const editor = await editorOf('L0002', 'rate');
    await user.clear(editor);
    await user.type(editor, '36500{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(rfpMessages.laneResponseSaved.trim())).toBeInTheDocument();
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({ round: 2, quotes: { L0002: { rate: '36500', availability: 'Yes' } } });
    expect(screen.queryByTestId('carried-forward')).not.toBeInTheDocument();
  });

  it('shows the API refusal after the due date', async () => {
    const api = rfpFakeApi({ save: () => ({ status: 422, body: problem(422, 'Bidding for this RFP has closed') }) });
    await openView(api);
    const editor = await editorOf('L0001', 'rate');
    await user.clear(editor);
    await user.type(editor, '40000{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bidding for this RFP has closed')).toBeInTheDocument();
  });

  it('offers the error workbook of a refused bid upload', async () => {
    const saved: { href: string; download: string }[] = [];
    const createObjectURL = jest.fn(() => 'blob:errors');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    try {
      const api = rfpFakeApi({ bidStatus: 400 });
      await openView(api);
      const file = new File(['bid'], 'bid.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
      await user.upload(screen.getByTestId('bid-upload'), file);
      // The message in the error dialog; closed, the page offers the file beside the same message.
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText('Row 2: Please enter the Rate')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button'));
      const offer = await screen.findByRole('button', { name: 'Download RFPTemplateErrorBA-RFP-1.xlsx' });
      expect(screen.getByText('Row 2: Please enter the Rate')).toBeInTheDocument();
      expect(api.requests.some((r) => r.method === 'POST' && r.path === '/api/rfps/RFP-1/bids')).toBe(true);
      await user.click(offer);
      expect(saved).toEqual([{ href: 'blob:errors', download: 'RFPTemplateErrorBA-RFP-1.xlsx' }]);
    } finally {
      click.mockRestore();
    }
  });

  it('tells a BA invited for backhaul, and nobody else', async () => {
    await openView(rfpFakeApi({ rfp: rfpView({ backhaulInvited: true }) }));
    expect(screen.getByTestId('backhaul-invited')).toHaveTextContent(rfpTexts.backhaulInvited);
  });

  it('shows no backhaul invitation to a BA not invited', async () => {
    await openView(rfpFakeApi());
    expect(screen.queryByTestId('backhaul-invited')).not.toBeInTheDocument();
  });

  it('offers no quoting once bidding is closed and shows the BA its award', async () => {
    const award = { round: 1, laneId: 'L0001', baId: 'ba-1', companyName: 'Acme', sharePercent: 60, rates: { rate: '141000.5' }, rate: 141000.5, awardedAt: '2026-12-12T05:00:00.000Z' };
    // A lane awarded on an RFP without a numeric rate column has no rate to show.
    const unrated = { ...award, laneId: 'L0002', sharePercent: 100, rates: {}, rate: null };
    const api = rfpFakeApi({ rfp: rfpView({ status: 'awarded', statusColour: 'released', awards: [award, unrated] }) });
    await openView(api);
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('bid-upload')).not.toBeInTheDocument();
    const outcome = screen.getByTestId('rfp-outcome');
    expect(within(outcome).getByText('L0001')).toBeInTheDocument();
    expect(within(outcome).getByText('60')).toBeInTheDocument();
    // Rates in ₹ with Indian grouping and paise (spec 001 §9), "NA" for none.
    const rows = within(outcome).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['L0001', '60', '₹1,41,000.50', '1'],
      ['L0002', '100', 'NA', '1'],
    ]);
    // The same click that opens an editor while bidding is open (the tests above) opens none now.
    await user.click(cellOf('L0002', 'rate'));
    expect(gridEditor()).toBeNull();
  });
});
