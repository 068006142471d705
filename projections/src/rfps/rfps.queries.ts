import { PROPERTY_KEY_PATTERN } from '../../../domain/src/rfp/rules';
import {
  ALL_STATUSES,
  RFP_LIST_FIRST_PAGE,
  RFP_LIST_PAGE_SIZE,
  RFP_LIST_PAGE_SIZES,
  RFP_STATUS_COLOURS,
  RFP_STATUSES,
  type LaneColumn,
  type RfpHeader,
  type RfpStatus,
  type RfpStep2,
  type RfpStep4,
  type RfpStep5,
  type RfpType,
  type StatusColour,
  type StoredFile,
} from '../../../domain/src/rfp/model';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { dateWindowMessages, dateWindowProblem } from '../../../domain/src/validation/date-window';
import { iso, likeEscape, MAX_PAGE_SIZE, sortOrder, type Db } from '../sql';
import { GROUP_COLUMNS, groupKeySql, type Comparison, type ComparisonBy, type ComparisonGroup } from './comparison';

/**
 * Reads of the RFP read models (rfps.projection.ts). Staff queries take the caller's company codes; BA-facing
 * queries (`…ForBa`, `quotesOf`) take the BA's id and always filter by it, so no BA-facing call can return
 * another BA's RFPs, quotes or awards.
 */

/** A row of the staff dashboard (spec 001 §2 opportunity table) and, with the BA's own facts, of the BA's. */
export type RfpListRow = {
  /** 1-based across pages: the table's serial number column. */
  serialNo: number;
  rfpCode: string;
  casshOppId: string;
  oppDescription: string;
  customerName: string;
  rfpType: RfpType | null;
  status: RfpStatus;
  statusColour: StatusColour;
  round: number;
  receiveDate: string;
  dueDate: string;
  /** When bidding of the current round closes (ISO instant); null for a draft. */
  dueAt: string | null;
  /** When bidding of the current round was closed, early by staff or at the due time; null while it is open. */
  biddingClosedAt: string | null;
  createdAt: string;
  floatedAt: string | null;
  updatedAt: string;
  laneCount: number;
};

export type RfpStaffRow = RfpListRow & {
  companyCode: string | null;
  createdBy: Actor;
  invitedCount: number;
  /** BAs that quoted at least one lane in the current round. */
  responseCount: number;
};

/** Spec 001 §2 list filters; `casshOppId` is the spec's casshId. Dates are YYYY-MM-DD, on the receive date. */
export type RfpListFilter = {
  rfpCode?: string;
  casshOppId?: string;
  status?: RfpStatus | typeof ALL_STATUSES;
  dateFrom?: string | null;
  dateTo?: string | null;
  /** Today in India (YYYY-MM-DD): the 61-day window is counted back from it. Required with a date. */
  today?: string;
};

type RfpDbRow = {
  code: string;
  cassh_opp_id: string;
  opp_description: string;
  customer_name: string;
  rfp_type: RfpType | null;
  status: RfpStatus;
  round: number;
  receive_date: string;
  due_date: string;
  due_at: Date | null;
  bidding_closed_at: Date | null;
  company_code: string | null;
  created_by: Actor;
  created_at: Date;
  floated_at: Date | null;
  updated_at: Date;
  lane_count: number;
  invited_count: number;
  response_count: number;
};

const RFP_COLUMNS = `r.code, r.cassh_opp_id, r.opp_description, r.customer_name, r.rfp_type, r.status, r.round,
  r.receive_date::text AS receive_date, r.due_date::text AS due_date, r.due_at, r.bidding_closed_at, r.company_code, r.created_by, r.created_at,
  r.floated_at, r.updated_at, r.lane_count, r.invited_count, r.response_count`;

