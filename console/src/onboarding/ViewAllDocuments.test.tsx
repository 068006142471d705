import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baRow, fakeDataProvider, renderConsole } from '../testing/fakes';
import { concession, document } from '../testing/fakeItems';

jest.setTimeout(120_000);

beforeAll(() => {
  // jsdom has no blob URLs.
  URL.createObjectURL = jest.fn(() => 'blob:console.test/file-1');
  URL.revokeObjectURL = jest.fn();
});

describe('View All Documents', () => {
  it('lists onboarding and additional documents and concession certificates, each viewable inline', async () => {
    const dp = fakeDataProvider({
      records: [baRow({ id: 'ba-1', status: 'verified', stage: null })],
      items: {
        documents: [
          document({ reviewStatus: 'approved', approvedTill: '2026-12-31' }),
          document({ id: 'doc-9', kind: 'additional', documentTypeName: 'ISO Certificate', fileName: 'iso.pdf' }),
        ],
        concessions: [concession({ fileName: 'ldc.pdf' })],
      },
    });
    renderConsole('/view-all-documents/ba-1', { dataProvider: dp, roles: ['MLL Procurement'] });
    const onboarding = await screen.findByRole('table', { name: 'Onboarding documents' });
    expect(within(onboarding).getByText('PAN Card')).toBeInTheDocument();
    expect(within(onboarding).getByText('Approved')).toBeInTheDocument();
    const additional = screen.getByRole('table', { name: 'Additional documents' });
    expect(within(additional).getByText('ISO Certificate')).toBeInTheDocument();
    expect(within(additional).getByText('Not reviewed')).toBeInTheDocument();
    const certificates = screen.getByRole('table', { name: 'Concession certificates' });
    expect(within(certificates).getByText('LDC-2025-001')).toBeInTheDocument();

    await userEvent.click(within(additional).getByRole('button', { name: 'View iso.pdf' }));
    const viewer = await screen.findByRole('dialog', { name: 'iso.pdf' });
    await waitFor(() => expect(dp.getBaFile).toHaveBeenCalledWith('ba-1', 'documents/doc-9/file'));
    expect(await within(viewer).findByTitle('iso.pdf')).toHaveAttribute('src', 'blob:console.test/file-1');
  });
});

describe('Additional documents queue', () => {
  it('lists the uploads with the BA and approves one with its approved-till date', async () => {
    const dp = fakeDataProvider();
    const queued = {
      ...document({ id: 'doc-9', kind: 'additional', documentTypeName: 'ISO Certificate', validTill: '2027-03-31' }),
      companyName: 'Sharma Roadways Pvt Ltd',
    };
    const generic = dp.getList.getMockImplementation()!;
    dp.getList.mockImplementation(async (resource: string, params: unknown) =>
      resource === 'additional-documents' ? { data: [queued], total: 1 } : generic(resource, params),
    );
    renderConsole('/additional-documents', { dataProvider: dp, roles: ['MLL Procurement'] });
    // The loading skeleton is a table too, replaced once the rows arrive: find a row's text first.
    const table = (await screen.findByText('ISO Certificate')).closest('table') as HTMLElement;
    expect(within(table).getByText('ISO Certificate')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Sharma Roadways Pvt Ltd' })).toHaveAttribute(
      'href',
      '/business-associates/ba-1/show',
    );
    await userEvent.click(within(table).getByRole('button', { name: 'Approve ISO Certificate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve ISO Certificate' });
    expect(within(dialog).getByTestId('approved-till')).toHaveValue('2027-03-31');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(dp.baCommand).toHaveBeenCalledWith(
        'ba-1',
        'documents/doc-9/approve',
        { approvedTill: '2027-03-31' },
        expect.any(String),
      ),
    );
    expect(await screen.findByText('Document Approved successfully')).toBeInTheDocument();
  });
});
