import type { CompanyDetails } from '../../../domain/src/onboarding/details';
import { DomainError } from '../../../domain/src/shared/errors';
import { clampRange, likeEscape, sortOrder, type Db, type Range } from '../sql';
import { BA_SEARCH_TEXT, type BaBucket, type BaFacet, type BaRecord, type BaStatus } from './business-associates.projection';

export type BusinessAssociateRow = {
  id: string;
  companyCode: string;
  status: BaStatus;
  stage: 1 | 2 | null;
  companyName: string | null;
  panNumber: string | null;
  contactPersonName: string | null;
  contactPersonMobileNumber: string | null;
  cityId: number | null;
  cityName: string | null;
  stateId: number | null;
  stateName: string | null;
  serviceId: number | null;
  serviceName: string | null;
  submission: number;
  remarks: string | null;
  welcomeMessage: string | null;
  overdue: boolean;
  /** The e-mail id and mobile number the BA registered with (shown until it has a company name). */
  registeredEmail: string | null;
  registeredMobile: string | null;
  adminUserId: string | null;
  /** Issue 8: a document lapsed and no approved replacement yet (spec: the "documents expired" badge). */
  documentsExpired: boolean;
  /** A bank change request is waiting: payments to the BA are on hold. */
  paymentsOnHold: boolean;
  /** Issue 9: a vendor code of the BA is blocked in the ERP through the portal (vendor_blocks, helper BLOCK's). */
  blocked: boolean;
  /** The contact person's mobile number, or the one the BA registered with until it has one. */
  mobileNo: string | null;
  /** The e-mail id the BA registered with (the company details carry none). */
  email: string | null;
  createdAt: string;
  submittedAt: string | null;
  updatedAt: string;
  details: CompanyDetails | null;
};

/** A row of the BA list: the full company details are left to the single-BA read. */
export type BusinessAssociateListRow = Omit<BusinessAssociateRow, 'details'>;

export type BaListFilter = {
  /** A status value, or one of the spec's list filters / tab names (see STATUS_FILTERS). */
  status?: string;
  stage?: number | string;
  /** Company name, registered e-mail id or registered mobile number contains (case-insensitive). */
  q?: string;
  /** Company name starts with (case-insensitive; served by an index). */
  companyName?: string;
  /** PAN starts with (case-insensitive). */
  panNumber?: string;
  cityId?: number | string;
  companyCode?: string;
  /** Contact or registered mobile number starts with (digits). */
  mobileNo?: string;
  /** The vertical mapping includes this vertical (verticals master id). */
  verticalId?: number | string;
  /**
   * A location of the locations master: BAs located in its state, i.e. whose company address or one of whose
   * GST places of business is in that state (locations carry a state, not an area).
   */
  locationId?: number | string;
  /** The console's tabs: same names as `status`. */
  tab?: string;
};

export type BaListQuery = {
  /** The caller's company codes; 'all' for a caller not limited to some. */
  companyCodes: readonly string[] | 'all';
  /** Who asks: the `user_pending_task` status filter means BAs with an open review task of theirs. */
  caller?: { userId: string; roles: readonly string[] };
  /** Set for a BA caller: it sees its own BA only. */
  baId?: string;
  filter?: BaListFilter;
  sort?: { field: string; order: string };
  range?: Partial<Range>;
};

export type StatusCounts = {
  all: number;
  registered: number;
  pendingOnboarding: number;
  firstStage: number;
  secondStage: number;
  verified: number;
  rejected: number;
  /** The sidebar's "Pending Onboarding Request": the same BAs as pendingOnboarding (submitted, under review). */
  pending: number;
  /** BAs with a lapsed document not yet replaced by an approved one, whatever their status. */
  documentsExpired: number;
  /** The sidebar's "Blocked Users": BAs with a vendor code blocked in the ERP (vendor_blocks). */
  blockedUsers: number;
};

/**
 * Where a BA can stand, finer than status: a filter is a set of cells, several filters intersect. (An
 * in-progress BA has no stage only between its stage-2 approval and its verification.)
 */