const listRow = (r: RfpDbRow, serialNo: number): RfpListRow => ({
  serialNo,
  rfpCode: r.code,
  casshOppId: r.cassh_opp_id,
  oppDescription: r.opp_description,
  customerName: r.customer_name,
  rfpType: r.rfp_type,
  status: r.status,
  statusColour: RFP_STATUS_COLOURS[r.status],
  round: r.round,
  receiveDate: r.receive_date,
  dueDate: r.due_date,
  dueAt: iso(r.due_at),
  biddingClosedAt: iso(r.bidding_closed_at),
  createdAt: iso(r.created_at) as string,
  floatedAt: iso(r.floated_at),
  updatedAt: iso(r.updated_at) as string,
  laneCount: r.lane_count,
});

const staffRow = (r: RfpDbRow, serialNo: number): RfpStaffRow => ({
  ...listRow(r, serialNo),
  companyCode: r.company_code,
  createdBy: r.created_by,
  invitedCount: r.invited_count,
  responseCount: r.response_count,
});

/** Why the list filter is refused ({ field: message }), or null: the date range must satisfy the 61-day rule. */
export function rfpListFilterProblems(filter: RfpListFilter): Record<string, string> | null {
  const from = filter.dateFrom || null;
  const to = filter.dateTo || null;
  if (filter.status !== undefined && filter.status !== ALL_STATUSES && !(RFP_STATUSES as readonly string[]).includes(filter.status))
    return { status: 'Please choose a valid status' };
  if (from === null && to === null) return null;
  if (!filter.today) return { date: dateWindowMessages.invalidDate };
  const problem = dateWindowProblem(from, to, filter.today);
  return problem ? { date: dateWindowMessages[problem] } : null;
}

/** A page number (from 0) and size as the lists take them: a negative page is the first, the size capped. */
function pageOf(page: number | undefined, perPage: number | undefined, fallback: number, max: number): { offset: number; limit: number } {
  const size = Math.min(max, Math.max(1, Math.trunc(Number(perPage ?? fallback)) || fallback));
  const p = Math.max(0, Math.trunc(Number(page ?? 0)) || 0);
  return { offset: p * size, limit: size };
}

/** Collects query parameters: `param(v)` returns its placeholder. */
function params(): { list: unknown[]; param: (v: unknown) => string } {
  const list: unknown[] = [];
  return { list, param: (v) => (list.push(v), `$${list.length}`) };
}

async function pageWithTotal<Row extends { __total: number }>(
  db: Db,
  sql: (limitOffset: string) => string,
  countSql: string,
  p: ReturnType<typeof params>,
  range: { offset: number; limit: number },
): Promise<{ rows: Row[]; total: number }> {
  const before = p.list.length;
  const { rows } = await db.query<Row>(sql(`LIMIT ${p.param(range.limit)} OFFSET ${p.param(range.offset)}`), p.list);
  let total = Number(rows[0]?.__total ?? 0);
  // A page past the end still reports how many there are, so the pager can step back.
  if (rows.length === 0 && range.offset > 0) {
    const counted = await db.query<{ n: number }>(countSql, p.list.slice(0, before));
    total = Number(counted.rows[0]?.n ?? 0);
  }
  return { rows, total };
}

/**
 * The staff RFP dashboard: RFPs of the caller's company codes ('all' for a user working across every code),
 * newest first, with the spec's filters. Throws a validation DomainError for a date range outside the 61-day rule.
 */
export async function listRfps(
  db: Db,
  query: { companyCodes: readonly string[] | 'all'; filter?: RfpListFilter; page?: number; perPage?: number },
): Promise<{ rows: RfpStaffRow[]; total: number }> {
  const f = query.filter ?? {};
  const problems = rfpListFilterProblems(f);
  if (problems) throw new DomainError('validation', Object.values(problems)[0] ?? dateWindowMessages.invalidDate, problems);
  const p = params();
  const where: string[] = [];
  // An RFP of no company code (created by someone working across all) shows only to such users.
  if (query.companyCodes !== 'all') where.push(`r.company_code = ANY(${p.param([...query.companyCodes])}::text[])`);
  if (f.rfpCode?.trim()) where.push(`r.code ILIKE ${p.param(`%${likeEscape(f.rfpCode.trim())}%`)}`);
  if (f.casshOppId?.trim()) where.push(`r.cassh_opp_id ILIKE ${p.param(`%${likeEscape(f.casshOppId.trim())}%`)}`);
  if (f.status && f.status !== ALL_STATUSES) where.push(`r.status = ${p.param(f.status)}`);
  if (f.dateFrom) where.push(`r.receive_date >= ${p.param(f.dateFrom)}::date`);
  if (f.dateTo) where.push(`r.receive_date <= ${p.param(f.dateTo)}::date`);
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const range = pageOf(query.page, query.perPage, 25, MAX_PAGE_SIZE);
  const { rows, total } = await pageWithTotal<RfpDbRow & { __total: number }>(
    db,
    (limitOffset) => `SELECT count(*) OVER () AS __total, ${RFP_COLUMNS} FROM rfps r ${whereSql}
      ORDER BY r.created_at DESC, r.code DESC ${limitOffset}`,
    `SELECT count(*) AS n FROM rfps r ${whereSql}`,
    p,
    range,
  );
  return { rows: rows.map((r, i) => staffRow(r, range.offset + i + 1)), total };
}

