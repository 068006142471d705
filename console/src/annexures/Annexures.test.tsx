import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from 'react-admin';
import { messages } from '../../../domain/src/validation/fields';
import { FILE_KINDS, uploadMessages } from '../../../domain/src/validation/files';
import { fakeDataProvider, renderConsole, type FakeDataProvider } from '../testing/fakes';
import { FILE_REQUIRED } from './AnnexureInputs';
import { NOTHING_CHANGED } from './ReplaceAnnexureButton';
import type { AnnexureRow } from './types';
import { ANNEXURE_MESSAGES } from './useAnnexureCommand';

// The whole console mounts per test on shared 2-core machines: room for slow runs (nothing asserts timing).
const user = userEvent.setup({ delay: null });

const ROWS: AnnexureRow[] = [
  {
    id: 'a0c1d5e2-7d5b-4c1e-9a51-6f3f1c2b0001',
    title: 'PO Terms and Conditions',
    fileName: 'po-terms.pdf',
    fileType: 'application/pdf',
    size: 1_572_864,
    status: 'active',
    uploadedAt: '2026-01-10T05:00:00.000Z',
    updatedAt: '2026-03-02T20:00:00.000Z',
  },
  {
    id: 'a0c1d5e2-7d5b-4c1e-9a51-6f3f1c2b0002',
    title: 'Rate Card Format',
    fileName: 'rate-card.xlsx',
    fileType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    size: 20_480,
    status: 'active',
    uploadedAt: '2026-01-15T05:00:00.000Z',
    updatedAt: '2026-01-15T05:00:00.000Z',
  },
];

type AnnexureProvider = FakeDataProvider & {
  uploadAnnexure: jest.Mock;
  replaceAnnexure: jest.Mock;
  withdrawAnnexure: jest.Mock;
};

/** The console's fake provider with the annexure list and commands (each a jest mock). */
function annexureProvider(rows: AnnexureRow[] = ROWS): AnnexureProvider {
  const provider = fakeDataProvider();
  const getList = provider.getList.getMockImplementation()!;
  provider.getList.mockImplementation(async (resource: string, params: unknown) =>
    resource === 'annexures' ? { data: rows, total: rows.length } : getList(resource, params),
  );
  return Object.assign(provider, {
    uploadAnnexure: jest.fn(async ({ title, file }: { title: string; file: File }) => ({
      data: { ...ROWS[0]!, id: 'a0c1d5e2-7d5b-4c1e-9a51-6f3f1c2b0009', title, fileName: file.name, size: file.size, fileType: file.type },
    })),
    replaceAnnexure: jest.fn(async (id: string, { title }: { title?: string }) => ({
      data: { ...rows.find((r) => r.id === id)!, ...(title ? { title } : {}) },
    })),
    withdrawAnnexure: jest.fn(async (id: string) => ({ data: { id } })),
  });
}

const pdf = (name = 'po-policy.pdf', bytes = 2048) =>
  new File([new Uint8Array(bytes)], name, { type: 'application/pdf' });

/** The file input sits inside its "Choose file" button (a label). */
const fileInput = (scope: HTMLElement = document.body) =>
  within(scope).getByLabelText(/Choose (another |new )?file/, { selector: 'input' });

