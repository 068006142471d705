import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../domain/src/validation/fields';
import { errorTexts } from '../api/client';
import { baUser, fakeApi, PASSWORD } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
jest.setTimeout(30_000);
const user = userEvent.setup({ delay: null });

/** Closes the error dialog and waits until it has gone (while it shows, the page behind is aria-hidden). */
async function closeDialog(dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

describe('login page', () => {
  it('signs a BA in with Enter and shows its onboarding status', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await user.type(await screen.findByLabelText(/^Username/), 'ba.admin@demo.test');
    await user.type(screen.getByLabelText(/^Password/), `${PASSWORD}{Enter}`);

    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/status');
    expect(api.sent('POST', '/api/auth/login')[0]?.body).toEqual({
      username: 'ba.admin@demo.test',
      password: PASSWORD,
    });
    // Every later call carries the access token from the login.
    const [read] = api.sent('GET', '/api/business-associates/ba-1');
    expect(read?.headers['Authorization']).toBe('Bearer token-1');
  });

  it('asks for both fields before calling the API', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await user.click(await screen.findByRole('button', { name: 'Login' }));

    expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription(messages.required);
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(messages.required);
    expect(api.sent('POST', '/api/auth/login')).toHaveLength(0);
  });

  it("shows the server's message for bad credentials in the error dialog, which closes", async () => {
    renderPortal(fakeApi(), '/');
    await user.type(await screen.findByLabelText(/^Username/), 'ba.admin@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'wrong{Enter}');

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Invalid username or password')).toBeInTheDocument();
    await closeDialog(dialog);
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
  });

  it('refuses staff with the spec message (code 101) and points them to the console', async () => {
    const api = fakeApi();
    renderPortal(api, '/');
    await user.type(await screen.findByLabelText(/^Username/), 'procurement@demo.test');
    await user.type(screen.getByLabelText(/^Password/), `${PASSWORD}{Enter}`);

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(errorTexts.noAccess)).toBeInTheDocument();
    await closeDialog(dialog);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    const consoleLink = screen.getByRole('link', { name: 'Go to the staff console' });
    expect(consoleLink).toHaveAttribute('href', '/console/');
    expect(api.sent('GET', '/api/business-associates/ba-1')).toHaveLength(0);
  });

  it('restores the session from the refresh cookie on load', async () => {
    renderPortal(fakeApi({ session: baUser }), '/');
    expect(await screen.findByRole('heading', { name: 'Onboarding status' })).toBeInTheDocument();
  });

  it('sends a visitor without a session from a BA page to the login page', async () => {
    renderPortal(fakeApi(), '/onboard/status');
    expect(await screen.findByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('ends the session on a 401 that a refresh cannot cure: the dialog says so over the login page', async () => {
    let refreshes = 0;
    const api = fakeApi({
      session: baUser,
      intercept: (req) => {
        if (req.path === '/api/auth/refresh' && ++refreshes > 1)
          return { status: 401, body: { message: 'Session expired' } };
        if (req.path.startsWith('/api/business-associates/'))
          return { status: 401, body: { message: 'Unauthorized' } };
        return undefined;
      },
    });
    renderPortal(api, '/onboard/status');

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(errorTexts.sessionTimedOut)).toBeInTheDocument();
    await closeDialog(dialog);
    expect(await screen.findByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