/** What a BA sees of its own part in an RFP. */
export type RfpBaFacts = {
  roundInvited: number;
  invitedAt: string;
  /** The comments of the float that invited it. */
  comments: string;
  backhaulInvited: boolean;
  /** Lanes it quoted in the current round. */
  lanesQuoted: number;
  /** Lanes awarded to it in the current round's award; null while the round has no award. */
  lanesAwarded: number | null;
};
export type RfpBaRow = RfpListRow & RfpBaFacts;

type BaFactsDbRow = {
  round_invited: number;
  invited_at: Date;
  comments: string;
  backhaul_invited: boolean;
  lanes_quoted: number;
  lanes_awarded: number | null;
};

/** The BA's columns of an RFP; `$ba` is the BA's id placeholder, always part of every join. */
const baFactsSql = (ba: string) => `i.round_invited, i.invited_at, i.comments, i.backhaul_invited,
  (SELECT count(*)::int FROM rfp_quotes q WHERE q.rfp_code = r.code AND q.round = r.round AND q.ba_id = ${ba}) AS lanes_quoted,
  CASE WHEN EXISTS (SELECT 1 FROM rfp_awards a WHERE a.rfp_code = r.code AND a.round = r.round)
    THEN (SELECT count(*)::int FROM rfp_awards a WHERE a.rfp_code = r.code AND a.round = r.round AND a.ba_id = ${ba}) END AS lanes_awarded`;

const baFacts = (r: BaFactsDbRow): RfpBaFacts => ({
  roundInvited: r.round_invited,
  invitedAt: iso(r.invited_at) as string,
  comments: r.comments,
  backhaulInvited: r.backhaul_invited,
  lanesQuoted: r.lanes_quoted,
  lanesAwarded: r.lanes_awarded,
});

/**
 * The BA RFP dashboard (spec 001 §9: page 0, 10 rows; 5, 10 or 20 a page): only RFPs floated to this BA, the
 * latest invitation first. A page size not offered falls back to 10.
 */
export async function listRfpsForBa(
  db: Db,
  baId: string,
  page: number = RFP_LIST_FIRST_PAGE,
  perPage: number = RFP_LIST_PAGE_SIZE,
): Promise<{ rows: RfpBaRow[]; total: number }> {
  const size = (RFP_LIST_PAGE_SIZES as readonly number[]).includes(perPage) ? perPage : RFP_LIST_PAGE_SIZE;
  const range = pageOf(page, size, RFP_LIST_PAGE_SIZE, size);
  const p = params();
  const ba = p.param(baId);
  const from = `rfps r JOIN rfp_invitations i ON i.rfp_code = r.code AND i.ba_id = ${ba}`;
  const { rows, total } = await pageWithTotal<RfpDbRow & BaFactsDbRow & { __total: number }>(
    db,
    (limitOffset) => `SELECT count(*) OVER () AS __total, ${RFP_COLUMNS}, ${baFactsSql(ba)} FROM ${from}
      ORDER BY i.invited_at DESC, r.code DESC ${limitOffset}`,
    `SELECT count(*) AS n FROM ${from}`,
    p,
    range,
  );
  return { rows: rows.map((r, i) => ({ ...listRow(r, range.offset + i + 1), ...baFacts(r) })), total };
}

