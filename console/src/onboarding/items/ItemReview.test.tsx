import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from 'react-admin';
import { announceNotification } from '../../../../ui/src/notifications/arrivals';
import { notification } from '../../../../ui/src/notifications/testing';
import { baRow, fakeDataProvider, renderConsole, type FakeData } from '../../testing/fakes';
import { bankAccount, concession, document, verticalMapping } from '../../testing/fakeItems';
import { APPROVED_TILL_REQUIRED } from './ApproveTillDialog';

// The whole console renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
jest.setTimeout(120_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function openBa(items: FakeData['items'], roles = ['MLL Procurement']) {
  const dataProvider = fakeDataProvider({ records: [baRow({ id: 'ba-1', status: 'inprogress', stage: 1 })], items });
  renderConsole('/business-associates/ba-1/show', { dataProvider, roles });
  await screen.findByRole('heading', { name: 'Company details' });
  return dataProvider;
}

const itemReads = (dp: ReturnType<typeof fakeDataProvider>, path: string) =>
  dp.getBaItems.mock.calls.filter(([, p]) => p === path).length;

describe('Document review', () => {
  it('approves with an approved-till date, required and prefilled when the document has a validity date', async () => {
    const dp = await openBa({ documents: [document({ validTill: '2026-12-31' })] });
    await userEvent.click(await screen.findByRole('button', { name: 'Approve PAN Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve PAN Card' });
    const date = within(dialog).getByTestId('approved-till');
    expect(date).toHaveValue('2026-12-31');

    await userEvent.clear(date);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(within(dialog).getByText(APPROVED_TILL_REQUIRED)).toBeInTheDocument();
    expect(dp.baCommand).not.toHaveBeenCalled();

    await userEvent.type(date, '2027-01-31');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dp.baCommand).toHaveBeenCalledTimes(1));
    expect(dp.baCommand.mock.calls[0]).toEqual([
      'ba-1',
      'documents/doc-1/approve',
      { approvedTill: '2027-01-31' },
      expect.stringMatching(UUID),
    ]);
    expect(await screen.findByText('Document Approved successfully')).toBeInTheDocument();
  });

  it('rejects with the remarks the BA will read', async () => {
    const dp = await openBa({ documents: [document()] });
    await userEvent.click(await screen.findByRole('button', { name: 'Reject PAN Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject PAN Card' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(dp.baCommand).not.toHaveBeenCalled();
    await userEvent.type(within(dialog).getByLabelText(/remarks/i), 'PAN copy unreadable');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(dp.baCommand).toHaveBeenCalledTimes(1));
    expect(dp.baCommand.mock.calls[0]!.slice(0, 3)).toEqual([
      'ba-1',
      'documents/doc-1/reject',
      { remarks: 'PAN copy unreadable' },
    ]);
    expect(await screen.findByText('Document Rejected successfully')).toBeInTheDocument();
  });

  it('closes the dialog and reads the items again when another reviewer was faster (409)', async () => {
    const dp = await openBa({ documents: [document()] });
    dp.baCommand.mockRejectedValueOnce(
      new HttpError('This document was already reviewed', 409, { message: 'This document was already reviewed' }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Approve PAN Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve PAN Card' });
    const readsBefore = itemReads(dp, 'documents');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('error-message')).toHaveTextContent('This document was already reviewed');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Approve PAN Card' })).not.toBeInTheDocument());
    await waitFor(() => expect(itemReads(dp, 'documents')).toBeGreaterThan(readsBefore));
  });
});

describe('Stage 1 approval and the items', () => {
  it('is disabled with the reason while an item is not reviewed or rejected', async () => {
    await openBa({
      documents: [document(), document({ id: 'doc-2', documentTypeName: 'Cancelled Cheque', reviewStatus: 'rejected' })],
      'bank-accounts': [bankAccount({ reviewStatus: 'approved' })],
      concessions: [concession({ reviewStatus: 'approved' })],
      'vertical-mapping': verticalMapping({ reviewStatus: 'pending' }),
    });
    const reason = '(2 not reviewed, 1 rejected)';
    expect(await screen.findByTestId('stage-approval-blocked')).toHaveTextContent(reason);
    await waitFor(() => expect(screen.getByTestId('approve-stage')).toBeDisabled());
    expect(screen.getByLabelText(/must be approved before stage 1 \(2 not reviewed, 1 rejected\)/)).toBeInTheDocument();
  });

  it('is enabled once every item is approved', async () => {
    await openBa({
      documents: [document({ reviewStatus: 'approved' })],
      'bank-accounts': [bankAccount({ reviewStatus: 'approved' })],
      'vertical-mapping': verticalMapping({ reviewStatus: 'approved' }),
    });
    await screen.findByRole('table', { name: 'Documents' });
    await waitFor(() => expect(screen.getByTestId('approve-stage')).toBeEnabled());
    expect(screen.queryByTestId('stage-approval-blocked')).not.toBeInTheDocument();
  });
});

describe('Live record', () => {
  it('reads the BA again when a notification about it arrives, not for another BA', async () => {
    const dp = await openBa({});
    await screen.findByRole('table', { name: 'Activity log' });
    const before = dp.getOne.mock.calls.length;
    act(() => announceNotification(notification(1, { link: '/business-associates/ba-2/show' })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(dp.getOne.mock.calls.length).toBe(before);
    act(() => announceNotification(notification(2, { link: '/business-associates/ba-1/show' })));
    await waitFor(() => expect(dp.getOne.mock.calls.length).toBeGreaterThan(before));
  });
});

describe('Verified BA: change requests and concessions', () => {
  it('flags a bank change before → after with the second approver and payments on hold, and approves it', async () => {
    const dataProvider = fakeDataProvider({
      records: [baRow({ id: 'ba-1', status: 'verified', stage: null, paymentsOnHold: true })],
      items: {
        'change-requests': [
          {
            id: 'cr-1',
            baId: 'ba-1',
            section: 'bank',
            proposed: { accountNo: '999988887777' },
            changes: { accountNo: { before: '123456789012', after: '999988887777' } },
            status: 'first-approved',
            approvals: [{ by: 'user-9', role: 'MLL Procurement', at: '2025-11-05T09:00:00.000Z', name: 'Priya' }],
            remarks: null,
            raisedBy: 'user-ba',
            raisedAt: '2025-11-04T09:00:00.000Z',
            decidedBy: null,
            decidedAt: null,
            updatedAt: '2025-11-05T09:00:00.000Z',
          },
        ],
      },
    });
    renderConsole('/business-associates/ba-1/show', { dataProvider, roles: ['MLL Commercial'] });
    const request = await screen.findByTestId('change-request-cr-1');
    expect(within(request).getByTestId('changed-accountNo')).toHaveTextContent('Account no.: 123456789012 → 999988887777');
    expect(within(request).getByTestId('payments-on-hold')).toHaveTextContent(/needs a second approver/i);
    await userEvent.click(within(request).getByRole('button', { name: 'Approve bank account change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve bank account change' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(dataProvider.baCommand).toHaveBeenCalledWith('ba-1', 'change-requests/cr-1/approve', {}, expect.stringMatching(UUID)),
    );
    expect(await screen.findByText('Change request approved successfully')).toBeInTheDocument();
  });

  it("approves a verified BA's concession with the spec's message", async () => {
    const dataProvider = fakeDataProvider({
      records: [baRow({ id: 'ba-1', status: 'verified', stage: null })],
      items: { concessions: [concession()] },
    });
    renderConsole('/business-associates/ba-1/show', { dataProvider, roles: ['MLL Procurement'] });
    await userEvent.click(await screen.findByRole('button', { name: 'Approve concession LDC-2025-001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve concession LDC-2025-001' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(dataProvider.baCommand).toHaveBeenCalledWith('ba-1', 'concessions/con-1/approve', {}, expect.any(String)),
    );
    expect(await screen.findByText('Concession document approved successfully!!')).toBeInTheDocument();
  });
});
