import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rfpMessages } from '../../../../domain/src/rfp/messages';
import type { BaSelectionItem } from '../../../../domain/src/rfp/model';
import { header, headerInput, step2 } from '../../../../domain/src/rfp/testing';
import { renderConsole } from '../../testing/fakes';
import { captureDownloads, sapDataProvider, stubFetch, xlsx, type StubReply } from '../../vendor-code/testing';
import { rfpView, RFP_CODE } from '../testing';
import type { RfpStaffView } from '../types';
import { STEP_DISABLED_REASONS } from './progress';
import { STEP3_TEXTS } from './Step3Lanes';

const user = userEvent.setup({ delay: null });
const base = `/api/rfps/${RFP_CODE}`;
const STAFF = ['MLL Commercial'];

type Sent = { method: string; path: string; body: unknown };

/** A draft as the API answers it: only `over`'s steps saved. */
const draft = (over: Partial<RfpStaffView> = {}): RfpStaffView =>
  rfpView({
    status: 'draft',
    rfpType: null,
    laneCount: 0,
    invitedCount: 0,
    responseCount: 0,
    invitations: [],
    columns: [],
    steps: { 2: null, 3: null, 4: null, 5: null },
    ...over,
  });

/** GET /api/rfps/:code answers `rfp`; `routes` answer (and record) everything else. */
function serve(rfp: RfpStaffView | null, routes: Record<string, (body: unknown) => StubReply> = {}) {
  const sent: Sent[] = [];
  stubFetch((url, init) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    if (init.method !== 'GET') sent.push({ method: init.method, path: url.pathname, body });
    const route = routes[`${init.method} ${url.pathname}`];
    if (route) return route(body);
    if (rfp && init.method === 'GET' && url.pathname === base) return { body: rfp };
    return undefined;
  });
  return sent;
}

const stepper = async () => screen.findByLabelText('RFP wizard steps');
const step = async (label: RegExp) => within(await stepper()).getByRole('tab', { name: label });