type RfpDetailDbRow = RfpDbRow & { header: RfpHeader; steps: Record<string, unknown>; rate_key: string | null; terms: StoredFile | null };

/** An RFP as staff open it: the header, the wizard's saved steps, the lane columns and the terms file. */
export type RfpRecord = RfpStaffRow & {
  header: RfpHeader;
  steps: { 2: RfpStep2 | null; 3: { headerData: LaneColumn[] } | null; 4: RfpStep4 | null; 5: RfpStep5 | null };
  /** The lane sheet's columns (step 3), empty before the template is made. */
  columns: LaneColumn[];
  /** The BA column quotes are compared by (comparison.ts rateKeyOf). */
  rateKey: string | null;
  terms: StoredFile | null;
};

const stepsOf = (steps: Record<string, unknown>): RfpRecord['steps'] => ({
  2: (steps['2'] as RfpStep2 | undefined) ?? null,
  3: (steps['3'] as { headerData: LaneColumn[] } | undefined) ?? null,
  4: (steps['4'] as RfpStep4 | undefined) ?? null,
  5: (steps['5'] as RfpStep5 | undefined) ?? null,
});

/** One RFP for staff of the given company codes; null when there is none or it belongs to another company. */
export async function getRfp(db: Db, code: string, scope: { companyCodes: readonly string[] | 'all' }): Promise<RfpRecord | null> {
  const { rows } = await db.query<RfpDetailDbRow>(
    `SELECT ${RFP_COLUMNS}, r.header, r.steps, r.rate_key, r.terms FROM rfps r
     WHERE r.code = $1 AND ($2::text[] IS NULL OR r.company_code = ANY($2::text[]))`,
    [code, scope.companyCodes === 'all' ? null : [...scope.companyCodes]],
  );
  const r = rows[0];
  if (!r) return null;
  const steps = stepsOf(r.steps);
  return { ...staffRow(r, 1), header: r.header, steps, columns: steps[3]?.headerData ?? [], rateKey: r.rate_key, terms: r.terms };
}

/** An RFP as a BA opens it: never a draft, never the BA selection or other BAs; null unless floated to this BA. */
export type RfpBaRecord = RfpListRow &
  RfpBaFacts & {
    header: RfpHeader;
    columns: LaneColumn[];
    /** Step 4's comment for the BAs. */
    comment: string;
    /** The T&C file, only when staff made it downloadable (step 4 isTnCDownloadable). */
    terms: StoredFile | null;
  };

export async function getRfpForBa(db: Db, code: string, baId: string): Promise<RfpBaRecord | null> {
  const { rows } = await db.query<RfpDetailDbRow & BaFactsDbRow>(
    `SELECT ${RFP_COLUMNS}, r.header, r.steps, r.terms, ${baFactsSql('$2')}
     FROM rfps r JOIN rfp_invitations i ON i.rfp_code = r.code AND i.ba_id = $2 WHERE r.code = $1`,
    [code, baId],
  );
  const r = rows[0];
  if (!r) return null;
  const steps = stepsOf(r.steps);
  return {
    ...listRow(r, 1),
    ...baFacts(r),
    header: r.header,
    columns: steps[3]?.headerData ?? [],
    comment: steps[4]?.comment ?? '',
    terms: steps[4]?.isTnCDownloadable ? r.terms : null,
  };
}

/** A lane grid page: at most this many lanes (an RFP holds up to 10,000; the grid pages through them). */
export const MAX_LANE_PAGE_SIZE = 1000;

export type LaneRow = {
  laneId: string;
  /** 0-based sheet order. */
  position: number;
  values: Record<string, string | null>;
  /** With `quotesOf`: that BA's quote of the lane in that round (null when it has not quoted it). */
  quote?: Record<string, string | null> | null;
};

