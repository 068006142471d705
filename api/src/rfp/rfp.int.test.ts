import ExcelJS from 'exceljs';
import request from 'supertest';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { addDays } from '../../../workflows/src/document-expiry/schedule';
import { markBaBlocked, uniqueRfpCode } from '../../../workflows/src/rfp/testing';
import { loadWorkbook, saveWorkbook, sheetRows } from '../rfp-workbooks/testing';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addBa, addUser, sessionOf, type TestBa } from '../users/testing';

/**
 * The RFP routes over HTTP with the real stores, the RFP workflow, the read models and the sandbox CRM: a draft
 * from a CRM opportunity, the wizard's steps, the lane template and its upload (good and bad), the T&C, the
 * float, two BAs quoting (one by the grid, one by the bid file), staff closing bidding, comparing and awarding
 * a lane split between them, the BAs seeing their own outcome, and a reopened second round. BAs reach only RFPs
 * floated to them and never another BA's quotes.
 */
jest.setTimeout(300_000);

type Headers = Record<string, string>;
let h: ApiHarness;
let procurement: Headers;
let operations: Headers;
let auditor: Headers;
let admin2000: Headers;
let ba1: TestBa;
let ba2: TestBa;
let ba3: TestBa;
let asBa1: Headers;
let asBa2: Headers;
let asBa3: Headers;
const code = uniqueRfpCode();
const OPPORTUNITY = 'OPP-2026-0001';

/** supertest's parser for a binary body (a workbook, a PDF). */
const binary = (res: NodeJS.ReadableStream, done: (err: Error | null, body: unknown) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
  res.on('error', (err: Error) => done(err, null));
};
type Parser = Parameters<request.Test['parse']>[0];
const download = (url: string, headers: Headers) => request(h.app).get(url).set(headers).buffer(true).parse(binary as unknown as Parser);
const upload = (url: string, headers: Headers, bytes: Buffer, name: string) =>
  request(h.app).post(url).set(headers).attach('file', bytes, name).buffer(true).parse(binary as unknown as Parser);
const jsonOf = (body: unknown) => JSON.parse((body as Buffer).toString('utf8')) as { message: string; lanes?: number; round?: number };

/** A date `days` from today in India (YYYY-MM-DD), as the API's date fields take it. */
const indiaDay = (days: number) => addDays(indiaDateAt(Date.now()), days);

const STEP2 = {
  vehicleHireType: 1, // Dedicated: both required flags (reference data)
  typeId: 1, // standard
  rfpType: 'standard',
  mllProperties: ['fromCity', 'toCity', 'vehicleType', 'distanceKm'],
  baProperties: ['ratePerTrip', 'transitDays', 'vehiclesAvailable'],
  dynamicInfo: ['paymentTerms'],
};
const LANES = [
  ['Mumbai', 'Pune', '32 FT MXL', '150'],
  ['Mumbai', 'Pune', '32 FT MXL', '152'],
  ['Chennai', 'Bengaluru', '20 FT SXL', '350'],
  ['Delhi', 'Jaipur', '20 FT SXL', '280'],
];

/** The downloaded template with `rows` typed in under its header. */
async function filledTemplate(template: Buffer, rows: (string | null)[][]): Promise<Buffer> {
  const wb = await loadWorkbook(template);
  const ws = wb.getWorksheet('Lanes') as ExcelJS.Worksheet;
  rows.forEach((r, i) => {
    ws.getRow(i + 2).values = r;
  });
  return saveWorkbook(wb);
}

beforeAll(async () => {
  h = await startApiHarness('rfps');
  const staff = async (email: string, roles: Parameters<typeof addUser>[1]['roles'], codes = ['1000']) =>
    (await sessionOf(h, await addUser(h, { email, roles, companyCodes: codes }))).auth;
  procurement = await staff('procurement@rfps.test', ['MLL Procurement']);
  operations = await staff('operations@rfps.test', ['MLL Operations']);
  auditor = await staff('auditor@rfps.test', ['Auditor']);
  admin2000 = await staff('admin2000@rfps.test', ['MLL-ADMIN'], ['2000']);
  [ba1, ba2, ba3] = await Promise.all([addBa(h, 'rfp1', { verified: true }), addBa(h, 'rfp2', { verified: true }), addBa(h, 'rfp3', { verified: true })]);
  asBa1 = (await sessionOf(h, ba1.admin)).auth;
  asBa2 = (await sessionOf(h, ba2.admin)).auth;
  asBa3 = (await sessionOf(h, ba3.admin)).auth;
});