type Cell = 'pending' | 'inprogress0' | 'inprogress1' | 'inprogress2' | 'verified' | 'rejected';
const ALL_CELLS: readonly Cell[] = ['pending', 'inprogress0', 'inprogress1', 'inprogress2', 'verified', 'rejected'];
const IN_PROGRESS: readonly Cell[] = ['inprogress0', 'inprogress1', 'inprogress2'];

/**
 * Status filter values: ours (the status values, the badge bucket names) and the spec's list filters (spec 000
 * §4 "BA list filters" and the first/second tabs). 'pending' is our status value (registered, not yet
 * submitted). 'blocked' is a property filter (below).
 */
export const STATUS_FILTERS: Record<string, readonly Cell[]> = {
  all: ALL_CELLS,
  pending: ['pending'],
  registered: ['pending'],
  inprogress: IN_PROGRESS,
  pending_onboarding: IN_PROGRESS,
  pendingOnboarding: IN_PROGRESS,
  first: ['inprogress1'],
  first_stage: ['inprogress1'],
  firstStage: ['inprogress1'],
  second: ['inprogress2'],
  second_stage: ['inprogress2'],
  secondStage: ['inprogress2'],
  verified: ['verified'],
  approved: ['verified'],
  rejected: ['rejected'],
  processed: ['verified', 'rejected'],
};

/**
 * Status filters that are not a place in the lifecycle but a property of the BA (issue 8): they combine with
 * every other filter. `user_pending_task`: the caller has an open review task for the BA (My Pending Task).
 */
export const STATUS_PROPERTY_FILTERS = ['user_pending_task', 'documents_expired', 'blocked'] as const;

/** Issue 9: a BA is blocked while any of its vendor codes is (vendor_blocks, written by the blocks projection). */
const BLOCKED_BA = `EXISTS (SELECT 1 FROM vendor_blocks vb WHERE vb.ba_id = business_associates.id AND vb.blocked)`;
type StatusProperty = (typeof STATUS_PROPERTY_FILTERS)[number];
const isStatusProperty = (v: string | undefined): v is StatusProperty =>
  v !== undefined && (STATUS_PROPERTY_FILTERS as readonly string[]).includes(v);

const SORT_COLUMNS: Record<string, string> = {
  id: 'id',
  companyCode: 'company_code',
  status: 'status',
  stage: 'stage',
  companyName: 'company_name',
  panNumber: 'pan_number',
  contactPersonName: 'contact_person_name',
  cityName: 'city_name',
  stateName: 'state_name',
  serviceName: 'service_name',
  submission: 'submission',
  overdue: 'overdue',
  createdAt: 'created_at',
  submittedAt: 'submitted_at',
  updatedAt: 'updated_at',
};

/** Sorts by a name looked up at read time (an output column, not a stored one). */
const COMPUTED_SORTS: ReadonlySet<string> = new Set(['city_name', 'state_name', 'service_name']);