export type LaneQuery = {
  page?: number;
  perPage?: number;
  /** 'laneId' (sheet order, the default) or a column key; numbers sort as numbers. */
  sort?: { field: string; order?: string };
  /** Column key → text the value contains (case-insensitive); 'laneId' → the exact lane id. */
  filter?: Record<string, string>;
  /** One BA's quotes beside the lanes (its grid): filters and sorts then see its BA columns too. */
  quotesOf?: { baId: string; round: number };
};

const NUMERIC_TEXT = `'^-?[0-9]+(\\.[0-9]+)?$'`;

function checkKey(key: string): string {
  if (!PROPERTY_KEY_PATTERN.test(key)) throw new DomainError('validation', `Unknown column ${key}`, { [key]: `Unknown column ${key}` });
  return key;
}

/** An RFP's lanes, a page at a time, sortable and filterable by any column. */
export async function listLanes(db: Db, code: string, query: LaneQuery = {}): Promise<{ rows: LaneRow[]; total: number }> {
  const p = params();
  const withQuotes = query.quotesOf !== undefined;
  const from = withQuotes
    ? `rfp_lanes l LEFT JOIN rfp_quotes q ON q.rfp_code = l.rfp_code AND q.lane_id = l.lane_id
         AND q.round = ${p.param(query.quotesOf!.round)} AND q.ba_id = ${p.param(query.quotesOf!.baId)}`
    : 'rfp_lanes l';
  const where = [`l.rfp_code = ${p.param(code)}`];
  // A column's value: the lane's MLL value, else (in a BA's grid) the BA's own quote value.
  const valueOf = (key: string) => {
    const k = p.param(checkKey(key));
    return withQuotes ? `coalesce(l.data->>${k}, q.data->>${k})` : `l.data->>${k}`;
  };
  for (const [key, text] of Object.entries(query.filter ?? {})) {
    if (text === undefined || text === null || String(text).trim() === '') continue;
    if (key === 'laneId') where.push(`l.lane_id = ${p.param(String(text).trim())}`);
    else where.push(`${valueOf(key)} ILIKE ${p.param(`%${likeEscape(String(text).trim())}%`)}`);
  }
  const order = sortOrder(query.sort?.order);
  let orderBy = `l.position ${order}`;
  if (query.sort && query.sort.field !== 'laneId') {
    const v = valueOf(query.sort.field);
    orderBy = `CASE WHEN ${v} ~ ${NUMERIC_TEXT} THEN (${v})::numeric END ${order} NULLS LAST, ${v} ${order} NULLS LAST, l.position`;
  }
  const whereSql = `WHERE ${where.join(' AND ')}`;
  const range = pageOf(query.page, query.perPage, 100, MAX_LANE_PAGE_SIZE);
  // Page and total in one statement (one round trip). The total is its own count, an index-only one over the
  // (rfp_code, position) index without a filter: count(*) OVER () on the page's statement read every lane's
  // row (and its data) to count them before the first one could be sent.
  const { rows: answered } = await db.query<{ __total: string; lane_id: string | null; position: number; data: LaneRow['values']; quote: LaneRow['values'] | null }>(
    `SELECT t.total AS __total, p.* FROM (SELECT count(*) AS total FROM ${from} ${whereSql}) t
     LEFT JOIN LATERAL (
       SELECT page.*, row_number() OVER () AS __sort
       FROM (SELECT l.lane_id, l.position, l.data${withQuotes ? ', q.data AS quote' : ''} FROM ${from} ${whereSql}
             ORDER BY ${orderBy} LIMIT ${p.param(range.limit)} OFFSET ${p.param(range.offset)}) page
     ) p ON true
     ORDER BY p.__sort`,
    p.list,
  );
  const total = Number(answered[0]?.__total ?? 0);
  const rows = answered.filter((r): r is typeof r & { lane_id: string } => r.lane_id !== null);
  return {
    rows: rows.map((r) => ({ laneId: r.lane_id, position: r.position, values: r.data, ...(withQuotes ? { quote: r.quote } : {}) })),
    total,
  };
}

export type QuoteRow = { laneId: string; values: Record<string, string | null>; rate: number | null; submittedAt: string };

