import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ErrorDialog } from './ErrorDialog';

describe('ErrorDialog', () => {
  it('is a modal named by its title and described by the message, whitespace kept', () => {
    render(<ErrorDialog open message={'PAN is invalid.\nCity is required.'} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Error' });
    expect(dialog).toHaveAccessibleDescription(/^PAN is invalid\.\s+City is required\.$/);
    const message = screen.getByTestId('error-message');
    expect(message.textContent).toBe('PAN is invalid.\nCity is required.');
    expect(getComputedStyle(message).whiteSpace).toBe('pre-wrap');
  });

  it('closes through its Close button', async () => {
    const onClose = jest.fn();
    render(<ErrorDialog open title="Not saved" message="Try again" onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'Not saved' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows nothing while closed', () => {
    render(<ErrorDialog open={false} message="hidden" onClose={() => undefined} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
