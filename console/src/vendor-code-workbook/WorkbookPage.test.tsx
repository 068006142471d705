import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderConsole } from '../testing/fakes';
import { captureDownloads, sapDataProvider, stubFetch, xlsx } from '../vendor-code/testing';
import type { WorkbookPreviewRow } from '../vendor-code/types';
import { msgTypeLabel, venCodeLabel, WORKBOOK_TEXTS } from './api';

const user = userEvent.setup({ delay: null });

afterEach(() => jest.restoreAllMocks());

const previewRows = (n: number): WorkbookPreviewRow[] =>
  Array.from({ length: n }, (_, i) => ({
    sheet: 'Parent Sheet',
    values: { Name: `Vendor ${i + 1}`, 'PAN Number': `ABCDE${String(1000 + i)}F` },
  }));

const fileInput = (kind: string) => screen.getByTestId(`workbook-file-${kind}`);

describe('Vendor-code upload screens (MLL-ADMIN)', () => {
  it('maps MSGTYPE and VEN_CODE as the spec says', () => {
    expect(msgTypeLabel('S')).toBe('SUCCESS');
    expect(msgTypeLabel('E')).toBe('ERROR');
    expect(msgTypeLabel('W')).toBe('ERROR');
    expect(msgTypeLabel('')).toBe('INVALID CODE');
    expect(msgTypeLabel(null)).toBe('INVALID CODE');
    expect(venCodeLabel('')).toBe('-');
    expect(venCodeLabel(null)).toBe('-');
    expect(venCodeLabel('1000000123')).toBe('1000000123');
  });

  it('shows the title, the three buttons and the empty state; the sidebar offers both screens to MLL-ADMIN only', async () => {
    stubFetch(() => undefined);
    renderConsole('/sap/create-utility-vendor-code', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Utility/Government Vendor Code Creation' })).toBeInTheDocument();
    expect(screen.getByText(WORKBOOK_TEXTS.empty)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Template' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Download Template' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(screen.getByRole('menuitem', { name: 'Create Utility/Government Vendor Code' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Create Other Company Vendor Code' })).toBeInTheDocument();
  });

  it('is not offered to other staff', async () => {
    stubFetch(() => undefined);
    renderConsole('/sap/create-other-company-vendor-code', { dataProvider: sapDataProvider(), roles: ['MDM'] });
    expect(await screen.findByText("You don't have enough rights to view this page.")).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Create Other Company Vendor Code/ })).not.toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /All BA/ })).toBeInTheDocument();
  });

  it('refuses a file that is not .xlsx/.xls without sending it', async () => {
    const fetch = stubFetch(() => undefined);
    renderConsole('/sap/create-utility-vendor-code', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await screen.findByText(WORKBOOK_TEXTS.empty);
    await user.upload(fileInput('utility'), new File(['a,b'], 'vendors.csv', { type: 'text/csv' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(WORKBOOK_TEXTS.onlyExcel)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('vendor-code-workbooks'))).toBe(false);
  });

  it('lists every failed cell in the "Validation Error" dialog: Sheet, Row No, Column Name, Data', async () => {
    const fetch = stubFetch((url, init) =>
      url.pathname === '/api/vendor-code-workbooks/validate' && init.method === 'POST'
        ? {
            status: 400,
            body: {
              message: 'Validation Error',
              errors: [
                { sheet: 'Parent Sheet', row: 2, column: 'PAN Number', value: null, message: 'No Data Present' },
                { sheet: 'Child Sheet', row: 5, column: 'TaxNumber(GSTIN)-Number', value: '29ABCDE1234F1Z5', message: 'not matching with Region code' },
              ],
            },
          }
        : undefined,
    );
    renderConsole('/sap/create-other-company-vendor-code', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Other Company Vendor Code Creation' })).toBeInTheDocument();
    await user.upload(fileInput('other-company'), xlsx('external.xlsx'));

    const dialog = await screen.findByRole('dialog', { name: 'Validation Error' });
    const table = within(dialog).getByRole('table');
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(within(header!).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Sheet', 'Row No', 'Column Name', 'Data']);
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Parent Sheet', '2', 'PAN Number', 'No Data Present']);
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Child Sheet',
      '5',
      'TaxNumber(GSTIN)-Number',
      'not matching with Region code: 29ABCDE1234F1Z5',
    ]);
    const call = fetch.mock.calls.find(([u]) => String(u).includes('/validate'))!;
    expect(new URL(String(call[0]), 'http://x').searchParams.get('kind')).toBe('other-company');
    expect((call[1] as RequestInit).body).toBeInstanceOf(FormData);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Nothing to submit after a refused workbook.
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(screen.getByText(WORKBOOK_TEXTS.empty)).toBeInTheDocument();
  });

  it('previews the workbook page by page, submits it and shows the ERP answer per row, then "File Uploaded successfully"', async () => {
    const submitted: RequestInit[] = [];
    stubFetch((url, init) => {
      if (url.pathname === '/api/vendor-code-workbooks/validate') return { body: { rows: previewRows(12) } };
      if (url.pathname === '/api/vendor-code-workbooks' && init.method === 'POST') {
        submitted.push(init);
        return {
          body: {
            status: 'success',
            message: 'File uploaded successfully',
            data: [
              { Type: 'Parent', PAN: 'ABCDE1000F', MSG: 'Vendor created', MSGTYPE: 'S', VEN_CODE: '1000000123' },
              { Type: 'Child', PAN: 'ABCDE1001F', MSG: 'GSTIN already used', MSGTYPE: 'E', VEN_CODE: '' },
              { Type: 'Parent', PAN: 'ABCDE1002F', MSG: 'No answer', MSGTYPE: '', VEN_CODE: '' },
            ],
          },
        };
      }
      return undefined;
    });
    renderConsole('/sap/create-utility-vendor-code', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await screen.findByText(WORKBOOK_TEXTS.empty);
    await user.upload(fileInput('utility'), xlsx('utility.xlsx'));

    const preview = await screen.findByRole('table', { name: 'Preview' });
    expect(within(preview).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Name', 'PAN Number']);
    expect(within(preview).getAllByRole('row')).toHaveLength(11); // header + 10 (default page size)
    expect(within(preview).getByText('Vendor 10')).toBeInTheDocument();
    expect(screen.queryByText(WORKBOOK_TEXTS.empty)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /next page/i }));
    expect(within(screen.getByRole('table', { name: 'Preview' })).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('Vendor 12')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Utility Vendor Message' });
    const [header, ...rows] = within(dialog).getAllByRole('row');
    expect(within(header!).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Type', 'PAN', 'MSG', 'MSGTYPE', 'VEN_CODE']);
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Parent', 'ABCDE1000F', 'Vendor created', 'SUCCESS', '1000000123']);
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Child', 'ABCDE1001F', 'GSTIN already used', 'ERROR', '-']);
    expect(within(rows[2]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Parent', 'ABCDE1002F', 'No answer', 'INVALID CODE', '-']);
    expect(await screen.findByText(WORKBOOK_TEXTS.uploaded)).toBeInTheDocument();
    expect(submitted).toHaveLength(1);
    expect(new Headers(submitted[0]!.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    // The selection is cleared.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText(WORKBOOK_TEXTS.empty)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled());
  });

  it('keeps the selection and shows the per-row messages when the upload fails, and the server message otherwise', async () => {
    let answer: 'fail' | 'error' = 'fail';
    stubFetch((url, init) => {
      if (url.pathname === '/api/vendor-code-workbooks/validate') return { body: { rows: previewRows(2) } };
      if (url.pathname === '/api/vendor-code-workbooks' && init.method === 'POST') {
        return answer === 'fail'
          ? { body: { status: 'fail', message: 'Some vendors were not created', data: [{ Type: 'Parent', PAN: 'ABCDE1000F', MSG: 'Duplicate PAN', MSGTYPE: 'E', VEN_CODE: '' }] } }
          : { status: 503, body: { message: 'The ERP is not reachable' } };
      }
      return undefined;
    });
    renderConsole('/sap/create-other-company-vendor-code', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await screen.findByText(WORKBOOK_TEXTS.empty);
    await user.upload(fileInput('other-company'), xlsx('external.xls'));
    await screen.findByRole('table', { name: 'Preview' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Vendor Code Validation message' });
    expect(within(dialog).getByText('Duplicate PAN')).toBeInTheDocument();
    expect(within(dialog).getByText('Some vendors were not created')).toBeInTheDocument();
    expect(within(dialog).getByText('ERROR')).toBeInTheDocument();
    expect(screen.queryByText(WORKBOOK_TEXTS.uploaded)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('workbook-chosen')).toHaveTextContent('external.xls');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled());

    answer = 'error';
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const error = await screen.findByTestId('error-message');
    expect(error).toHaveTextContent('The ERP is not reachable');
    expect(error).toHaveTextContent('503');
  });

  it('downloads the template under the spec’s names', async () => {
    const names = captureDownloads();
    stubFetch((url) =>
      url.pathname.startsWith('/api/vendor-code-workbooks/templates/')
        ? { blob: new Blob(['x']), headers: {} }
        : undefined,
    );
    renderConsole('/sap/create-other-company-vendor-code', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await user.click(await screen.findByRole('button', { name: 'Download Template' }));
    await waitFor(() => expect(names).toEqual(['External-Vendor-Code-Template.xlsx']));
  });
});
