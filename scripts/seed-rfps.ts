import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import ExcelJS from 'exceljs';
import type { Pool } from 'pg';
import { headerDataFor } from '../api/src/rfp/columns';
import { LANES_SHEET, readLaneUpload, XLSX_TYPE } from '../api/src/rfp-workbooks';
import { laneTemplateColumns } from '../api/src/rfp-workbooks/lane-template';
import type { Opportunity } from '../domain/src/crm/port';
import type { EventStore } from '../domain/src/event-store/port';
import { rfpStreamId, type RfpEvent } from '../domain/src/rfp/events';
import { rfpFileNames } from '../domain/src/rfp/messages';
import type { AwardShare, BaSelectionItem, LaneColumn, LaneQuote, RfpStep2, RfpType } from '../domain/src/rfp/model';
import { evolveRfp, initialRfpState, quotesOf, type RfpState } from '../domain/src/rfp/state';
import { RFP_TYPE_IDS } from '../domain/src/masters/reference-data/rfp-types';
import { VEHICLE_HIRE_TYPE_IDS } from '../domain/src/masters/reference-data/vehicle-hire-types';
import { DomainError } from '../domain/src/shared/errors';
import type { Actor, StoredEvent } from '../domain/src/shared/events';
import type { BlobStore } from '../platform/src/files';
import { SEED_OPPORTUNITIES } from '../sandboxes/crm/src/seed';
import { indiaDateAt } from '../domain/src/shared/india-date';
import { addDays } from '../workflows/src/document-expiry/schedule';
import { createRfpDraft, sendRfpCommand, type RfpClientCommand, type RfpCommandContext } from '../workflows/src/rfp/client';
import { demoPdf, putDemoFile, type DemoFile } from './seed-files';

/**
 * The RFP area's demo data (issue 10): one RFP in every status, each with its lanes, so every RFP screen of the
 * console (dashboard, view, comparison, award, backhaul) and of the portal (dashboard, view, lane grid) has
 * something to show. Sent through the RFP client (workflows/src/rfp/client.ts) as the api sends it: the header
 * from a sandbox-CRM opportunity, step 2's properties, step 3's columns from the masters (the api's
 * headerDataFor), the lane sheet written as a workbook and read by the staff upload's own importer, then float,
 * quotes, close, award, reopen, backhaul and T&C.
 *
 * Like seed-vendor-codes.ts, a planner answers the NEXT command from the RFP's stream (null once the story
 * stands), every command carries a request id fixed per step, and an RFP whose stream holds an event the seed
 * did not write (a person's) is left as it stands.
 */

/** A BA of the demo, by its DEMO_BAS key (the caller resolves ids and names). */
export type RfpBa = { key: string; baId: string; companyName: string };

/** Where the story of one demo RFP ends: its status, after `rounds` rounds of quotes. */
export type RfpOutcome = 'draft' | 'floated' | 'evaluation' | 'awarded' | 'closed';

/** One BA quoting in a round: its prices against the lane's going rate, and which lanes it serves. */
type Quoting = { ba: string; priceFactor: number; lanes?: 'all' | 'every-other' };

/** A lane of the sheet: where from and to, the vehicle (the vehicle-types master), km and trips a month. */
type LaneSpec = [from: string, to: string, vehicle: string, km: number, tripsPerMonth: number];

export type DemoRfp = {
  rfpCode: string;
  /** A sandbox CRM opportunity (sandboxes/crm/src/seed.ts). */
  opportunityId: string;
  hireType: keyof typeof VEHICLE_HIRE_TYPE_IDS;
  rfpType: Extract<RfpType, 'standard' | 'non-standard'>;
  /** MLL properties besides the route, vehicle, distance and trips every demo sheet has. */
  material?: string;
  lanes: readonly LaneSpec[];
  /** The BAs it is floated to (DEMO_BAS keys). */
  invited: readonly string[];
  /** Quotes per round (index 0 = round 1); more than one round means reopened after round 1's evaluation. */
  rounds: readonly (readonly Quoting[])[];
  outcome: RfpOutcome;
  /** Lanes (by index) awarded to two BAs instead of the cheapest: [lane, [ba, share], [ba, share]]. */
  splits?: readonly [number, [string, number], [string, number]][];
  /** BAs invited for backhaul once awarded. */
  backhaul?: readonly string[];
  /** A T&C PDF, downloadable by the BAs. */
  terms?: boolean;
  closeRemarks?: string;
};

