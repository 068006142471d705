import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baUser, completeDetails, type FakeApiOptions } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { onboardingFake } from './itemsFake';

const fakeApi = (options: FakeApiOptions) => onboardingFake(options).api;
import { statusTexts } from './StatusPage';

const WELCOME =
  'Congratulations! Your organisation has been verified. Welcome aboard: we look forward to working together with you.';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });

describe('onboarding status page', () => {
  it('pending: prompts the BA to complete and submit its details', async () => {
    renderPortal(fakeApi({ session: baUser }), '/onboard/status');

    expect(await screen.findByText(statusTexts.pending)).toBeInTheDocument();
    expect(screen.getByTestId('status-chip')).toHaveTextContent('Pending');
    await user.click(screen.getByRole('link', { name: 'Complete company details' }));
    expect(await screen.findByRole('form', { name: 'Company details' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/ba-details/registration');
  });

  it('in progress: says the details are under verification and names the current stage', async () => {
    const api = fakeApi({
      session: baUser,
      ba: {
        status: 'inprogress',
        stage: 2,
        details: completeDetails,
        submittedAt: '2026-03-04T20:05:00.000Z',
      },
    });
    renderPortal(api, '/onboard/status');

    expect(await screen.findByText(statusTexts.inprogress)).toBeInTheDocument();
    expect(screen.getByText('Second stage review (stage 2 of 2)')).toBeInTheDocument();
    // DD-MMM-YYYY in Indian time: 20:05 UTC on the 4th is the 5th in India.
    expect(screen.getByText(/Submitted on 05-Mar-2026/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /edit/i })).not.toBeInTheDocument();
  });

  it('verified: shows the welcome message from the record', async () => {
    const api = fakeApi({
      session: baUser,
      ba: { status: 'verified', details: completeDetails, welcomeMessage: WELCOME },
    });
    renderPortal(api, '/onboard/status');

    expect(await screen.findByTestId('welcome-message')).toHaveTextContent(WELCOME);
    expect(screen.getByTestId('status-chip')).toHaveTextContent('Verified');
    expect(screen.getByTestId('header-company-name')).toHaveTextContent('Sahyadri Roadways Pvt Ltd');
  });

  it('rejected: shows the remarks and opens the form for editing and resubmission', async () => {
    const remarks = 'PAN does not match the company name.\nPlease check and resubmit.';
    const api = fakeApi({ session: baUser, ba: { status: 'rejected', details: completeDetails, remarks } });
    renderPortal(api, '/onboard/status');

    expect(await screen.findByText(statusTexts.rejected)).toBeInTheDocument();
    expect(screen.getByTestId('rejection-remarks').textContent).toBe(remarks);
    await user.click(screen.getByRole('link', { name: 'Edit and resubmit' }));

    expect(await screen.findByRole('form', { name: 'Company details' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/ba-details/edit');
    expect(screen.getByLabelText(/^PAN Number/)).toHaveValue('ABCDE1234F');
    expect(screen.getByLabelText(/^PAN Number/)).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Submit for verification' })).toBeInTheDocument();
  });

  it('logs out from the header and returns to the login page', async () => {
    const api = fakeApi({ session: baUser });
    renderPortal(api, '/onboard/status');
    // Logout sits in the profile menu (spec 000 §2 "Header"), opened by the user's name.
    await user.click(await screen.findByRole('button', { name: baUser.name }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('form', { name: 'Login' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/auth/logout')).toHaveLength(1);
  });
});
