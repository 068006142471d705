import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baRow, fakeAuthProvider, renderConsole } from '../testing/fakes';
import { blockRow, sapCounts, sapDataProvider, stubFetch, vendorCodeRow } from '../vendor-code/testing';
import { BLOCK_FORM_TEXTS } from './BlockDialog';
import { OWN_REQUEST_TEXT, REMARKS_REQUIRED } from './BlockList';

const user = userEvent.setup({ delay: null });

const verifiedRow = vendorCodeRow({
  status: 'processed',
  parentCode: '1000000042',
  vendorCategory: 'Transporter',
  vendorCategoryStatus: 'approved',
  childCodes: [
    { stateId: 27, stateName: 'Maharashtra', gstNo: '27ABCDE1234F1Z5', childCode: '1000000043', paymentTermsCode: 'NT30', status: 'created' },
  ],
});

type Posted = { url: URL; init: RequestInit & { headers: Headers } };

function serve(posted: Posted[], rows = [verifiedRow]) {
  return stubFetch((url, init) => {
    if (url.pathname === '/api/vendor-codes/counts') return { body: sapCounts() };
    if (url.pathname === '/api/vendor-codes') return { body: rows, headers: { 'Content-Range': 'vendor-codes 0-0/1' } };
    if (/\/history$/.test(url.pathname)) return { body: [] };
    if (init.method === 'POST') {
      posted.push({ url, init });
      if (url.pathname === '/api/blocks') return { status: 201, body: { id: 'blk-9', status: 'pending', message: 'Block request sent successfully' } };
      if (url.pathname === '/api/blocks/blk-1/approve') return { body: { message: 'Successfully Blocked', block: blockRow({ status: 'applied' }) } };
      if (url.pathname === '/api/blocks/blk-1/reject') return { body: { message: 'Block request rejected' } };
    }
    return undefined;
  });
}

const pdf = () => new File([new Uint8Array(64)], 'notice.pdf', { type: 'application/pdf' });