const CHAMUNDI = 'chamundi';
const COROMANDEL = 'coromandel';
const NARMADA = 'narmada';

/**
 * Six RFPs of company code 1000 from six opportunities: a draft left at step 4, one floated and waiting for
 * ba.verified's quote, one in evaluation with three BAs' quotes, one awarded with a split lane and a backhaul
 * invitation, one closed after its award, and one reopened into round 2 where Coromandel revised its quote.
 */
export const DEMO_RFPS: readonly DemoRfp[] = [
  {
    rfpCode: 'RFP-2026-1001',
    opportunityId: 'OPP-2026-0007',
    hireType: 'dedicated',
    rfpType: 'standard',
    material: 'Steel',
    lanes: [
      ['Jamshedpur', 'Chennai', 'Taurus 14 Wheeler', 1720, 12],
      ['Jamshedpur', 'Coimbatore', 'Taurus 14 Wheeler', 2080, 6],
      ['Jamshedpur', 'Hosur', '40 ft Trailer', 1890, 8],
      ['Jamshedpur', 'Sriperumbudur', '40 ft Trailer', 1760, 10],
      ['Bokaro Steel City', 'Chennai', 'Taurus 14 Wheeler', 1810, 8],
      ['Bokaro Steel City', 'Tiruchirappalli', 'Taurus 12 Wheeler', 2010, 4],
      ['Adityapur', 'Chennai', '22 ft Open Body', 1700, 6],
      ['Adityapur', 'Madurai', 'Taurus 12 Wheeler', 2150, 4],
      ['Dhanbad', 'Chennai', 'Taurus 14 Wheeler', 1850, 6],
      ['Ramgarh', 'Coimbatore', '40 ft Trailer', 2230, 4],
    ],
    invited: [CHAMUNDI, COROMANDEL, NARMADA],
    rounds: [],
    outcome: 'draft',
  },
  {
    rfpCode: 'RFP-2026-1002',
    opportunityId: 'OPP-2026-0003',
    hireType: 'tripBased',
    rfpType: 'standard',
    material: 'FMCG',
    lanes: [
      ['Haridwar', 'New Delhi', '32 ft MXL Container', 215, 40],
      ['Haridwar', 'Okhla', '32 ft MXL Container', 225, 30],
      ['Haridwar', 'Narela', '24 ft Container', 190, 24],
      ['Haridwar', 'Gurugram', '32 ft SXL Container', 245, 20],
      ['Haridwar', 'Noida', '24 ft Container', 220, 20],
      ['Haridwar', 'Ghaziabad', '22 ft Container', 200, 16],
      ['Rudrapur', 'New Delhi', '32 ft MXL Container', 250, 18],
      ['Rudrapur', 'Faridabad', '24 ft Container', 280, 12],
      ['Sitarganj', 'Bawana', '22 ft Container', 270, 8],
      ['Pantnagar', 'Kapashera', '20 ft Container', 260, 8],
      ['Dehradun', 'Shahdara', '17 ft Container', 245, 10],
      ['Roorkee', 'Sonipat', '19 ft Container', 190, 10],
    ],
    invited: [CHAMUNDI, COROMANDEL, NARMADA],
    // Coromandel has quoted every lane; ba.verified (Chamundi) and Narmada have not yet.
    rounds: [[{ ba: COROMANDEL, priceFactor: 1.02 }]],
    outcome: 'floated',
    terms: true,
  },
  {
    rfpCode: 'RFP-2026-1003',
    opportunityId: 'OPP-2026-0011',
    hireType: 'adHoc',
    rfpType: 'non-standard',
    lanes: [
      ['Kolkata', 'Bhubaneswar', '19 ft Reefer', 445, 20],
      ['Kolkata', 'Cuttack', '19 ft Reefer', 420, 16],
      ['Kolkata', 'Rourkela', '32 ft Reefer', 440, 8],
      ['Kolkata', 'Sambalpur', '32 ft Reefer', 570, 6],
      ['Kolkata', 'Berhampur', '19 ft Reefer', 610, 6],
      ['Howrah', 'Balasore', '19 ft Reefer', 230, 12],
      ['Howrah', 'Puri', '19 ft Reefer', 500, 8],
      ['Dankuni', 'Paradip', '32 ft Reefer', 470, 4],
      ['Dankuni', 'Angul', '32 ft Reefer', 560, 4],
      ['Kharagpur', 'Jajpur', '19 ft Reefer', 250, 10],
      ['Kalyani', 'Bhubaneswar', '32 ft Reefer', 500, 6],
      ['Haldia', 'Jharsuguda', '32 ft Reefer', 600, 4],
    ],
    invited: [CHAMUNDI, COROMANDEL, NARMADA],
    rounds: [
      [
        { ba: CHAMUNDI, priceFactor: 0.98 },
        { ba: COROMANDEL, priceFactor: 1.01 },
        { ba: NARMADA, priceFactor: 1.04, lanes: 'every-other' },
      ],
    ],
    outcome: 'evaluation',
  },
  {
    rfpCode: 'RFP-2026-1004',
    opportunityId: 'OPP-2026-0001',
    hireType: 'dedicated',
    rfpType: 'standard',
    material: 'Automotive Parts',
    lanes: [
      ['Bhosari', 'Chakan', '17 ft Container', 24, 90],
      ['Pimpri', 'Chakan', '19 ft Container', 26, 90],
      ['Talegaon', 'Chakan', '17 ft Container', 22, 60],
      ['Ranjangaon', 'Chakan', '20 ft Container', 58, 45],
      ['Shirwal', 'Chakan', '19 ft Container', 78, 30],
      ['Hinjewadi', 'Chakan', 'Tata 407', 38, 60],
      ['Khed', 'Chakan', 'Tata 407', 14, 90],
      ['Urse', 'Chakan', '14 ft Container', 30, 45],
      ['Sanaswadi', 'Chakan', '20 ft Container', 44, 45],
      ['Baramati', 'Chakan', '22 ft Container', 120, 20],
      ['Satara', 'Chakan', '22 ft Container', 130, 20],
      ['Ahmednagar', 'Chakan', '24 ft Container', 115, 16],
      ['Nashik', 'Chakan', '32 ft SXL Container', 190, 12],
      ['Aurangabad', 'Chakan', '32 ft MXL Container', 230, 12],
    ],
    invited: [CHAMUNDI, COROMANDEL, NARMADA],
    rounds: [
      [
        { ba: CHAMUNDI, priceFactor: 0.99 },
        { ba: COROMANDEL, priceFactor: 1.0 },
        { ba: NARMADA, priceFactor: 1.03 },
      ],
    ],
    outcome: 'awarded',
    // The two busiest lanes shared: no single fleet carries 90 trips a month alone.
    splits: [
      [0, [CHAMUNDI, 60], [COROMANDEL, 40]],
      [1, [COROMANDEL, 50], [CHAMUNDI, 50]],
    ],
    backhaul: [CHAMUNDI, COROMANDEL],
    terms: true,
  },
  {
    rfpCode: 'RFP-2026-1005',
    opportunityId: 'OPP-2026-0012',
    hireType: 'monthlyFixed',
    rfpType: 'standard',
    material: 'FMCG',
    lanes: [
      ['Manesar', 'Jaipur', '32 ft MXL Container', 250, 30],
      ['Manesar', 'Ajmer', '32 ft SXL Container', 380, 12],
      ['Manesar', 'Jodhpur', '32 ft SXL Container', 570, 10],
      ['Bawal', 'Jaipur', '24 ft Container', 190, 20],
      ['Bawal', 'Alwar', '19 ft Container', 75, 24],
      ['Gurugram', 'Udaipur', '32 ft MXL Container', 660, 8],
      ['Gurugram', 'Kota', '24 ft Container', 470, 8],
      ['Gurugram', 'Bikaner', '24 ft Container', 450, 6],
      ['Dharuhera', 'Neemrana', '17 ft Container', 45, 30],
      ['Dharuhera', 'Sikar', '19 ft Container', 240, 10],
      ['Rewari', 'Bhilwara', '22 ft Container', 460, 6],
      ['Faridabad', 'Kishangarh', '22 ft Container', 400, 8],
    ],
    invited: [CHAMUNDI, COROMANDEL, NARMADA],
    rounds: [
      [
        { ba: CHAMUNDI, priceFactor: 1.0 },
        { ba: COROMANDEL, priceFactor: 1.02 },
        { ba: NARMADA, priceFactor: 0.99, lanes: 'every-other' },
      ],
    ],
    outcome: 'closed',
    splits: [[0, [NARMADA, 70], [CHAMUNDI, 30]]],
    backhaul: [CHAMUNDI],
    terms: true,
    closeRemarks: 'Contracts issued to the awarded BAs; rates valid for twelve months',
  },
  {
    rfpCode: 'RFP-2026-1006',
    opportunityId: 'OPP-2026-0008',
    hireType: 'tripBased',
    rfpType: 'non-standard',
    lanes: [
      ['Bharuch', 'Taloja', 'Tanker', 330, 16],
      ['Bharuch', 'Tarapur', 'Tanker', 220, 12],
      ['Bharuch', 'Pune', 'Tanker', 470, 8],
      ['Dahej', 'Taloja', 'Tanker', 370, 10],
      ['Dahej', 'Roha', 'Tanker', 460, 6],
      ['Ankleshwar', 'Mumbai', 'Tanker', 320, 12],
      ['Ankleshwar', 'Nashik', 'Tanker', 330, 6],
      ['Ankleshwar', 'Aurangabad', 'Tanker', 440, 4],
      ['Vapi', 'Taloja', 'Tanker', 170, 14],
      ['Vapi', 'Pune', 'Tanker', 330, 6],
      ['Vadodara', 'Nagpur', 'Tanker', 880, 4],
    ],
    invited: [CHAMUNDI, COROMANDEL],
    // Round 2: Coromandel sharpened its rates; Chamundi's round-2 quote is still to come.
    rounds: [
      [
        { ba: COROMANDEL, priceFactor: 1.06 },
        { ba: CHAMUNDI, priceFactor: 1.03 },
      ],
      [{ ba: COROMANDEL, priceFactor: 0.97 }],
    ],
    outcome: 'floated',
  },
];