afterAll(async () => {
  await h?.stop();
});

const get = (url: string, headers: Headers) => request(h.app).get(url).set(headers);
const post = (url: string, headers: Headers, body: object = {}) => request(h.app).post(url).set(headers).send(body);
const put = (url: string, headers: Headers, body: object) => request(h.app).put(url).set(headers).send(body);
const rfpUrl = `/api/rfps/${code}`;

describe('an RFP from draft to award and a second round', () => {
  it('creates the draft from the opportunity the CRM has now; staff may edit only their fields', async () => {
    const opp = (await get(`/api/opportunities/${OPPORTUNITY}`, procurement)).body as Record<string, string>;
    const created = await post('/api/rfps', procurement, {
      rfpCode: code,
      casshOppId: OPPORTUNITY,
      contactPerson: 'Meera Joshi',
      customerName: 'Not The Customer',
      rfpValue: '1',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: code, rfpCode: code, status: 'draft', statusColour: 'inProgress', companyCode: '1000' });
    // The CRM's values, whatever the form said; the contact person is staff's to edit.
    expect(created.body.header).toMatchObject({ customerName: opp['customerName'], rfpValue: opp['rfpValue'], contactPerson: 'Meera Joshi' });
    expect(created.body.wizard).toMatchObject({ step: 1, enabled: { 2: true, 3: false, 4: false, 5: false } });

    const again = await post('/api/rfps', procurement, { rfpCode: code, casshOppId: OPPORTUNITY });
    expect({ status: again.status, message: again.body.message }).toEqual({ status: 409, message: rfpMessages.exists(code) });
    const unknown = await post('/api/rfps', procurement, { rfpCode: uniqueRfpCode(), casshOppId: 'OPP-NOPE-9999' });
    expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: 400, message: 'Opportunity not found' });
  });

  it('lists it for staff of its company code, with the filters; not for another company code', async () => {
    const listed = await get(`/api/rfps?filter=${encodeURIComponent(JSON.stringify({ rfpCode: code, status: 'draft' }))}`, procurement);
    expect(listed.status).toBe(200);
    expect(listed.headers['content-range']).toBe('rfps 0-0/1');
    expect(listed.body[0]).toMatchObject({ id: code, casshOppId: OPPORTUNITY, status: 'draft' });
    const floated = await get(`/api/rfps?filter=${encodeURIComponent(JSON.stringify({ rfpCode: code, status: 'floated' }))}`, procurement);
    expect(floated.body).toEqual([]);
    const bogus = await get(`/api/rfps?filter=${encodeURIComponent(JSON.stringify({ status: 'lost' }))}`, procurement);
    expect(bogus.status).toBe(400);
    const tooOld = await get(`/api/rfps?filter=${encodeURIComponent(JSON.stringify({ dateFrom: indiaDay(-90), dateTo: indiaDay(0) }))}`, procurement);
    expect(tooOld.status).toBe(400);
    expect((await get(`/api/rfps?filter=${encodeURIComponent(JSON.stringify({ rfpCode: code }))}`, admin2000)).body).toEqual([]);
    expect((await get(rfpUrl, admin2000)).status).toBe(404);
    expect((await get(rfpUrl, auditor)).status).toBe(200);
  });

  it('step 1 saves staff edits over the CRM’s values again; the RFP code stays', async () => {
    const saved = await put(`${rfpUrl}/steps/1`, procurement, { contactPerson: 'Ravi Kulkarni', customerName: 'Not The Customer', rfpCode: 'OTHER' });
    expect(saved.status).toBe(200);
    expect(saved.body.header).toMatchObject({ rfpCode: code, contactPerson: 'Ravi Kulkarni', casshOppId: OPPORTUNITY });
    expect(saved.body.header.customerName).not.toBe('Not The Customer');
    const invalid = await put(`${rfpUrl}/steps/1`, procurement, { contactPerson: '=cmd' });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors)).toEqual(['contactPerson']);
    expect((await put(`${rfpUrl}/steps/6`, procurement, {})).status).toBe(400);
    expect((await put(`${rfpUrl}/steps/3`, procurement, {})).status).toBe(422);
  });

  it('step 2 turns the chosen properties into the sheet’s columns; unknown properties are refused', async () => {
    const bad = await put(`${rfpUrl}/steps/2`, procurement, { ...STEP2, baProperties: ['ratePerTrip', 'fromCity'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ baProperties: 'fromCity cannot be chosen as baProperties' });
    const saved = await put(`${rfpUrl}/steps/2`, procurement, STEP2);
    expect(saved.status).toBe(200);
    expect(saved.body.steps[2]).toMatchObject({ rfpType: 'standard', mllProperties: STEP2.mllProperties });
    expect(saved.body.columns.map((c: { key: string; owner: string; required: boolean }) => `${c.owner}:${c.key}:${c.required}`)).toEqual([
      'mll:fromCity:true',
      'mll:toCity:true',
      'mll:vehicleType:true',
      'mll:distanceKm:true',
      'ba:ratePerTrip:true',
      'ba:transitDays:true',
      'ba:vehiclesAvailable:true',
    ]);
    expect(saved.body.wizard).toMatchObject({ step: 2, enabled: { 2: true, 3: true, 4: false } });
  });

  it('answers the lane template; a bad sheet comes back as the error workbook, a good one is saved', async () => {
    const template = await download(`${rfpUrl}/template`, procurement);
    expect(template.status).toBe(200);
    expect(decodeURIComponent(String(template.headers['content-disposition']))).toMatch(/RFP Template_-.+-\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d\.xlsx/);
    const header = sheetRows((await loadWorkbook(template.body as Buffer)).getWorksheet('Lanes') as ExcelJS.Worksheet)[0];
    expect(header).toEqual(['From City', 'To City', 'Vehicle Type', 'Distance (km)']);

    const bad = await upload(`${rfpUrl}/lanes/upload`, procurement, await filledTemplate(template.body as Buffer, [LANES[0]!, [null, 'Pune', '32 FT MXL', 'far']]), 'lanes.xlsx');
    expect(bad.status).toBe(400);
    expect(String(bad.headers['content-disposition'])).toContain(`RFPTemplateError-${code}.xlsx`);
    const errors = sheetRows((await loadWorkbook(bad.body as Buffer)).getWorksheet('Lanes') as ExcelJS.Worksheet);
    expect(errors[0]).toContain('Errors');
    expect(errors).toHaveLength(3);
    expect((await get(`${rfpUrl}/lanes`, procurement)).body.total).toBe(0);

    const good = await upload(`${rfpUrl}/lanes/upload`, procurement, await filledTemplate(template.body as Buffer, LANES), 'lanes.xlsx');
    expect(good.status).toBe(200);
    expect(jsonOf(good.body)).toMatchObject({ message: 'File upload successful...!!!', lanes: 4 });
    const lanes = await get(`${rfpUrl}/lanes?perPage=2&sort=distanceKm&order=DESC`, procurement);
    expect(lanes.body.total).toBe(4);
    expect(lanes.body.rows.map((r: { values: { distanceKm: string } }) => r.values.distanceKm)).toEqual(['350', '280']);
    const withData = await download(`${rfpUrl}/template?withData=1`, auditor);
    expect(String(withData.headers['content-disposition'])).toContain(`TemplateWithData-${code}.xlsx`);
    expect(sheetRows((await loadWorkbook(withData.body as Buffer)).getWorksheet('Lanes') as ExcelJS.Worksheet)).toHaveLength(5);
    const withNotes = await upload(`${rfpUrl}/lanes/upload`, procurement, Buffer.from('a,b'), 'lanes.pdf');
    expect(withNotes.status).toBe(415);
  });

  it('saves step 4, takes the T&C PDF and gives it back under the spec’s name', async () => {
    const step4 = await put(`${rfpUrl}/steps/4`, procurement, { cityBasedBa: [], baList: [], comment: 'Quote every lane', isTnCDownloadable: true });
    expect(step4.status).toBe(200);
    expect(step4.body.wizard).toMatchObject({ step: 3, enabled: { 2: true, 3: true, 4: true, 5: true }, restoreBaSelection: true });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
    const terms = await upload(`${rfpUrl}/terms`, procurement, pdf, 'terms.pdf');
    expect({ status: terms.status, message: jsonOf(terms.body).message }).toEqual({ status: 200, message: 'Terms and Conditions file uploaded successfully' });
    const back = await download(`${rfpUrl}/terms`, operations);
    expect(back.status).toBe(200);
    expect(String(back.headers['content-disposition'])).toContain(`TermsNCondition-${code}.pdf`);
    expect((back.body as Buffer).equals(pdf)).toBe(true);
  });

  it('floats to the chosen BAs only when one is new', async () => {
    const none = await post(`${rfpUrl}/float`, procurement, { baIds: [], comments: '', floatToAll: false });
    expect({ status: none.status, message: none.body.message }).toEqual({ status: 422, message: 'Please Add New BA to float RFP' });
    const floated = await post(`${rfpUrl}/float`, operations, { baIds: [ba1.baId, ba2.baId], comments: 'Please quote by the due date', floatToAll: false });
    expect(floated.status).toBe(200);
    expect(floated.body.rfp).toMatchObject({ status: 'floated', round: 1, invitedCount: 2 });
    const same = await post(`${rfpUrl}/float`, procurement, { baIds: [ba1.baId], comments: '', floatToAll: false });
    expect(same.body.message).toBe('Please Add New BA to float RFP');
  });

  it('a BA reaches only RFPs floated to it', async () => {
    const mine = await get('/api/rfps', asBa1);
    expect(mine.status).toBe(200);
    expect(mine.body.map((r: { rfpCode: string }) => r.rfpCode)).toContain(code);
    expect(mine.body.find((r: { rfpCode: string }) => r.rfpCode === code)).toMatchObject({ comments: 'Please quote by the due date' });
    expect(mine.headers['content-range']).toBe('rfps 0-0/1');
    expect((await get('/api/rfps', asBa3)).body.map((r: { rfpCode: string }) => r.rfpCode)).not.toContain(code);
    for (const url of [rfpUrl, `${rfpUrl}/lanes`, `${rfpUrl}/bid-template`, `${rfpUrl}/responses/mine`, `${rfpUrl}/terms`])
      expect([url, (await get(url, asBa3)).status]).toEqual([url, 404]);
    const quote = await put(`${rfpUrl}/responses/mine`, asBa3, { round: 1, quotes: { L0001: { ratePerTrip: '1' } } });
    expect(quote.status).toBe(404);
    const opened = await get(rfpUrl, asBa1);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ rfpCode: code, comment: 'Quote every lane', status: 'floated' });
    // Nothing of the BA selection or of other BAs.
    expect(JSON.stringify(opened.body)).not.toContain(ba2.baId);
    // Staff-only reads stay staff's.
    expect((await get(`${rfpUrl}/comparison`, asBa1)).status).toBe(403);
  });

  it('two BAs quote: one in the grid, one by the bid template; neither sees the other’s quotes', async () => {
    const quotes = (rate: number) =>
      Object.fromEntries(['L0001', 'L0002', 'L0003', 'L0004'].map((id, i) => [id, { ratePerTrip: String(rate + i * 1000), transitDays: '2', vehiclesAvailable: '3' }]));
    const saved = await put(`${rfpUrl}/responses/mine`, asBa1, { round: 1, quotes: quotes(40_000) });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Successfully Saved Lane Response...!!! ');
    const grid = await get(`${rfpUrl}/lanes`, asBa1);
    expect(grid.body.rows[0]).toMatchObject({ laneId: 'L0001', quote: { ratePerTrip: '40000' } });
    const stale = await put(`${rfpUrl}/responses/mine`, asBa1, { round: 2, quotes: quotes(1) });
    expect(stale.status).toBe(409);

    const template = await download(`${rfpUrl}/bid-template`, asBa2);
    expect(template.status).toBe(200);
    expect(String(template.headers['content-disposition'])).toContain(`BABidTemplate1-${code}.xlsx`);
    const wb = await loadWorkbook(template.body as Buffer);
    const ws = wb.getWorksheet('Lanes') as ExcelJS.Worksheet;
    const rows = sheetRows(ws);
    expect(rows[0]).toEqual(['Lane ID', 'From City', 'To City', 'Vehicle Type', 'Distance (km)', 'Rate per Trip (INR)', 'Transit Time (days)', 'Vehicles Available']);
    const fill = (rate: (i: number) => string) => {
      for (let i = 0; i < 4; i += 1) {
        const row = ws.getRow(i + 2);
        row.getCell(6).value = rate(i);
        row.getCell(7).value = '3';
        row.getCell(8).value = '5';
      }
    };
    // The Dedicated hire type asks BAs to quote every lane: a lane left empty refuses the sheet.
    fill((i) => (i === 3 ? '' : String(39_000 + i * 1000)));
    const partial = await upload(`${rfpUrl}/bids`, asBa2, await saveWorkbook(wb), 'bid.xlsx');
    expect(partial.status).toBe(400);
    expect(String(partial.headers['content-disposition'])).toContain(`RFPTemplateErrorBA-${code}.xlsx`);
    fill((i) => String(39_000 + i * 1000));
    const good = await upload(`${rfpUrl}/bids`, asBa2, await saveWorkbook(wb), 'bid.xlsx');
    expect(good.status).toBe(200);
    expect(jsonOf(good.body).message).toBe('File upload successful...!!!');

    const mine = await get(`${rfpUrl}/responses/mine`, asBa1);
    expect(mine.body.quotes.map((q: { values: { ratePerTrip: string } }) => q.values.ratePerTrip)).toEqual(['40000', '41000', '42000', '43000']);
    const theirs = await get(`${rfpUrl}/responses/mine`, asBa2);
    expect(theirs.body.quotes.map((q: { values: { ratePerTrip: string } }) => q.values.ratePerTrip)).toEqual(['39000', '40000', '41000', '42000']);
    // Its saved quotes come back in its bid template.
    const again = sheetRows((await loadWorkbook((await download(`${rfpUrl}/bid-template`, asBa2)).body as Buffer)).getWorksheet('Lanes') as ExcelJS.Worksheet);
    expect(again[1]?.[5]).toBe('39000');
  });

  it('only a decider closes bidding; then quotes are refused and staff compare', async () => {
    expect((await post(`${rfpUrl}/close-bidding`, operations)).status).toBe(403);
    const closed = await post(`${rfpUrl}/close-bidding`, procurement);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'evaluation', responseCount: 2 });
    const late = await put(`${rfpUrl}/responses/mine`, asBa1, { round: 1, quotes: { L0001: { ratePerTrip: '1', transitDays: '1', vehiclesAvailable: '1' } } });
    expect(late.status).toBe(422);

    const byLocation = await get(`${rfpUrl}/comparison?by=location`, auditor);
    expect(byLocation.status).toBe(200);
    expect(byLocation.body.groups[0]).toMatchObject({ fromCity: 'Mumbai', toCity: 'Pune', lanes: 2, min: 39_500, max: 40_500 });
    expect(byLocation.body.groups[0].quotes.map((q: { baId: string; rank: number }) => [q.baId, q.rank])).toEqual([
      [ba2.baId, 1],
      [ba1.baId, 2],
    ]);
    // The BA-response comparison: the same groups seen per BA, the BA lowest in most groups first.
    const perBa = await get(`${rfpUrl}/comparison?by=location&view=ba`, auditor);
    expect(perBa.status).toBe(200);
    expect(perBa.body.bas.map((b: { baId: string }) => b.baId)[0]).toBe(ba2.baId);
    const mumbaiPune = (b: { entries: { fromCity: string; toCity: string }[] }) => b.entries.find((e) => e.fromCity === 'Mumbai' && e.toCity === 'Pune');
    expect(mumbaiPune(perBa.body.bas[0])).toMatchObject({ rank: 1, of: 2, aboveLowestPercent: 0 });
    expect(mumbaiPune(perBa.body.bas[1])).toMatchObject({ rank: 2, of: 2 });
    // Paged by BA: the second BA alone on a page of one, its rank still counted among both.
    const secondBa = await get(`${rfpUrl}/comparison?by=location&view=ba&page=1&perPage=1`, auditor);
    expect(secondBa.body.total).toBe(2);
    expect(secondBa.body.bas.map((b: { baId: string }) => b.baId)).toEqual([ba1.baId]);
    expect(mumbaiPune(secondBa.body.bas[0])).toMatchObject({ rank: 2, of: 2 });
    expect((await get(`${rfpUrl}/comparison?by=planet`, procurement)).status).toBe(400);
    const matrix = await download(`${rfpUrl}/quote-matrix`, procurement);
    expect(matrix.status).toBe(200);
    expect(String(matrix.headers['content-disposition'])).toContain(`BA Quote-Matrix format-${code}.xlsx`);
    const availability = await download(`${rfpUrl}/vehicle-availability`, procurement);
    expect(availability.status).toBe(200);
    const totals = sheetRows((await loadWorkbook(availability.body as Buffer)).getWorksheet('Vehicle Availability') as ExcelJS.Worksheet);
    expect(totals[1]?.slice(-1)).toEqual([8]);
  });

  it('awards a lane split between the two BAs; each BA sees only its own outcome', async () => {
    const wrong = await post(`${rfpUrl}/award`, procurement, { lanes: [{ laneId: 'L0001', shares: [{ baId: ba1.baId, sharePercent: 60 }] }] });
    expect({ status: wrong.status, message: wrong.body.message }).toEqual({ status: 400, message: rfpMessages.sharesSum('L0001') });
    expect((await post(`${rfpUrl}/award`, operations, { lanes: [] })).status).toBe(403);
    const awarded = await post(`${rfpUrl}/award`, procurement, {
      lanes: [
        { laneId: 'L0001', shares: [{ baId: ba1.baId, sharePercent: 60 }, { baId: ba2.baId, sharePercent: 40 }] },
        { laneId: 'L0003', shares: [{ baId: ba2.baId, sharePercent: 100 }] },
      ],
    });
    expect(awarded.status).toBe(200);
    expect(awarded.body.status).toBe('awarded');
    expect(awarded.body.awards).toHaveLength(3);

    const one = await get(rfpUrl, asBa1);
    expect(one.body.awards.map((a: { laneId: string; sharePercent: number; rates: { ratePerTrip: string } }) => [a.laneId, a.sharePercent, a.rates.ratePerTrip])).toEqual([['L0001', 60, '40000']]);
    const two = await get(rfpUrl, asBa2);
    expect(two.body.awards.map((a: { laneId: string; baId: string }) => [a.laneId, a.baId])).toEqual([
      ['L0001', ba2.baId],
      ['L0003', ba2.baId],
    ]);
    expect(JSON.stringify(two.body)).not.toContain(ba1.baId);
  });

  it('suggests BAs: those based in a lane city, and for a later RFP of the same customer its earlier awardees first', async () => {
    type Suggested = { baId: string; invited: boolean; awardedOn: string[]; servesLaneCity: boolean; emailId: string | null; cityName: string | null };
    const here = await get(`${rfpUrl}/suggested-bas`, procurement);
    expect(here.status).toBe(200);
    const hereBas = here.body.bas as Suggested[];
    // The three test BAs are based in Mumbai, where lanes start; the first two were invited; the RFP's own
    // award is not an earlier one.
    const shown = (b: Suggested) => [b.baId, b.invited, b.servesLaneCity, b.awardedOn, b.cityName];
    expect(hereBas.map(shown).sort()).toEqual(
      [
        [ba1.baId, true, true, [], 'Mumbai'],
        [ba2.baId, true, true, [], 'Mumbai'],
        [ba3.baId, false, true, [], 'Mumbai'],
      ].sort(),
    );
    expect(hereBas.find((b) => b.baId === ba1.baId)!.emailId).toBe(`rfp1.admin@${ba1.baId}.test`);

    const next = uniqueRfpCode();
    expect((await post('/api/rfps', procurement, { rfpCode: next, casshOppId: OPPORTUNITY })).status).toBe(201);
    const later = await get(`/api/rfps/${next}/suggested-bas`, operations);
    expect(later.status).toBe(200);
    // No lanes yet: only the BAs awarded on the earlier RFP of this customer, not yet invited.
    expect((later.body.bas as Suggested[]).map((b) => [b.baId, b.awardedOn, b.invited, b.servesLaneCity]).sort()).toEqual(
      [
        [ba1.baId, [code], false, false],
        [ba2.baId, [code], false, false],
      ].sort(),
    );
    // Staff of another company code do not see the RFP; the auditor and BAs may not ask.
    expect((await get(`/api/rfps/${next}/suggested-bas`, admin2000)).status).toBe(404);
    expect((await get(`/api/rfps/${next}/suggested-bas`, auditor)).status).toBe(403);
    expect((await get(`/api/rfps/${next}/suggested-bas`, asBa1)).status).toBe(403);
  });

  it('invites a BA for backhaul', async () => {
    const invited = await post(`${rfpUrl}/backhaul-invitations`, operations, { baId: ba1.baId, isInvited: true });
    expect(invited.status).toBe(200);
    expect(invited.body.message).toBe('Invite to BA has been sent successfully');
    expect(invited.body.invitations.find((i: { baId: string }) => i.baId === ba1.baId)).toMatchObject({ backhaulInvited: true });
    expect((await get(rfpUrl, asBa1)).body).toMatchObject({ backhaulInvited: true });
    const stranger = await post(`${rfpUrl}/backhaul-invitations`, operations, { baId: ba3.baId, isInvited: true });
    expect(stranger.status).toBeGreaterThanOrEqual(400);
  });

  it('reopens for a second round: a BA revises its quote, the first round stays readable', async () => {
    expect((await post(`${rfpUrl}/reopen`, operations, { dueDate: indiaDay(10) })).status).toBe(403);
    expect((await post(`${rfpUrl}/reopen`, procurement, {})).status).toBe(400);
    const reopened = await post(`${rfpUrl}/reopen`, procurement, { dueDate: indiaDay(10) });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: 'floated', round: 2 });
    const revised = await put(`${rfpUrl}/responses/mine`, asBa1, {
      round: 2,
      quotes: { L0001: { ratePerTrip: '38000', transitDays: '2', vehiclesAvailable: '4' } },
    });
    expect(revised.status).toBe(200);
    expect((await get(`${rfpUrl}/responses/mine`, asBa1)).body).toMatchObject({ round: 2, quotes: [{ laneId: 'L0001', values: { ratePerTrip: '38000' } }] });
    const first = await get(`${rfpUrl}/responses/mine?round=1`, asBa1);
    expect(first.body.quotes).toHaveLength(4);
    expect(first.body.quotes[0].values.ratePerTrip).toBe('40000');
  });

  it('closes the RFP (deciders only)', async () => {
    expect((await post(`${rfpUrl}/close`, operations)).status).toBe(403);
    const closed = await post(`${rfpUrl}/close`, procurement, { remarks: 'Contracts signed' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', statusColour: 'rejected' });
  });
});

