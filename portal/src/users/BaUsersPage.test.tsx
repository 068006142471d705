import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import {
  baColleague,
  baUser,
  colleagueRow,
  completeDetails,
  fakeApi,
  verifiedBaAdmin,
  type FakeApi,
} from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { userTexts } from './common';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };
const PAGE = '/onboard/BA/add-new-ba-user';

async function openPage(api: FakeApi) {
  renderPortal(api, PAGE);
  return screen.findByRole('table', { name: 'BA users' });
}

async function fill(scope: HTMLElement, label: RegExp, value: string) {
  await user.click(within(scope).getByLabelText(label));
  await user.paste(value);
}

describe('BA users page', () => {
  it("offers only the contact change on the admin's own row (the API refuses editing or blocking oneself)", async () => {
    const own = { ...colleagueRow, id: verifiedBaAdmin.id, baUserName: 'Asha Rao', emailId: verifiedBaAdmin.username };
    const table = await openPage(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa, baUsers: [own, colleagueRow] }));
    const mine = within(table).getByRole('row', { name: /Asha Rao/ });
    expect(within(mine).queryByRole('button', { name: /^(Edit|Block)/ })).not.toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: 'Change e-mail/mobile of Asha Rao' })).toBeInTheDocument();
    const theirs = within(table).getByRole('row', { name: /Ravi Kumar/ });
    expect(within(theirs).getByRole('button', { name: `Edit ${colleagueRow.baUserName}` })).toBeInTheDocument();
  });

  it("lists the BA's users with the spec's columns", async () => {
    const table = await openPage(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa }));
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Email Id', 'Mobile No', 'Department', 'Status', 'Actions']);
    const row = within(table).getByRole('row', { name: /Ravi Kumar/ });
    for (const text of ['ravi@demo.test', '9812345678', 'Operations', 'Active'])
      expect(within(row).getByText(text)).toBeInTheDocument();
  });

  it("checks the new user's fields with the spec's messages before calling the API", async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: 'Add New User' }));
    const form = await screen.findByRole('dialog', { name: 'Add New User' });
    await fill(form, /^Name/, 'Ravi 2');
    await fill(form, /^Email Id/, 'ravi@');
    await fill(form, /^Mobile No/, '12345');
    await user.click(within(form).getByRole('button', { name: 'Add User' }));

    expect(within(form).getByLabelText(/^Name/)).toHaveAccessibleDescription(messages.name);
    expect(within(form).getByLabelText(/^Email Id/)).toHaveAccessibleDescription(messages.email);
    expect(within(form).getByLabelText(/^Mobile No/)).toHaveAccessibleDescription(messages.mobile);
    expect(within(form).getByLabelText(/^Department/)).toHaveAccessibleDescription(userTexts.departmentRequired);
    expect(within(form).getByText(userTexts.noApplication)).toBeInTheDocument();
    expect(api.sent('POST', '/api/ba-users')).toHaveLength(0);
  });

  it('adds a user with a department from the API and the applications ticked, then shows it', async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: 'Add New User' }));
    const form = await screen.findByRole('dialog', { name: 'Add New User' });
    await within(form).findByRole('option', { name: 'Sales' });
    await fill(form, /^Name/, 'Kiran Shah');
    await fill(form, /^Email Id/, 'kiran@demo.test');
    await fill(form, /^Mobile No/, '9911223344');
    await user.selectOptions(within(form).getByLabelText(/^Department/), 'Sales');
    await user.click(within(form).getByRole('checkbox', { name: 'RFP' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Business Partner Onboarding' }));
    await user.click(within(form).getByRole('button', { name: 'Add User' }));

    expect(await screen.findByText(userTexts.added)).toBeInTheDocument();
    expect(api.sent('POST', '/api/ba-users')[0]?.body).toEqual({
      name: 'Kiran Shah',
      emailId: 'kiran@demo.test',
      mobileNo: '9911223344',
      department: 'Sales',
      appAccess: [
        { appId: 'onboard', roleName: 'BA User' },
        { appId: 'RFP', roleName: 'BA User' },
      ],
    });
    expect(await screen.findByRole('row', { name: /Kiran Shah/ })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Add New User' })).not.toBeInTheDocument();
  });

  it("shows the server's field errors in the form", async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: 'Add New User' }));
    const form = await screen.findByRole('dialog', { name: 'Add New User' });
    await within(form).findByRole('option', { name: 'Sales' });
    await fill(form, /^Name/, 'Ravi Again');
    await fill(form, /^Email Id/, colleagueRow.emailId);
    await fill(form, /^Mobile No/, '9911223344');
    await user.selectOptions(within(form).getByLabelText(/^Department/), 'Sales');
    await user.click(within(form).getByRole('checkbox', { name: 'RFP' }));
    await user.click(within(form).getByRole('button', { name: 'Add User' }));

    await waitFor(() =>
      expect(within(form).getByLabelText(/^Email Id/)).toHaveAccessibleDescription('This e-mail id is already registered'),
    );
  });

  it("edits a user's name, department and access; e-mail and mobile stay as they are", async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: `Edit ${colleagueRow.baUserName}` }));
    const form = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(form).getByLabelText(/^Email Id/)).toBeDisabled();
    expect(within(form).getByRole('checkbox', { name: 'RFP' })).toBeChecked();
    await user.clear(within(form).getByLabelText(/^Name/));
    await fill(form, /^Name/, 'Ravi K');
    await user.click(within(form).getByRole('checkbox', { name: 'RFP' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(userTexts.updated)).toBeInTheDocument();
    expect(api.sent('PUT', `/api/ba-users/${colleagueRow.id}`)[0]?.body).toEqual({
      name: 'Ravi K',
      emailId: colleagueRow.emailId,
      mobileNo: colleagueRow.mobileNo,
      department: 'Operations',
      appAccess: [{ appId: 'onboard', roleName: 'BA User' }],
    });
  });

  it('blocks a user after confirmation and shows the new status', async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: `Block ${colleagueRow.baUserName}` }));
    const confirm = await screen.findByRole('dialog', { name: 'Block user' });
    await user.click(within(confirm).getByRole('button', { name: 'Block' }));

    expect(await screen.findByText(userTexts.blocked)).toBeInTheDocument();
    expect(api.sent('POST', `/api/ba-users/${colleagueRow.id}/block`)).toHaveLength(1);
    const row = await screen.findByRole('row', { name: /Ravi Kumar/ });
    await waitFor(() => expect(within(row).getByText('Blocked')).toBeInTheDocument());
    expect(within(row).getByRole('button', { name: `Unblock ${colleagueRow.baUserName}` })).toBeInTheDocument();
  });

  it('cancelling the confirmation blocks nobody', async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: `Block ${colleagueRow.baUserName}` }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Block user' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('POST', `/api/ba-users/${colleagueRow.id}/block`)).toHaveLength(0);
  });

  it('starts an e-mail/mobile change and tells the admin the link was e-mailed', async () => {
    const api = fakeApi({ session: verifiedBaAdmin, ba: verifiedBa });
    await openPage(api);
    await user.click(screen.getByRole('button', { name: `Change e-mail/mobile of ${colleagueRow.baUserName}` }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Change e-mail/mobile' })).getByRole('button', {
        name: 'Send link',
      }),
    );

    expect(await screen.findByText(userTexts.contactLinkSent(colleagueRow.emailId))).toBeInTheDocument();
    expect(api.sent('POST', '/api/contact-changes')[0]?.body).toEqual({ userId: colleagueRow.id });
  });

  it('an unverified BA admin sees its users but may add none yet', async () => {
    await openPage(fakeApi({ session: baUser }));
    expect(screen.getByText(userTexts.notVerified)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add New User' })).toBeDisabled();
  });

  it('is for the BA admin only: a BA user gets the unauthorised page', async () => {
    const api = fakeApi({ session: baColleague, ba: verifiedBa });
    renderPortal(api, PAGE);
    expect(await screen.findByText("Oops! You're Unauthorised.")).toBeInTheDocument();
    expect(api.sent('GET', '/api/ba-users')).toHaveLength(0);
  });
});