/** One BA's quotes of one round, in sheet order: what that BA (or staff looking at it) reads. */
export async function quotesOf(db: Db, code: string, round: number, baId: string): Promise<QuoteRow[]> {
  const { rows } = await db.query<{ lane_id: string; data: QuoteRow['values']; rate: string | null; submitted_at: Date }>(
    `SELECT q.lane_id, q.data, q.rate, q.submitted_at FROM rfp_quotes q
     JOIN rfp_lanes l ON l.rfp_code = q.rfp_code AND l.lane_id = q.lane_id
     WHERE q.rfp_code = $1 AND q.round = $2 AND q.ba_id = $3 ORDER BY l.position`,
    [code, round, baId],
  );
  return rows.map((r) => ({ laneId: r.lane_id, values: r.data, rate: r.rate === null ? null : Number(r.rate), submittedAt: iso(r.submitted_at) as string }));
}

/**
 * The quote comparison (staff only): per lane group (comparison.ts GROUP_COLUMNS) each BA's rate — its average
 * over the group's lanes it quoted — lowest first with its rank, and min/avg/max over those rates. Groups in sheet
 * order of their first lane; groups nobody quoted are listed with no quotes. Paged by group.
 *
 * Two statements rather than one join: the page of groups from `rfp_lanes`, then the BAs' rates of those groups
 * only: for 'all' the page's lanes' quotes (`rfp_quotes` lane index), for a grouping the per-BA sums the
 * projection keeps (`rfp_quote_groups`). Right after a bulk load the planner's row estimates are far off, and a
 * join of 250,000 quotes planned on them took seconds; these plans cannot go wrong that way. Aggregating the quotes
 * here instead (every quote of 50 BAs × 5,000 lanes, then dropping all but the page's groups) took from 0.3 s (by
 * vehicle) to over a second (by location and vehicle) a page: bench/rfp-comparison.ts.
 */
export async function comparison(
  db: Db,
  code: string,
  round: number,
  by: ComparisonBy,
  range: { page?: number; perPage?: number } = {},
): Promise<Comparison> {
  const keys = GROUP_COLUMNS[by];
  const g = keys.join(', ');
  const out = (col: string) => (by === 'all' || keys.includes(col as never) ? `nullif(min(${col}), '')` : 'NULL');
  const page = pageOf(range.page, range.perPage, 100, MAX_LANE_PAGE_SIZE);
  const { rows: groups } = await db.query<{
    total: number;
    key: string;
    lane_id: string | null;
    from_city: string | null;
    to_city: string | null;
    vehicle_type: string | null;
    lanes: number;
  }>(
    `SELECT count(*) OVER ()::int AS total, ${groupKeySql(keys, 'l')} AS key, count(*)::int AS lanes,
       ${out('lane_id')} AS lane_id, ${out('from_city')} AS from_city, ${out('to_city')} AS to_city, ${out('vehicle_type')} AS vehicle_type
     FROM (SELECT lane_id, position, coalesce(from_city, '') AS from_city, coalesce(to_city, '') AS to_city,
             coalesce(vehicle_type, '') AS vehicle_type FROM rfp_lanes WHERE rfp_code = $1) l
     GROUP BY ${g} ORDER BY min(position) LIMIT $2 OFFSET $3`,
    [code, page.limit, page.offset],
  );
  let total = groups[0]?.total ?? 0;
  if (groups.length === 0 && page.offset > 0) {
    const counted = await db.query<{ n: number }>(
      `SELECT count(DISTINCT (${keys.map((k) => `coalesce(${k}, '')`).join(', ')}))::int AS n FROM rfp_lanes WHERE rfp_code = $1`,
      [code],
    );
    total = counted.rows[0]?.n ?? 0;
  }
  const rated = new Map<string, { quotes: ComparisonGroup['quotes']; min: string; avg: string; max: string }>();
  if (groups.length > 0) {
    // Each BA's rate per group of the page: in 'all' its quote of the lane, else its average over the group.
    const perBa =
      by === 'all'
        ? { sql: `SELECT lane_id AS key, ba_id, round(rate, 2) AS rate, 1 AS lanes_quoted FROM rfp_quotes
              WHERE rfp_code = $1 AND round = $2 AND rate IS NOT NULL AND lane_id = ANY($3::text[])`, params: [] }
        : { sql: `SELECT group_key AS key, ba_id, round(rate_sum / rated_lanes, 2) AS rate, rated_lanes AS lanes_quoted FROM rfp_quote_groups
              WHERE rfp_code = $1 AND round = $2 AND group_key = ANY($3::text[]) AND grouped_by = $4`, params: [by] };
    const { rows } = await db.query<{ key: string; quotes: ComparisonGroup['quotes']; min: string; avg: string; max: string }>(
      `WITH per_ba AS (${perBa.sql}), ranked AS (
         SELECT p.*, rank() OVER (PARTITION BY p.key ORDER BY p.rate)::int AS rank FROM per_ba p
       )
       SELECT key, json_agg(json_build_object('baId', ba_id, 'rate', rate, 'lanesQuoted', lanes_quoted, 'rank', rank) ORDER BY rate, ba_id) AS quotes,
         min(rate) AS min, round(avg(rate), 2) AS avg, max(rate) AS max
       FROM ranked GROUP BY key`,
      [code, round, groups.map((r) => r.key), ...perBa.params],
    );
    for (const r of rows) rated.set(r.key, r);
  }
  const baIds = [...new Set([...rated.values()].flatMap((r) => r.quotes.map((q) => q.baId)))];
  const names = await companyNames(db, baIds);
  return {
    rfpCode: code,
    round,
    by,
    total,
    groups: groups.map((r) => {
      const q = rated.get(r.key);
      return {
        laneId: r.lane_id,
        fromCity: r.from_city,
        toCity: r.to_city,
        vehicleType: r.vehicle_type,
        lanes: r.lanes,
        quotes: (q?.quotes ?? []).map((x) => ({ baId: x.baId, companyName: names.get(x.baId) ?? null, rate: Number(x.rate), lanesQuoted: x.lanesQuoted, rank: x.rank })),
        min: q ? Number(q.min) : null,
        avg: q ? Number(q.avg) : null,
        max: q ? Number(q.max) : null,
      };
    }),
  };
}

