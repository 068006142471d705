import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderConsole } from '../testing/fakes';
import { captureDownloads, sapDataProvider, stubFetch, xlsx } from '../vendor-code/testing';
import { MASS_UPLOAD_MESSAGES } from './api';

const user = userEvent.setup({ delay: null });

afterEach(() => jest.restoreAllMocks());

const card = async (kind: 'nucleus' | 'sap-verified') => screen.findByTestId(`mass-upload-${kind}`);
const input = (kind: string) => screen.getByTestId(`mass-upload-file-${kind}`);

describe('Mass upload (MLL-ADMIN, MDM)', () => {
  it('shows the API’s 415 message (code 101) for a file the API does not take', async () => {
    const fetch = stubFetch((url, init) =>
      url.pathname === '/api/mass-uploads' && init.method === 'POST'
        ? { status: 415, body: { code: 101, message: 'Please Select Only xlsx or xls File' } }
        : undefined,
    );
    renderConsole('/sap/mass-upload', { dataProvider: sapDataProvider(), roles: ['MDM'] });
    await card('nucleus');
    await user.upload(input('nucleus'), xlsx('vendors.xlsx'));
    expect(await screen.findByTestId('error-message')).toHaveTextContent(MASS_UPLOAD_MESSAGES.onlyExcel);
    const posted = fetch.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST');
    expect(posted).toHaveLength(1);
    expect(new URL(String(posted[0]![0]), 'http://x').searchParams.get('kind')).toBe('nucleus');
    expect((posted[0]![1] as RequestInit).body).toBeInstanceOf(FormData);
  });

  it('refuses a non-Excel file itself, with the same message, and sends nothing', async () => {
    const fetch = stubFetch(() => undefined);
    renderConsole('/sap/mass-upload', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await card('sap-verified');
    // A file dragged in or picked with "All files" bypasses the input's accept list.
    const anyFile = userEvent.setup({ delay: null, applyAccept: false });
    await anyFile.upload(input('sap-verified'), new File(['x'], 'vendors.pdf', { type: 'application/pdf' }));
    expect(await screen.findByTestId('error-message')).toHaveTextContent(MASS_UPLOAD_MESSAGES.onlyExcel);
    expect(fetch.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toBe(false);
  });

  it.each([
    ['nucleus', 'Nucleus-Mass-Upload-Error.xlsx'],
    ['sap-verified', 'SAP-Verified-Mass-Upload-Error.xlsx'],
  ] as const)('on 201 (%s) saves the error workbook as %s and says so', async (kind, fileName) => {
    const names = captureDownloads();
    stubFetch((url, init) =>
      url.pathname === '/api/mass-uploads' && init.method === 'POST'
        ? {
            status: 201,
            blob: new Blob(['errors'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
            headers: { 'Content-Disposition': `attachment; filename="${fileName}"` },
          }
        : undefined,
    );
    renderConsole('/sap/mass-upload', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await card(kind);
    await user.upload(input(kind), xlsx('upload.xlsx'));
    await waitFor(() => expect(names).toEqual([fileName]));
    expect(await screen.findByTestId('error-message')).toHaveTextContent(MASS_UPLOAD_MESSAGES.errorsInFile);
    expect(within(await card(kind)).getByTestId('mass-upload-result')).toHaveTextContent(MASS_UPLOAD_MESSAGES.errorsInFile);
  });

  it('names the error workbook by its kind even when the API sends no file name', async () => {
    const names = captureDownloads();
    stubFetch((url, init) =>
      url.pathname === '/api/mass-uploads' && init.method === 'POST' ? { status: 201, blob: new Blob(['e']) } : undefined,
    );
    renderConsole('/sap/mass-upload', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await card('sap-verified');
    await user.upload(input('sap-verified'), xlsx('upload.xls'));
    await waitFor(() => expect(names).toEqual(['SAP-Verified-Mass-Upload-Error.xlsx']));
  });

  it('reports a good file with its counts, and downloads the templates under the spec’s names', async () => {
    const names = captureDownloads();
    stubFetch((url, init) => {
      if (url.pathname === '/api/mass-uploads' && init.method === 'POST') {
        return { body: { message: 'File uploaded successfully', uploadId: 'up-1', rows: 3, created: 2, unchanged: 1 } };
      }
      if (url.pathname.startsWith('/api/mass-uploads/templates/')) return { blob: new Blob(['t']) };
      return undefined;
    });
    renderConsole('/sap/mass-upload', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    const nucleus = await card('nucleus');
    await user.upload(input('nucleus'), xlsx('good.xlsx'));
    expect(await within(nucleus).findByTestId('mass-upload-result')).toHaveTextContent(
      'File uploaded successfully 3 rows: 2 created, 1 unchanged.',
    );
    await user.click(within(nucleus).getByRole('button', { name: 'Download Template' }));
    await user.click(within(await card('sap-verified')).getByRole('button', { name: 'Download Template' }));
    await waitFor(() =>
      expect(names).toEqual(['Nucleus-Mass-Upload-Template.xlsx', 'SAP-Verified-Mass-Upload-Template.xlsx']),
    );
  });

  it('follows a long upload (202) through its progress until the rows are recorded', async () => {
    const answers = [
      { uploadId: 'up-7', state: 'recording', processed: 4000, total: 8000, message: null },
      { uploadId: 'up-7', state: 'recorded', processed: 8000, total: 8000, created: 7990, unchanged: 10, message: null },
    ];
    stubFetch((url, init) => {
      if (url.pathname === '/api/mass-uploads' && init.method === 'POST') {
        return { status: 202, body: { uploadId: 'up-7', state: 'recording', processed: 0, total: 8000 } };
      }
      if (url.pathname === '/api/mass-uploads/up-7') return { body: answers.length > 1 ? answers.shift() : answers[0] };
      return undefined;
    });
    renderConsole('/sap/mass-upload', { dataProvider: sapDataProvider(), roles: ['MDM'] });
    const nucleus = await card('nucleus');
    await user.upload(input('nucleus'), xlsx('big.xlsx'));
    expect(await within(nucleus).findByText('Saving rows: 4000 of 8000')).toBeInTheDocument();
    expect(await within(nucleus).findByTestId('mass-upload-result')).toHaveTextContent(
      'File uploaded successfully 8000 rows: 7990 created, 10 unchanged.',
    );
  });

  it('is not for other staff', async () => {
    stubFetch(() => undefined);
    renderConsole('/sap/mass-upload', { dataProvider: sapDataProvider(), roles: ['MLL Accounts'] });
    expect(await screen.findByText("You don't have enough rights to view this page.")).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Mass Upload' })).not.toBeInTheDocument();
  });
});
