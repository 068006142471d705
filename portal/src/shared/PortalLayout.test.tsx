import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Me } from '../api/client';
import { baColleague, baUser, billHubOnlyUser, completeDetails, fakeApi, verifiedBaAdmin } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
const HELP = { userManualUrl: 'https://portal.test/user-manual.pdf', supportEmail: 'help@portal.test' };

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

async function menuEntries(name: string) {
  await user.click(await screen.findByRole('button', { name }));
  return (await screen.findAllByRole('menuitem')).map((m) => m.textContent);
}

describe('BA header', () => {
  it.each([
    ['BA Admin', verifiedBaAdmin],
    ['BA User', baColleague],
  ])('has no company selector for a %s (one company per registration)', async (_role, me) => {
    renderPortal(fakeApi({ session: me, ba: verifiedBa }), '/home');
    expect(await screen.findByRole('heading', { name: `Welcome, ${me.name}` })).toBeInTheDocument();
    expect(screen.queryByLabelText('Company')).not.toBeInTheDocument();
  });

  it('offers the company selector (its codes and All) to other roles; a choice takes the new session', async () => {
    // An engagement manager with Bill-Hub access only: a portal session without a BA role.
    const manager: Me = {
      ...baUser,
      id: 'u-em',
      name: 'Esha Manager',
      roles: ['BA Engagement Manager'],
      applications: [{ appId: 'BillHub', roleName: 'BA Engagement Manager' }],
      companyCodes: ['1000', '2000'],
      activeCompanyCode: 'All',
      baId: null,
      baStatus: null,
      home: '/bill-hub',
    };
    const api = fakeApi({ session: manager });
    renderPortal(api, '/bill-hub');
    const selector = await screen.findByLabelText('Company');
    expect(within(selector).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', '1000', '2000']);
    expect(selector).toHaveValue('All');

    await user.selectOptions(selector, '2000');
    await waitFor(() => expect(screen.getByLabelText('Company')).toHaveValue('2000'));
    expect(api.sent('PUT', '/api/me/active-company')[0]?.body).toEqual({ companyCode: '2000' });
  });

  it('opens the Bill Hub in a new window for a BA with other screens (spec 001 §2)', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa }), '/home');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const billHub = await within(nav).findByRole('link', { name: 'Bill Hub' });
    expect(billHub).toHaveAttribute('href', '/bill-hub');
    expect(billHub).toHaveAttribute('target', '_blank');
    expect(billHub).toHaveAttribute('rel', 'noopener');
    // The other entries stay in this window.
    expect(within(nav).getByRole('link', { name: 'RFP' })).not.toHaveAttribute('target');
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'Home',
      'Additional Documents',
      'RFP',
      'Performance',
      'Bill Hub',
      'PO Annexures',
    ]);
    expect(within(nav).getByRole('link', { name: 'Performance' })).toHaveAttribute('href', '/performance-dashboard');
  });

  it('shows no Performance entry before the BA is verified', async () => {
    renderPortal(fakeApi({ session: baUser }), '/onboard/status');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Performance' })).not.toBeInTheDocument();
  });

  it('inside the Bill-Hub window the Bill Hub entry stays in that window', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa }), '/bill-hub');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Bill Hub' })).not.toHaveAttribute('target');
  });

  it('keeps the Bill Hub in the same window for a Bill-Hub-only user (it is all they have)', async () => {
    renderPortal(fakeApi({ session: billHubOnlyUser }), '/bill-hub');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const billHub = await within(nav).findByRole('link', { name: 'Bill Hub' });
    expect(billHub).toHaveAttribute('href', '/bill-hub');
    expect(billHub).not.toHaveAttribute('target');
  });

  it('profile menu of an unverified BA admin: no View Profile or Add New User yet', async () => {
    renderPortal(fakeApi({ session: baUser }), '/onboard/status');
    expect(await menuEntries(baUser.name)).toEqual([
      'Change Password',
      'Add GST-State BA for Billhub',
      'Help',
      'Logout',
    ]);
  });

  it('profile menu of a verified BA admin adds View Profile and Add New User, which opens the users page', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa }), '/home');
    expect(await menuEntries(verifiedBaAdmin.name)).toEqual([
      'Change Password',
      'View Profile',
      'Edit Profile',
      'Apply for another company code',
      'Add New User',
      'Add GST-State BA for Billhub',
      'Help',
      'Logout',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Add New User' }));
    expect(await screen.findByRole('heading', { name: 'BA Users' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/BA/add-new-ba-user');
  });

  it('profile menu of a BA user: only its own password, help and logout', async () => {
    renderPortal(fakeApi({ session: baColleague, ba: verifiedBa }), '/home');
    expect(await menuEntries(baColleague.name)).toEqual(['Change Password', 'Help', 'Logout']);
  });

  it('Help shows the user manual link (a new tab) and the support mailbox, both from GET /api/help', async () => {
    const intercept = (req: { path: string }) => (req.path === '/api/help' ? { status: 200, body: HELP } : undefined);
    renderPortal(fakeApi({ session: baUser, intercept }), '/onboard/status');
    await menuEntries(baUser.name);
    await user.click(screen.getByRole('menuitem', { name: 'Help' }));

    const help = await screen.findByRole('dialog', { name: 'Help' });
    const manual = await within(help).findByRole('link', { name: 'User Manual' });
    expect(manual).toHaveAttribute('href', HELP.userManualUrl);
    expect(manual).toHaveAttribute('target', '_blank');
    expect(within(help).getByRole('link', { name: HELP.supportEmail })).toHaveAttribute('href', `mailto:${HELP.supportEmail}`);
  });
});
