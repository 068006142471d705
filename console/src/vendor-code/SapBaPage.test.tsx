import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuthProvider, renderConsole } from '../testing/fakes';
import { sapActions } from './actions';
import { SAP_MESSAGES } from './commands';
import { SAP_PAGE_TEXTS } from './SapBaPage';
import { sapCounts, sapDataProvider, stubFetch, vendorCodeRow } from './testing';
import type { VendorCodeRow } from './types';

const user = userEvent.setup({ delay: null });

const withParent = (over: Partial<VendorCodeRow> = {}) =>
  vendorCodeRow({
    status: 'verification-pending',
    parentCode: '1000000042',
    requestedAt: '2026-11-19T06:30:00.000Z',
    childCodes: [
      { stateId: 27, stateName: 'Maharashtra', gstNo: '27ABCDE1234F1Z5', childCode: '1000000043', paymentTermsCode: 'NT30', status: 'created' },
      { stateId: 29, stateName: 'Karnataka', gstNo: '29ABCDE1234F1Z1', childCode: null, paymentTermsCode: null, status: 'not-requested' },
    ],
    ...over,
  });

/** The page's reads: the BA's rows and each row's history. */
function serve(rows: VendorCodeRow[]) {
  return stubFetch((url) => {
    if (url.pathname === '/api/vendor-codes/counts') return { body: sapCounts() };
    if (url.pathname === '/api/vendor-codes') {
      expect(JSON.parse(url.searchParams.get('filter') ?? '{}')).toMatchObject({ baId: 'ba-1' });
      return { body: rows, headers: { 'Content-Range': `vendor-codes 0-${rows.length - 1}/${rows.length}` } };
    }
    if (/^\/api\/vendor-codes\/[^/]+\/history$/.test(url.pathname)) {
      return {
        body: [
          {
            id: 1,
            type: 'ParentCodeRequested',
            time: '2026-11-19T06:30:00.000Z',
            actor: { userId: 'u-anil', name: 'Anil Accounts', role: 'MLL Accounts' },
            what: 'SAP code requested',
            detail: 'Company code 1000',
          },
        ],
      };
    }
    return undefined;
  });
}

const actionNames = () => within(screen.getByTestId('sap-actions')).queryAllByRole('button').map((b) => b.textContent);

