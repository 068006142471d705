import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from 'react-admin';
import { messages } from '../../../domain/src/validation/fields';
import { activity, baRow, fakeDataProvider, renderConsole } from '../testing/fakes';
import { SAME_APPROVER_HINT } from './ApproveButton';

// The whole console renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
jest.setTimeout(120_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function openStage(stage: 1 | 2, roles: string[]) {
  const dataProvider = fakeDataProvider({ records: [baRow({ id: 'ba-1', status: 'inprogress', stage })] });
  renderConsole('/business-associates/ba-1/show', { dataProvider, roles });
  await screen.findByRole('heading', { name: 'Company details' });
  return dataProvider;
}

async function openDialog(buttonName: RegExp) {
  await userEvent.click(await screen.findByRole('button', { name: buttonName }));
  return screen.findByRole('dialog');
}

describe('Reject', () => {
  it('refuses empty remarks and sends nothing', async () => {
    const dataProvider = await openStage(1, ['MLL Procurement']);
    const dialog = await openDialog(/^reject$/i);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText(messages.required)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/remarks/i), '   ');
    expect(within(dialog).getByRole('button', { name: 'Reject' })).toBeDisabled();
    expect(dataProvider.reject).not.toHaveBeenCalled();
  });

  it('refuses remarks starting with a formula character (the shared safeText rule)', async () => {
    const dataProvider = await openStage(1, ['MLL Procurement']);
    const dialog = await openDialog(/^reject$/i);
    await userEvent.type(within(dialog).getByLabelText(/remarks/i), '=HYPERLINK("x")');
    await userEvent.tab();
    expect(within(dialog).getByText(messages.leadingCharacter)).toBeInTheDocument();
    expect(dataProvider.reject).not.toHaveBeenCalled();
  });

  it('sends trimmed remarks with the stage and an idempotency key, then confirms in a snackbar', async () => {
    const dataProvider = await openStage(2, ['MLL Commercial']);
    const dialog = await openDialog(/^reject$/i);
    await userEvent.type(within(dialog).getByLabelText(/remarks/i), '  GST certificate expired  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));

    await waitFor(() => expect(dataProvider.reject).toHaveBeenCalledTimes(1));
    const [id, params] = dataProvider.reject.mock.calls[0]!;
    expect(id).toBe('ba-1');
    expect(params).toEqual({
      stage: 2,
      remarks: 'GST certificate expired',
      idempotencyKey: expect.stringMatching(UUID),
    });
    expect(await screen.findByText(/onboarding rejected at stage 2/i)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('Approve', () => {
  it('approves the current stage with optional remarks left out', async () => {
    const dataProvider = await openStage(1, ['MLL Procurement']);
    const dialog = await openDialog(/approve stage 1/i);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dataProvider.approve).toHaveBeenCalledTimes(1));
    expect(dataProvider.approve.mock.calls[0]![1]).toEqual({
      stage: 1,
      remarks: null,
      idempotencyKey: expect.stringMatching(UUID),
    });
    // Success is a top-centre snackbar (spec 000 §2), not the modal error dialog.
    const snackbar = (await screen.findByText(/stage 1 approved/i)).closest('.MuiSnackbar-root');
    expect(snackbar).toHaveClass('MuiSnackbar-anchorOriginTopCenter');
    expect(screen.queryByTestId('error-message')).not.toBeInTheDocument();
  });

  it("shows the API's refusal, closes the dialog and reads the record again; a new submit is a new action", async () => {
    const dataProvider = await openStage(2, ['MLL-ADMIN']);
    dataProvider.approve.mockRejectedValueOnce(
      new HttpError('The same person cannot approve both stages.\nAsk another reviewer.', 422, {
        message: 'The same person cannot approve both stages.\nAsk another reviewer.',
      }),
    );
    const readsBefore = dataProvider.getOne.mock.calls.length;
    const dialog = await openDialog(/approve stage 2/i);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));

    const message = await screen.findByTestId('error-message');
    expect(message).toHaveTextContent('The same person cannot approve both stages. Ask another reviewer.');
    expect(message.textContent).toContain('\n');
    expect(getComputedStyle(message).whiteSpace).toBe('pre-wrap');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('error-message')).not.toBeInTheDocument());

    // The refusal means the page was out of date: the dialog is gone and the record was read again.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(dataProvider.getOne.mock.calls.length).toBeGreaterThan(readsBefore));

    const again = await openDialog(/approve stage 2/i);
    await userEvent.click(within(again).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dataProvider.approve).toHaveBeenCalledTimes(2));
    const [first, second] = dataProvider.approve.mock.calls.map((call) => call[1].idempotencyKey);
    expect(second).not.toBe(first);
  });

  it('closes the dialog and refreshes when another reviewer was faster (409)', async () => {
    const dataProvider = await openStage(1, ['MLL Procurement']);
    dataProvider.approve.mockRejectedValueOnce(
      new HttpError('Another reviewer has already decided this stage', 409, {
        message: 'Another reviewer has already decided this stage',
      }),
    );
    const readsBefore = dataProvider.getOne.mock.calls.length;
    const dialog = await openDialog(/approve stage 1/i);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('error-message')).toHaveTextContent('Another reviewer has already decided');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /approve stage 1/i })).not.toBeInTheDocument());
    await waitFor(() => expect(dataProvider.getOne.mock.calls.length).toBeGreaterThan(readsBefore));
  });

  it('resends the same idempotency key after a request that got no answer', async () => {
    const dataProvider = await openStage(1, ['MLL Procurement']);
    dataProvider.approve.mockRejectedValueOnce(new HttpError('Unexpected error occured', 0, null));
    const dialog = await openDialog(/approve stage 1/i);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('error-message')).not.toBeInTheDocument());

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dataProvider.approve).toHaveBeenCalledTimes(2));
    const [first, second] = dataProvider.approve.mock.calls.map((call) => call[1].idempotencyKey);
    expect(second).toBe(first);
  });
});

describe('Same person, both stages', () => {
  it('disables Approve at stage 2 for the stage-1 approver, who may still reject', async () => {
    const dataProvider = fakeDataProvider({
      records: [baRow({ id: 'ba-1', status: 'inprogress', stage: 2 })],
      log: [
        activity({ id: 1, eventType: 'OnboardingSubmitted', at: '2025-11-03T10:30:00.000Z' }),
        activity({
          id: 2,
          eventType: 'ReviewStageApproved',
          action: 'Stage 1 approved',
          actorUserId: 'user-1', // the signed-in user of fakeAuthProvider
          actorName: 'Test Reviewer',
          role: 'MLL-ADMIN',
          at: '2025-11-04T10:30:00.000Z',
        }),
      ],
    });
    renderConsole('/business-associates/ba-1/show', { dataProvider, roles: ['MLL-ADMIN'] });
    await waitFor(() => expect(screen.getByRole('button', { name: /approve stage 2/i })).toBeDisabled());
    expect(screen.getByLabelText(SAME_APPROVER_HINT)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^reject$/i })).toBeEnabled();
  });
});
