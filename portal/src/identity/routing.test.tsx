import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Me } from '../api/client';
import { BILL_HUB_TEXT } from '../home/BillHubPage';
import {
  baUser,
  billHubOnlyUser,
  completeDetails,
  fakeApi,
  firstLoginUser,
  NEW_PASSWORD,
  PASSWORD,
  verifiedBaAdmin,
} from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { signInThroughUi } from '../testing/steps';
import { changePasswordTexts } from './ChangePasswordPage';
import { unableToGrantAccess } from './routing';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };
const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('post-login routing by Me.home', () => {
  it('a verified BA goes to /home: a welcome, its status, and Home in the header', async () => {
    const api = fakeApi({ accounts: [verifiedBaAdmin], ba: verifiedBa });
    renderPortal(api, '/');
    await signInThroughUi(user, verifiedBaAdmin.username);

    expect(await screen.findByRole('heading', { name: `Welcome, ${verifiedBaAdmin.name}` })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/home');
    expect(screen.getByTestId('status-chip')).toHaveTextContent('Verified');
    expect(within(mainNav()).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(within(mainNav()).queryByRole('link', { name: 'Onboard' })).not.toBeInTheDocument();
  });

  it('an unverified BA admin goes to its onboarding status: Onboard in the header, no Home', async () => {
    renderPortal(fakeApi(), '/');
    await signInThroughUi(user, baUser.username);

    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
    expect(within(mainNav()).getByRole('link', { name: 'Onboard' })).toHaveAttribute('href', '/onboard/status');
    expect(within(mainNav()).queryByRole('link', { name: 'Home' })).not.toBeInTheDocument();
  });

  it('an unverified BA asking for /home is shown its status instead', async () => {
    renderPortal(fakeApi({ session: baUser }), '/home');
    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/status');
  });

  it('a Bill-Hub-only user lands on the Bill-Hub, with a header limited to it, and no BA screens', async () => {
    const api = fakeApi({ accounts: [billHubOnlyUser] });
    renderPortal(api, '/');
    await signInThroughUi(user, billHubOnlyUser.username);

    expect(await screen.findByText(new RegExp(BILL_HUB_TEXT))).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/bill-hub');
    expect(within(mainNav()).getAllByRole('link').map((l) => l.textContent)).toEqual(['Bill Hub']);
    await user.click(screen.getByRole('button', { name: billHubOnlyUser.name }));
    const entries = (await screen.findAllByRole('menuitem')).map((m) => m.textContent);
    expect(entries).toEqual(['Change Password', 'Help', 'Logout']);
    expect(api.sent('GET', '/api/business-associates/ba-1')).toHaveLength(0);
  });

  it('a Bill-Hub-only user asking for a BA screen gets the unauthorised page', async () => {
    renderPortal(fakeApi({ session: billHubOnlyUser }), '/onboard/status');
    expect(await screen.findByText("Oops! You're Unauthorised.")).toBeInTheDocument();
  });

  it('a first login is sent to change the password, every other page leads back there, then it goes home', async () => {
    const api = fakeApi({ accounts: [firstLoginUser] });
    renderPortal(api, '/');
    await signInThroughUi(user, firstLoginUser.username);

    expect(await screen.findByText(changePasswordTexts.firstLogin)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/change-password');
    // Nothing but the password change and sign-out: no BA record is read for this session.
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(api.sent('GET', '/api/business-associates/ba-1')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Old Password/), PASSWORD);
    await user.type(screen.getByLabelText(/^New Password/), NEW_PASSWORD);
    await user.type(screen.getByLabelText(/^Confirm Password/), `${NEW_PASSWORD}{Enter}`);
    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
  });

  it('a restored change-required session cannot open another page', async () => {
    renderPortal(fakeApi({ session: { ...baUser, passwordExpired: true, home: '/change-password' } }), '/onboard/status');
    expect(await screen.findByText(changePasswordTexts.expired)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/change-password');
  });

  it('a home no application of ours serves: "Sorry for the inconvenience…" and no session', async () => {
    const stranger: Me = { ...baUser, username: 'rfp@demo.test', home: '/rfp' };
    const api = fakeApi({ accounts: [stranger] });
    renderPortal(api, '/');
    await signInThroughUi(user, stranger.username);

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(unableToGrantAccess)).toBeInTheDocument();
    await waitFor(() => expect(api.sent('POST', '/api/auth/logout')).toHaveLength(1));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
