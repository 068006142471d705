import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import { fakeAuthProvider, fakeDataProvider, renderConsole, staffUser } from '../testing/fakes';
import { USER_CREATED_MESSAGE } from './UserCreate';
import { userMessages } from './validation';


const admin = () => fakeAuthProvider(['MLL-ADMIN'], 'Asha Admin', { companyCodes: ['1000', '2000'] });

const blocked = staffUser({
  id: 'u-blk',
  name: 'Bina Blocked',
  emailId: 'bina@demo.test',
  status: 'blocked',
  applications: [
    { appId: 'onboard', roleName: 'MLL Commercial' },
    { appId: 'RFP', roleName: 'MLL Commercial' },
  ],
  roles: ['MLL Commercial'],
  companyCodes: ['1000', '2000'],
});

describe('Users (MLL-ADMIN)', () => {
  it('is in the sidebar for MLL-ADMIN only', async () => {
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    await screen.findByRole('menuitem', { name: /All Request/ });
    expect(screen.queryByRole('menuitem', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('lists users with roles per application, company codes and status, 100 rows a page', async () => {
    const dataProvider = fakeDataProvider({ users: [staffUser(), blocked] });
    renderConsole('/business-associates', { dataProvider, authProvider: admin() });
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Users' }));

    const table = await screen.findByRole('table');
    const row = (await within(table).findByText('Bina Blocked')).closest('tr') as HTMLElement;
    expect(within(row).getByText('bina@demo.test')).toBeInTheDocument();
    expect(within(row).getByText('onboard: MLL Commercial')).toBeInTheDocument();
    expect(within(row).getByText('RFP: MLL Commercial')).toBeInTheDocument();
    expect(within(row).getByText('1000, 2000')).toBeInTheDocument();
    expect(within(row).getByText('Blocked')).toBeInTheDocument();
    const active = within(table).getByText('Omkar Operations').closest('tr') as HTMLElement;
    expect(within(active).getByText('Active')).toBeInTheDocument();

    const [, params] = dataProvider.getList.mock.calls.find(([resource]) => resource === 'users')!;
    expect(params).toMatchObject({ pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
    await userEvent.click(screen.getByRole('button', { name: /add filter/i }));
    const filterMenu = await screen.findByRole('menu');
    expect(within(filterMenu).getByText('Status')).toBeInTheDocument();
    expect(within(filterMenu).getByText('Role')).toBeInTheDocument();
  });

  it("creates a user with the spec's field messages, then goes back to the list", async () => {
    const dataProvider = fakeDataProvider();
    renderConsole('/users/create', { dataProvider, authProvider: admin() });
    const save = await screen.findByRole('button', { name: 'Save' });
    // Only the admin's own company codes are offered.
    expect(await screen.findByLabelText('1000 – MLL Logistics')).toBeInTheDocument();
    expect(screen.getByLabelText('2000 – MLL Freight Services')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/^Name/), 'Ravi-9');
    await userEvent.type(screen.getByLabelText(/^E-mail id/), 'not-an-email');
    await userEvent.type(screen.getByLabelText(/^Mobile number/), '12345');
    await userEvent.click(save);
    expect(await screen.findByText(messages.name)).toBeInTheDocument();
    expect(screen.getByText(messages.email)).toBeInTheDocument();
    expect(screen.getByText(messages.mobile)).toBeInTheDocument();
    expect(screen.getByText(userMessages.companyCodeRequired)).toBeInTheDocument();
    expect(screen.getAllByText(messages.required).length).toBeGreaterThan(0); // the empty role
    expect(dataProvider.create).not.toHaveBeenCalled();
    // The fields say what is wrong: no modal stands in front of them.
    expect(screen.queryByTestId('error-message')).not.toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText(/^Name/));
    await userEvent.type(screen.getByLabelText(/^Name/), 'Ravi Verma');
    await userEvent.clear(screen.getByLabelText(/^E-mail id/));
    await userEvent.type(screen.getByLabelText(/^E-mail id/), 'ravi.verma@demo.test');
    await userEvent.clear(screen.getByLabelText(/^Mobile number/));
    await userEvent.type(screen.getByLabelText(/^Mobile number/), '9876512345');
    await userEvent.click(screen.getByLabelText('2000 – MLL Freight Services'));
    await userEvent.click(screen.getByRole('combobox', { name: /^Role/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'MLL Legal' }));
    await userEvent.click(save);

    await waitFor(() => expect(dataProvider.create).toHaveBeenCalledTimes(1));
    expect(dataProvider.create.mock.calls[0]![1].data).toEqual({
      name: 'Ravi Verma',
      emailId: 'ravi.verma@demo.test',
      mobileNo: '9876512345',
      companyCodes: ['2000'],
      applications: [{ appId: 'onboard', roleName: 'MLL Legal' }],
    });
    expect(await screen.findByText(USER_CREATED_MESSAGE)).toBeInTheDocument();
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('refuses to save a user without any application and role', async () => {
    const dataProvider = fakeDataProvider();
    renderConsole('/users/u-ops', { dataProvider, authProvider: admin() });
    await screen.findByDisplayValue('Omkar Operations');
    await userEvent.click(screen.getByRole('button', { name: 'Clear the list' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(userMessages.applicationRequired)).toBeInTheDocument();
    expect(dataProvider.update).not.toHaveBeenCalled();
  });

  it('edits name, mobile, codes and roles; the e-mail id stays as it is', async () => {
    const dataProvider = fakeDataProvider();
    renderConsole('/users/u-ops', { dataProvider, authProvider: admin() });
    const mobile = await screen.findByDisplayValue('9822012345');
    expect(screen.getByDisplayValue('operations@demo.test')).toBeDisabled();
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '9822099999');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(dataProvider.update).toHaveBeenCalledTimes(1));
    const [resource, params] = dataProvider.update.mock.calls[0]!;
    expect(resource).toBe('users');
    expect(params.id).toBe('u-ops');
    expect(params.data).toEqual({
      name: 'Omkar Operations',
      mobileNo: '9822099999',
      companyCodes: ['1000'],
      applications: [{ appId: 'onboard', roleName: 'MLL Operations' }],
    });
  });

  it('blocks a user only with a reason, then says so and goes back to the list', async () => {
    const dataProvider = fakeDataProvider();
    renderConsole('/users/u-ops', { dataProvider, authProvider: admin() });
    await screen.findByDisplayValue('Omkar Operations');
    expect(screen.queryByRole('button', { name: 'Unblock' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(within(dialog).getByText(messages.required)).toBeInTheDocument();
    expect(dataProvider.blockUser).not.toHaveBeenCalled();

    await userEvent.type(within(dialog).getByLabelText(/Reason/), '  Left the company ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(dataProvider.blockUser).toHaveBeenCalledWith('u-ops', { reason: 'Left the company' }));
    expect(await screen.findByText('Successfully Blocked')).toBeInTheDocument();
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('unblocks a blocked user with a reason', async () => {
    const dataProvider = fakeDataProvider({ users: [blocked] });
    renderConsole('/users/u-blk', { dataProvider, authProvider: admin() });
    await screen.findByDisplayValue('Bina Blocked');
    expect(screen.queryByRole('button', { name: 'Block' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Unblock' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Back from leave');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unblock' }));
    await waitFor(() => expect(dataProvider.unblockUser).toHaveBeenCalledWith('u-blk', { reason: 'Back from leave' }));
    expect(await screen.findByText('Successfully Unblocked')).toBeInTheDocument();
  });
});
