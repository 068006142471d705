import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuthProvider, fakeDataProvider, renderConsole } from '../testing/fakes';
import { installFetch } from '../testing/fakeFetch';

const HELP = { userManualUrl: 'https://portal.test/user-manual.pdf', supportEmail: 'help@portal.test' };


const companySelector = () => screen.queryByRole('combobox', { name: 'Company code' });

describe('Header', () => {
  it('switches the active company code through the API and reads the lists again under it', async () => {
    const authProvider = fakeAuthProvider(['MLL Procurement'], 'Priya', { companyCodes: ['1000', '2000'] });
    const dataProvider = fakeDataProvider();
    renderConsole('/business-associates', { dataProvider, authProvider });
    await screen.findByRole('table');
    await waitFor(() => expect(companySelector()).toHaveTextContent('All'));

    await userEvent.click(companySelector()!);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['All', '1000 – MLL Logistics', '2000 – MLL Freight Services']);
    const listReads = dataProvider.getList.mock.calls.filter(([r]) => r === 'business-associates').length;
    await userEvent.click(options[1]!);

    expect(authProvider.setActiveCompany).toHaveBeenCalledWith('1000');
    await waitFor(() => expect(companySelector()).toHaveTextContent('1000 – MLL Logistics'));
    await waitFor(() =>
      expect(dataProvider.getList.mock.calls.filter(([r]) => r === 'business-associates').length).toBeGreaterThan(
        listReads,
      ),
    );
    expect(dataProvider.getCounts.mock.calls.length).toBeGreaterThan(1);
  });

  it('has no company selector for an auditor', async () => {
    renderConsole('/business-associates', {
      dataProvider: fakeDataProvider(),
      authProvider: fakeAuthProvider(['Auditor'], 'Ann Auditor', { companyCodes: ['1000', '2000'] }),
    });
    await screen.findByRole('table');
    await screen.findByRole('button', { name: 'Profile' });
    expect(companySelector()).not.toBeInTheDocument();
  });

  it('offers Change Password, Help (user manual and support mailbox from GET /api/help) and Logout in the user menu', async () => {
    installFetch((url) => (url.pathname === '/api/help' ? { body: HELP } : undefined));
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    await userEvent.click(await screen.findByRole('button', { name: 'Profile' }));
    await waitFor(() => expect(screen.getByRole('menuitem', { name: /Support/ })).toHaveAttribute('href', `mailto:${HELP.supportEmail}`));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Change Password', 'User Manual', `Support${HELP.supportEmail}`, 'Logout']);
    // The manual opens in a new tab, wherever the server says it is.
    expect(screen.getByRole('menuitem', { name: 'User Manual' })).toHaveAttribute('href', HELP.userManualUrl);
    expect(screen.getByRole('menuitem', { name: 'User Manual' })).toHaveAttribute('target', '_blank');
  });
});
