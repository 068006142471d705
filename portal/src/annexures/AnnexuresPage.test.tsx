import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { completeDetails, fakeApi, problem, verifiedBaAdmin, type FakeApi } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import type { Annexure } from './api';
import { annexureTexts, PO_POLICY_PATH } from './AnnexuresPage';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

/** Annexure ids are uuids; the n-th of this test's. */
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const annexure = (over: Partial<Annexure> & Pick<Annexure, 'id' | 'title' | 'fileName' | 'fileType'>): Annexure => ({
  size: 120_000,
  status: 'active',
  uploadedAt: '2026-03-02T06:30:00.000Z',
  updatedAt: '2026-03-02T06:30:00.000Z',
  ...over,
});

const ROWS: Annexure[] = [
  annexure({ id: ID(1), title: 'PO Terms and Conditions', fileName: 'po-terms.pdf', fileType: 'application/pdf' }),
  annexure({
    id: ID(2),
    title: 'Rate Card Format',
    fileName: 'rate-card.xlsx',
    fileType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  }),
  annexure({ id: ID(3), title: 'Vehicle Placement Photo Guide', fileName: 'placement.png', fileType: 'image/png' }),
  annexure({
    id: ID(4),
    title: 'Code of Conduct',
    fileName: 'conduct.docx',
    fileType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  }),
  annexure({ id: ID(5), title: 'Penalty Matrix', fileName: 'penalty.bin', fileType: 'application/octet-stream' }),
];

type Served = { list?: { status: number; body: unknown }; files?: Record<string, Blob>; fileStatus?: number };

/**
 * The fake API of the portal's tests plus the annexure routes. File answers carry a Blob (the fake's own
 * replies are JSON only), so the real client's fileCall reads them as it would in a browser.
 */
function annexureApi(served: Served = {}): FakeApi {
  const api = fakeApi({
    session: verifiedBaAdmin,
    ba: verifiedBa,
    intercept: (req) =>
      req.method === 'GET' && req.path === '/api/annexures' ? (served.list ?? { status: 200, body: ROWS }) : undefined,
  });
  const base = api.fetch;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://portal.test');
    const file = /^\/api\/annexures\/([^/]+)\/file$/.exec(url.pathname);
    if (!file) return base(input, init);
    api.requests.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: { ...(init?.headers as Record<string, string>) },
      body: undefined,
    });
    const status = served.fileStatus ?? 200;
    const blob = served.files?.[file[1] ?? ''] ?? new Blob(['bytes'], { type: 'application/octet-stream' });
    const body = status === 200 ? '' : JSON.stringify(problem(status, 'The file could not be read'));
    return {
      status,
      ok: status === 200,
      headers: { get: () => null },
      blob: async () => blob,
      text: async () => body,
      json: async () => JSON.parse(body) as unknown,
    } as unknown as Response;
  };
  return { ...api, fetch: fetch as typeof globalThis.fetch };
}

let objectUrls: Blob[] = [];
let revoked: string[] = [];
let clicked: { href: string; download: string }[] = [];

beforeEach(() => {
  objectUrls = [];
  revoked = [];
  clicked = [];
  // jsdom has no object URLs and no downloads: record both.
  URL.createObjectURL = jest.fn((blob: Blob) => {
    objectUrls.push(blob);
    return `blob:http://portal.test/${objectUrls.length}`;
  });
  URL.revokeObjectURL = jest.fn((url: string) => void revoked.push(url));
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
});

afterEach(() => jest.restoreAllMocks());

const cards = () => screen.findAllByTestId('annexure-card');
const card = async (title: string) =>
  (await cards()).find((c) => within(c).queryByRole('heading', { name: title })) ??
  (() => {
    throw new Error(`no card ${title}`);
  })();