/** Times leave PostgreSQL as ISO text: decoding 150 timestamps into Dates per page was most of a list's cost. */
const isoColumn = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}_iso`;

/**
 * The name of the master item a BA column refers to, from the masters read model at read time (by primary
 * key): always the item's current name, and never missing for good because the masters projection lagged
 * behind this one when the details were saved.
 */
const masterName = (master: string, column: string) =>
  `(SELECT m.values->>'name' FROM master_items m WHERE m.master = '${master}' AND m.id = business_associates.${column}::text)`;

/** What a list page carries: everything but the full company details, which only the BA's own page needs. */
const LIST_COLUMNS = `id, company_code, status, stage, company_name, pan_number, contact_person_name,
  contact_person_mobile_number, city_id, ${masterName('cities', 'city_id')} AS city_name, state_id,
  ${masterName('states', 'state_id')} AS state_name, service_id, ${masterName('services', 'service_id')} AS service_name,
  submission, remarks, welcome_message, overdue, registered_email, registered_mobile, admin_user_id,
  documents_expired, payments_on_hold, ${BLOCKED_BA} AS blocked, ${isoColumn('created_at')}, ${isoColumn('submitted_at')}, ${isoColumn('updated_at')}`;
const ROW_COLUMNS = `${LIST_COLUMNS}, details`;

/** A row as the list and single reads select it: the stored record, with times as ISO text. */
type DbRow = Pick<
  BaRecord,
  | 'id'
  | 'company_code'
  | 'status'
  | 'stage'
  | 'company_name'
  | 'pan_number'
  | 'contact_person_name'
  | 'contact_person_mobile_number'
  | 'city_id'
  | 'state_id'
  | 'service_id'
  | 'submission'
  | 'remarks'
  | 'welcome_message'
  | 'overdue'
  | 'registered_email'
  | 'registered_mobile'
  | 'admin_user_id'
  | 'documents_expired'
  | 'payments_on_hold'
> & {
  city_name: string | null;
  state_name: string | null;
  service_name: string | null;
  blocked: boolean;
  created_at_iso: string;
  submitted_at_iso: string | null;
  updated_at_iso: string;
  details?: CompanyDetails | null;
};

const toListRow = (r: DbRow): BusinessAssociateListRow => ({
  id: r.id,
  companyCode: r.company_code,
  status: r.status,
  stage: r.stage === 1 || r.stage === 2 ? r.stage : null,
  companyName: r.company_name,
  panNumber: r.pan_number,
  contactPersonName: r.contact_person_name,
  contactPersonMobileNumber: r.contact_person_mobile_number,
  cityId: r.city_id,
  cityName: r.city_name,
  stateId: r.state_id,
  stateName: r.state_name,
  serviceId: r.service_id,
  serviceName: r.service_name,
  submission: r.submission,
  remarks: r.remarks,
  welcomeMessage: r.welcome_message,
  overdue: r.overdue,
  registeredEmail: r.registered_email,
  registeredMobile: r.registered_mobile,
  adminUserId: r.admin_user_id,
  documentsExpired: r.documents_expired,
  paymentsOnHold: r.payments_on_hold,
  blocked: r.blocked,
  mobileNo: r.contact_person_mobile_number ?? r.registered_mobile,
  email: r.registered_email,
  createdAt: r.created_at_iso,
  submittedAt: r.submitted_at_iso,
  updatedAt: r.updated_at_iso,
});

const toRow = (r: DbRow): BusinessAssociateRow => ({ ...toListRow(r), details: r.details ?? null });

const text = (v: unknown): string | undefined =>
  v === undefined || v === null || String(v).trim() === '' ? undefined : String(v).trim();

function cellsOf(filter: BaListFilter): Set<Cell> {
  let cells = new Set<Cell>(ALL_CELLS);
  const narrow = (allowed: readonly Cell[]) => {
    cells = new Set([...cells].filter((c) => allowed.includes(c)));
  };
  for (const [key, value] of [
    ['status', text(filter.status)],
    ['tab', text(filter.tab)],
  ] as const) {
    if (value === undefined || isStatusProperty(value)) continue;
    const allowed = STATUS_FILTERS[value];
    if (!allowed) throw new DomainError('validation', `Unknown ${key} filter: ${value}`, { [key]: `Unknown ${key}` });
    narrow(allowed);
  }
  const stage = text(filter.stage);
  if (stage !== undefined) {
    if (stage !== '1' && stage !== '2')
      throw new DomainError('validation', 'Stage must be 1 or 2', { stage: 'Stage must be 1 or 2' });
    narrow([`inprogress${stage}`]);
  }
  return cells;
}

function cellCondition(cells: Set<Cell>, param: (v: unknown) => string): string | null {
  if (cells.size === ALL_CELLS.length) return null;
  if (cells.size === 0) return 'false';
  const statuses = [...new Set([...cells].map((c) => (c.startsWith('inprogress') ? 'inprogress' : c)))];
  const stages = IN_PROGRESS.filter((c) => cells.has(c));
  const statusCond =
    statuses.length === 1 ? `status = ${param(statuses[0])}` : `status = ANY(${param(statuses)}::text[])`;
  if (stages.length === 0 || stages.length === IN_PROGRESS.length) return statusCond;
  const stageValues = stages.filter((c) => c !== 'inprogress0').map((c) => Number(c.slice(-1)));
  const stageCond = [
    stageValues.length > 0 ? `stage = ANY(${param(stageValues)}::smallint[])` : null,
    stages.includes('inprogress0') ? 'stage IS NULL' : null,
  ]
    .filter(Boolean)
    .join(' OR ');
  return statuses.length === 1
    ? `${statusCond} AND (${stageCond})`
    : `${statusCond} AND (status <> 'inprogress' OR ${stageCond})`;
}

/** The badge buckets whose counts add up to the cells, or null when the count table cannot answer. */
function bucketsFor(cells: Set<Cell>): BaBucket[] | null {
  if (cells.size === ALL_CELLS.length) return ['all'];
  const buckets: BaBucket[] = [];
  if (cells.has('pending')) buckets.push('registered');
  if (cells.has('verified')) buckets.push('verified');
  if (cells.has('rejected')) buckets.push('rejected');
  const inProgress = IN_PROGRESS.filter((c) => cells.has(c));
  if (inProgress.length === IN_PROGRESS.length) buckets.push('pending_onboarding');
  else if (inProgress.includes('inprogress0')) return null;
  else {
    if (inProgress.includes('inprogress1')) buckets.push('first_stage');
    if (inProgress.includes('inprogress2')) buckets.push('second_stage');
  }
  return buckets;
}

/**
 * One page of the BA list with its total. Totals for the console's usual views (status/stage/tab within
 * company codes) come from the badge count table instead of a count(*) over every matching row.
 */
export async function listBusinessAssociates(
  db: Db,
  query: BaListQuery,
): Promise<{ rows: BusinessAssociateListRow[]; total: number }> {
  const filter = query.filter ?? {};
  const range = clampRange(query.range);
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];

  let codes: readonly string[] | 'all' = query.companyCodes;
  const companyCode = text(filter.companyCode);
  if (companyCode !== undefined) codes = codes === 'all' || codes.includes(companyCode) ? [companyCode] : [];
  if (codes !== 'all')
    where.push(codes.length === 1 ? `company_code = ${param(codes[0])}` : `company_code = ANY(${param(codes)}::text[])`);

  const cells = cellsOf(filter);
  const cellCond = cellCondition(cells, param);
  if (cellCond) where.push(cellCond);

  const byCountTable = { possible: true };
  const narrowBy = (cond: string) => {
    where.push(cond);
    byCountTable.possible = false;
  };
  // One vertical or location filter keeps the total a sum: ba_facet_counts (two of them: counted).
  const facets: { facet: BaFacet; value: string }[] = [];
  const narrowByFacet = (cond: string, facet: BaFacet, value: string) => {
    where.push(cond);
    facets.push({ facet, value });
  };
  if (query.baId !== undefined) narrowBy(`id = ${param(query.baId)}`);
  const q = text(filter.q);
  if (q !== undefined) {
    // A BA that has filled nothing in yet is found by what it registered with.
    const like = param(`%${likeEscape(q)}%`);
    // The joined text contains q whenever a column does: its trigram index finds the few candidates.
    narrowBy(`${BA_SEARCH_TEXT} ILIKE ${like} AND (company_name ILIKE ${like} OR registered_email ILIKE ${like} OR registered_mobile ILIKE ${like})`);
  }
  const name = text(filter.companyName);
  if (name !== undefined) narrowBy(`lower(company_name) LIKE ${param(`${likeEscape(name.toLowerCase())}%`)}`);
  const pan = text(filter.panNumber);
  if (pan !== undefined) narrowBy(`pan_number LIKE ${param(`${likeEscape(pan.toUpperCase())}%`)}`);
  const city = text(filter.cityId);
  if (city !== undefined) {
    if (!/^\d{1,9}$/.test(city)) throw new DomainError('validation', 'Invalid city', { cityId: 'Invalid city' });
    narrowBy(`city_id = ${param(Number(city))}`);
  }
  const mobile = text(filter.mobileNo);
  if (mobile !== undefined) {
    if (!/^\d{1,10}$/.test(mobile))
      throw new DomainError('validation', 'Mobile number takes digits only', { mobileNo: 'Mobile number takes digits only' });
    const prefix = param(`${mobile}%`);
    narrowBy(`(contact_person_mobile_number LIKE ${prefix} OR registered_mobile LIKE ${prefix})`);
  }
  const vertical = text(filter.verticalId);
  if (vertical !== undefined) {
    if (!/^\d{1,9}$/.test(vertical)) throw new DomainError('validation', 'Invalid vertical', { verticalId: 'Invalid vertical' });
    const value = String(Number(vertical));
    narrowByFacet(`vertical_ids @> ARRAY[${param(value)}]::text[]`, 'vertical', value);
  }
  const location = text(filter.locationId);
  if (location !== undefined) {
    if (!/^\d{1,9}$/.test(location)) throw new DomainError('validation', 'Invalid location', { locationId: 'Invalid location' });
    const stateId = await locationStateId(db, Number(location));
    if (stateId === null) return { rows: [], total: 0 };
    narrowByFacet(`location_state_ids @> ARRAY[${param(stateId)}]::text[]`, 'location', stateId);
  }
  for (const property of new Set([text(filter.status), text(filter.tab)].filter(isStatusProperty))) {
    if (property === 'documents_expired') narrowBy('documents_expired');
    else if (property === 'blocked') narrowBy(BLOCKED_BA);
    else {
      // Nobody in particular asked (a BA caller, a test): no task is theirs.
      if (!query.caller) return { rows: [], total: 0 };
      narrowBy(`id IN (SELECT tk.ba_id FROM tasks tk WHERE tk.status = 'open'
        AND tk.candidate_roles && ${param([...query.caller.roles])}::text[]
        AND (tk.excluded_user_id IS NULL OR tk.excluded_user_id <> ${param(query.caller.userId)}))`);
    }
  }

  const column = (query.sort && SORT_COLUMNS[query.sort.field]) ?? 'updated_at';
  const order = query.sort && SORT_COLUMNS[query.sort.field] ? sortOrder(query.sort.order) : 'DESC';
  const tieBreak = column === 'id' ? '' : `, id ${order}`;
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  if (cells.size === 0 || (codes !== 'all' && codes.length === 0)) return { rows: [], total: 0 };

  // The total: from the badge count table when the filter is one it counts, else counted.
  const facet = facets.length === 1 ? facets[0]! : null;
  const buckets = byCountTable.possible && facets.length <= 1 ? bucketsFor(cells) : null;
  const totalSql = buckets
    ? `SELECT coalesce(sum(count), 0) AS total FROM ${facet ? 'ba_facet_counts' : 'ba_status_counts'}
       WHERE bucket = ANY(${param(buckets)}::text[])
       ${facet ? `AND facet = ${param(facet.facet)} AND value = ${param(facet.value)}` : ''}
       ${codes === 'all' ? '' : `AND company_code = ANY(${param(codes)}::text[])`}`
    : `SELECT count(*) AS total FROM business_associates ${whereSql}`;
  const nulls = order === 'ASC' ? ' NULLS LAST' : ' NULLS FIRST';
  // Counted, on a stored column: the matching rows are read once, for the count and for the page (a top-N sort
  // of their sort key and id). Walking the sort index for the page instead reads rows until 50 match, which for
  // a clustered match (a block of mobile numbers, a name) is most of the table.
  const matchedOnce = !buckets && !COMPUTED_SORTS.has(column);
  const sql = matchedOnce
    ? `WITH m AS MATERIALIZED (SELECT id, ${column} AS k FROM business_associates ${whereSql})
       SELECT t.total AS __total, p.* FROM (SELECT count(*) AS total FROM m) t
       LEFT JOIN LATERAL (
         SELECT ${LIST_COLUMNS} FROM business_associates
         WHERE id IN (SELECT id FROM m ORDER BY k ${order}${nulls}${tieBreak}
                      LIMIT ${param(range.limit)} OFFSET ${param(range.offset)})
         ORDER BY ${column} ${order}${nulls}${tieBreak}
       ) p ON true`
    : `SELECT t.total AS __total, p.* FROM (${totalSql}) t
       LEFT JOIN LATERAL (
         SELECT ${LIST_COLUMNS} FROM business_associates ${whereSql}
         ORDER BY ${column} ${order}${nulls}${tieBreak}
         LIMIT ${param(range.limit)} OFFSET ${param(range.offset)}
       ) p ON true`;
  // Page and total in one statement, one round trip; the lateral join keeps the total when the page is empty.
  const { rows } = await db.query<DbRow & { __total: string | number }>(sql, params);
  return {
    rows: rows.filter((r) => r.id !== null).map(toListRow),
    total: Number(rows[0]?.__total ?? 0),
  };
}

/** The state of a locations-master item, as the list's location filter reads it (null: no such location). */
async function locationStateId(db: Db, locationId: number): Promise<string | null> {
  const { rows } = await db.query<{ state_id: string | null }>(
    `SELECT values->>'stateId' AS state_id FROM master_items WHERE master = 'locations' AND id = $1`,
    [String(locationId)],
  );
  return rows[0]?.state_id ?? null;
}

export async function getBusinessAssociate(db: Db, id: string): Promise<BusinessAssociateRow | null> {
  const { rows } = await db.query<DbRow>(`SELECT ${ROW_COLUMNS} FROM business_associates WHERE id = $1`, [id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * react-admin's getMany (`filter.id`): the rows of these ids that the caller may see, in one statement. The
 * visibility rule is the single read's: a BA caller only its own BA, staff only their company codes.
 */
export async function getBusinessAssociatesByIds(
  db: Db,
  ids: readonly string[],
  visibleTo: { companyCodes: readonly string[]; baId?: string | null },
): Promise<BusinessAssociateRow[]> {
  if (ids.length === 0) return [];
  const { rows } =
    visibleTo.baId !== undefined
      ? await db.query<DbRow>(`SELECT ${ROW_COLUMNS} FROM business_associates WHERE id = ANY($1::text[]) AND id = $2`, [
          [...ids],
          visibleTo.baId,
        ])
      : await db.query<DbRow>(
          `SELECT ${ROW_COLUMNS} FROM business_associates WHERE id = ANY($1::text[]) AND company_code = ANY($2::text[])`,
          [[...ids], [...visibleTo.companyCodes]],
        );
  return rows.map(toRow);
}

/** The console's sidebar badges for the caller's company codes. */
export async function statusCounts(db: Db, companyCodes: readonly string[] | 'all'): Promise<StatusCounts> {
  // Blocked vendors are few: counted from vendor_blocks, joined for the company-code scope.
  const blockedCount = db.query<{ n: string }>(
    `SELECT count(DISTINCT vb.ba_id) AS n FROM vendor_blocks vb JOIN business_associates ba ON ba.id = vb.ba_id
     WHERE vb.blocked AND ($1::text[] IS NULL OR ba.company_code = ANY($1::text[]))`,
    [companyCodes === 'all' ? null : [...companyCodes]],
  );
  const { rows } =
    companyCodes === 'all'
      ? await db.query<{ bucket: BaBucket; total: string }>(
          'SELECT bucket, sum(count) AS total FROM ba_status_counts GROUP BY bucket',
        )
      : await db.query<{ bucket: BaBucket; total: string }>(
          `SELECT bucket, sum(count) AS total FROM ba_status_counts
           WHERE company_code = ANY($1::text[]) GROUP BY bucket`,
          [companyCodes],
        );
  const of = (bucket: BaBucket) => Number(rows.find((r) => r.bucket === bucket)?.total ?? 0);
  return {
    all: of('all'),
    registered: of('registered'),
    pendingOnboarding: of('pending_onboarding'),
    firstStage: of('first_stage'),
    secondStage: of('second_stage'),
    verified: of('verified'),
    rejected: of('rejected'),
    pending: of('pending_onboarding'),
    documentsExpired: of('documents_expired'),
    blockedUsers: Number((await blockedCount).rows[0]?.n ?? 0),
  };
}
