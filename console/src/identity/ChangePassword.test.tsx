import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from 'react-admin';
import { messages } from '../../../domain/src/validation/fields';
import { fakeAuthProvider, fakeDataProvider, renderConsole } from '../testing/fakes';


const field = (label: string) => screen.getByLabelText(label);

async function fill(values: { old: string; next: string; confirm: string }) {
  for (const [label, value] of [
    ['Old Password', values.old],
    ['New Password', values.next],
    ['Confirm Password', values.confirm],
  ] as const) {
    await userEvent.clear(field(label));
    if (value) await userEvent.type(field(label), value);
  }
}

describe('Change Password', () => {
  it('is forced on a first sign-in: nothing else opens until the password is changed', async () => {
    const authProvider = fakeAuthProvider(['MLL Procurement'], 'New Starter', { mustChangePassword: true });
    const dataProvider = fakeDataProvider();
    renderConsole('/business-associates', { dataProvider, authProvider });

    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.getByText('Please change your password to continue.')).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /All Request/ })).not.toBeInTheDocument();
    expect(dataProvider.getList).not.toHaveBeenCalled();
    expect(dataProvider.getCounts).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByText(messages.required)).toBeInTheDocument();
    expect(screen.getByText(messages.password)).toBeInTheDocument();

    await fill({ old: 'Demo@2026', next: 'weakpass', confirm: 'weakpass' });
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByText(messages.password)).toBeInTheDocument();
    expect(field('New Password')).toHaveAttribute('aria-invalid', 'true');

    await fill({ old: 'Demo@2026', next: 'Better@2026', confirm: 'Better@2027' });
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByText(messages.confirmPassword)).toBeInTheDocument();
    expect(authProvider.changePassword).not.toHaveBeenCalled();

    await fill({ old: 'Demo@2026', next: 'Better@2026', confirm: 'Better@2026' });
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(authProvider.changePassword).toHaveBeenCalledWith({
      oldPassword: 'Demo@2026',
      newPassword: 'Better@2026',
      confirmPassword: 'Better@2026',
    });
    // The new session goes on into the console.
    expect(await screen.findByRole('menuitem', { name: /All Request/ })).toBeInTheDocument();
  });

  it("shows the API's refusal under its field (the last-5 rule)", async () => {
    const authProvider = fakeAuthProvider(['MLL Procurement'], 'New Starter', { mustChangePassword: true });
    const reuse = 'You cannot reuse any of your last 5 passwords';
    authProvider.changePassword.mockRejectedValueOnce(
      new HttpError('Please correct the highlighted fields', 400, {
        message: 'Please correct the highlighted fields',
        errors: { newPassword: reuse },
      }),
    );
    renderConsole('/', { dataProvider: fakeDataProvider(), authProvider });
    await screen.findByRole('heading', { name: 'Change Password' });
    await fill({ old: 'Demo@2026', next: 'Demo@2025', confirm: 'Demo@2025' });
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(reuse)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please correct the highlighted fields');
  });

  it('is open to everyone from the user menu, with a way back', async () => {
    const authProvider = fakeAuthProvider(['Auditor'], 'Ann Auditor');
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), authProvider });
    await userEvent.click(await screen.findByRole('button', { name: 'Profile' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change Password' }));
    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.queryByText('Please change your password to continue.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Change Password' })).not.toBeInTheDocument());
  });
});