describe('The BA’s ERP page (/sap/view/:baId)', () => {
  it('decides the actions per role and state (pure)', () => {
    const fresh = vendorCodeRow();
    expect(sapActions(fresh, ['MLL Accounts'], 'u1')).toEqual(['request-parent']);
    expect(sapActions(fresh, ['Auditor'], 'u1')).toEqual([]);
    expect(sapActions(fresh, ['MLL Procurement'], 'u1')).toEqual([]);
    const pending = withParent({ vendorCategory: 'Transporter', vendorCategoryStatus: 'pending', vendorCategorySetBy: 'u-setter' });
    expect(sapActions(pending, ['MLL Accounts_HEAD'], 'u-setter')).not.toContain('approve-category');
    expect(sapActions(pending, ['MLL Accounts_HEAD'], 'u-other')).toEqual(
      expect.arrayContaining(['approve-category', 'reject-category', 'request-child', 'recon-account', 'reject-request']),
    );
    expect(sapActions(pending, ['MLL Accounts'], 'u-other')).not.toContain('approve-category');
  });

  it('lets a requester ask for the SAP code, with the spec’s message', async () => {
    serve([vendorCodeRow()]);
    const dataProvider = sapDataProvider();
    dataProvider.baCommand.mockResolvedValue({ message: 'SAP Code requested successfully.' });
    renderConsole('/sap/view/ba-1', { dataProvider, roles: ['MLL Accounts'] });
    expect(await screen.findByRole('heading', { level: 1, name: /Sharma Roadways Pvt Ltd — SAP \/ ERP/ })).toBeInTheDocument();
    await waitFor(() => expect(actionNames()).toEqual(['Request SAP Code']));
    await user.click(within(screen.getByTestId('sap-actions')).getByRole('button', { name: 'Request SAP Code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request SAP Code' });
    await user.click(within(dialog).getByRole('button', { name: 'Request SAP Code' }));
    await waitFor(() => expect(dataProvider.baCommand).toHaveBeenCalledTimes(1));
    const [baId, path, body, key] = dataProvider.baCommand.mock.calls[0]!;
    expect([baId, path, body]).toEqual(['ba-1', 'vendor-codes/request-parent', { companyCode: '1000' }]);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText(SAP_MESSAGES.parentRequested)).toBeInTheDocument();
  });

  it('shows parent, child codes, history and, while the ERP is down, "Waiting for ERP" with the last error', async () => {
    serve([withParent({ waitingForErp: true, lastErpError: 'ERP answered 503 Service Unavailable' })]);
    renderConsole('/sap/view/ba-1', { dataProvider: sapDataProvider(), roles: ['Auditor'] });
    const banner = await screen.findByTestId('waiting-for-erp');
    expect(banner).toHaveTextContent(SAP_PAGE_TEXTS.waitingForErp);
    expect(banner).toHaveTextContent('Last error: ERP answered 503 Service Unavailable');
    expect(screen.getByText('1000000042')).toBeInTheDocument();
    const children = screen.getByRole('table', { name: 'Child codes' });
    const maharashtra = within(children).getByText('Maharashtra').closest('tr')!;
    expect(within(maharashtra).getByText('1000000043')).toBeInTheDocument();
    expect(within(maharashtra).getByText('NT30')).toBeInTheDocument();
    expect(within(within(children).getByText('Karnataka').closest('tr')!).getByText('Not requested')).toBeInTheDocument();
    const history = await screen.findByRole('table', { name: 'SAP history' });
    expect(within(within(history).getByText('SAP code requested').closest('tr')!).getByText('Anil Accounts')).toBeInTheDocument();
    // Read-only for the auditor: no action at all.
    expect(actionNames()).toEqual([]);
    expect(within(children).queryByRole('button')).not.toBeInTheDocument();
  });

  it('hides Approve from the person who set the vendor category and offers it to another approver', async () => {
    const row = withParent({ vendorCategory: 'Transporter', vendorCategoryStatus: 'pending', vendorCategorySetBy: 'user-1' });
    serve([row]);
    const { unmount } = renderConsole('/sap/view/ba-1', {
      dataProvider: sapDataProvider(),
      authProvider: fakeAuthProvider(['MLL Accounts_HEAD'], 'Setter Head', { id: 'user-1' }),
    });
    await screen.findByText('Transporter (Awaiting approval)');
    await waitFor(() => expect(actionNames()).toContain('Request child code'));
    expect(actionNames()).not.toContain('Approve vendor category');
    expect(actionNames()).not.toContain('Reject vendor category');
    unmount();

    const dataProvider = sapDataProvider();
    renderConsole('/sap/view/ba-1', {
      dataProvider,
      authProvider: fakeAuthProvider(['MLL Accounts_HEAD'], 'Other Head', { id: 'user-2' }),
    });
    await screen.findByText('Transporter (Awaiting approval)');
    await waitFor(() => expect(actionNames()).toContain('Approve vendor category'));
    expect(actionNames()).toContain('Reject vendor category');
    await user.click(within(screen.getByTestId('sap-actions')).getByRole('button', { name: 'Approve vendor category' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve vendor category' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(dataProvider.baCommand).toHaveBeenCalledWith('ba-1', 'vendor-codes/vendor-category', { companyCode: '1000', action: 'approve' }, expect.any(String)),
    );
  });

  it('requests a child code for a GST state with a payment term', async () => {
    serve([withParent()]);
    const dataProvider = sapDataProvider();
    renderConsole('/sap/view/ba-1', { dataProvider, roles: ['MDM'] });
    await waitFor(() => expect(actionNames()).toContain('Request child code'));
    await user.click(within(screen.getByTestId('sap-actions')).getByRole('button', { name: 'Request child code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request child code' });
    await user.click(within(dialog).getByRole('button', { name: 'Request child code' }));
    expect(await within(dialog).findAllByText('This field is required')).toHaveLength(2);
    expect(dataProvider.baCommand).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('combobox', { name: /GST state/ }));
    const states = within(await screen.findByRole('listbox')).getAllByRole('option');
    // Only the state without a child code is offered.
    expect(states.map((o) => o.textContent)).toEqual(['Karnataka – 29ABCDE1234F1Z1']);
    await user.click(states[0]!);
    await user.click(within(dialog).getByRole('combobox', { name: /Payment term/ }));
    await user.click(await screen.findByRole('option', { name: 'NT45 – Net 45 days' }));
    await user.click(within(dialog).getByRole('button', { name: 'Request child code' }));
    await waitFor(() =>
      expect(dataProvider.baCommand).toHaveBeenCalledWith(
        'ba-1',
        'vendor-codes/request-child',
        { companyCode: '1000', stateId: 29, paymentTermsId: 4 },
        expect.any(String),
      ),
    );
  });

  it('rejects a request with a reason from the master, remarks and Send to BA', async () => {
    serve([withParent({ status: 'requested', parentCode: null, childCodes: [] })]);
    const dataProvider = sapDataProvider();
    renderConsole('/sap/view/ba-1', { dataProvider, roles: ['MLL Accounts'] });
    await waitFor(() => expect(actionNames()).toEqual(['Reject request']));
    await user.click(within(screen.getByTestId('sap-actions')).getByRole('button', { name: 'Reject request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject request' });
    await user.click(within(dialog).getByRole('combobox', { name: /Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'PAN mismatch' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Remarks' }), 'PAN card copy is unreadable');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Send to BA' }));
    await user.click(within(dialog).getByRole('button', { name: 'Reject request' }));
    await waitFor(() =>
      expect(dataProvider.baCommand).toHaveBeenCalledWith(
        'ba-1',
        'vendor-codes/reject',
        { companyCode: '1000', reasonId: 1, remarks: 'PAN card copy is unreadable', sendToBa: true },
        expect.any(String),
      ),
    );
  });
});
