import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baUser, completeDetails, problem } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { successTexts } from './CompanyDetailsPage';
import { bankRow, concessionRow, documentRow, gstRow, onboardingFake } from './itemsFake';
import { submitTexts } from './OnboardingPage';
import { statusTexts } from './StatusPage';

const user = userEvent.setup({ delay: null });

const SUBMIT = '/api/business-associates/ba-1/submit';

describe('onboarding page', () => {
  it('shows the tabs in the spec order and switches between them', async () => {
    const { api } = onboardingFake({ session: baUser, ba: { details: completeDetails } });
    renderPortal(api, '/onboard/ba-details/registration');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Company Details',
      'Bank Details',
      'GST / Places of Business',
      'Documents',
      'Concessions',
      'Vertical Mapping',
    ]);
    await user.click(screen.getByTestId('tab-bankDetails'));
    expect(await screen.findByRole('form', { name: 'Primary bank account' })).toBeInTheDocument();
    expect(screen.getByTestId('tab-bankDetails')).toHaveAttribute('aria-selected', 'true');
  });

  it('asks for confirmation before submitting; cancelling sends nothing, confirming submits and shows the status', async () => {
    const { api } = onboardingFake({ session: baUser, ba: { details: completeDetails } });
    renderPortal(api, '/onboard/ba-details/edit');
    await user.click(await screen.findByTestId('submit-onboarding'));
    let dialog = await screen.findByRole('dialog', { name: submitTexts.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('POST', SUBMIT)).toHaveLength(0);

    await user.click(screen.getByTestId('submit-onboarding'));
    dialog = await screen.findByRole('dialog', { name: submitTexts.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText(statusTexts.inprogress)).toBeInTheDocument();
    expect(screen.getByText(successTexts.submitted)).toBeInTheDocument();
    expect(api.sent('POST', SUBMIT)[0]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/status');
  });

  it('shows a refused submission tab by tab: a summary linking to each tab and a marker on the tab', async () => {
    const errors = {
      bankDetails: 'Missing: a primary bank account',
      documents: 'Missing: PAN Card, Cancelled Cheque',
      verticalMapping: 'Missing: at least one vertical',
      addressLine1: 'This field is required',
    };
    const { api } = onboardingFake({
      session: baUser,
      ba: { details: completeDetails },
      intercept: (req) =>
        req.path === SUBMIT ? { status: 422, body: problem(422, submitTexts.refused, errors) } : undefined,
    });
    renderPortal(api, '/onboard/ba-details/edit');
    await user.click(await screen.findByTestId('submit-onboarding'));
    await user.click(within(await screen.findByRole('dialog', { name: submitTexts.confirmTitle })).getByRole('button', { name: 'Submit' }));

    const summary = await screen.findByTestId('submit-problems');
    expect(summary).toHaveTextContent(submitTexts.refused);
    expect(within(summary).getByTestId('problem-documents')).toHaveTextContent('Documents: Missing: PAN Card, Cancelled Cheque');
    expect(within(summary).getByTestId('problem-companyDetails')).toHaveTextContent('Address Line 1: This field is required');
    expect(within(summary).queryByTestId('problem-gstRegistrations')).not.toBeInTheDocument();
    expect(screen.getByTestId('tab-documents')).toHaveAttribute('data-missing', 'true');
    expect(screen.getByTestId('tab-verticalMapping')).toHaveAttribute('data-missing', 'true');
    expect(screen.getByTestId('tab-gstRegistrations')).not.toHaveAttribute('data-missing');
    // The company field's error is on the field too (the first tab with a problem is shown).
    await waitFor(() => expect(screen.getByLabelText(/^Address Line 1/)).toHaveAccessibleDescription('This field is required'));

    // The confirmation dialog closes (the page behind it is hidden from assistive technology until it has).
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(summary).getByRole('button', { name: 'Documents' }));
    expect(screen.getByTestId('tab-documents')).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByTestId('tab-problem')).toHaveTextContent('Missing: PAN Card, Cancelled Cheque');
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/ba-details/edit');
  });

  describe('after a rejection', () => {
    const rejected = {
      bankAccounts: [bankRow({ reviewStatus: 'rejected', reviewRemarks: 'Account name does not match' })],
      gstRegistrations: [gstRow()],
      documents: [
        documentRow({ reviewStatus: 'approved' }),
        documentRow({ id: 'doc-3', documentTypeId: 3, documentTypeName: 'Cancelled Cheque', fileName: 'cheque.png', reviewStatus: 'rejected', reviewRemarks: 'Cheque not signed' }),
      ],
      concessions: [concessionRow({ reviewStatus: 'approved' })],
      verticalMapping: { verticalIds: [1], reviewStatus: 'approved' as const, reviewRemarks: null },
    };
    const ba = { status: 'rejected' as const, details: completeDetails, remarks: 'Please correct the bank account and the cheque.' };

    it('the status page lists what was rejected and why, each linking to its tab', async () => {
      const { api } = onboardingFake({ session: baUser, ba }, rejected);
      renderPortal(api, '/onboard/status');
      const list = await screen.findByTestId('rejected-items');
      expect(within(list).getAllByRole('listitem')).toHaveLength(2);
      expect(within(list).getByTestId('rejected-doc-doc-3')).toHaveTextContent('Documents: Cancelled Cheque');
      expect(within(list).getByTestId('rejected-doc-doc-3')).toHaveTextContent('Reason: Cheque not signed');
      expect(within(list).getByTestId('rejected-bank-acc-1')).toHaveTextContent('Reason: Account name does not match');
      await user.click(within(list).getByRole('link', { name: /Cancelled Cheque/ }));
      expect(await screen.findByTestId('document-3')).toBeInTheDocument();
      expect(screen.getByTestId('tab-documents')).toHaveAttribute('aria-selected', 'true');
    });

    it('lets the BA change only the rejected items; approved ones are read-only', async () => {
      const { api } = onboardingFake({ session: baUser, ba }, rejected);
      renderPortal(api, '/onboard/ba-details/edit?tab=documents');
      const cheque = await screen.findByTestId('document-3');
      expect(within(cheque).getByRole('button', { name: 'Replace Cancelled Cheque' })).toBeInTheDocument();
      expect(within(cheque).getByRole('button', { name: 'Delete Cancelled Cheque' })).toBeInTheDocument();
      const pan = screen.getByTestId('document-1');
      expect(within(pan).getByTestId('review-status')).toHaveTextContent('Approved');
      expect(within(pan).queryByRole('button', { name: /Replace|Delete/ })).not.toBeInTheDocument();
      expect(within(pan).getByRole('button', { name: 'View PAN Card' })).toBeInTheDocument();

      // The rejected primary account is editable; the approved vertical mapping and concession are not.
      await user.click(screen.getByTestId('tab-bankDetails'));
      expect(await screen.findByTestId('save-bankDetails')).toBeInTheDocument();
      expect(screen.getByLabelText(/^Account Number/, { selector: '#bank-accountNo' })).toBeEnabled();
      await user.click(screen.getByTestId('tab-verticalMapping'));
      expect(await screen.findByText('This item was approved and cannot be changed')).toBeInTheDocument();
      expect(screen.queryByTestId('save-verticalMapping')).not.toBeInTheDocument();
      expect(screen.getByRole('checkbox', { name: 'Automotive' })).toBeDisabled();
      await user.click(screen.getByTestId('tab-concessions'));
      const row = await screen.findByTestId('concession-LDC2026001');
      expect(within(row).queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();

      // Resubmission goes through the same confirmation.
      expect(screen.getByTestId('rejection-summary')).toHaveTextContent('Please correct the bank account and the cheque.');
      await user.click(screen.getByTestId('submit-onboarding'));
      await user.click(within(await screen.findByRole('dialog', { name: submitTexts.confirmTitle })).getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(statusTexts.inprogress)).toBeInTheDocument();
    });
  });

  it('is read-only for a verified BA (View Profile): every tab shown, nothing to save or submit', async () => {
    const { api } = onboardingFake(
      { session: { ...baUser, baStatus: 'verified', home: '/home' }, ba: { status: 'verified', details: completeDetails } },
      { bankAccounts: [bankRow({ reviewStatus: 'approved' })], documents: [documentRow({ reviewStatus: 'approved' })] },
    );
    renderPortal(api, '/onboard/ba-details/view');
    expect(await screen.findByRole('heading', { name: 'Company profile' })).toBeInTheDocument();
    expect(await screen.findByTestId('view-panNumber')).toHaveTextContent('ABCDE1234F');
    expect(screen.queryByTestId('submit-onboarding')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('tab-bankDetails'));
    expect(await screen.findByLabelText(/^Account Number/)).toBeDisabled();
    expect(screen.queryByTestId('save-bankDetails')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('tab-documents'));
    const pan = await screen.findByTestId('document-1');
    expect(within(pan).queryByRole('button', { name: /Replace|Delete|Upload/ })).not.toBeInTheDocument();
    await user.click(screen.getByTestId('tab-concessions'));
    expect(await screen.findByText('No concessions.')).toBeInTheDocument();
    expect(screen.queryByTestId('add-concession')).not.toBeInTheDocument();
  });
});