describe('RFP wizard (/rfp/MLL/createRfp/:step)', () => {
  it('offers "Create RFP" on the dashboard to the RFP staff roles, not to the Auditor', async () => {
    serve(null);
    const staff = renderConsole('/rfp/MLL/dashboard', { dataProvider: sapDataProvider({ rfps: [] }), roles: STAFF });
    expect(await screen.findByRole('link', { name: 'Create RFP' })).toHaveAttribute('href', '/rfp/MLL/createRfp/1');
    staff.unmount();
    renderConsole('/rfp/MLL/dashboard', { dataProvider: sapDataProvider({ rfps: [] }), roles: ['Auditor'] });
    await screen.findByRole('heading', { level: 1, name: 'RFP Dashboard' });
    expect(screen.queryByRole('link', { name: 'Create RFP' })).toBeNull();
  });

  it('step 1: Search fills the CRM fields, and Save creates the draft and moves to step 2 with its code', async () => {
    const sent = serve(null, {
      'GET /api/opportunities/OPP-2026-0001': () => ({ body: { id: header.casshOppId, ...headerInput({ rfpCode: undefined, sourceSystem: 'SCM' }) } }),
      'POST /api/rfps': () => ({ status: 201, body: draft() }),
      [`GET ${base}`]: () => ({ body: draft() }),
    });
    renderConsole('/rfp/MLL/createRfp/1', { dataProvider: sapDataProvider(), roles: STAFF });
    // Nothing saved yet: only step 1 may be opened.
    expect(await step(/Properties/)).toBeDisabled();
    expect(await step(/Properties/)).toHaveAccessibleDescription(STEP_DISABLED_REASONS[2]);

    await user.type(screen.getByLabelText('Opportunity ID'), 'OPP-2026-0001');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getByLabelText('Customer name')).toHaveValue('Sahyadri Foods Pvt Ltd'));
    // The CRM's fields are read-only; the ones staff may change are not.
    expect(screen.getByLabelText('Customer name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Due date')).toHaveValue('2026-01-31');
    expect(screen.getByLabelText('Contact person')).not.toHaveAttribute('readonly');

    await user.clear(screen.getByLabelText('Contact person'));
    await user.type(screen.getByLabelText('Contact person'), 'Anil Kumar');
    await user.type(screen.getByLabelText(/RFP code/), RFP_CODE);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sent.find((s) => s.path === '/api/rfps')).toBeDefined());
    expect(sent.find((s) => s.path === '/api/rfps')!.body).toMatchObject({
      rfpCode: RFP_CODE,
      casshOppId: 'OPP-2026-0001',
      sourceSystem: 'SCM',
      contactPerson: 'Anil Kumar',
    });
    // Step 2 of the new draft: its code is in the URL, step 2 is open, 3–5 are not.
    expect(await screen.findByRole('form', { name: 'Properties' })).toBeInTheDocument();
    expect(await step(/Lanes/)).toBeDisabled();
  });

  it('step 1: after its save a non-standard RFP stays at step 1, a standard one goes on to step 2 (spec §4)', async () => {
    for (const rfpType of ['non-standard', 'standard'] as const) {
      const saved = draft({ rfpType, steps: { 2: { ...step2, rfpType }, 3: null, 4: null, 5: null } });
      const sent = serve(saved, { [`PUT ${base}/steps/1`]: () => ({ body: saved }) });
      const view = renderConsole(`/rfp/MLL/createRfp/1?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
      const form = await screen.findByRole('form', { name: 'Opportunity' });
      await user.click(within(form).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(sent.some((s) => s.path === `${base}/steps/1`)).toBe(true));
      if (rfpType === 'standard') expect(await screen.findByRole('form', { name: 'Properties' })).toBeInTheDocument();
      else {
        expect(await screen.findByText('Step 1 saved')).toBeInTheDocument();
        expect(screen.getByRole('form', { name: 'Opportunity' })).toBeInTheDocument();
        expect(screen.queryByRole('form', { name: 'Properties' })).toBeNull();
      }
      view.unmount();
    }
  });

  it('step 1: a failed lookup shows the server’s message and keeps Save off', async () => {
    serve(null, {
      'GET /api/opportunities/OPP-2026-0001': () => ({ body: { id: header.casshOppId, ...headerInput({ rfpCode: undefined, sourceSystem: 'SCM' }) } }),
      'GET /api/opportunities/OPP-404': () => ({ status: 404, body: { message: 'Opportunity not found in CRM' } }),
    });
    renderConsole('/rfp/MLL/createRfp/1', { dataProvider: sapDataProvider(), roles: STAFF });
    const oppId = await screen.findByLabelText('Opportunity ID');
    await user.type(oppId, 'OPP-2026-0001');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getByLabelText('Customer name')).toHaveValue(header.customerName));
    await user.clear(oppId);
    await user.type(oppId, 'OPP-404');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Opportunity not found in CRM')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    // Nothing of the earlier lookup stays beside the failed one.
    expect(screen.getByLabelText('Customer name')).toHaveValue('');
  });

  it('keeps steps 3–5 disabled until the domain allows them, with the reason', async () => {
    serve(draft({ steps: { 2: step2, 3: { headerData: [] }, 4: null, 5: null }, rfpType: 'standard', laneCount: 0 }));
    renderConsole(`/rfp/MLL/createRfp/2?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    expect(await step(/Lanes/)).toBeEnabled();
    expect(await step(/BA selection/)).toBeDisabled();
    expect(await step(/BA selection/)).toHaveAccessibleDescription(STEP_DISABLED_REASONS[4]);
    expect(await step(/Float/)).toBeDisabled();
  });

  it('opens a disabled step from its URL as its reason, not its form', async () => {
    serve(draft());
    renderConsole(`/rfp/MLL/createRfp/4?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    expect(await screen.findByText(STEP_DISABLED_REASONS[4])).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'BA selection' })).toBeNull();
  });

  it('enables step 4 after the lanes of a standard RFP, and step 5 only after step 4', async () => {
    serve(draft({ steps: { 2: step2, 3: { headerData: [] }, 4: null, 5: null }, rfpType: 'standard', laneCount: 2 }));
    renderConsole(`/rfp/MLL/createRfp/3?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    expect(await step(/BA selection/)).toBeEnabled();
    expect(await step(/Float/)).toBeDisabled();
  });

  it('step 2: sends the chosen hire type, RFP type and property keys', async () => {
    const sent = serve(draft(), { [`PUT ${base}/steps/2`]: () => ({ body: draft({ steps: { 2: step2, 3: { headerData: [] }, 4: null, 5: null } }) }) });
    const masters: Record<string, { id: unknown; [k: string]: unknown }[]> = {
      'vehicle-hire-types': [{ id: 1, name: 'Market hire', code: 'MKT', status: 'active' }],
      'rfp-types': [
        { id: 7, name: 'Standard RFP', code: 'standard', status: 'active' },
        { id: 8, name: 'Non-standard RFP', code: 'non-standard', status: 'active' },
      ],
      'rfp-properties': [
        { id: 1, key: 'fromCity', label: 'From City', owner: 'mll', rfpTypeIds: [7], status: 'active' },
        { id: 2, key: 'toCity', label: 'To City', owner: 'mll', rfpTypeIds: [7], status: 'active' },
        { id: 3, key: 'ratePerTrip', label: 'Rate per trip', owner: 'ba', rfpTypeIds: [7], status: 'active' },
        { id: 4, key: 'remarks', label: 'Remarks', owner: 'dynamic', rfpTypeIds: [7], status: 'active' },
        { id: 5, key: 'cargo', label: 'Cargo (other type)', owner: 'mll', rfpTypeIds: [8], status: 'active' },
      ],
      'rfp-required-flags': [{ id: 1, hireTypeId: 1, rfpTypeId: 7, isRequiredByMll: true, isRequiredByBa: false, status: 'active' }],
    };
    const dataProvider = sapDataProvider(masters);
    renderConsole(`/rfp/MLL/createRfp/2?code=${RFP_CODE}`, { dataProvider, roles: STAFF });

    await user.click(await screen.findByRole('combobox', { name: /Vehicle hire type/ }));
    await user.click(await screen.findByRole('option', { name: 'Market hire' }));
    await user.click(screen.getByRole('combobox', { name: /RFP type/ }));
    await user.click(await screen.findByRole('option', { name: 'Standard RFP' }));

    expect(await screen.findByText('Required by MLL: Yes · Required by BA: No')).toBeInTheDocument();
    const mll = screen.getByRole('group', { name: 'MLL properties' });
    // Only the chosen type's properties are offered.
    expect(within(mll).queryByLabelText('Cargo (other type)')).toBeNull();
    await user.click(within(mll).getByLabelText('From City'));
    await user.click(within(mll).getByLabelText('To City'));
    await user.click(within(screen.getByRole('group', { name: 'BA properties' })).getByLabelText('Rate per trip'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sent.find((s) => s.path === `${base}/steps/2`)).toBeDefined());
    expect(sent.find((s) => s.path === `${base}/steps/2`)!.body).toEqual({
      vehicleHireType: 1,
      typeId: 7,
      rfpType: 'standard',
      mllProperties: ['fromCity', 'toCity'],
      baProperties: ['ratePerTrip'],
      dynamicInfo: [],
    });
  });

  it('step 2: refuses an empty step in the rules’ words and sends nothing', async () => {
    const sent = serve(draft());
    renderConsole(`/rfp/MLL/createRfp/2?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please select a vehicle hire type')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('step 3: a refused sheet offers the error workbook with the API’s message; a good one shows the lane count', async () => {
    const names = captureDownloads();
    let good = false;
    serve(draft({ steps: { 2: step2, 3: { headerData: [] }, 4: null, 5: null }, rfpType: 'standard' }), {
      [`POST ${base}/lanes/upload`]: () =>
        good
          ? { body: { message: rfpMessages.fileUploadSuccessful, lanes: 2, rfp: draft({ rfpType: 'standard', laneCount: 2, steps: { 2: step2, 3: { headerData: [] }, 4: null, 5: null } }) } }
          : {
              status: 400,
              blob: new Blob(['PK'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
              headers: {
                'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
                'X-Upload-Error': encodeURIComponent('Row 3: From City is required'),
              },
            },
    });
    renderConsole(`/rfp/MLL/createRfp/3?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    await user.upload(await screen.findByTestId('rfp-lanes-input'), xlsx('lanes.xlsx'));
    expect(await screen.findByText('Row 3: From City is required')).toBeInTheDocument();
    // No lanes yet: no way on to step 4.
    expect(screen.queryByRole('button', { name: STEP3_TEXTS.next })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Download error file' }));
    expect(names).toEqual([`RFPTemplateError-${RFP_CODE}.xlsx`]);

    good = true;
    await user.upload(screen.getByTestId('rfp-lanes-input'), xlsx('lanes.xlsx'));
    expect(await screen.findByText(/File upload successful\.\.\.!!! Lanes uploaded: 2/)).toBeInTheDocument();
    expect(screen.queryByText('Row 3: From City is required')).toBeNull();
    // The answer is the RFP with its lanes: step 4 opens.
    await waitFor(async () => expect(await step(/BA selection/)).toBeEnabled());
    // …and the step offers the way on.
    await user.click(screen.getByRole('button', { name: STEP3_TEXTS.next }));
    expect(await screen.findByRole('form', { name: 'BA selection' })).toBeInTheDocument();
  });

  it('step 4: adds a verified BA found by name and saves the selection with the switches', async () => {
    const sent = serve(draft({ steps: { 2: step2, 3: { headerData: [] }, 4: null, 5: null }, rfpType: 'standard', laneCount: 2 }), {
      [`PUT ${base}/steps/4`]: () => ({ body: draft() }),
    });
    const bas: { id: unknown; [k: string]: unknown }[] = [{ id: 'ba-1', companyName: 'Sharma Roadways Pvt Ltd', cityName: 'Pune' }];
    const dataProvider = sapDataProvider({ 'business-associates': bas });
    renderConsole(`/rfp/MLL/createRfp/4?code=${RFP_CODE}`, { dataProvider, roles: STAFF });
    await user.type(await screen.findByLabelText('BA name'), 'Sharma');
    await user.click(screen.getByRole('button', { name: 'Search BAs' }));
    await user.click(await screen.findByRole('button', { name: 'Add Sharma Roadways Pvt Ltd' }));
    expect(dataProvider.getList).toHaveBeenCalledWith('business-associates', expect.objectContaining({ filter: { status: 'verified', q: 'Sharma' } }));
    await user.click(screen.getByLabelText('T&C downloadable'));
    await user.type(screen.getByLabelText('Comment'), 'Please quote by Friday');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.find((s) => s.path === `${base}/steps/4`)).toBeDefined());
    expect(sent.find((s) => s.path === `${base}/steps/4`)!.body).toEqual({
      baList: [
        {
          baId: 'ba-1',
          baName: 'Sharma Roadways Pvt Ltd',
          individual: 1,
          action: 'add',
          typeOfSearch: 'name',
          typeValue: 'Sharma',
          serviceType: null,
          isSuggestedBa: false,
        },
      ],
      cityBasedBa: [],
      comment: 'Please quote by Friday',
      isSubmitToNewBa: false,
      isTnCDownloadable: true,
    });
  });

  it('step 4: lists the suggested BAs with why, and adds one with a click as a suggestion', async () => {
    const suggested = [
      { baId: 'ba-7', baName: 'Konkan Carriers', emailId: 'admin@konkan.test', cityName: 'Mumbai', invited: false, awardedOn: ['RFP-2025-0009'], servesLaneCity: true },
      { baId: 'ba-8', baName: 'Deccan Movers', emailId: null, cityName: 'Pune', invited: false, awardedOn: [], servesLaneCity: true },
    ];
    const sent = serve(draft({ steps: { 2: step2, 3: { headerData: [] }, 4: null, 5: null }, rfpType: 'standard', laneCount: 2 }), {
      [`GET ${base}/suggested-bas`]: () => ({ body: { rfpCode: RFP_CODE, bas: suggested } }),
      [`PUT ${base}/steps/4`]: () => ({ body: draft() }),
    });
    renderConsole(`/rfp/MLL/createRfp/4?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    const table = await screen.findByRole('table', { name: 'Suggested BAs' });
    const konkan = (await within(table).findByText('Konkan Carriers')).closest('tr')!;
    expect(within(konkan).getByText('Awarded on RFP-2025-0009; Based in a lane city')).toBeInTheDocument();
    expect(within(within(table).getByText('Deccan Movers').closest('tr')!).getByText('Based in a lane city')).toBeInTheDocument();
    await user.click(within(konkan).getByRole('button', { name: 'Add suggested Konkan Carriers' }));
    expect(within(konkan).getByRole('button', { name: 'Add suggested Konkan Carriers' })).toBeDisabled();
    expect(within(screen.getByRole('table', { name: 'Selected BAs' })).getByText('Konkan Carriers')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.find((s) => s.path === `${base}/steps/4`)).toBeDefined());
    expect((sent.find((s) => s.path === `${base}/steps/4`)!.body as { baList: BaSelectionItem[] }).baList).toEqual([
      { baId: 'ba-7', baName: 'Konkan Carriers', individual: 1, action: 'add', typeOfSearch: 'name', typeValue: 'Konkan Carriers', serviceType: null, isSuggestedBa: true },
    ]);
  });

  it('step 5: shows the selected mix by city and the float refusal', async () => {
    const item = (baId: string, baName: string): BaSelectionItem => ({
      baId,
      baName,
      individual: 1,
      action: 'add',
      typeOfSearch: 'name',
      typeValue: baName,
      serviceType: null,
      isSuggestedBa: false,
    });
    const selection = { baList: [item('ba-1', 'Sharma Roadways Pvt Ltd'), item('ba-2', 'Patil Carriers')], cityBasedBa: [], comment: '', isSubmitToNewBa: false, isTnCDownloadable: false };
    const opened = draft({ steps: { 2: step2, 3: { headerData: [] }, 4: selection, 5: null }, rfpType: 'standard', laneCount: 2 });
    const sent = serve(opened, {
      [`PUT ${base}/steps/5`]: (body) => ({ body: { ...opened, steps: { ...opened.steps, 5: body } } }),
      [`POST ${base}/float`]: () => ({ status: 422, body: { message: rfpMessages.addNewBa } }),
    });
    const dataProvider = sapDataProvider();
    (dataProvider.getMany as unknown as jest.Mock).mockResolvedValue({
      data: [
        { id: 'ba-1', cityName: 'Pune' },
        { id: 'ba-2', cityName: 'Nagpur' },
      ],
    });
    renderConsole(`/rfp/MLL/createRfp/5?code=${RFP_CODE}`, { dataProvider, roles: STAFF });
    const pune = await screen.findByRole('group', { name: 'Pune' });
    expect(within(pune).getByText('Sharma Roadways Pvt Ltd')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Nagpur' })).getByText('Patil Carriers')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Float' }));
    expect(await screen.findAllByText(rfpMessages.addNewBa)).not.toHaveLength(0);
    expect(sent.find((s) => s.path === `${base}/float`)!.body).toEqual({ baIds: ['ba-1', 'ba-2'], comments: '', floatToAll: false });
    // Step 5's own data is saved before the float: the mix, the same BAs by city, and "float to all".
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([`PUT ${base}/steps/5`, `POST ${base}/float`]);
    expect(sent[0]!.body).toEqual({
      selectedMix: selection.baList,
      cityWiseSelectedBa: [
        { ...item('ba-2', 'Patil Carriers'), individual: 0, typeOfSearch: 'city', typeValue: 'Nagpur' },
        { ...item('ba-1', 'Sharma Roadways Pvt Ltd'), individual: 0, typeOfSearch: 'city', typeValue: 'Pune' },
      ],
      entireBaList: false,
    });
  });

  it('step 5: puts its saved data back when opened at step 5, not when opened at step 2 (spec §4)', async () => {
    const saved = draft({
      steps: { 2: step2, 3: { headerData: [] }, 4: { baList: [], cityBasedBa: [], comment: '', isSubmitToNewBa: false, isTnCDownloadable: false }, 5: { selectedMix: [], cityWiseSelectedBa: [], entireBaList: true } },
      rfpType: 'standard',
      laneCount: 2,
    });
    serve(saved);
    const atFive = renderConsole(`/rfp/MLL/createRfp/5?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    expect(await screen.findByRole('switch', { name: 'Float to all verified BAs' })).toBeChecked();
    atFive.unmount();
    serve(saved);
    renderConsole(`/rfp/MLL/createRfp/2?code=${RFP_CODE}`, { dataProvider: sapDataProvider(), roles: STAFF });
    await user.click(await step(/Float/));
    expect(await screen.findByRole('switch', { name: 'Float to all verified BAs' })).not.toBeChecked();
  });

  it('links a draft’s view to the wizard at the step its saved data gives', async () => {
    serve(draft({ wizard: { step: 2, enabled: { 2: true, 3: true, 4: true, 5: false }, restoreBaSelection: false, delayMs: 0 } }));
    const staff = renderConsole(`/rfp/MLL/view/${RFP_CODE}/draft`, { dataProvider: sapDataProvider(), roles: STAFF });
    expect(await screen.findByRole('link', { name: 'Continue in the wizard' })).toHaveAttribute('href', `/rfp/MLL/createRfp/2?code=${RFP_CODE}`);
    staff.unmount();
    serve(rfpView());
    renderConsole(`/rfp/MLL/view/${RFP_CODE}/standard`, { dataProvider: sapDataProvider(), roles: STAFF });
    await screen.findByRole('group', { name: 'RFP details' });
    expect(screen.queryByRole('link', { name: 'Continue in the wizard' })).toBeNull();
  });

  it('tells a reader who may not change RFPs that the wizard is not theirs', async () => {
    serve(null);
    renderConsole('/rfp/MLL/createRfp/1', { dataProvider: sapDataProvider(), roles: ['Auditor'] });
    expect(await screen.findByText('Only the RFP staff roles may create or edit RFPs')).toBeInTheDocument();
  });
});