/** The BAs' company names (the business_associates read model), for the few BAs of a comparison. */
async function companyNames(db: Db, baIds: readonly string[]): Promise<Map<string, string | null>> {
  if (baIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; company_name: string | null }>(
    'SELECT id, company_name FROM business_associates WHERE id = ANY($1::text[])',
    [baIds],
  );
  return new Map(rows.map((r) => [r.id, r.company_name]));
}

export type AwardRow = {
  round: number;
  laneId: string;
  baId: string;
  companyName: string | null;
  sharePercent: number;
  /** The contract rates: the BA's quote values for the lane. */
  rates: Record<string, string | null>;
  rate: number | null;
  awardedAt: string;
};

type AwardDbRow = {
  round: number;
  lane_id: string;
  ba_id: string;
  company_name: string | null;
  share: string;
  rates: AwardRow['rates'];
  rate: string | null;
  awarded_at: Date;
};

const awardRow = (r: AwardDbRow): AwardRow => ({
  round: r.round,
  laneId: r.lane_id,
  baId: r.ba_id,
  companyName: r.company_name,
  sharePercent: Number(r.share),
  rates: r.rates,
  rate: r.rate === null ? null : Number(r.rate),
  awardedAt: iso(r.awarded_at) as string,
});

const AWARD_SELECT = `SELECT a.round, a.lane_id, a.ba_id, ba.company_name, a.share, a.rates, a.rate, a.awarded_at
  FROM rfp_awards a JOIN rfp_lanes l ON l.rfp_code = a.rfp_code AND l.lane_id = a.lane_id
  LEFT JOIN business_associates ba ON ba.id = a.ba_id`;

/**
 * A round's award (staff): per lane its BAs, shares and contract rates, in sheet order. Without a round, the
 * current round's: the contract rates in force (a reopened round replaces them once it is awarded).
 */
