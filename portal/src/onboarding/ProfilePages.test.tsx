import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { itemMessages } from '../../../domain/src/onboarding/items-schema';
import { completeDetails, verifiedBaAdmin } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { documentTexts } from './DocumentUploadDialog';
import { bankRow, companyCodeRow, documentRow, formFields, onboardingFake, type ItemsFakeOptions } from './itemsFake';
import { profileTexts } from './ProfilePages';
import { NEXT_STEPS } from './StatusPage';

const user = userEvent.setup({ delay: null });
const BASE = '/api/business-associates/ba-1';

const verified = (items: ItemsFakeOptions = {}) =>
  onboardingFake({ session: verifiedBaAdmin, ba: { status: 'verified', details: completeDetails } }, items);

describe('verified BA', () => {
  it('the status page keeps the welcome message and says what comes next', async () => {
    const welcome = 'Welcome aboard: we look forward to working together with you.';
    const { api } = onboardingFake({
      session: verifiedBaAdmin,
      ba: { status: 'verified', details: completeDetails, welcomeMessage: welcome },
    });
    renderPortal(api, '/onboard/status');
    expect(await screen.findByTestId('welcome-message')).toHaveTextContent(welcome);
    for (const step of NEXT_STEPS) expect(within(screen.getByTestId('next-steps')).getByText(step)).toBeInTheDocument();
  });

  it('Additional Documents: header entry, list with review status, upload of kind "additional"', async () => {
    const { api } = verified({
      documents: [
        documentRow({ id: 'add-1', kind: 'additional', documentTypeId: 4, documentTypeName: 'Audited Financial Statements', reviewStatus: 'rejected', reviewRemarks: 'Unsigned' }),
      ],
    });
    renderPortal(api, '/home');
    await user.click(await screen.findByRole('link', { name: 'Additional Documents' }));
    expect(await screen.findByRole('heading', { name: 'Additional Documents' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/onboard/BA/AdditionalDocs');
    const audited = await screen.findByTestId('additional-4');
    expect(within(audited).getByTestId('review-remarks')).toHaveTextContent('Unsigned');

    await user.click(screen.getByTestId('upload-additional-2'));
    const dialog = await screen.findByRole('dialog', { name: 'Upload ISO 9001 Certificate' });
    await user.click(within(dialog).getByTestId('save-document'));
    expect(within(dialog).getByLabelText(/^Valid Till/)).toHaveAccessibleDescription(itemMessages.validTillRequired);
    fireEvent.change(within(dialog).getByLabelText(/^Valid Till/), { target: { value: '2099-01-31' } });
    fireEvent.change(within(dialog).getByTestId('document-file'), {
      target: { files: [new File(['%PDF'], 'iso.pdf', { type: 'application/pdf' })] },
    });
    await user.click(within(dialog).getByTestId('save-document'));
    expect(await screen.findByText(documentTexts.uploaded)).toBeInTheDocument();
    expect(formFields(api.sent('POST', `${BASE}/documents`)[0])).toMatchObject({
      documentTypeId: '2',
      kind: 'additional',
      validTill: '2099-01-31',
      file: 'file:iso.pdf',
    });
    expect(api.requests.some((r) => r.path === `${BASE}/documents` && r.query.get('filter') === '{"kind":"additional"}')).toBe(true);
  });

  it('Edit Profile: a bank change is a change request, listed as pending, with payments on hold', async () => {
    const { api } = verified({ bankAccounts: [bankRow({ reviewStatus: 'approved' })] });
    renderPortal(api, '/home');
    await user.click(await screen.findByTestId('profile-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit Profile' }));
    expect(await screen.findByRole('heading', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(screen.queryByTestId('payments-on-hold')).not.toBeInTheDocument();

    const form = await screen.findByRole('form', { name: 'Bank account change' });
    expect(within(form).getByLabelText(/^Account Number/)).toHaveValue('123456789012');
    fireEvent.change(within(form).getByLabelText(/^Account Number/), { target: { value: '111122223333' } });
    await user.click(within(form).getByTestId('request-bank-change'));

    expect(await screen.findByText(profileTexts.requested)).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/change-requests`)[0]?.body).toEqual({
      section: 'bank',
      proposed: {
        accountNo: '111122223333',
        ifscCode: 'HDFC0001234',
        micrNo: null,
        accountName: 'Sahyadri Roadways Pvt Ltd',
        bankName: 'HDFC Bank',
        bankBranch: 'Pune Camp',
      },
    });
    expect(await screen.findByTestId('payments-on-hold')).toHaveTextContent(profileTexts.paymentsOnHold);
    expect(screen.getByTestId('change-request-bank')).toHaveTextContent('Waiting for review');
    // One open request per section: no second bank form.
    expect(screen.queryByRole('form', { name: 'Bank account change' })).not.toBeInTheDocument();
  });

  it('Edit Profile: a company change sends only the changed fields, and concessions may still be added', async () => {
    const { api } = verified();
    renderPortal(api, '/onboard/profile/edit');
    const form = await screen.findByRole('form', { name: 'Company details' });
    fireEvent.change(within(form).getByLabelText(/^Contact Person Name/), { target: { value: 'Ravi Kumar' } });
    await user.click(within(form).getByRole('button', { name: 'Request change' }));

    expect(await screen.findByText(profileTexts.requested)).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/change-requests`)[0]?.body).toEqual({
      section: 'company',
      proposed: { contactPersonName: 'Ravi Kumar' },
    });
    expect(await screen.findByTestId('change-request-company')).toHaveTextContent('Waiting for review');
    expect(screen.getByTestId('add-concession')).toBeInTheDocument();
  });

  it('applies for another company code from the profile and shows the status per code', async () => {
    const { api } = verified({
      companyCodes: [companyCodeRow({ first: true, status: 'verified', submission: 1 })],
    });
    renderPortal(api, '/home');
    await user.click(await screen.findByTestId('profile-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Apply for another company code' }));
    const current = await screen.findByTestId('company-code-1000');
    expect(within(current).getByTestId('status-chip')).toHaveTextContent('Verified');

    const form = screen.getByRole('form', { name: 'Apply for another company code' });
    await user.click(within(form).getByTestId('apply-company-code'));
    expect(within(form).getByLabelText(/^Company/)).toHaveAccessibleDescription('Please select a company');
    const options = within(within(form).getByLabelText(/^Company/)).getAllByRole('option');
    // The code already held is not offered again.
    expect(options.some((o) => o.getAttribute('value') === '1000')).toBe(false);
    const other = options.find((o) => o.getAttribute('value') !== '')!;
    await user.selectOptions(within(form).getByLabelText(/^Company/), other);
    await user.click(within(form).getByTestId('apply-company-code'));

    expect(await screen.findByText(profileTexts.applied)).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/company-codes`)[0]?.body).toEqual({ companyCode: other.getAttribute('value') });
    await waitFor(() => expect(screen.getByTestId(`company-code-${other.getAttribute('value')}`)).toHaveTextContent('Pending'));
  });
});