describe('PO Annexures page', () => {
  it('shows a card per annexure: title, file-type icon, "Preview & Download" and the note', async () => {
    renderPortal(annexureApi(), PO_POLICY_PATH);
    expect(await screen.findByRole('heading', { name: 'PO Annexures', level: 1 })).toBeInTheDocument();
    const all = await cards();
    expect(all.map((c) => within(c).getByRole('heading').textContent)).toEqual(ROWS.map((r) => r.title));
    const kinds = all.map((c) => c.querySelector('[data-file-kind]')?.getAttribute('data-file-kind'));
    expect(kinds).toEqual(['pdf', 'excel', 'image', 'word', 'other']);
    expect(within(all[0]!).getByTitle('PDF document')).toBeInTheDocument();
    for (const c of all) {
      expect(within(c).getByRole('button', { name: annexureTexts.action })).toBeInTheDocument();
      expect(within(c).getByText('Only applicable if you have a MLL PO')).toBeInTheDocument();
    }
  });

  it('lays the cards out four to a row on large screens (12-column grid, 3 columns each), fewer on smaller', async () => {
    renderPortal(annexureApi(), PO_POLICY_PATH);
    for (const c of await cards()) {
      const cell = c.closest('.MuiGrid-root');
      expect(cell).toHaveClass('MuiGrid-grid-lg-3', 'MuiGrid-grid-md-4', 'MuiGrid-grid-sm-6', 'MuiGrid-grid-xs-12');
      expect(cell?.parentElement).toHaveClass('MuiGrid-container');
    }
  });

  it('is in the BA header: "PO Annexures" leads to /po-policy', async () => {
    renderPortal(annexureApi(), '/home');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'PO Annexures' }));
    expect(await cards()).toHaveLength(ROWS.length);
    expect(screen.getByTestId('location')).toHaveTextContent(PO_POLICY_PATH);
  });

  it('downloads an .xlsx at once with the session, under its file name, and opens no dialog', async () => {
    const workbook = new Blob(['PK…'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const api = annexureApi({ files: { [ID(2)]: workbook } });
    renderPortal(api, PO_POLICY_PATH);
    await user.click(within(await card('Rate Card Format')).getByRole('button', { name: annexureTexts.action }));

    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:http://portal.test/1', download: 'rate-card.xlsx' }]));
    expect(objectUrls).toEqual([workbook]);
    const [request] = api.sent('GET', `/api/annexures/${ID(2)}/file`);
    expect(request?.query.get('inline')).toBeNull();
    expect(request?.headers['Authorization']).toMatch(/^Bearer /);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('previews a PDF in a dialog frame from an object URL of the inline file; Download saves it; closing revokes it', async () => {
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const api = annexureApi({ files: { [ID(1)]: pdf } });
    renderPortal(api, PO_POLICY_PATH);
    await user.click(within(await card('PO Terms and Conditions')).getByRole('button', { name: annexureTexts.action }));

    const dialog = await screen.findByRole('dialog', { name: 'PO Terms and Conditions' });
    const frame = within(dialog).getByTitle('PO Terms and Conditions (PDF preview)');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'blob:http://portal.test/1');
    expect(objectUrls[0]?.type).toBe('application/pdf');
    const [request] = api.sent('GET', `/api/annexures/${ID(1)}/file`);
    expect(request?.query.get('inline')).toBe('1');
    expect(request?.headers['Authorization']).toMatch(/^Bearer /);

    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(clicked).toEqual([{ href: 'blob:http://portal.test/1', download: 'po-terms.pdf' }]);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(revoked).toEqual(['blob:http://portal.test/1']);
  });

  it('shows the PDF as a PDF whatever type the answer claimed (never as a page of the portal)', async () => {
    const api = annexureApi({ files: { [ID(1)]: new Blob(['<html>'], { type: 'text/html' }) } });
    renderPortal(api, PO_POLICY_PATH);
    await user.click(within(await card('PO Terms and Conditions')).getByRole('button', { name: annexureTexts.action }));
    await screen.findByRole('dialog', { name: 'PO Terms and Conditions' });
    expect(objectUrls[0]?.type).toBe('application/pdf');
  });

  it('previews an image in the dialog', async () => {
    renderPortal(annexureApi({ files: { [ID(3)]: new Blob(['png'], { type: 'image/png' }) } }), PO_POLICY_PATH);
    await user.click(
      within(await card('Vehicle Placement Photo Guide')).getByRole('button', { name: annexureTexts.action }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Vehicle Placement Photo Guide' });
    expect(within(dialog).getByRole('img', { name: 'Vehicle Placement Photo Guide' })).toHaveAttribute(
      'src',
      'blob:http://portal.test/1',
    );
  });

  it('downloads a Word document directly (a frame could not show it)', async () => {
    renderPortal(annexureApi(), PO_POLICY_PATH);
    await user.click(within(await card('Code of Conduct')).getByRole('button', { name: annexureTexts.action }));
    await waitFor(() => expect(clicked.map((c) => c.download)).toEqual(['conduct.docx']));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    ['a server error', { status: 500, body: problem(500, 'There was a problem at our end') }],
    ['a refusal', { status: 403, body: problem(403, 'Forbidden') }],
  ])('ignores %s of the list silently: the empty page, no error dialog (spec 000 §8)', async (_what, list) => {
    const api = annexureApi({ list });
    renderPortal(api, PO_POLICY_PATH);
    expect(await screen.findByTestId('annexures-empty')).toHaveTextContent(annexureTexts.empty);
    expect(api.sent('GET', '/api/annexures')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByTestId('annexure-card')).not.toBeInTheDocument();
  });

  it('says a file could not be opened (only the list fails silently)', async () => {
    renderPortal(annexureApi({ fileStatus: 404 }), PO_POLICY_PATH);
    await user.click(within(await card('PO Terms and Conditions')).getByRole('button', { name: annexureTexts.action }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByTestId('error-message')).toHaveTextContent('The file could not be read');
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });
});
