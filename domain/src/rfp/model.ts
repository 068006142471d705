import type { Opportunity } from '../crm/port';
import type { StoredFile } from '../shared/files';

/**
 * The RFP's data as spec 001 §3 names it. Plain types: zod schemas that check them live in rules.ts, the
 * lifecycle that changes them in decide.ts.
 */

/** Spec 001 §1: "RFP types: standard, non-standard, single" (codes as the rfp-types master keeps them). */
export const RFP_TYPES = ['standard', 'non-standard', 'single'] as const;
export type RfpType = (typeof RFP_TYPES)[number];

/**
 * The lifecycle (spec 001 §4: "Full status values and transition rules are not shown"; decided, see the
 * transition table in lifecycle.ts):
 * - draft: being built in the wizard, invisible to BAs;
 * - floated: sent to BAs, bidding open until the round's due instant;
 * - evaluation: bidding closed (due date passed or staff closed it), staff compare quotes;
 * - awarded: lanes awarded to BAs, contract rates known;
 * - closed: finished (with or without an award). Reopening any of the last three starts a new round.
 */
export const RFP_STATUSES = ['draft', 'floated', 'evaluation', 'awarded', 'closed'] as const;
export type RfpStatus = (typeof RFP_STATUSES)[number];

/** Spec 001 §3 "Status colours for RFP and BA items" names five colour keys; which status wears which is ours. */
export type StatusColour = 'submitted' | 'acknowledged' | 'rejected' | 'inProgress' | 'released';
export const RFP_STATUS_COLOURS: Record<RfpStatus, StatusColour> = {
  draft: 'inProgress',
  floated: 'submitted',
  evaluation: 'acknowledged',
  awarded: 'released',
  // Closed is the end of the road, won or not: the colour of "no further action".
  closed: 'rejected',
};

/** Spec 001 §9: the BA's RFP list starts at page 0 with 10 rows; the page-size options are 5, 10 and 20. */
export const RFP_LIST_FIRST_PAGE = 0;
export const RFP_LIST_PAGE_SIZE = 10;
export const RFP_LIST_PAGE_SIZES = [5, 10, 20] as const;
/** Spec 001 §9 "'all' is a sentinel in filters": every status. */
export const ALL_STATUSES = 'all';

export { DEFAULT_SOURCE_SYSTEM } from '../crm/port';

/**
 * Step 1: the opportunity as the CRM gives it (domain/src/crm/port.ts) plus the RFP code staff give it. Dates are
 * YYYY-MM-DD; amounts are rupees as text (digits, up to 2 decimals), as forms and the CRM send them. The vertical
 * may be left out by staff.
 */
export type RfpHeader = { rfpCode: string } & Omit<Opportunity, 'verticalName'> & { verticalName: string | null };

/**
 * Step 2: the vehicle hire type and RFP type (master ids, so "type and vehicle must be positive"), the RFP
 * type's code, and the rfp-properties chosen for it, by property key.
 */
export type RfpStep2 = {
  vehicleHireType: number;
  typeId: number;
  rfpType: RfpType;
  mllProperties: string[];
  baProperties: string[];
  dynamicInfo: string[];
};

/** One column of the lane sheet and grid: MLL describes a lane, the BA quotes it. */
export type LaneColumnOwner = 'mll' | 'ba';
export type LaneColumnType = 'text' | 'number' | 'select';
export type LaneColumn = {
  key: string;
  label: string;
  owner: LaneColumnOwner;
  type: LaneColumnType;
  /** The dropdown's values for a 'select' column. */
  options?: string[];
  required: boolean;
};

/** A lane: its id ('L0001', in sheet order) and its MLL-property values; null is an empty cell. */
export type Lane = { laneId: string; values: Record<string, string | null> };

/** What every standard (and single) lane must say: comparisons go by location and vehicle. */
export const STANDARD_LANE_KEYS = ['fromCity', 'toCity', 'vehicleType'] as const;

/** Step 3: the template's columns, saved when the template is made; the uploaded lanes are kept beside it. */
export type RfpStep3 = { headerData: LaneColumn[] };

/** Spec 001 §3 "BA selection item". */
export type BaSelectionItem = {
  /** The BA for a single named BA (individual 1); null for a group picked by city or service type. */
  baId: string | null;
  baName: string;
  /** 1 a single named BA, 0 a group from a city or service type, -1 a removal. */
  individual: 1 | 0 | -1;
  action: 'add' | 'delete';
  typeOfSearch: BaSearchType;
  typeValue: string;
  serviceType: string | null;
  isSuggestedBa: boolean;
};
export const BA_SEARCH_TYPES = ['name', 'city', 'serviceType'] as const;
export type BaSearchType = (typeof BA_SEARCH_TYPES)[number];
/** Spec 001 §3 wizard state: "typeOfSearch (default name)". */
export const DEFAULT_BA_SEARCH_TYPE: BaSearchType = 'name';

/** Step 4: BA selection, a comment for the BAs, and two switches. */
export type RfpStep4 = {
  cityBasedBa: BaSelectionItem[];
  baList: BaSelectionItem[];
  comment: string;
  isSubmitToNewBa: boolean;
  isTnCDownloadable: boolean;
};

/** Step 5: the selected mix, the city-wise selection, and whether the entire BA list was chosen. */
export type RfpStep5 = {
  selectedMix: BaSelectionItem[];
  cityWiseSelectedBa: BaSelectionItem[];
  entireBaList: boolean;
};

export type RfpStepNumber = 1 | 2 | 3 | 4 | 5;
export type RfpStepData = { 1: RfpHeader; 2: RfpStep2; 3: RfpStep3; 4: RfpStep4; 5: RfpStep5 };

/**
 * Spec 001 §3 float payload. `baIds` are resolved by the caller (for floatToAll, every eligible BA), because the
 * BA list is a read model the pure domain does not hold.
 */
export type FloatPayload = { baIds: string[]; comments: string; floatToAll: boolean; rfpType: RfpType };

/** One BA's quote for one lane: its BA-property values. */
export type LaneQuote = Record<string, string | null>;

/** A lane's award: one BA with its share, and the contract rates (its quote values for the lane). */
export type AwardShare = { baId: string; sharePercent: number };
export type AwardedShare = AwardShare & { rates: LaneQuote };

/** Spec 001 §3 "Backhaul data: baCode, isInvited". */
export type BackhaulInvitation = { baId: string; isInvited: boolean };

export type { StoredFile };
