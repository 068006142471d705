import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { itemMessages } from '../../../domain/src/onboarding/items-schema';
import { messages } from '../../../domain/src/validation/fields';
import { FILE_KINDS, uploadMessages } from '../../../domain/src/validation/files';
import type { BusinessAssociate } from '../api/client';
import { baUser, completeDetails, problem, type FakeReply, type RecordedRequest } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { bankTexts } from './BankDetailsTab';
import { concessionTexts } from './ConcessionsTab';
import { documentTexts } from './DocumentUploadDialog';
import { gstTexts } from './GstTab';
import { bankRow, concessionRow, documentRow, formFields, gstRow, onboardingFake, type ItemsFakeOptions } from './itemsFake';
import type { TabKey } from './tabs';
import { verticalTexts } from './VerticalMappingTab';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });

const BASE = '/api/business-associates/ba-1';

function open(
  tab: TabKey,
  options: { ba?: Partial<BusinessAssociate>; items?: ItemsFakeOptions; intercept?: (req: RecordedRequest) => FakeReply | undefined } = {},
) {
  const { api, items } = onboardingFake(
    { session: baUser, ba: { details: completeDetails, ...options.ba }, intercept: options.intercept },
    options.items,
  );
  renderPortal(api, `/onboard/ba-details/edit?tab=${tab}`);
  return { api, items };
}

const fill = (root: HTMLElement, label: RegExp, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });
const pdf = (name = 'certificate.pdf') => new File(['%PDF-1.4 test'], name, { type: 'application/pdf' });