/** Every demo sheet: route, vehicle, distance and trips; BAs quote a trip rate, transit time and the vehicles they have. */
const BASE_MLL = ['fromCity', 'toCity', 'vehicleType', 'distanceKm', 'tripsPerMonth'];
const BASE_BA = ['ratePerTrip', 'transitDays', 'vehiclesAvailable'];

export const step2Of = (rfp: DemoRfp): RfpStep2 => ({
  vehicleHireType: VEHICLE_HIRE_TYPE_IDS[rfp.hireType],
  typeId: RFP_TYPE_IDS[rfp.rfpType],
  rfpType: rfp.rfpType,
  mllProperties: rfp.material ? [...BASE_MLL, 'materialType'] : BASE_MLL,
  // A non-standard sheet is compared per km too: its lanes are the customer's own.
  baProperties: rfp.rfpType === 'non-standard' ? [...BASE_BA, 'ratePerKm', 'remarks'] : [...BASE_BA, 'detentionPerDay'],
  dynamicInfo: ['fuelClause', 'paymentTerms'],
});

/**
 * The opportunity as the sandbox CRM answers a lookup today: its dates are days from today, India's today as the
 * sandbox CRM counts its offsets from (sandboxes/crm/src/store.ts).
 */
export function demoOpportunity(id: string, today = indiaDateAt(Date.now())): Opportunity {
  const found = SEED_OPPORTUNITIES.find((o) => o.id === id);
  if (!found) throw new Error(`the demo RFPs name opportunity ${id}, which the sandbox CRM does not hold`);
  const { id: casshOppId, days, ...fields } = found;
  return {
    casshOppId,
    ...fields,
    customerReceiveDate: addDays(today, days.customerReceive),
    receiveDate: addDays(today, days.receive),
    dueDate: addDays(today, days.due),
    customerDueDate: addDays(today, days.customerDue),
  };
}