export async function awardsOf(db: Db, code: string, round?: number): Promise<AwardRow[]> {
  const { rows } = await db.query<AwardDbRow>(
    `${AWARD_SELECT} WHERE a.rfp_code = $1 AND a.round = coalesce($2::int, (SELECT r.round FROM rfps r WHERE r.code = $1))
     ORDER BY l.position, a.share DESC, a.ba_id`,
    [code, round ?? null],
  );
  return rows.map(awardRow);
}

/** The lanes awarded to this BA in the current round, with its share and contract rates: its outcome, nobody else's. */
export async function awardsForBa(db: Db, code: string, baId: string): Promise<AwardRow[]> {
  const { rows } = await db.query<AwardDbRow>(
    `${AWARD_SELECT} WHERE a.rfp_code = $1 AND a.ba_id = $2 AND a.round = (SELECT r.round FROM rfps r WHERE r.code = $1)
     ORDER BY l.position`,
    [code, baId],
  );
  return rows.map(awardRow);
}

export type InvitationRow = {
  baId: string;
  companyName: string | null;
  roundInvited: number;
  invitedAt: string;
  backhaulInvited: boolean;
  backhaulChangedAt: string | null;
  /** Lanes it quoted in the current round. */
  lanesQuoted: number;
};

/** The BAs an RFP was floated to (staff: the response status and the backhaul screen), in invitation order. */
export async function invitationsOf(db: Db, code: string): Promise<InvitationRow[]> {
  const { rows } = await db.query<{
    ba_id: string;
    company_name: string | null;
    round_invited: number;
    invited_at: Date;
    backhaul_invited: boolean;
    backhaul_changed_at: Date | null;
    lanes_quoted: number;
  }>(
    `SELECT i.ba_id, ba.company_name, i.round_invited, i.invited_at, i.backhaul_invited, i.backhaul_changed_at,
       (SELECT count(*)::int FROM rfp_quotes q WHERE q.rfp_code = i.rfp_code AND q.ba_id = i.ba_id AND q.round = r.round) AS lanes_quoted
     FROM rfp_invitations i JOIN rfps r ON r.code = i.rfp_code LEFT JOIN business_associates ba ON ba.id = i.ba_id
     WHERE i.rfp_code = $1 ORDER BY i.invited_at, i.ba_id`,
    [code],
  );
  return rows.map((r) => ({
    baId: r.ba_id,
    companyName: r.company_name,
    roundInvited: r.round_invited,
    invitedAt: iso(r.invited_at) as string,
    backhaulInvited: r.backhaul_invited,
    backhaulChangedAt: iso(r.backhaul_changed_at),
    lanesQuoted: r.lanes_quoted,
  }));
}

export type RfpActivityRow = {
  id: number;
  round: number;
  at: string;
  actor: { userId: string; name: string | null; role: string };
  eventType: string;
  action: string;
  detail: string | null;
  baId: string | null;
};

/** The RFP's history (staff), newest first. */
export async function activityOf(db: Db, code: string, range: { page?: number; perPage?: number } = {}): Promise<{ rows: RfpActivityRow[]; total: number }> {
  const p = params();
  const where = `WHERE rfp_code = ${p.param(code)}`;
  const { rows, total } = await pageWithTotal<{
    __total: number;
    id: number;
    round: number;
    at: Date;
    actor_user_id: string;
    actor_name: string | null;
    role: string;
    event_type: string;
    action: string;
    detail: string | null;
    ba_id: string | null;
  }>(
    db,
    (limitOffset) => `SELECT count(*) OVER () AS __total, id, round, at, actor_user_id, actor_name, role, event_type, action, detail, ba_id
      FROM rfp_activity ${where} ORDER BY id DESC ${limitOffset}`,
    `SELECT count(*) AS n FROM rfp_activity ${where}`,
    p,
    pageOf(range.page, range.perPage, 25, MAX_PAGE_SIZE),
  );
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      round: r.round,
      at: iso(r.at) as string,
      actor: { userId: r.actor_user_id, name: r.actor_name, role: r.role },
      eventType: r.event_type,
      action: r.action,
      detail: r.detail,
      baId: r.ba_id,
    })),
    total,
  };
}