describe('bank details tab', () => {
  it("checks the account number and IFSC with the shared rules, upper-cases the IFSC and fills the bank's name", async () => {
    const { api } = open('bankDetails');
    const form = await screen.findByRole('form', { name: 'Primary bank account' });
    fill(form, /^Account Number/, '12ab');
    fill(form, /^IFSC Code/, 'hdfc0001234');
    expect(within(form).getByLabelText(/^IFSC Code/)).toHaveValue('HDFC0001234');
    // HDFC is in the Bank Keys master: the bank name is filled in.
    await waitFor(() => expect(within(form).getByLabelText(/^Bank Name/)).toHaveValue('HDFC Bank'));
    expect(api.requests.some((r) => r.path === '/api/bank-keys' && r.query.get('filter') === '{"q":"HDFC"}')).toBe(true);
    await user.click(screen.getByTestId('save-bankDetails'));

    expect(within(form).getByLabelText(/^Account Number/)).toHaveAccessibleDescription(messages.accountNumber);
    expect(within(form).getByLabelText(/^Account Holder Name/)).toHaveAccessibleDescription(messages.required);
    expect(api.sent('POST', `${BASE}/bank-accounts`)).toHaveLength(0);
  });

  it('saves the primary account as a draft (POST, then PUT once it exists)', async () => {
    const { api, items } = open('bankDetails');
    const form = await screen.findByRole('form', { name: 'Primary bank account' });
    fill(form, /^Account Number/, '123456789012');
    fill(form, /^IFSC Code/, 'SBIN0000300');
    fill(form, /^Account Holder Name/, 'Sahyadri Roadways Pvt Ltd');
    fill(form, /^Bank Branch/, 'Pune Camp');
    await waitFor(() => expect(within(form).getByLabelText(/^Bank Name/)).toHaveValue('State Bank of India'));
    await user.click(screen.getByTestId('save-bankDetails'));

    expect(await screen.findByText(bankTexts.saved)).toBeInTheDocument();
    const [saved] = api.sent('POST', `${BASE}/bank-accounts`);
    expect(saved?.body).toEqual({
      accountNo: '123456789012',
      ifscCode: 'SBIN0000300',
      micrNo: null,
      accountName: 'Sahyadri Roadways Pvt Ltd',
      bankName: 'State Bank of India',
      bankBranch: 'Pune Camp',
    });
    expect(saved?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(items.bankAccounts[0]?.primary).toBe(true);

    // The saved account is now edited in place.
    const again = await screen.findByRole('form', { name: 'Primary bank account' });
    fill(again, /^Bank Branch/, 'Shivajinagar');
    await user.click(screen.getByTestId('save-bankDetails'));
    await waitFor(() => expect(api.sent('PUT', `${BASE}/bank-accounts/${items.bankAccounts[0]!.id}`)).toHaveLength(1));
  });

  it("shows the server's field errors under the fields", async () => {
    open('bankDetails', {
      intercept: (req) =>
        req.method === 'POST' && req.path.endsWith('/bank-accounts')
          ? { status: 400, body: problem(400, 'Invalid bank details', { accountNo: 'This account is already registered' }) }
          : undefined,
    });
    const form = await screen.findByRole('form', { name: 'Primary bank account' });
    fill(form, /^Account Number/, '123456789012');
    fill(form, /^IFSC Code/, 'SBIN0000300');
    fill(form, /^Account Holder Name/, 'Sahyadri');
    fill(form, /^Bank Branch/, 'Pune');
    await waitFor(() => expect(within(form).getByLabelText(/^Bank Name/)).toHaveValue('State Bank of India'));
    await user.click(screen.getByTestId('save-bankDetails'));

    await waitFor(() =>
      expect(within(form).getByLabelText(/^Account Number/)).toHaveAccessibleDescription('This account is already registered'),
    );
    expect(screen.getByText('Invalid bank details')).toBeInTheDocument();
  });

  it('lists additional accounts with their review, adds one and deletes one after confirmation', async () => {
    const { api } = open('bankDetails', {
      items: {
        bankAccounts: [
          bankRow(),
          bankRow({ id: 'acc-2', primary: false, accountNo: '998877665544', reviewStatus: 'rejected', reviewRemarks: 'Cheque unreadable' }),
        ],
      },
    });
    const row = await screen.findByTestId('bank-account-998877665544');
    expect(within(row).getByTestId('review-status')).toHaveTextContent('Rejected');
    expect(within(row).getByTestId('review-remarks')).toHaveTextContent('Cheque unreadable');

    await user.click(screen.getByTestId('add-bank-account'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a bank account' });
    fill(dialog, /^Account Number/, '555566667777');
    fill(dialog, /^IFSC Code/, 'ICIC0000001');
    fill(dialog, /^Account Holder Name/, 'Sahyadri Roadways');
    fill(dialog, /^Bank Branch/, 'Mumbai');
    await waitFor(() => expect(within(dialog).getByLabelText(/^Bank Name/)).toHaveValue('ICICI Bank'));
    await user.click(within(dialog).getByTestId('save-additional-bank-account'));
    expect(await screen.findByTestId('bank-account-555566667777')).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/bank-accounts`)[0]?.body).toMatchObject({ accountNo: '555566667777', ifscCode: 'ICIC0000001' });
    // The page is inert until the dialog has gone.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(row).getByRole('button', { name: 'Delete account 998877665544' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete this bank account?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('bank-account-998877665544')).not.toBeInTheDocument());
    expect(api.sent('DELETE', `${BASE}/bank-accounts/acc-2`)).toHaveLength(1);
  });
});

describe('GST / places of business tab', () => {
  async function addRow() {
    await user.click(await screen.findByTestId('add-gst-registration'));
    return screen.findByRole('dialog', { name: 'Add place of business' });
  }

  it("offers the spec's GST type labels and checks the GSTIN against the state and the PAN", async () => {
    const { api } = open('gstRegistrations');
    const dialog = await addRow();
    const types = within(within(dialog).getByLabelText(/^GST Type/)).getAllByRole('option').map((o) => o.textContent);
    expect(types).toEqual([
      'Select GST type',
      'GST Registered',
      'Not Registered',
      'Composition Dealer',
      'Registered with RCM',
      'Special Economic Zone',
    ]);
    await user.selectOptions(within(dialog).getByLabelText(/^State/), 'Maharashtra');
    await user.selectOptions(within(dialog).getByLabelText(/^GST Type/), 'GST Registered');
    await user.selectOptions(within(dialog).getByLabelText(/^City/), await within(dialog).findByRole('option', { name: 'Pune' }));
    fill(dialog, /^Address Line 1/, '12 MG Road');
    fill(dialog, /^Pincode/, '411001');
    // Karnataka's code (29) for a Maharashtra row.
    fill(dialog, /^GSTIN/, '29ABCDE1234F1Z5');
    await user.click(within(dialog).getByTestId('save-gstRegistration'));
    expect(within(dialog).getByLabelText(/^GSTIN/)).toHaveAccessibleDescription(itemMessages.gstinState);

    // Another company's PAN inside the GSTIN.
    fill(dialog, /^GSTIN/, '27ZZZZZ9999Z1Z5');
    await user.click(within(dialog).getByTestId('save-gstRegistration'));
    expect(within(dialog).getByLabelText(/^GSTIN/)).toHaveAccessibleDescription(itemMessages.gstinPan);

    // A Delhi pincode for a Maharashtra address.
    fill(dialog, /^GSTIN/, '27abcde1234f1z5');
    fill(dialog, /^Pincode/, '110001');
    await user.click(within(dialog).getByTestId('save-gstRegistration'));
    expect(within(dialog).getByLabelText(/^Pincode/)).toHaveAccessibleDescription('Pincode does not belong to the selected state');
    expect(api.sent('POST', `${BASE}/gst-registrations`)).toHaveLength(0);

    fill(dialog, /^Pincode/, '411001');
    await user.click(within(dialog).getByTestId('save-gstRegistration'));
    expect(await screen.findByText(gstTexts.saved)).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/gst-registrations`)[0]?.body).toEqual({
      stateId: 27,
      gstType: '',
      gstNo: '27ABCDE1234F1Z5',
      addressLine1: '12 MG Road',
      addressLine2: null,
      pinCode: '411001',
      cityId: 2702,
      bankAccountId: null,
      vendorCategory: null,
    });
    expect(await screen.findByTestId('gst-row-27')).toHaveTextContent('GST Registered');
  });

  it('asks no GSTIN of a place that is not registered, and shows a refusal from the server', async () => {
    const { api } = open('gstRegistrations', {
      items: { gstRegistrations: [gstRow({ stateId: 29, stateName: 'Karnataka' })] },
      intercept: (req) =>
        req.method === 'POST' && req.path.endsWith('/gst-registrations')
          ? { status: 409, body: problem(409, 'A place of business for this state already exists') }
          : undefined,
    });
    const dialog = await addRow();
    await user.selectOptions(within(dialog).getByLabelText(/^State/), 'Maharashtra');
    await user.selectOptions(within(dialog).getByLabelText(/^GST Type/), 'Not Registered');
    expect(within(dialog).queryByLabelText(/^GSTIN/)).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText(/^City/), await within(dialog).findByRole('option', { name: 'Pune' }));
    fill(dialog, /^Address Line 1/, '12 MG Road');
    fill(dialog, /^Pincode/, '411001');
    await user.click(within(dialog).getByTestId('save-gstRegistration'));

    expect(await screen.findByText('A place of business for this state already exists')).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/gst-registrations`)[0]?.body).toMatchObject({ gstType: '0', gstNo: null });
  });
});

describe('documents tab', () => {
  it('marks the documents mandatory for the service with *, one GST document per registered state', async () => {
    open('documents', {
      items: {
        gstRegistrations: [gstRow(), gstRow({ id: 'gst-2', stateId: 29, stateName: 'Karnataka', gstType: '0', gstNo: null })],
        documents: [documentRow({ reviewStatus: 'rejected', reviewRemarks: 'PAN is blurred' })],
      },
    });
    // Transportation (service 1): PAN, cheque, RC, licence and insurance are mandatory; incorporation is not.
    const pan = await screen.findByTestId('document-1');
    expect(within(pan).getByTestId('mandatory-marker')).toBeInTheDocument();
    expect(within(pan).getByTestId('review-remarks')).toHaveTextContent('PAN is blurred');
    expect(within(screen.getByTestId('document-7')).getByTestId('mandatory-marker')).toBeInTheDocument();
    expect(within(screen.getByTestId('document-4')).queryByTestId('mandatory-marker')).not.toBeInTheDocument();
    // The GST certificate for the registered Maharashtra row only.
    expect(screen.getByTestId('document-2-27')).toHaveTextContent('GST Registration Certificate (Maharashtra)');
    expect(screen.queryByTestId('document-2-29')).not.toBeInTheDocument();
  });

  it("refuses a file of the wrong type with the spec's message and asks for the validity date", async () => {
    const { api } = open('documents');
    await user.click(await screen.findByTestId('upload-7'));
    const dialog = await screen.findByRole('dialog', { name: 'Upload Transporter Licence' });
    const input = within(dialog).getByTestId('document-file');
    expect(input).toHaveAttribute('accept', '.jpg,.jpeg,.png,.gif,.pdf,.doc,.docx');
    fireEvent.change(input, { target: { files: [new File(['a,b'], 'licence.csv', { type: 'text/csv' })] } });
    expect(within(dialog).getByText(FILE_KINDS.document.message)).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('save-document'));
    expect(within(dialog).getByLabelText(/^Valid Till/)).toHaveAccessibleDescription(itemMessages.validTillRequired);
    expect(api.sent('POST', `${BASE}/documents`)).toHaveLength(0);
  });

  it('uploads a document as multipart with its number and validity date', async () => {
    const { api } = open('documents');
    await user.click(await screen.findByTestId('upload-7'));
    const dialog = await screen.findByRole('dialog', { name: 'Upload Transporter Licence' });
    await user.click(within(dialog).getByTestId('save-document'));
    expect(within(dialog).getByText(uploadMessages.noFile)).toBeInTheDocument();

    fill(dialog, /^Document Number/, 'TL-2026-88');
    fill(dialog, /^Valid Till/, '2099-12-31');
    fireEvent.change(within(dialog).getByTestId('document-file'), { target: { files: [pdf('licence.pdf')] } });
    await user.click(within(dialog).getByTestId('save-document'));

    expect(await screen.findByText(documentTexts.uploaded)).toBeInTheDocument();
    const [sent] = api.sent('POST', `${BASE}/documents`);
    expect(formFields(sent)).toEqual({
      documentTypeId: '7',
      kind: 'onboarding',
      documentNumber: 'TL-2026-88',
      validTill: '2099-12-31',
      file: 'file:licence.pdf',
    });
    expect(await within(screen.getByTestId('document-7')).findByText('licence.pdf')).toBeInTheDocument();
  });

  it("uploads a GST certificate for its place of business's state", async () => {
    const { api } = open('documents', { items: { gstRegistrations: [gstRow()] } });
    await user.click(await screen.findByTestId('upload-2-27'));
    const dialog = await screen.findByRole('dialog', { name: 'Upload GST Registration Certificate — Maharashtra' });
    fireEvent.change(within(dialog).getByTestId('document-file'), { target: { files: [pdf('gst.pdf')] } });
    await user.click(within(dialog).getByTestId('save-document'));
    expect(await screen.findByText(documentTexts.uploaded)).toBeInTheDocument();
    expect(formFields(api.sent('POST', `${BASE}/documents`)[0])).toEqual({
      documentTypeId: '2',
      kind: 'onboarding',
      stateId: '27',
      file: 'file:gst.pdf',
    });
  });

  it('views a document from a blob: URL and deletes one after confirmation', async () => {
    const created: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: jest.fn((b: Blob) => {
        created.push(b);
        return 'blob:http://portal.test/1';
      }),
      revokeObjectURL: jest.fn(),
    });
    const { api } = onboardingFake({ session: baUser, ba: { details: completeDetails } }, { documents: [documentRow()] });
    // The base fake answers JSON only: serve the file's bytes here.
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/documents/doc-1/file')) {
        api.requests.push({ method: 'GET', path: `${BASE}/documents/doc-1/file`, query: new URLSearchParams(), headers: {}, body: undefined });
        return { status: 200, ok: true, headers: { get: () => null }, blob: async () => pdf() } as unknown as Response;
      }
      return api.fetch(input, init);
    };
    renderPortal({ ...api, fetch: fetch as typeof globalThis.fetch }, '/onboard/ba-details/edit?tab=documents');
    await user.click(within(await screen.findByTestId('document-1')).getByRole('button', { name: 'View PAN Card' }));
    const viewer = await screen.findByRole('dialog', { name: 'PAN Card' });
    expect(within(viewer).getByTestId('file-viewer-frame')).toHaveAttribute('src', 'blob:http://portal.test/1');
    expect(created).toHaveLength(1);
    await user.click(within(viewer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://portal.test/1'));

    const row = await screen.findByTestId('document-1');
    await user.click(within(row).getByRole('button', { name: 'Delete PAN Card' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete this document?' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(documentTexts.deleted)).toBeInTheDocument();
    expect(api.sent('DELETE', `${BASE}/documents/doc-1`)).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByTestId('document-1')).getByText('Not uploaded')).toBeInTheDocument());
  });
});

describe('concessions tab', () => {
  it('checks the certificate and saves a concession as multipart', async () => {
    const { api } = open('concessions');
    await user.click(await screen.findByTestId('add-concession'));
    const dialog = await screen.findByRole('dialog', { name: 'Add concession' });
    await user.click(within(dialog).getByTestId('save-concession'));
    expect(within(dialog).getByText(uploadMessages.noFile)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Exemption Number/)).toHaveAccessibleDescription(messages.required);

    fill(dialog, /^Exemption Number/, 'LDC2026001');
    fill(dialog, /^Exemption Rate/, '0.5');
    fill(dialog, /^Exemption From/, '2026-04-01');
    fill(dialog, /^Exemption To/, '2027-03-31');
    await user.selectOptions(within(dialog).getByLabelText(/^Exemption Reason/), within(dialog).getByRole('option', { name: /^A — / }));
    fill(dialog, /^Exemption Threshold/, '500000');
    await user.selectOptions(within(dialog).getByLabelText(/^Withholding Tax Type/), 'WC');
    await user.selectOptions(within(dialog).getByLabelText(/^Withholding Tax Code/), within(dialog).getByRole('option', { name: /^C2 — / }));
    // The tax code's section is proposed.
    expect(within(dialog).getByLabelText(/^Section Code/)).toHaveValue('194C');
    fireEvent.change(within(dialog).getByTestId('concession-file'), { target: { files: [pdf('ldc.pdf')] } });
    await user.click(within(dialog).getByTestId('save-concession'));

    expect(await screen.findByText(concessionTexts.saved)).toBeInTheDocument();
    expect(formFields(api.sent('POST', `${BASE}/concessions`)[0])).toEqual({
      exemptionNumber: 'LDC2026001',
      exemptionRate: '0.5',
      exemptionFrom: '2026-04-01',
      exemptionTo: '2027-03-31',
      exemptionReasonId: '1',
      exemptionThreshold: '500000',
      withHoldingTaxType: 'WC',
      withHoldingTaxCode: 'C2',
      sectionCode: '194C',
      file: 'file:ldc.pdf',
    });
    expect(await screen.findByTestId('concession-LDC2026001')).toBeInTheDocument();
  });

  it('edits a concession without a new certificate (PUT) and shows the update message', async () => {
    const { api } = open('concessions', { items: { concessions: [concessionRow()] } });
    const row = await screen.findByTestId('concession-LDC2026001');
    await user.click(within(row).getByRole('button', { name: 'Edit concession LDC2026001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit concession' });
    fill(dialog, /^Exemption Rate/, '1');
    await user.click(within(dialog).getByTestId('save-concession'));
    expect(await screen.findByText(concessionTexts.updated)).toBeInTheDocument();
    const fields = formFields(api.sent('PUT', `${BASE}/concessions/con-1`)[0]);
    expect(fields).toMatchObject({ exemptionRate: '1', exemptionNumber: 'LDC2026001' });
    expect(fields['file']).toBeUndefined();
  });
});

describe('vertical mapping tab', () => {
  it('needs a vertical, then saves the chosen ids', async () => {
    const { api } = open('verticalMapping');
    const form = await screen.findByRole('form', { name: 'Vertical mapping' });
    await within(form).findByRole('checkbox', { name: 'Automotive' });
    await user.click(within(form).getByTestId('save-verticalMapping'));
    expect(within(form).getByText(itemMessages.verticalsRequired)).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/vertical-mapping`)).toHaveLength(0);

    await user.click(within(form).getByRole('checkbox', { name: 'Automotive' }));
    await user.click(within(screen.getByTestId('group-vehicleTypeIds')).getByRole('checkbox', { name: 'Tata Ace' }));
    await user.click(within(screen.getByTestId('group-pickupZoneIds')).getByRole('checkbox', { name: 'West' }));
    await user.click(within(form).getByTestId('save-verticalMapping'));

    expect(await screen.findByText(verticalTexts.saved)).toBeInTheDocument();
    expect(api.sent('POST', `${BASE}/vertical-mapping`)[0]?.body).toEqual({
      verticalIds: [1],
      subServiceIds: [],
      vehicleTypeIds: [3],
      zoneIds: [],
      pickupZoneIds: [4],
      deliveryZoneIds: [],
    });
  });
});
