import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { baColleague, billHubOnlyUser, completeDetails, problem, verifiedBaAdmin } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { billHubFake, FORM_OPTIONS, invoiceRow, type BillHubFake } from './testing';
import { billHubTexts } from './texts';
import type { InvoiceRow } from './types';

// The whole portal renders per test on shared 2-core machines: give slow runs room (no timing is asserted).
const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

const TODAY = indiaDateAt(Date.now());

const rows: InvoiceRow[] = [
  invoiceRow({ id: 'inv-d', invoiceNumber: 'INV-DRAFT', status: 'draft', invoiceDate: TODAY }),
  invoiceRow({ id: 'inv-s', invoiceNumber: 'INV-SUB', status: 'S', invoiceDate: '2026-11-20', taxableAmount: '123456.00', cgst: '0', sgst: '0', td: '0' }),
  invoiceRow({ id: 'inv-p', invoiceNumber: 'INV-PAID', status: 'P', memoId: 'memo-0', memoNumber: 'MEMO/1000/2026-27/000009' }),
];

const bench = (over: Parameters<typeof billHubFake>[0] = {}): BillHubFake =>
  billHubFake({ session: verifiedBaAdmin, ba: verifiedBa, invoices: rows, ...over });

const listRequests = (api: BillHubFake) =>
  api.requests
    .filter((r) => r.method === 'GET' && r.path === '/api/invoices')
    .map((r) => ({ filter: JSON.parse(r.query.get('filter') ?? '{}') as unknown, range: r.query.get('range') }));

const snackbar = (text: string) => screen.findByText(text, {}, { timeout: 10_000 });

async function fillInvoice(values: Partial<Record<string, string>> = {}) {
  const v = {
    number: 'INV-NEW-1',
    date: TODAY,
    taxable: '10000',
    cgst: '900',
    sgst: '900',
    comments: 'November trips',
    ...values,
  };
  await user.type(await screen.findByLabelText(/Invoice Number/), v.number);
  fireEvent.change(screen.getByLabelText(/Invoice Date/), { target: { value: v.date } });
  await user.type(screen.getByLabelText(/Taxable Amount/), v.taxable);
  await user.type(screen.getByLabelText('CGST'), v.cgst);
  await user.type(screen.getByLabelText('SGST'), v.sgst);
  await user.type(screen.getByLabelText(/Comments/), v.comments);
  await user.selectOptions(screen.getByLabelText('Billing From'), '100045');
  await user.selectOptions(screen.getByLabelText('Billing To'), 'CHK');
  await user.selectOptions(screen.getByLabelText('Submit To'), 'u-com');
  await waitFor(() => expect(within(screen.getByLabelText('HSN Code')).getAllByRole('option').length).toBeGreaterThan(1));
  await user.selectOptions(screen.getByLabelText('HSN Code'), '996511');
}