describe('PO Annexures (console)', () => {
  it.each([['MLL-ADMIN'], ['MDM']])('is in the sidebar for %s and lists title, file with its icon, size and date', async (role) => {
    renderConsole('/', { dataProvider: annexureProvider(), roles: [role] });
    await user.click(await screen.findByRole('menuitem', { name: /PO Annexures/ }));
    const row = (await screen.findByText('PO Terms and Conditions')).closest('tr')!;
    expect(within(row).getByText('po-terms.pdf')).toBeInTheDocument();
    expect(within(row).getByTitle('PDF document')).toBeInTheDocument();
    expect(within(row).getByText('1.5 MB')).toBeInTheDocument();
    // 20:00 UTC on 2 March is 3 March in India: dates are Indian dates.
    expect(within(row).getByText('03-Mar-2026')).toBeInTheDocument();
    const other = screen.getByText('Rate Card Format').closest('tr')!;
    expect(within(other).getByTitle('Excel workbook')).toBeInTheDocument();
    expect(within(other).getByText('20 KB')).toBeInTheDocument();
  });

  it('is not offered to other staff', async () => {
    renderConsole('/', { dataProvider: annexureProvider(), roles: ['MLL Procurement'] });
    expect(await screen.findByRole('menuitem', { name: /All Request/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /PO Annexures/ })).not.toBeInTheDocument();
  });

  it('refuses an upload without a title or a file, or with a formula-like title, and sends nothing', async () => {
    const dataProvider = annexureProvider();
    renderConsole('/annexures/create', { dataProvider, roles: ['MLL-ADMIN'] });
    const title = await screen.findByLabelText(/^Title/);
    await user.type(title, 'x');
    await user.clear(title);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(messages.required)).toBeInTheDocument();
    expect(screen.getByText(FILE_REQUIRED)).toBeInTheDocument();

    await user.type(title, '=HYPERLINK("x")');
    await user.upload(fileInput(), pdf());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(messages.leadingCharacter)).toBeInTheDocument();
    expect(dataProvider.uploadAnnexure).not.toHaveBeenCalled();
  });

  it('uploads title and file as one command, says "Uploaded successfully" and returns to the list', async () => {
    const dataProvider = annexureProvider();
    renderConsole('/annexures/create', { dataProvider, roles: ['MDM'] });
    await user.type(await screen.findByLabelText(/^Title/), '  Freight Payment Policy ');
    const file = pdf('freight-policy.pdf', 4096);
    await user.upload(fileInput(), file);
    expect(within(screen.getByTestId('chosen-file')).getByText('freight-policy.pdf')).toBeInTheDocument();
    expect(within(screen.getByTestId('chosen-file')).getByText('(4 KB)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    expect(await screen.findByText(ANNEXURE_MESSAGES.uploaded)).toBeInTheDocument();
    expect(dataProvider.uploadAnnexure).toHaveBeenCalledTimes(1);
    const [params] = dataProvider.uploadAnnexure.mock.calls[0] as [{ title: string; file: File; idempotencyKey: string }];
    expect(params.title).toBe('Freight Payment Policy');
    expect(params.file).toBe(file);
    expect(params.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('PO Terms and Conditions')).toBeInTheDocument();
  });

  it('shows how far a large upload has gone while it runs, and keeps the button from sending it twice', async () => {
    const dataProvider = annexureProvider();
    let finish: () => void = () => undefined;
    dataProvider.uploadAnnexure.mockImplementation(
      ({ title, file, onProgress }: { title: string; file: File; onProgress: (f: number) => void }) =>
        new Promise((resolve) => {
          onProgress(0.4);
          finish = () => resolve({ data: { ...ROWS[0]!, id: 'new', title, fileName: file.name } });
        }),
    );
    renderConsole('/annexures/create', { dataProvider, roles: ['MLL-ADMIN'] });
    await user.type(await screen.findByLabelText(/^Title/), 'Transit Insurance Policy');
    await user.upload(fileInput(), pdf('insurance.pdf', 18 * 1024 * 1024));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('Uploading… 40 %')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    finish();
    expect(await screen.findByText(ANNEXURE_MESSAGES.uploaded)).toBeInTheDocument();
    expect(dataProvider.uploadAnnexure).toHaveBeenCalledTimes(1);
  });

  it.each([
    [413, uploadMessages.tooLarge(25 * 1024 * 1024)],
    [415, FILE_KINDS.annexure.message],
  ])('shows the server message of a %i in the error dialog and stays on the form', async (status, message) => {
    const dataProvider = annexureProvider();
    dataProvider.uploadAnnexure.mockRejectedValue(new HttpError(message, status, { status, message }));
    renderConsole('/annexures/create', { dataProvider, roles: ['MLL-ADMIN'] });
    await user.type(await screen.findByLabelText(/^Title/), 'Fuel Policy');
    // A .pdf name the picker accepts; the API reads the bytes and may still refuse them.
    await user.upload(fileInput(), pdf('fuel-policy.pdf'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByTestId('error-message')).toHaveTextContent(message);
    expect(screen.getByLabelText(/^Title/)).toHaveValue('Fuel Policy');
  });

  it('replaces the file of an annexure: "File uploaded successfully"', async () => {
    const dataProvider = annexureProvider();
    renderConsole('/annexures', { dataProvider, roles: ['MLL-ADMIN'] });
    const row = (await screen.findByText('Rate Card Format')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Replace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace annexure' });
    expect(within(dialog).getByText('rate-card.xlsx')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Replace' }));
    expect(await within(dialog).findByText(NOTHING_CHANGED)).toBeInTheDocument();
    expect(dataProvider.replaceAnnexure).not.toHaveBeenCalled();

    const file = new File(['PK'], 'rate-card-2026.xlsx', { type: 'application/vnd.ms-excel' });
    await user.upload(fileInput(dialog), file);
    await user.click(within(dialog).getByRole('button', { name: 'Replace' }));
    expect(await screen.findByText(ANNEXURE_MESSAGES.fileReplaced)).toBeInTheDocument();
    const [id, params] = dataProvider.replaceAnnexure.mock.calls[0] as [string, { title?: string; file: File }];
    expect(id).toBe(ROWS[1]!.id);
    expect(params.file).toBe(file);
    expect(params.title).toBeUndefined();
  });

  it('changes only the title of an annexure', async () => {
    const dataProvider = annexureProvider();
    renderConsole('/annexures', { dataProvider, roles: ['MLL-ADMIN'] });
    const row = (await screen.findByText('Rate Card Format')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Replace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace annexure' });
    const title = within(dialog).getByLabelText(/^Title/);
    await user.clear(title);
    await user.type(title, 'Rate Card Format 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Replace' }));
    expect(await screen.findByText(ANNEXURE_MESSAGES.titleChanged)).toBeInTheDocument();
    expect(dataProvider.replaceAnnexure.mock.calls[0]?.[1]).toMatchObject({ title: 'Rate Card Format 2026', file: null });
  });

  it('withdraws an annexure only after the confirmation: "File deleted successfully"', async () => {
    const dataProvider = annexureProvider();
    renderConsole('/annexures', { dataProvider, roles: ['MLL-ADMIN'] });
    const row = (await screen.findByText('PO Terms and Conditions')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Withdraw' }));
    const confirm = await screen.findByRole('dialog', { name: 'Withdraw annexure' });
    await user.click(within(confirm).getByRole('button', { name: /Cancel/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(dataProvider.withdrawAnnexure).not.toHaveBeenCalled();

    await user.click(within(row).getByRole('button', { name: 'Withdraw' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /Withdraw/ }));
    expect(await screen.findByText(ANNEXURE_MESSAGES.withdrawn)).toBeInTheDocument();
    expect(dataProvider.withdrawAnnexure).toHaveBeenCalledWith(ROWS[0]!.id, expect.objectContaining({ idempotencyKey: expect.any(String) }));
  });
});
