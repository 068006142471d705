import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baRow, fakeDataProvider, renderConsole } from '../testing/fakes';

jest.setTimeout(120_000);

const listFilters = (dp: ReturnType<typeof fakeDataProvider>) =>
  dp.getList.mock.calls
    .filter(([resource]) => resource === 'business-associates')
    .map(([, params]) => (params as { filter: Record<string, unknown> }).filter);

async function addFilter(label: string) {
  await userEvent.click(await screen.findByRole('button', { name: /add filter/i }));
  await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: label }));
}

describe('BA list filters', () => {
  it('sends mobile and company name under the API filter names', async () => {
    const dp = fakeDataProvider();
    renderConsole('/business-associates', { dataProvider: dp, roles: ['MLL Procurement'] });
    await addFilter('Mobile');
    await userEvent.type(await screen.findByRole('textbox', { name: 'Mobile' }), '98-765');
    await waitFor(() => expect(listFilters(dp)).toContainEqual(expect.objectContaining({ mobileNo: '98765' })));

    await addFilter('Company name');
    await userEvent.type(await screen.findByRole('textbox', { name: 'Company name' }), 'Sharma');
    await waitFor(() =>
      expect(listFilters(dp)).toContainEqual(expect.objectContaining({ mobileNo: '98765', companyName: 'Sharma' })),
    );
  });

  it('sends the status filter values of the spec (user_pending_task)', async () => {
    const dp = fakeDataProvider();
    renderConsole('/business-associates', { dataProvider: dp, roles: ['MLL Procurement'] });
    await addFilter('Status');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'My pending tasks' }));
    await waitFor(() => expect(listFilters(dp)).toContainEqual(expect.objectContaining({ status: 'user_pending_task' })));
  });

  it('marks rows with expired documents and payments on hold', async () => {
    const dp = fakeDataProvider({
      records: [
        baRow({ id: 'ba-1', companyName: 'Expired Docs Ltd', documentsExpired: true }),
        baRow({ id: 'ba-2', companyName: 'On Hold Ltd', paymentsOnHold: true }),
      ],
    });
    renderConsole('/business-associates', { dataProvider: dp, roles: ['MLL Procurement'] });
    // The loading skeleton is a table too, replaced once the rows arrive: find the rows first.
    await screen.findByText('Expired Docs Ltd');
    const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
    expect(within(row('Expired Docs Ltd')).getByTestId('documents-expired-badge')).toBeInTheDocument();
    expect(within(row('Expired Docs Ltd')).queryByTestId('payments-on-hold-badge')).not.toBeInTheDocument();
    expect(within(row('On Hold Ltd')).getByTestId('payments-on-hold-badge')).toBeInTheDocument();
  });
});
