import type { Actor } from '../shared/events';
import type { StoredFile } from '../shared/files';
import { biddingDeadlineOf } from './decide';
import type { RfpEvent } from './events';
import type { RfpStatusOrNone } from './lifecycle';
import type { Lane, LaneColumn, RfpHeader, RfpStep2 } from './model';

/**
 * A standard RFP as tests, seeds and workflow tests build it: its inputs, and the events that take it to each
 * status through the same shapes the decider produces. Times are relative to shared/testing TEST_AT
 * (2026-01-15T10:00Z); the header's due date is 2026-01-31.
 */
export const RFP_CODE = 'RFP-2026-0001';

export const procurement: Actor = { userId: 'u-procurement', role: 'MLL Procurement', name: 'Priya Nair' };
export const mllAdmin: Actor = { userId: 'u-admin', role: 'MLL-ADMIN', name: 'Arjun Mehta' };
export const operations: Actor = { userId: 'u-ops', role: 'MLL Operations', name: 'Kiran Rao' };
export const rfpTimer: Actor = { userId: 'system', role: 'system', name: 'RFP due-date timer' };
export const baUser = (baId: string): Actor => ({ userId: `u-${baId}`, role: 'BA Admin', name: `Admin of ${baId}` });

/** `headerInput()` as the decider stores it. */
export const header: RfpHeader = {
  rfpCode: RFP_CODE,
  casshOppId: 'OPP-2026-0001',
  oppDescription: 'Secondary distribution, western region',
  rfpValue: '2500000',
  receiveDate: '2026-01-10',
  dueDate: '2026-01-31',
  productDescription: 'Packaged FMCG goods',
  casshAccId: 'ACC-10042',
  customerName: 'Sahyadri Foods Pvt Ltd',
  totalLogisticsSpent: '1200000.50',
  contactPerson: 'Meera Joshi',
  contactDetails: '9876543210',
  customerAddress: 'Plot 12, MIDC Bhosari, Pune',
  customerReceiveDate: '2026-01-08',
  customerDueDate: '2026-02-05',
  sourceState: 'Maharashtra',
  destinationState: 'Karnataka',
  verticalName: 'Consumer',
  serviceType: 'Transportation',
  subServiceType: 'FTL',
  sourceSystem: 'SCM',
};

/** Step 1 as a form sends it: the stored header without the source system the decider defaults to 'SCM'. */
export const headerInput = (over: Record<string, unknown> = {}): Record<string, unknown> => {
  const { sourceSystem: _defaulted, ...input } = header;
  return { ...input, ...over };
};

export const step2: RfpStep2 = {
  vehicleHireType: 1,
  typeId: 1,
  rfpType: 'standard',
  mllProperties: ['fromCity', 'toCity', 'vehicleType'],
  baProperties: ['ratePerTrip', 'transitDays'],
  dynamicInfo: [],
};

export const columns: LaneColumn[] = [
  { key: 'fromCity', label: 'From City', owner: 'mll', type: 'text', required: true },
  { key: 'toCity', label: 'To City', owner: 'mll', type: 'text', required: true },
  { key: 'vehicleType', label: 'Vehicle Type', owner: 'mll', type: 'select', options: ['32 FT MXL', '20 FT SXL'], required: true },
  { key: 'ratePerTrip', label: 'Rate per Trip', owner: 'ba', type: 'number', required: true },
  { key: 'transitDays', label: 'Transit Days', owner: 'ba', type: 'number', required: false },
];

export const lanes: Lane[] = [
  { laneId: 'L0001', values: { fromCity: 'Mumbai', toCity: 'Pune', vehicleType: '32 FT MXL' } },
  { laneId: 'L0002', values: { fromCity: 'Chennai', toCity: 'Bengaluru', vehicleType: '20 FT SXL' } },
];

export const termsFile: StoredFile = { name: 'terms.pdf', size: 2048, type: 'application/pdf', sha256: 'b'.repeat(64) };

/** Bidding of round 1 closes at the end of the header's due date in India. */
export const ROUND_1_DUE_AT = biddingDeadlineOf('2026-01-31');
export const ROUND_2_DUE_AT = '2026-02-20T12:30:00.000Z';

export const rfpEvents = {
  created: { type: 'RfpDraftCreated', data: { rfpCode: RFP_CODE, header, createdBy: procurement } },
  step2Saved: { type: 'RfpStepSaved', data: { rfpCode: RFP_CODE, step: 2, data: step2, clearedSteps: [], clearsLanes: false } },
  lanesUploaded: { type: 'RfpLanesUploaded', data: { rfpCode: RFP_CODE, rfpType: 'standard', headerData: columns, lanes, file: null } },
  floated: {
    type: 'RfpFloated',
    data: { rfpCode: RFP_CODE, round: 1, rfpType: 'standard', baIds: ['ba-1', 'ba-2'], comments: '', floatToAll: false, dueAt: ROUND_1_DUE_AT, floatedBy: procurement },
  },
  quoted: (baId: string, round = 1, rate = '45000'): RfpEvent => ({
    type: 'LaneResponsesSubmitted',
    data: {
      rfpCode: RFP_CODE,
      round,
      baId,
      quotes: { L0001: { ratePerTrip: rate, transitDays: '1' }, L0002: { ratePerTrip: '52000', transitDays: null } },
      submittedBy: baUser(baId),
    },
  }),
  biddingClosed: { type: 'RfpBiddingClosed', data: { rfpCode: RFP_CODE, round: 1, reason: 'due', closedBy: rfpTimer } },
  awarded: {
    type: 'RfpAwarded',
    data: {
      rfpCode: RFP_CODE,
      round: 1,
      lanes: { L0001: [{ baId: 'ba-1', sharePercent: 100, rates: { ratePerTrip: '45000', transitDays: '1' } }] },
      awardedBy: mllAdmin,
    },
  },
  closed: { type: 'RfpClosed', data: { rfpCode: RFP_CODE, round: 1, remarks: '', closedBy: mllAdmin } },
  reopened: { type: 'RfpReopened', data: { rfpCode: RFP_CODE, round: 2, dueAt: ROUND_2_DUE_AT, reopenedBy: mllAdmin } },
} as const satisfies Record<string, RfpEvent | ((...args: never[]) => RfpEvent)>;

const e = rfpEvents;
/** A draft ready to float: header, step 2 and two lanes. */
export const draftReady: RfpEvent[] = [e.created, e.step2Saved, e.lanesUploaded];
/** Floated to ba-1 and ba-2, ba-1 quoted both lanes. */
export const floatedQuoted: RfpEvent[] = [...draftReady, e.floated, e.quoted('ba-1')];

/** The events that take the RFP to each status. */
export const eventsForStatus: Record<RfpStatusOrNone, RfpEvent[]> = {
  none: [],
  draft: draftReady,
  floated: floatedQuoted,
  evaluation: [...floatedQuoted, e.biddingClosed],
  awarded: [...floatedQuoted, e.biddingClosed, e.awarded],
  closed: [...floatedQuoted, e.biddingClosed, e.awarded, e.closed],
};