describe('Bill-Hub invoice list', () => {
  it('lists the invoices: number, date, from → to, total in ₹ en-IN, status and memo; 10 a page from page 0', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub');
    const table = await screen.findByRole('table', { name: 'Invoices' });
    const sub = (await within(table).findByText('INV-SUB')).closest('tr') as HTMLElement;
    expect(within(sub).getByText('20-Nov-2026')).toBeInTheDocument();
    expect(within(sub).getByText('100045 → CHK')).toBeInTheDocument();
    expect(within(sub).getByText('₹1,23,456.00')).toBeInTheDocument();
    expect(within(sub).getByText('Submitted')).toBeInTheDocument();
    const paid = within(table).getByText('INV-PAID').closest('tr') as HTMLElement;
    expect(within(paid).getByRole('link', { name: 'MEMO/1000/2026-27/000009' })).toHaveAttribute('href', '/bill-hub/viewMemo/memo-0');
    expect(within(paid).getByText('Released')).toBeInTheDocument();
    expect(listRequests(api)[0]).toEqual({ filter: {}, range: '[0,9]' });
  });

  it('filters by tab (Drafts, each status) and searches by invoice number', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/home');
    const table = await screen.findByRole('table', { name: 'Invoices' });
    await within(table).findByText('INV-PAID');
    const tabs = screen.getByRole('tablist', { name: 'Invoice status' });
    expect(within(tabs).getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'All', 'Drafts', 'Submitted', 'Acknowledged', 'Verified', 'Booked', 'Released', 'Rejected', 'Revoked',
    ]);

    await user.click(within(tabs).getByRole('tab', { name: 'Drafts' }));
    await waitFor(() => expect(within(table).queryByText('INV-PAID')).not.toBeInTheDocument());
    expect(within(table).getByText('INV-DRAFT')).toBeInTheDocument();
    expect(listRequests(api).at(-1)?.filter).toEqual({ status: 'draft' });

    await user.click(within(tabs).getByRole('tab', { name: 'Revoked' }));
    expect(await within(table).findByText(billHubTexts.noRecords)).toBeInTheDocument();

    await user.click(within(tabs).getByRole('tab', { name: 'All' }));
    await user.type(screen.getByLabelText('Search invoice number'), 'sub');
    await waitFor(() => expect(listRequests(api).at(-1)?.filter).toEqual({ q: 'sub' }));
    await waitFor(() => expect(within(table).queryByText('INV-DRAFT')).not.toBeInTheDocument());
    expect(within(table).getByText('INV-SUB')).toBeInTheDocument();
  });

  it('opens an invoice from its row, and offers Create Invoice and Create Memo', async () => {
    renderPortal(bench(), '/bill-hub');
    expect(screen.queryByRole('link', { name: 'Create Invoice' }) ?? (await screen.findByRole('link', { name: 'Create Invoice' }))).toHaveAttribute(
      'href',
      '/bill-hub/invoice/new',
    );
    expect(screen.getByRole('link', { name: 'Create Memo' })).toHaveAttribute('href', '/bill-hub/creatememo');
    await user.click(await screen.findByText('INV-SUB'));
    expect(await screen.findByRole('heading', { name: 'Invoice INV-SUB' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/bill-hub/invoice/inv-s');
  });

  it('is for users with the Bill-Hub application: Bill-Hub-only users reach the form, others are unauthorised', async () => {
    // A GST-state user bills from the one child vendor code of its state: the form chooses it.
    const oneCode = { ...FORM_OPTIONS, billingFrom: FORM_OPTIONS.billingFrom.slice(1) };
    const first = renderPortal(
      billHubFake({
        session: billHubOnlyUser,
        override: (req) => (req.path === '/api/invoices/form-options' ? { status: 200, body: oneCode } : undefined),
      }),
      '/bill-hub/invoice/new',
    );
    expect(await screen.findByRole('heading', { name: 'Create Invoice' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Billing From')).toHaveValue('100046'));
    first.unmount();
    renderPortal(billHubFake({ session: baColleague, ba: verifiedBa }), '/bill-hub/creatememo');
    expect(await screen.findByText("Oops! You're Unauthorised.")).toBeInTheDocument();
  });
});

describe('Bill-Hub invoice form', () => {
  it('shows the §5 messages per field and sends nothing while the form is wrong', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/new');
    await screen.findByRole('heading', { name: 'Create Invoice' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Invoice date is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid HSN code')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid amount')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Taxable Amount/), '0');
    fireEvent.change(screen.getByLabelText(/Invoice Date/), { target: { value: '2025-01-01' } });
    await user.type(screen.getByLabelText('CGST'), '9.999');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Taxable amount must be greater than zero')).toBeInTheDocument();
    expect(screen.getByText('Invoice date must be within the last 61 days')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid amount')).toBeInTheDocument();
    expect(api.sent('POST', '/api/invoices')).toHaveLength(0);
  });

  it('Save as draft creates the invoice, says "Invoice Saved successfully" and shows it at its own address', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/new');
    await fillInvoice();
    expect(screen.getByTestId('invoice-totals')).toHaveTextContent('Total: ₹11,800.00 · Net payable: ₹11,800.00');
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await snackbar('Invoice Saved successfully')).toBeInTheDocument();
    expect(api.sent('POST', '/api/invoices')[0]?.body).toEqual({
      invoiceNumber: 'INV-NEW-1',
      invoiceDate: TODAY,
      taxableAmount: '10000',
      cgst: '900',
      sgst: '900',
      igst: '0',
      td: '0',
      hsnCode: '996511',
      comments: 'November trips',
      submitToUserId: 'u-com',
      billingFromCode: '100045',
      billingToCode: 'CHK',
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/bill-hub\/invoice\/inv-\d+$/));
    expect(await screen.findByRole('heading', { name: 'Invoice INV-NEW-1' })).toBeInTheDocument();
    // Saving again updates the same draft.
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
  });

  it('Submit saves and submits a new invoice, then returns to the list', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/new');
    await fillInvoice();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await snackbar('Invoice submitted successfully')).toBeInTheDocument();
    const id = api.store.invoices.find((i) => i.invoiceNumber === 'INV-NEW-1')?.id ?? '';
    expect(api.sent('POST', `/api/invoices/${id}/submit`)).toHaveLength(1);
    expect(api.store.invoices.find((i) => i.id === id)?.status).toBe('S');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/bill-hub$/));
  });

  it('shows the duplicate refusals ("Invoice already exists", "Duplicate Invoice") in the error dialog', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/new');
    await fillInvoice({ number: 'inv-sub' });
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await within(await screen.findByRole('dialog')).findByText('Invoice already exists')).toBeInTheDocument();
  });

  it('shows "Duplicate Invoice" from a submission in the error dialog', async () => {
    const api = bench({
      override: (req) =>
        req.method === 'POST' && req.path === '/api/invoices/inv-d/submit' ? { status: 409, body: problem(409, 'Duplicate Invoice') } : undefined,
    });
    renderPortal(api, '/bill-hub/invoice/inv-d');
    await screen.findByRole('heading', { name: 'Invoice INV-DRAFT' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await within(await screen.findByRole('dialog')).findByText('Duplicate Invoice')).toBeInTheDocument();
  });

  it('puts the API\'s field errors on their fields', async () => {
    const api = bench({
      override: (req) =>
        req.method === 'PUT' && req.path === '/api/invoices/inv-d'
          ? { status: 400, body: problem(400, 'Please correct the invoice', { hsnCode: 'Please enter a valid HSN code' }) }
          : undefined,
    });
    renderPortal(api, '/bill-hub/invoice/inv-d');
    await screen.findByRole('heading', { name: 'Invoice INV-DRAFT' });
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText('Please enter a valid HSN code')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Discard asks first, then discards the draft: "Invoice Discarded successfully"', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/inv-d');
    await screen.findByRole('heading', { name: 'Invoice INV-DRAFT' });
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    const confirm = await screen.findByRole('dialog', { name: 'Discard invoice' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('POST', '/api/invoices/inv-d/discard')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Discard' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard invoice' })).getByRole('button', { name: 'Discard' }));
    expect(await snackbar('Invoice Discarded successfully')).toBeInTheDocument();
    expect(api.sent('POST', '/api/invoices/inv-d/discard')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/bill-hub$/));
  });

  it('shows a submitted invoice read-only with its status history', async () => {
    const api = bench();
    api.store.history.set('inv-s', [
      { status: 'S', label: 'Submitted', at: '2026-11-21T06:00:00.000Z', by: { userId: 'u-ba', name: 'Asha Rao', role: 'BA Admin' }, remarks: null },
    ]);
    renderPortal(api, '/bill-hub/invoice/inv-s');
    expect(await screen.findByRole('heading', { name: 'Invoice INV-SUB' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Invoice Number/)).not.toBeInTheDocument();
    // Taxable, total and net payable (no taxes, no TD).
    expect(screen.getAllByText('₹1,23,456.00', { selector: 'dd' })).toHaveLength(3);
    const history = screen.getByRole('table', { name: 'Status history' });
    expect(within(history).getByText('21-Nov-2026 11:30')).toBeInTheDocument();
    expect(within(history).getByText('Asha Rao')).toBeInTheDocument();
    expect(screen.queryByText(billHubTexts.uploadWarning)).not.toBeInTheDocument();
  });

  it('the BA revokes its invoice while Submitted, with optional remarks', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/inv-s');
    await screen.findByRole('heading', { name: 'Invoice INV-SUB' });
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke invoice' });
    await user.type(within(dialog).getByLabelText('Remarks'), 'Raised twice');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await snackbar('Invoice revoked')).toBeInTheDocument();
    expect(api.sent('POST', '/api/invoices/inv-s/revoke')[0]?.body).toEqual({ remarks: 'Raised twice' });
    expect(await screen.findByText(/Revocation remarks: Raised twice/)).toBeInTheDocument();
    // Revoked is final: no more Revoke.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument());
  });

  it('a rejected invoice is editable again (number locked), shows the remarks, and is resubmitted', async () => {
    const api = bench({
      invoices: [invoiceRow({ id: 'inv-c', invoiceNumber: 'INV-REJ', status: 'C', remarks: 'Wrong GST amount', invoiceDate: TODAY })],
    });
    renderPortal(api, '/bill-hub/invoice/inv-c');
    expect(await screen.findByText(/Wrong GST amount/)).toBeInTheDocument();
    expect(screen.getByLabelText(/Invoice Number/)).toBeDisabled();
    const cgst = screen.getByLabelText('CGST');
    await user.clear(cgst);
    await user.type(cgst, '450');
    await user.click(screen.getByRole('button', { name: 'Resubmit' }));
    expect(await snackbar('Invoice submitted successfully')).toBeInTheDocument();
    expect(api.sent('POST', '/api/invoices/inv-c/submit')[0]?.body).toMatchObject({ cgst: '450', invoiceNumber: 'INV-REJ' });
  });
});