describe('the lane columns of step 2', () => {
  it('follow the required flags of the pair: a non-standard sheet requires no MLL cell; selects keep their options', async () => {
    const other = uniqueRfpCode();
    expect((await post('/api/rfps', procurement, { rfpCode: other, casshOppId: 'OPP-2026-0003' })).status).toBe(201);
    const saved = await put(`/api/rfps/${other}/steps/2`, procurement, {
      vehicleHireType: 1,
      typeId: 2, // non-standard: the customer's own sheet, neither flag (reference data)
      rfpType: 'non-standard',
      mllProperties: ['materialType', 'fromCity'],
      baProperties: ['ratePerTrip'],
    });
    expect(saved.status).toBe(200);
    const columns = saved.body.columns as { key: string; type: string; required: boolean; options?: string[] }[];
    // In the master's column order, whatever order they were chosen in.
    expect(columns.map((c) => [c.key, c.type, c.required])).toEqual([
      ['fromCity', 'text', false],
      ['materialType', 'select', false],
      ['ratePerTrip', 'number', true],
    ]);
    expect(columns[1]?.options).toContain('FMCG');
  });
});

describe('floating to all', () => {
  it('resolves every verified BA of the RFP’s company code', async () => {
    const other = uniqueRfpCode();
    expect((await post('/api/rfps', procurement, { rfpCode: other, casshOppId: 'OPP-2026-0002' })).status).toBe(201);
    expect((await put(`/api/rfps/${other}/steps/2`, procurement, STEP2)).status).toBe(200);
    const template = await download(`/api/rfps/${other}/template`, procurement);
    expect((await upload(`/api/rfps/${other}/lanes/upload`, procurement, await filledTemplate(template.body as Buffer, LANES.slice(0, 1)), 'l.xlsx')).status).toBe(200);
    const floated = await post(`/api/rfps/${other}/float`, procurement, { baIds: [], comments: 'All of you', floatToAll: true });
    expect(floated.status).toBe(200);
    const invited = floated.body.rfp.invitations.map((i: { baId: string }) => i.baId);
    expect(invited).toEqual(expect.arrayContaining([ba1.baId, ba2.baId, ba3.baId]));
    expect((await get(`/api/rfps/${other}`, asBa3)).status).toBe(200);

    // A BA whose vendor code is blocked cannot bid (the workflow reads the block read model).
    await markBaBlocked(h.db.pool, ba3.baId);
    const blocked = await put(`/api/rfps/${other}/responses/mine`, asBa3, {
      round: 1,
      quotes: { L0001: { ratePerTrip: '1000', transitDays: '1', vehiclesAvailable: '1' } },
    });
    expect({ status: blocked.status, message: blocked.body.message }).toEqual({ status: 403, message: rfpMessages.baBlocked });
  });
});