describe('Block and unblock', () => {
  it('puts "SAP / ERP" and Block on a verified BA’s page', async () => {
    serve([]);
    const dataProvider = sapDataProvider({}, { records: [baRow({ status: 'verified', stage: null })] });
    renderConsole('/business-associates/ba-1/show', { dataProvider, roles: ['MLL Legal'] });
    expect(await screen.findByRole('link', { name: 'SAP / ERP' })).toHaveAttribute('href', '/sap/view/ba-1');
    expect(await screen.findByRole('button', { name: 'Block' })).toBeInTheDocument();
  });

  it('requires a reason and an attachment, then sends the request as multipart', async () => {
    const posted: Posted[] = [];
    serve(posted);
    renderConsole('/sap/view/ba-1', { dataProvider: sapDataProvider(), roles: ['MLL Legal'] });
    await user.click(await screen.findByRole('button', { name: 'Block' }));
    const dialog = await screen.findByRole('dialog', { name: /Block \/ Unblock — Sharma Roadways Pvt Ltd/ });
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText(BLOCK_FORM_TEXTS.reasonRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(BLOCK_FORM_TEXTS.fileRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(BLOCK_FORM_TEXTS.commentsRequired)).toBeInTheDocument();
    expect(posted).toHaveLength(0);

    // Child scope: the child code must be chosen.
    await user.click(within(dialog).getByRole('radio', { name: 'Child code' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText(BLOCK_FORM_TEXTS.childRequired)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: /Child code/ }));
    await user.click(await screen.findByRole('option', { name: '1000000043 – Maharashtra' }));

    await user.click(within(dialog).getByRole('combobox', { name: /Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'Contract ended' }));
    await user.click(within(dialog).getByRole('textbox', { name: 'Comments' }));
    await user.paste('Contract closed in October');
    await user.upload(within(dialog).getByTestId('block-file'), pdf());
    expect(within(dialog).getByTestId('block-file-state')).toHaveTextContent('notice.pdf');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

    await waitFor(() => expect(posted).toHaveLength(1));
    const { url, init } = posted[0]!;
    expect(url.pathname).toBe('/api/blocks');
    expect(init.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    const form = init.body as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([k]) => k !== 'file'))).toEqual({
      baId: 'ba-1',
      action: 'block',
      scope: 'child',
      companyCode: '1000',
      childCode: '1000000043',
      reasonId: '2',
      comments: 'Contract closed in October',
    });
    expect((form.get('file') as File).name).toBe('notice.pdf');
    expect(await screen.findByText('Block request sent successfully')).toBeInTheDocument();
  });

  it('refuses an attachment that is not an image or a pdf', async () => {
    serve([]);
    renderConsole('/sap/view/ba-1', { dataProvider: sapDataProvider(), roles: ['MLL-ADMIN'] });
    await user.click(await screen.findByRole('button', { name: 'Block' }));
    const dialog = await screen.findByRole('dialog');
    const anyFile = userEvent.setup({ delay: null, applyAccept: false });
    await anyFile.upload(within(dialog).getByTestId('block-file'), new File(['x'], 'notes.docx'));
    expect(within(dialog).getByTestId('block-file-state')).toHaveTextContent(
      'Invalid file type selected. Please select image/pdf file only.',
    );
  });

  it('offers Unblock for a blocked vendor and no button to roles that may not ask', async () => {
    serve([], [{ ...verifiedRow, blocked: true }]);
    const { unmount } = renderConsole('/sap/view/ba-1', { dataProvider: sapDataProvider(), roles: ['MLL Accounts'] });
    await user.click(await screen.findByRole('button', { name: 'Unblock' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('radio', { name: 'Unblock' })).toBeChecked();
    // An unblock has no end date.
    expect(within(dialog).queryByLabelText(/End date/)).not.toBeInTheDocument();
    unmount();

    serve([]);
    renderConsole('/sap/view/ba-1', { dataProvider: sapDataProvider(), roles: ['MLL Operations'] });
    await screen.findByRole('table', { name: 'Child codes' });
    expect(screen.queryByRole('button', { name: /^(Block|Unblock)$/ })).not.toBeInTheDocument();
  });

  it('hides Approve and Reject from the requester; another approver approves: "Successfully Blocked"', async () => {
    const posted: Posted[] = [];
    serve(posted);
    const rows = [blockRow({ requestedBy: { userId: 'user-1', name: 'Lata Legal', role: 'MLL Legal' } })];
    const { unmount } = renderConsole('/sap/blocks', {
      dataProvider: sapDataProvider({ blocks: rows }),
      authProvider: fakeAuthProvider(['MLL Legal'], 'Lata Legal', { id: 'user-1' }),
    });
    const mine = (await screen.findByText('Duplicate invoices')).closest('tr')!;
    expect(within(mine).getByText(OWN_REQUEST_TEXT)).toBeInTheDocument();
    expect(within(mine).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(within(mine).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    unmount();

    const dataProvider = sapDataProvider({ blocks: rows });
    renderConsole('/sap/blocks', {
      dataProvider,
      authProvider: fakeAuthProvider(['MLL Accounts_HEAD'], 'Hari Head', { id: 'user-2' }),
    });
    const row = (await screen.findByText('Duplicate invoices')).closest('tr')!;
    expect(within(row).getByText('1000000001 (parent)')).toBeInTheDocument();
    expect(within(row).getByText('Pending approval')).toBeInTheDocument();
    const listCall = dataProvider.getList.mock.calls.find(([r]) => r === 'blocks')!;
    expect(listCall[1].filter).toEqual({ status: 'pending' });
    await user.click(within(row).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve the block request?' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(posted.map((p) => p.url.pathname)).toEqual(['/api/blocks/blk-1/approve']));
    expect(await screen.findByText('Successfully Blocked')).toBeInTheDocument();
  });

  it('rejects with required remarks', async () => {
    const posted: Posted[] = [];
    serve(posted);
    renderConsole('/sap/blocks', {
      dataProvider: sapDataProvider({ blocks: [blockRow()] }),
      authProvider: fakeAuthProvider(['MLL-ADMIN'], 'Asha Admin', { id: 'user-3' }),
    });
    const row = (await screen.findByText('Duplicate invoices')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject the block request' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText(REMARKS_REQUIRED)).toBeInTheDocument();
    expect(posted).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: 'Remarks' }), 'Evidence is insufficient');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.url.pathname).toBe('/api/blocks/blk-1/reject');
    expect(JSON.parse(String(posted[0]!.init.body))).toEqual({ remarks: 'Evidence is insufficient' });
  });
});