/**
 * The going rate of a lane in rupees per km, by vehicle: small trucks cost less per km, reefers, tankers and
 * trailers more. Short milk-run lanes pay a minimum per trip.
 */
const perKmOf = (vehicle: string): number => {
  if (/Tata|14 ft|17 ft/.test(vehicle)) return 32;
  if (/Reefer/.test(vehicle)) return vehicle.startsWith('32') ? 78 : 58;
  if (/Tanker/.test(vehicle)) return 72;
  if (/Trailer|14 Wheeler/.test(vehicle)) return 80;
  if (/12 Wheeler|32 ft/.test(vehicle)) return 62;
  return 45;
};
const MINIMUM_TRIP = 3500;

/** A BA's quote for a lane: its price level, with a lane-by-lane spread so no BA is cheapest everywhere. */
export function demoQuote(rfp: DemoRfp, laneIndex: number, quoting: Quoting, baIndex: number): LaneQuote {
  const [, , vehicle, km] = rfp.lanes[laneIndex] as LaneSpec;
  const spread = 1 + (((laneIndex * 7 + baIndex * 5) % 9) - 4) / 100;
  const rate = Math.round((Math.max(km * perKmOf(vehicle), MINIMUM_TRIP) * quoting.priceFactor * spread) / 100) * 100;
  const quote: LaneQuote = {
    ratePerTrip: String(rate),
    transitDays: String(Math.max(1, Math.ceil(km / 400))),
    vehiclesAvailable: String(2 + ((laneIndex + baIndex) % 5)),
  };
  const baKeys = step2Of(rfp).baProperties;
  if (baKeys.includes('ratePerKm')) quote['ratePerKm'] = (rate / km).toFixed(2);
  if (baKeys.includes('remarks')) quote['remarks'] = laneIndex % 4 === 0 ? 'Return load preferred' : null;
  if (baKeys.includes('detentionPerDay')) quote['detentionPerDay'] = String(vehicle.includes('32 ft') || vehicle.includes('Wheeler') ? 2500 : 1500);
  return quote;
}

