import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import { baColleague, baUser, billHubRow, fakeApi, type FakeApi } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { userTexts } from './common';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const PAGE = '/onboard/BA/add-childBillHub-user';

async function openPage(api: FakeApi) {
  renderPortal(api, PAGE);
  return screen.findByRole('table', { name: 'Bill-Hub users' });
}

async function fill(scope: HTMLElement, label: RegExp, value: string) {
  await user.click(within(scope).getByLabelText(label));
  await user.paste(value);
}

describe('GST-State BA for Billhub page', () => {
  it('lists the child bill-hub users: state, child code and status', async () => {
    const table = await openPage(fakeApi({ session: baUser }));
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['State Name', 'Child Code', 'Name', 'Email Id', 'Mobile No', 'Status', 'Actions']);
    const row = within(table).getByRole('row', { name: /Maharashtra/ });
    expect(within(row).getByText('NA')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();
  });

  it('adds a user for a state after checking the fields', async () => {
    const api = fakeApi({ session: baUser });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: 'Add Bill-Hub User' }));
    const form = await screen.findByRole('dialog', { name: 'Add GST-State BA for Billhub' });
    await user.click(within(form).getByRole('button', { name: 'Add User' }));
    expect(within(form).getByLabelText(/^State/)).toHaveAccessibleDescription(messages.required);
    expect(within(form).getByLabelText(/^Email Id/)).toHaveAccessibleDescription(messages.required);
    expect(api.sent('POST', '/api/bill-hub-users')).toHaveLength(0);

    await within(form).findByRole('option', { name: 'Karnataka' });
    await user.selectOptions(within(form).getByLabelText(/^State/), 'Karnataka');
    await fill(form, /^Name/, 'Kavya Rao');
    await fill(form, /^Email Id/, 'billhub.ka@demo.test');
    await fill(form, /^Mobile No/, '9000011111');
    await user.click(within(form).getByRole('button', { name: 'Add User' }));

    expect(await screen.findByText(userTexts.added)).toBeInTheDocument();
    expect(api.sent('POST', '/api/bill-hub-users')[0]?.body).toEqual({
      stateId: 29,
      name: 'Kavya Rao',
      emailId: 'billhub.ka@demo.test',
      mobileNo: '9000011111',
    });
    expect(await screen.findByRole('row', { name: /Karnataka/ })).toBeInTheDocument();
  });

  it('blocks and unblocks a user after confirmation', async () => {
    const api = fakeApi({ session: baUser });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: `Block ${billHubRow.name}` }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Block user' })).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText(userTexts.blocked)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: `Unblock ${billHubRow.name}` })).toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: `Unblock ${billHubRow.name}` }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Unblock user' })).getByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText(userTexts.unblocked)).toBeInTheDocument();
    expect(api.sent('POST', `/api/bill-hub-users/${billHubRow.id}/block`)).toHaveLength(1);
    expect(api.sent('POST', `/api/bill-hub-users/${billHubRow.id}/unblock`)).toHaveLength(1);
  });

  it('is for the BA admin only', async () => {
    renderPortal(fakeApi({ session: baColleague }), PAGE);
    expect(await screen.findByText("Oops! You're Unauthorised.")).toBeInTheDocument();
  });
});