describe('Bill-Hub attachments', () => {
  const file = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

  it('shows the upload warning verbatim and refuses another file type without uploading', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/inv-d');
    expect(await screen.findByText('PDF, JPEG, JPG, TIFF, PNG, BMP, xls, xlsx, doc, docx, max 5MB each, up to 5 files')).toBeInTheDocument();
    // applyAccept off: the browser's picker may be bypassed (drag and drop, "All files").
    await userEvent.setup({ delay: null, applyAccept: false }).upload(screen.getByTestId('invoice-file-input'), file('virus.exe'));
    expect(await within(await screen.findByRole('dialog')).findByText('Invalid file type selected.')).toBeInTheDocument();
    expect(api.sent('POST', '/api/invoices/inv-d/attachments')).toHaveLength(0);
  });

  it('uploads each file to the draft and removes one: "File uploaded successfully", "File deleted successfully"', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/inv-d');
    await screen.findByRole('heading', { name: 'Invoice INV-DRAFT' });
    await user.upload(screen.getByTestId('invoice-file-input'), [file('bill.pdf'), file('lr.pdf')]);
    expect(await snackbar('File uploaded successfully')).toBeInTheDocument();
    const uploads = api.sent('POST', '/api/invoices/inv-d/attachments');
    expect(uploads).toHaveLength(2);
    expect(((uploads[0]?.body as FormData).get('file') as File).name).toBe('bill.pdf');
    const list = await screen.findByRole('list', { name: 'Attachments' });
    expect(await within(list).findByText('lr.pdf')).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Remove bill.pdf' }));
    expect(await snackbar('File deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(within(list).queryByText('bill.pdf')).not.toBeInTheDocument());
    expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('refuses a sixth file', async () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ attachmentId: `a${i}`, name: `f${i}.pdf`, size: 10, type: 'application/pdf' }));
    const api = bench({ invoices: [invoiceRow({ id: 'inv-d', invoiceNumber: 'INV-DRAFT', attachments: five.slice(0, 4) })] });
    renderPortal(api, '/bill-hub/invoice/inv-d');
    await screen.findByRole('heading', { name: 'Invoice INV-DRAFT' });
    await user.upload(screen.getByTestId('invoice-file-input'), [file('x.pdf'), file('y.pdf')]);
    expect(await within(await screen.findByRole('dialog')).findByText('You can attach up to 5 files')).toBeInTheDocument();
    expect(api.sent('POST', '/api/invoices/inv-d/attachments')).toHaveLength(0);
  });

  it('saves a new invoice as a draft before its first file', async () => {
    const api = bench();
    renderPortal(api, '/bill-hub/invoice/new');
    await fillInvoice();
    await user.upload(screen.getByTestId('invoice-file-input'), file('bill.pdf'));
    expect(await snackbar('File uploaded successfully')).toBeInTheDocument();
    const id = api.store.invoices.find((i) => i.invoiceNumber === 'INV-NEW-1')?.id ?? '';
    expect(api.sent('POST', `/api/invoices/${id}/attachments`)).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/bill-hub/invoice/${id}`));
  });
});

describe('Bill-Hub memos', () => {
  const candidates = [
    invoiceRow({ id: 'c1', invoiceNumber: 'INV-C1', status: 'S' }),
    invoiceRow({ id: 'c2', invoiceNumber: 'INV-C2', status: 'V', taxableAmount: '5000.50', cgst: '0', sgst: '0', td: '0.50' }),
    invoiceRow({ id: 'c3', invoiceNumber: 'INV-KA', status: 'A', billingFromCode: '100046', billingToCode: 'HSK' }),
    invoiceRow({ id: 'c4', invoiceNumber: 'INV-IN-MEMO', status: 'S', memoId: 'memo-x', memoNumber: 'MEMO/1000/2026-27/000003' }),
  ];

  it('creates a memo: states, candidates, selection and totals, then the memo view', async () => {
    const api = bench({ invoices: candidates });
    renderPortal(api, '/bill-hub/creatememo');
    expect(await screen.findByText(billHubTexts.chooseStates)).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByLabelText('From State')).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(screen.getByLabelText('From State'), '27');
    await user.selectOptions(screen.getByLabelText('To State'), '27');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bill-hub/creatememo'));

    const table = await screen.findByRole('table', { name: 'Memo candidates' });
    expect(await within(table).findByText('INV-C1')).toBeInTheDocument();
    expect(within(table).getByText('INV-C2')).toBeInTheDocument();
    // Other states and invoices already in a memo are not candidates.
    expect(within(table).queryByText('INV-KA')).not.toBeInTheDocument();
    expect(within(table).queryByText('INV-IN-MEMO')).not.toBeInTheDocument();
    const asked = api.requests.filter((r) => r.path === '/api/invoices').at(-1);
    expect(JSON.parse(asked?.query.get('filter') ?? '{}')).toEqual({ memoCandidates: true, fromStateId: 27, toStateId: 27 });

    expect(screen.getByRole('button', { name: 'Submit Memo' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all invoices' }));
    expect(screen.getByTestId('memo-totals')).toHaveTextContent('2 selected');
    expect(screen.getByTestId('memo-totals')).toHaveTextContent('Total ₹16,800.50');
    expect(screen.getByTestId('memo-totals')).toHaveTextContent('Net payable ₹16,700.00');
    await user.click(screen.getByRole('checkbox', { name: 'Select invoice INV-C2' }));
    expect(screen.getByTestId('memo-totals')).toHaveTextContent('1 selected');
    await user.click(screen.getByRole('checkbox', { name: 'Select invoice INV-C2' }));
    await user.type(screen.getByLabelText('Comments'), 'November memo');
    await user.click(screen.getByRole('button', { name: 'Submit Memo' }));

    expect(await snackbar('Memo submitted successfully.')).toBeInTheDocument();
    expect(api.sent('POST', '/api/memos')[0]?.body).toEqual({ invoiceIds: ['c1', 'c2'], comments: 'November memo' });
    expect(await screen.findByRole('heading', { name: 'Memo MEMO/1000/2026-27/000001' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/bill-hub\/viewMemo\/memo-\d+$/);
    expect(screen.getByTestId('memo-advance')).toHaveTextContent('₹0.00');
    expect(screen.getByTestId('memo-balance')).toHaveTextContent('₹16,700.00');
    const invoices = screen.getByRole('table', { name: 'Memo invoices' });
    expect(within(invoices).getByText('INV-C1')).toBeInTheDocument();
  });

  it('keeps both states when they are chosen before the page re-renders (a quick From then To)', async () => {
    renderPortal(bench({ invoices: candidates }), '/bill-hub/creatememo');
    await waitFor(() => expect(within(screen.getByLabelText('From State')).getAllByRole('option')).toHaveLength(3));
    // Both changes inside one act: React renders once, after both, as when a fast hand or a test driver picks the
    // second state before the router has applied the first.
    act(() => {
      fireEvent.change(screen.getByLabelText('From State'), { target: { value: '29' } });
      fireEvent.change(screen.getByLabelText('To State'), { target: { value: '29' } });
    });
    await waitFor(() => expect(screen.getByTestId('location-search')).toHaveTextContent(/^\?fromState=29&toState=29$/));
    const table = await screen.findByRole('table', { name: 'Memo candidates' });
    expect(await within(table).findByText('INV-KA')).toBeInTheDocument();
  });

  it('reads the states from the query and lists the candidates at once', async () => {
    renderPortal(bench({ invoices: candidates }), '/bill-hub/creatememo?fromState=29&toState=29');
    const table = await screen.findByRole('table', { name: 'Memo candidates' });
    expect(await within(table).findByText('INV-KA')).toBeInTheDocument();
    expect(within(table).queryByText('INV-C1')).not.toBeInTheDocument();
  });

  const memo = {
    id: 'memo-7',
    memoNumber: 'MEMO/1000/2026-27/000007',
    baId: 'ba-1',
    baName: 'Sahyadri Roadways Pvt Ltd',
    companyCode: '1000',
    financialYear: '2026-27',
    fromStateId: 27,
    fromStateName: 'Maharashtra',
    toStateId: 27,
    toStateName: 'Maharashtra',
    invoiceIds: ['c1'],
    invoiceCount: 1,
    taxableAmount: '10000.00',
    cgst: '900.00',
    sgst: '900.00',
    igst: '0.00',
    td: '100.00',
    totalAmount: '11800.00',
    netPayable: '11700.00',
    advanceAmount: '5000.00',
    balance: '6700.00',
    comments: 'November memo',
    submittedAt: '2026-11-22T06:00:00.000Z',
    submittedBy: { userId: 'u-ba', name: 'Asha Rao' },
    invoices: [candidates[0] as InvoiceRow],
    advances: [
      {
        advanceId: 'adv-1',
        amount: '5000.00',
        reference: 'UTR-77',
        paidOn: '2026-11-23',
        by: { userId: 'u-acc', name: 'Arun Accounts', role: 'MLL Accounts' },
        recordedAt: '2026-11-23T06:00:00.000Z',
      },
    ],
  };

  it('views a memo with its advance and balance, and goes to the print page', async () => {
    renderPortal(bench({ memos: [memo] }), '/bill-hub/viewMemo/memo-7');
    expect(await screen.findByRole('heading', { name: 'Memo MEMO/1000/2026-27/000007' })).toBeInTheDocument();
    expect(screen.getByTestId('memo-advance')).toHaveTextContent('₹5,000.00');
    expect(screen.getByTestId('memo-balance')).toHaveTextContent('₹6,700.00');
    expect(within(screen.getByRole('table', { name: 'Advance payments' })).getByText('UTR-77')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Print' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bill-hub/printMemo/memo-7'));
  });

  it('the print page renders the memo, prints, and downloads the PDF with the session', async () => {
    const api = bench({ memos: [memo] });
    const base = api.fetch;
    // The fake's replies are JSON: the PDF answers with a Blob here.
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = new URL(String(input), 'http://portal.test');
      if (url.pathname !== '/api/memos/memo-7/pdf') return base(input, init);
      api.requests.push({ method: 'GET', path: url.pathname, query: url.searchParams, headers: { ...(init?.headers as Record<string, string>) }, body: undefined });
      return { status: 200, ok: true, headers: { get: () => 'application/pdf' }, blob: async () => new Blob(['%PDF-1.7']) } as unknown as Response;
    };
    const createObjectURL = jest.fn(() => 'blob:memo');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    try {
      renderPortal({ ...api, fetch: fetch as typeof globalThis.fetch }, '/bill-hub/printMemo/memo-7');
      const page = await screen.findByTestId('print-memo');
      expect(within(page).getByRole('heading', { name: 'Memo MEMO/1000/2026-27/000007' })).toBeInTheDocument();
      expect(within(page).getByText('INV-C1')).toBeInTheDocument();
      expect(within(page).getByTestId('memo-total')).toHaveTextContent('₹11,800.00');

      await user.click(within(page).getByRole('button', { name: 'Print' }));
      expect(print).toHaveBeenCalledTimes(1);

      await user.click(within(page).getByRole('button', { name: 'Download PDF' }));
      await waitFor(() => expect(clicked).toEqual(['Memo-MEMO-1000-2026-27-000007.pdf']));
      const pdf = api.requests.find((r) => r.path === '/api/memos/memo-7/pdf');
      expect(pdf?.headers['Authorization']).toMatch(/^Bearer /);
    } finally {
      print.mockRestore();
      click.mockRestore();
    }
  });
});