const laneValues = (rfp: DemoRfp, [from, to, vehicle, km, trips]: LaneSpec): Record<string, string> => ({
  fromCity: from,
  toCity: to,
  vehicleType: vehicle,
  distanceKm: String(km),
  tripsPerMonth: String(trips),
  ...(rfp.material ? { materialType: rfp.material } : {}),
});

/** The column a non-standard customer's own sheet carries beside ours: the importer ignores it. */
const CUSTOMER_REF = 'Customer Lane Ref';

/**
 * The lane sheet staff would upload: the template's MLL columns by label (a non-standard RFP: the customer's own
 * sheet, with a column of its own the importer skips), one row per lane.
 */
export async function demoLaneWorkbook(rfp: DemoRfp, columns: readonly LaneColumn[]): Promise<Buffer> {
  const mll = laneTemplateColumns(columns);
  const own = rfp.rfpType === 'non-standard';
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(LANES_SHEET);
  ws.addRow([...(own ? [CUSTOMER_REF] : []), ...mll.map((c) => c.label)]);
  rfp.lanes.forEach((lane, i) => {
    const values = laneValues(rfp, lane);
    ws.addRow([...(own ? [`${rfp.opportunityId}/${i + 1}`] : []), ...mll.map((c) => values[c.key] ?? null)]);
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

// ---------------------------------------------------------------------------------------------------------
// Planning: the next command of an RFP's story from its state

export type RfpStep =
  | { name: string; kind: 'create' }
  | { name: string; kind: 'save'; step: 2 | 4 | 5; data: unknown }
  | { name: string; kind: 'columns' }
  | { name: string; kind: 'lanes' }
  | { name: string; kind: 'terms' }
  | { name: string; kind: 'float'; baIds: string[] }
  | { name: string; kind: 'quote'; ba: string; round: number; quotes: Record<string, LaneQuote> }
  | { name: string; kind: 'close-bidding' }
  | { name: string; kind: 'award'; lanes: Record<string, AwardShare[]> }
  | { name: string; kind: 'close'; remarks: string }
  | { name: string; kind: 'reopen' }
  | { name: string; kind: 'backhaul'; ba: string };

/** The note to the BAs, in step 4 and with the float. */
const commentOf = (rfp: DemoRfp): string =>
  rfp.rfpType === 'non-standard'
    ? 'Lanes as in the customer sheet. Please quote the lanes you serve, with your rate per km'
    : 'Please quote every lane you can serve with your own or attached fleet';

const selectionOf = (bas: readonly RfpBa[]): BaSelectionItem[] =>
  bas.map((ba) => ({
    baId: ba.baId,
    baName: ba.companyName,
    individual: 1,
    action: 'add',
    typeOfSearch: 'name',
    typeValue: ba.companyName,
    serviceType: 'Transportation',
    isSuggestedBa: false,
  }));

/** A round's quotes of one BA, lane id → quote; 'every-other' quotes L0001, L0003, … only (the lanes it serves). */
function roundQuotes(rfp: DemoRfp, state: RfpState, quoting: Quoting): Record<string, LaneQuote> {
  const baIndex = rfp.invited.indexOf(quoting.ba);
  const quotes: Record<string, LaneQuote> = {};
  state.lanes.forEach((lane, i) => {
    if (quoting.lanes === 'every-other' && i % 2 === 1) return;
    quotes[lane.laneId] = demoQuote(rfp, i, quoting, baIndex);
  });
  return quotes;
}

/** Each lane to its cheapest quote of the round, except the story's split lanes. */
function awardOf(rfp: DemoRfp, state: RfpState, baIdOf: (key: string) => string): Record<string, AwardShare[]> {
  const lanes: Record<string, AwardShare[]> = {};
  const rateOf = (baId: string, laneId: string) => Number(quotesOf(state, baId)[laneId]?.['ratePerTrip'] ?? Infinity);
  const bidders = rfp.invited.map(baIdOf);
  state.lanes.forEach((lane, i) => {
    const split = rfp.splits?.find(([at]) => at === i);
    if (split) {
      lanes[lane.laneId] = [split[1], split[2]].map(([ba, sharePercent]) => ({ baId: baIdOf(ba), sharePercent }));
      return;
    }
    const cheapest = [...bidders].sort((a, b) => rateOf(a, lane.laneId) - rateOf(b, lane.laneId))[0];
    if (cheapest && Number.isFinite(rateOf(cheapest, lane.laneId))) lanes[lane.laneId] = [{ baId: cheapest, sharePercent: 100 }];
  });
  return lanes;
}

/** The next command that moves a demo RFP towards its story's end, or null once it stands there. */
export function nextRfpStep(rfp: DemoRfp, state: RfpState, bas: ReadonlyMap<string, RfpBa>): RfpStep | null {
  const ba = (key: string): RfpBa => {
    const found = bas.get(key);
    if (!found) throw new Error(`demo RFP ${rfp.rfpCode} names BA ${key}, which is not a demo BA`);
    return found;
  };
  const invited = rfp.invited.map(ba);
  switch (state.status) {
    case 'none':
      return { name: 'create', kind: 'create' };
    case 'draft': {
      if (!state.steps[2]) return { name: 'step-2', kind: 'save', step: 2, data: step2Of(rfp) };
      if (!state.steps[3]) return { name: 'step-3', kind: 'columns' };
      if (state.lanes.length === 0) return { name: 'lanes', kind: 'lanes' };
      if (rfp.terms && !state.terms) return { name: 'terms', kind: 'terms' };
      if (!state.steps[4]) {
        const data = { cityBasedBa: [], baList: selectionOf(invited), comment: commentOf(rfp), isSubmitToNewBa: false, isTnCDownloadable: rfp.terms === true };
        return { name: 'step-4', kind: 'save', step: 4, data };
      }
      // The draft's story ends at step 4: the wizard reopens it there with the BA selection restored.
      if (rfp.outcome === 'draft') return null;
      if (!state.steps[5]) return { name: 'step-5', kind: 'save', step: 5, data: { selectedMix: selectionOf(invited), cityWiseSelectedBa: [], entireBaList: false } };
      return { name: 'float', kind: 'float', baIds: invited.map((b) => b.baId) };
    }
    case 'floated': {
      const quoting = rfp.rounds[state.round - 1] ?? [];
      for (const q of quoting) {
        const { baId } = ba(q.ba);
        if (Object.keys(quotesOf(state, baId)).length > 0) continue;
        return { name: `round-${state.round}:quote:${q.ba}`, kind: 'quote', ba: q.ba, round: state.round, quotes: roundQuotes(rfp, state, q) };
      }
      const lastRound = state.round >= rfp.rounds.length;
      return lastRound && rfp.outcome === 'floated' ? null : { name: `round-${state.round}:close-bidding`, kind: 'close-bidding' };
    }
    case 'evaluation':
      if (state.round < rfp.rounds.length) return { name: `round-${state.round}:reopen`, kind: 'reopen' };
      if (rfp.outcome === 'awarded' || rfp.outcome === 'closed')
        return { name: `round-${state.round}:award`, kind: 'award', lanes: awardOf(rfp, state, (k) => ba(k).baId) };
      return null;
    case 'awarded':
    case 'closed': {
      for (const key of rfp.backhaul ?? []) if (state.backhaul[ba(key).baId] !== true) return { name: `backhaul:${key}`, kind: 'backhaul', ba: key };
      if (state.status === 'awarded' && rfp.outcome === 'closed') return { name: `round-${state.round}:close`, kind: 'close', remarks: rfp.closeRemarks ?? '' };
      return null;
    }
    default: {
      const never: never = state.status;
      return never;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Running it

export type RfpSeedDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  blobStore: BlobStore;
  /** The seed as RFP staff (an RFP decider: it also closes, awards and reopens) and as a BA's admin (quotes). */
  actors: { staff: Actor; ba: Actor };
  writtenBySeed: (event: Pick<StoredEvent, 'metadata'>) => boolean;
  correlationPrefix: string;
  /**
   * Settles once the invited BAs stand verified. The drafts need no BA, so they are built while the BAs are
   * onboarded; floating (the first step a BA sees) waits for it, so no RFP reaches a BA before its verification.
   */
  basVerified?: Promise<unknown>;
  log?: (line: string) => void;
};

export type RfpSeedOutcome = {
  /** RFPs created this run. */
  created: number;
  /** RFP commands sent this run (the creation included). */
  commands: number;
  /** RFPs a person had acted on (their stream holds an event the seed did not write), left as they stood. */
  leftAlone: string[];
};

/** Where a demo RFP stands, and whether anyone but the seed wrote to its stream. */
async function rfpProgress(deps: RfpSeedDeps, code: string): Promise<{ state: RfpState; touched: boolean }> {
  const events = await deps.store.readStream(rfpStreamId(code));
  return {
    state: events.reduce((s, e) => evolveRfp(s, { type: e.type, data: e.data } as RfpEvent), initialRfpState),
    touched: events.some((e) => !deps.writtenBySeed(e)),
  };
}

/** Bidding of a reopened round: ten days from now. */
const REOPEN_DAYS = 10;

/**
 * What a step sends: the header that creates the draft, or a command for the RFP's workflow, as staff or as the
 * quoting BA's admin; `file`: bytes to store before the command names them.
 */
export type RfpSend = { kind: 'create'; header: unknown } | { kind: 'command'; command: RfpClientCommand; by: 'staff' | 'ba'; file?: DemoFile };

/** Step 3's columns for a step-2 choice: the api's headerDataFor (the masters' read model) in the seed. */
export type ColumnsFor = (step2: RfpStep2) => Promise<LaneColumn[]>;

/** The step as the api would send it: the lane sheet read by the upload's importer, the T&C as a PDF. */
export async function sendOf(rfp: DemoRfp, state: RfpState, step: RfpStep, bas: ReadonlyMap<string, RfpBa>, columnsFor: ColumnsFor): Promise<RfpSend> {
  const code = rfp.rfpCode;
  const staff = (command: RfpClientCommand, file?: DemoFile): RfpSend => ({ kind: 'command', command, by: 'staff', ...(file ? { file } : {}) });
  const baId = (key: string) => bas.get(key)?.baId ?? '';
  switch (step.kind) {
    case 'create':
      return { kind: 'create', header: { ...demoOpportunity(rfp.opportunityId), rfpCode: code } };
    case 'save':
      return staff({ type: 'SaveRfpStep', step: step.step, data: step.data });
    case 'columns':
      // The columns the console's step 2 saves as step 3: the chosen properties, from the masters.
      return staff({ type: 'SaveRfpStep', step: 3, data: { headerData: await columnsFor(state.steps[2] ?? step2Of(rfp)) } });
    case 'lanes': {
      const columns = state.steps[3]?.headerData ?? [];
      const bytes = await demoLaneWorkbook(rfp, columns);
      const read = await readLaneUpload(columns, bytes, { rfpType: rfp.rfpType });
      if (!read.ok) throw new Error(`the demo lane sheet of ${code} does not pass the upload rules: ${read.sheetError ?? JSON.stringify(read.rows.flatMap((r) => r.errors))}`);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const file: DemoFile = { bytes, stored: { name: `Lanes-${code}.xlsx`, size: bytes.length, type: XLSX_TYPE, sha256 } };
      return staff({ type: 'UploadLanes', headerData: columns, lanes: read.lanes, file: file.stored }, file);
    }
    case 'terms': {
      const file = demoPdf(rfpFileNames.terms(code), [
        `Terms and conditions: ${code}`,
        state.header?.customerName ?? rfp.opportunityId,
        'Rates firm for 12 months; diesel variation as per the fuel clause',
        'Payment 45 days from the receipt of a proper invoice with POD',
        'Transit loss and damage at the BA cost beyond 0.25 percent',
      ]);
      return staff({ type: 'UploadTerms', file: file.stored }, file);
    }
    case 'float':
      // Bidding closes at the end of the opportunity's due date, as a float from the console does.
      return staff({ type: 'FloatRfp', payload: { baIds: step.baIds, comments: commentOf(rfp), floatToAll: false, rfpType: rfp.rfpType } });
    case 'quote':
      return { kind: 'command', by: 'ba', command: { type: 'SubmitLaneResponses', baId: baId(step.ba), round: step.round, quotes: step.quotes } };
    case 'close-bidding':
      return staff({ type: 'CloseBidding' });
    case 'award':
      return staff({ type: 'AwardRfp', lanes: step.lanes });
    case 'close':
      return staff({ type: 'CloseRfp', remarks: step.remarks });
    case 'reopen':
      return staff({ type: 'ReopenRfp', dueAt: new Date(Date.now() + REOPEN_DAYS * 86_400_000).toISOString() });
    case 'backhaul':
      return staff({ type: 'InviteBackhaul', baId: baId(step.ba), isInvited: true });
    default: {
      const never: never = step;
      return never;
    }
  }
}

async function sendStep(deps: RfpSeedDeps, rfp: DemoRfp, state: RfpState, step: RfpStep, bas: ReadonlyMap<string, RfpBa>): Promise<void> {
  const send = await sendOf(rfp, state, step, bas, async (step2) => (await headerDataFor(deps.pool, step2)).columns);
  const correlationId = `${deps.correlationPrefix}rfp:${rfp.rfpCode}`;
  // Same id on a rerun of the same step: an interrupted seed never applies a step twice.
  const ctx: RfpCommandContext = { actor: deps.actors.staff, requestId: `${correlationId}:${step.name}`, correlationId };
  if (send.kind === 'create') {
    await createRfpDraft(deps.temporal, deps.taskQueue, send.header, { ...ctx, companyCode: '1000' });
    return;
  }
  // The bytes first: the event only names the blob, and a file nobody can open is no demo.
  if (send.file) await putDemoFile(deps.blobStore, send.file);
  await sendRfpCommand(deps.temporal, rfp.rfpCode, send.command, { ...ctx, actor: send.by === 'ba' ? deps.actors.ba : deps.actors.staff });
}

type OneRfp = { created: boolean; commands: number; leftAlone: boolean };

async function seedRfp(deps: RfpSeedDeps, rfp: DemoRfp, bas: ReadonlyMap<string, RfpBa>): Promise<OneRfp> {
  const result: OneRfp = { created: false, commands: 0, leftAlone: false };
  let { state, touched } = await rfpProgress(deps, rfp.rfpCode);
  // Bounded: about ten wizard and float steps, a quote per BA and round, close, award, backhaul.
  for (let i = 0; i < 40; i++) {
    if (touched) return { ...result, leftAlone: true };
    const step = nextRfpStep(rfp, state, bas);
    if (!step) return result;
    if (step.kind === 'float' && deps.basVerified) {
      await deps.basVerified;
      // A person may have acted on the draft meanwhile (the api is up while the seed runs).
      ({ state, touched } = await rfpProgress(deps, rfp.rfpCode));
      if (touched || nextRfpStep(rfp, state, bas)?.kind !== 'float') continue;
    }
    try {
      await sendStep(deps, rfp, state, step, bas);
    } catch (e) {
      // Refused: someone acted in between (the re-read says who), or the rules refuse the story: a seed bug.
      if (!(e instanceof DomainError)) throw e;
      const again = await rfpProgress(deps, rfp.rfpCode);
      if (again.touched) return { ...result, leftAlone: true };
      throw new Error(`demo RFP ${rfp.rfpCode}, step ${step.name}: ${e.message}${e.errors ? ` ${JSON.stringify(e.errors)}` : ''}`);
    }
    result.commands += 1;
    if (step.kind === 'create') result.created = true;
    ({ state, touched } = await rfpProgress(deps, rfp.rfpCode));
  }
  throw new Error(`demo RFP ${rfp.rfpCode} did not reach the end of its story`);
}

/** The demo RFPs, a few at a time (each one's steps in order). `bas`: the demo BAs by key. */
export async function seedRfps(deps: RfpSeedDeps, bas: ReadonlyMap<string, RfpBa>, rfps: readonly DemoRfp[] = DEMO_RFPS): Promise<RfpSeedOutcome> {
  const outcome: RfpSeedOutcome = { created: 0, commands: 0, leftAlone: [] };
  const queue = [...rfps];
  const workers = Array.from({ length: 3 }, async () => {
    for (let rfp = queue.shift(); rfp; rfp = queue.shift()) {
      const r = await seedRfp(deps, rfp, bas);
      if (r.created) outcome.created += 1;
      outcome.commands += r.commands;
      if (r.leftAlone) outcome.leftAlone.push(rfp.rfpCode);
    }
  });
  await Promise.all(workers);
  outcome.leftAlone.sort();
  return outcome;
}
