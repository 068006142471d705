import { screen, within } from '@testing-library/react';
import type { VendorCodeRow } from '../../../console/src/vendor-code/types';
import { completeDetails, fakeApi, verifiedBaAdmin, type RecordedRequest } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';
import { ADDITIONAL_DOCS_PATH } from '../onboarding/AdditionalDocumentsPage';
import { VENDOR_CODE_TEXTS } from './VendorCodesSection';

const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

const row = (over: Partial<VendorCodeRow> = {}): VendorCodeRow => ({
  id: 'ba-1:1000',
  baId: 'ba-1',
  companyCode: '1000',
  companyName: completeDetails.companyName,
  panNumber: completeDetails.panNumber,
  status: 'processed',
  parentCode: '1000000042',
  childCodes: [
    { stateId: 27, stateName: 'Maharashtra', gstNo: '27ABCDE1234F1Z5', childCode: '1000000043', paymentTermsCode: 'NT30', status: 'created' },
    { stateId: 29, stateName: 'Karnataka', gstNo: '29ABCDE1234F1Z1', childCode: '1000000044', paymentTermsCode: 'NT30', status: 'created' },
  ],
  vendorCategory: 'Transporter',
  vendorCategoryStatus: 'approved',
  vendorCategorySetBy: 'u-head',
  reconAccount: '2110001',
  withholdingTax: null,
  waitingForErp: false,
  lastErpError: null,
  rejection: null,
  blocked: false,
  requestedAt: '2026-11-19T06:30:00.000Z',
  updatedAt: '2026-11-20T06:30:00.000Z',
  ...over,
});

const serving = (rows: VendorCodeRow[]) => (req: RecordedRequest) =>
  req.path === '/api/business-associates/ba-1/vendor-codes' ? { status: 200, body: rows } : undefined;

describe('Vendor codes on the BA’s home page', () => {
  it('lists the parent and child codes per company code', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa, intercept: serving([row()]) }), '/home');
    const table = await screen.findByRole('table', { name: 'Vendor codes' });
    const line = within(table).getByText('1000000042').closest('tr')!;
    expect(within(line).getByText('1000')).toBeInTheDocument();
    expect(within(line).getByText('Maharashtra: 1000000043, Karnataka: 1000000044')).toBeInTheDocument();
    expect(within(line).getByText('Created')).toBeInTheDocument();
    expect(screen.queryByTestId('blocked-banner')).not.toBeInTheDocument();
    expect(screen.queryByTestId('returned-request')).not.toBeInTheDocument();
  });

  it('shows a request sent back to the BA with its reason and what to do', async () => {
    const returned = row({
      status: 'rejected',
      parentCode: null,
      childCodes: [],
      rejection: { reason: 'PAN mismatch', remarks: 'PAN card copy is unreadable', sendToBa: true, at: '2026-11-20T06:30:00.000Z' },
    });
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa, intercept: serving([returned]) }), '/home');
    const alert = await screen.findByTestId('returned-request');
    expect(alert).toHaveTextContent(VENDOR_CODE_TEXTS.returned);
    expect(alert).toHaveTextContent('Reason: PAN mismatch — PAN card copy is unreadable');
    expect(alert).toHaveTextContent(VENDOR_CODE_TEXTS.returnedHelp);
    expect(within(alert).getByRole('link', { name: 'View Profile' })).toHaveAttribute('href', '/onboard/ba-details/view');
    expect(within(alert).getByRole('link', { name: 'Edit Profile' })).toHaveAttribute('href', '/onboard/profile/edit');
  });

  it('keeps a rejection that was not sent to the BA to the staff', async () => {
    const internal = row({
      status: 'rejected',
      parentCode: null,
      childCodes: [],
      rejection: { reason: 'Duplicate request', remarks: null, sendToBa: false, at: '2026-11-20T06:30:00.000Z' },
    });
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa, intercept: serving([internal]) }), '/home');
    await screen.findByRole('table', { name: 'Vendor codes' });
    expect(screen.queryByTestId('returned-request')).not.toBeInTheDocument();
    expect(screen.queryByText(/Duplicate request/)).not.toBeInTheDocument();
  });

  it('tells a blocked vendor so on every page, once, from its record', async () => {
    const blockedBa = { ...verifiedBa, blocked: true };
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: blockedBa, intercept: serving([row({ blocked: true })]) }), '/home');
    await screen.findByRole('table', { name: 'Vendor codes' });
    expect(screen.getAllByTestId('blocked-banner')).toHaveLength(1);
    expect(screen.getByTestId('blocked-banner')).toHaveTextContent(VENDOR_CODE_TEXTS.blocked);
  });

  it('shows the banner on a page other than home (Additional Documents)', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: { ...verifiedBa, blocked: true } }), ADDITIONAL_DOCS_PATH);
    expect(await screen.findByTestId('blocked-banner')).toHaveTextContent(VENDOR_CODE_TEXTS.blocked);
  });

  it('shows no banner to a vendor that is not blocked, on any page', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa }), ADDITIONAL_DOCS_PATH);
    await screen.findByRole('heading', { name: /Additional Documents/i });
    expect(screen.queryByTestId('blocked-banner')).not.toBeInTheDocument();
  });

  it('tells a vendor blocked since its record was loaded so on its home page', async () => {
    renderPortal(fakeApi({ session: verifiedBaAdmin, ba: verifiedBa, intercept: serving([row({ blocked: true })]) }), '/home');
    expect(await screen.findByTestId('blocked-banner')).toHaveTextContent(VENDOR_CODE_TEXTS.blocked);
    expect(within(screen.getByRole('table', { name: 'Vendor codes' })).getByText('Blocked')).toBeInTheDocument();
  });
});
