import type { StoredFile } from '../../../domain/src/shared/files';
import { GST_TYPE_LABELS } from '../../../domain/src/onboarding/items-schema';
import type { ChangeRequest, DocumentKind, GstRegistration } from '../../../domain/src/onboarding/items';
import { clampRange, iso, sortOrder, type Db, type Range } from '../sql';

/**
 * Reads of the onboarding items (items.projection.ts), in the shapes of the issue-8 contract. Removed rows
 * (deleted, or a replaced document) are never answered. The callers check the BA is visible first.
 */
export type ReviewStatus = 'pending' | 'approved' | 'rejected';

export type BankAccountRow = {
  id: string;
  baId: string;
  primary: boolean;
  accountNo: string;
  ifscCode: string;
  micrNo: string | null;
  accountName: string;
  bankName: string;
  bankBranch: string;
  reviewStatus: ReviewStatus;
  reviewRemarks: string | null;
  reviewedBy: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type GstRegistrationRow = {
  id: string;
  baId: string;
  stateId: number;
  stateName: string | null;
  gstType: GstRegistration['gstType'];
  gstTypeLabel: string;
  gstNo: string | null;
  addressLine1: string;
  addressLine2: string | null;
  pinCode: string;
  cityId: number;
  cityName: string | null;
  bankAccountId: string | null;
  vendorCategory: string | null;
  createdAt: string;
  updatedAt: string;
};

export type DocumentRow = {
  id: string;
  baId: string;
  kind: DocumentKind;
  documentTypeId: number;
  documentTypeName: string;
  documentNumber: string | null;
  validTill: string | null;
  stateId: number | null;
  stateName: string | null;
  fileName: string;
  fileSize: number;
  fileType: string;
  reviewStatus: ReviewStatus;
  reviewRemarks: string | null;
  reviewedBy: string | null;
  approvedTill: string | null;
  reviewedAt: string | null;
  expired: boolean;
  uploadedAt: string;
  uploadedBy: string | null;
  /** The document this upload replaced, if any. */
  replaces: string | null;
};

export type ConcessionRow = {
  id: string;
  baId: string;
  exemptionNumber: string;
  exemptionRate: string;
  exemptionFrom: string;
  exemptionTo: string;
  exemptionReasonId: number;
  exemptionReason: string | null;
  exemptionThreshold: string;
  withHoldingTaxType: string;
  withHoldingTaxCode: string;
  sectionCode: string;
  fileName: string;
  isInternalUpload: boolean;
  reviewStatus: ReviewStatus;
  reviewRemarks: string | null;
  reviewedBy: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type VerticalMappingRow = {
  baId: string;
  verticalIds: number[];
  subServiceIds: number[];
  vehicleTypeIds: number[];
  zoneIds: number[];
  pickupZoneIds: number[];
  deliveryZoneIds: number[];
  /** null: no mapping saved yet. */
  reviewStatus: ReviewStatus | null;
  reviewRemarks: string | null;
  reviewedBy: string | null;
  reviewedAt: string | null;
  updatedAt: string | null;
};

export type CompanyApplicationRow = {
  /** The company code (react-admin needs an id). */
  id: string;
  companyCode: string;
  /** The code the BA registered with; the others were applied for later. */
  first: boolean;
  status: 'pending' | 'inprogress' | 'verified' | 'rejected';
  stage: 1 | 2 | null;
  submission: number;
  remarks: string | null;
  stage1ApprovedBy: string | null;
  appliedAt: string;
  submittedAt: string | null;
  updatedAt: string;
};

export type ChangeRequestRow = {
  /** The request id. */
  id: string;
  baId: string;
  section: ChangeRequest['section'];
  proposed: Record<string, unknown>;
  changes: ChangeRequest['changes'];
  status: ChangeRequest['status'];
  /** Each approval, with the approver's display name when the event carried one. */
  approvals: (ChangeRequest['approvals'][number] & { name?: string | null })[];
  remarks: string | null;
  raisedBy: string | null;
  raisedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  updatedAt: string;
};

type Raw = Record<string, unknown>;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const time = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v as Date | string));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A master item's display name by id, read when the list is read (the masters' current name; see the BA list). */
const masterName = (master: string, expr: string, field = 'name') =>
  `(SELECT m.values->>'${field}' FROM master_items m WHERE m.master = '${master}' AND m.id = (${expr})::text)`;

/**
 * How one item table of a BA is read: its current rows (removed ones left out) in `orderBy`, one row by id, and
 * a row's stored file. `alias` names the table inside `columns` and `orderBy`; `where` narrows the list with
 * further parameters ($2, $3, …).
 */
function itemTable<Row>(table: string, alias: string, columns: string, orderBy: string, toRow: (r: Raw) => Row) {
  const current = `FROM ${table} ${alias} WHERE ${alias}.ba_id = $1 AND NOT ${alias}.removed`;
  return {
    list: async (db: Db, baId: string, where = '', params: unknown[] = []): Promise<Row[]> => {
      const { rows } = await db.query(`SELECT ${columns} ${current} ${where} ORDER BY ${orderBy}`, [baId, ...params]);
      return rows.map(toRow);
    },
    get: async (db: Db, baId: string, id: string): Promise<Row | null> => {
      const { rows } = await db.query(`SELECT ${columns} ${current} AND ${alias}.id = $2`, [baId, id]);
      return rows[0] ? toRow(rows[0]) : null;
    },
    file: async (db: Db, baId: string, id: string): Promise<StoredFile | null> => {
      const { rows } = await db.query<{ file: StoredFile }>(`SELECT ${alias}.file ${current} AND ${alias}.id = $2`, [baId, id]);
      return rows[0]?.file ?? null;
    },
  };
}

// Bank accounts ----------------------------------------------------------------------------------------------

const toBankAccount = (r: Raw): BankAccountRow => ({
  id: String(r.id),
  baId: String(r.ba_id),
  primary: r.is_primary === true,
  accountNo: String(r.account_no ?? ''),
  ifscCode: String(r.ifsc_code ?? ''),
  micrNo: str(r.micr_no),
  accountName: String(r.account_name ?? ''),
  bankName: String(r.bank_name ?? ''),
  bankBranch: String(r.bank_branch ?? ''),
  reviewStatus: r.review_status as ReviewStatus,
  reviewRemarks: str(r.review_remarks),
  reviewedBy: str(r.reviewed_by),
  reviewedAt: time(r.reviewed_at),
  createdAt: time(r.created_at) ?? '',
  updatedAt: time(r.updated_at) ?? '',
});

/** The primary account first, then the additional ones as they were added. */
const bankAccounts = itemTable('ba_bank_accounts', 'a', 'a.*', 'a.is_primary DESC, a.created_at, a.id', toBankAccount);
export const listBankAccounts = (db: Db, baId: string): Promise<BankAccountRow[]> => bankAccounts.list(db, baId);
export const getBankAccount = bankAccounts.get;

// GST registrations ------------------------------------------------------------------------------------------

const GST_COLUMNS = `g.*, ${masterName('states', 'g.state_id')} AS state_name, ${masterName('cities', 'g.city_id')} AS city_name`;

const toGst = (r: Raw): GstRegistrationRow => {
  const gstType = String(r.gst_type ?? '') as GstRegistration['gstType'];
  return {
    id: String(r.id),
    baId: String(r.ba_id),
    stateId: Number(r.state_id),
    stateName: str(r.state_name),
    gstType,
    gstTypeLabel: GST_TYPE_LABELS[gstType] ?? gstType,
    gstNo: str(r.gst_no),
    addressLine1: String(r.address_line1 ?? ''),
    addressLine2: str(r.address_line2),
    pinCode: String(r.pin_code ?? ''),
    cityId: Number(r.city_id),
    cityName: str(r.city_name),
    bankAccountId: str(r.bank_account_id),
    vendorCategory: str(r.vendor_category),
    createdAt: time(r.created_at) ?? '',
    updatedAt: time(r.updated_at) ?? '',
  };
};

const gstRegistrations = itemTable('ba_gst_registrations', 'g', GST_COLUMNS, 'g.created_at, g.id', toGst);
export const listGstRegistrations = (db: Db, baId: string): Promise<GstRegistrationRow[]> => gstRegistrations.list(db, baId);
export const getGstRegistration = gstRegistrations.get;

// Documents --------------------------------------------------------------------------------------------------

const DOC_COLUMNS = `d.*, ${masterName('states', 'd.state_id')} AS state_name`;

const toDocument = (r: Raw): DocumentRow => {
  const file = (r.file ?? {}) as Partial<StoredFile>;
  return {
    id: String(r.id),
    baId: String(r.ba_id),
    kind: r.kind as DocumentKind,
    documentTypeId: Number(r.document_type_id),
    documentTypeName: String(r.document_type_name ?? ''),
    documentNumber: str(r.document_number),
    validTill: str(r.valid_till),
    stateId: num(r.state_id),
    stateName: str(r.state_name),
    fileName: String(file.name ?? ''),
    fileSize: Number(file.size ?? 0),
    fileType: String(file.type ?? ''),
    reviewStatus: r.review_status as ReviewStatus,
    reviewRemarks: str(r.review_remarks),
    reviewedBy: str(r.reviewed_by),
    approvedTill: str(r.approved_till),
    reviewedAt: time(r.reviewed_at),
    expired: r.expired === true,
    uploadedAt: time(r.uploaded_at) ?? '',
    uploadedBy: str(r.uploaded_by),
    replaces: str(r.replaces),
  };
};

const documents = itemTable(
  'ba_documents',
  'd',
  DOC_COLUMNS,
  'd.kind DESC, d.document_type_name, d.state_id NULLS FIRST, d.uploaded_at, d.id',
  toDocument,
);

/** A BA's current documents (kind: only onboarding or only additional documents), by type name then upload. */
export const listDocuments = (db: Db, baId: string, filter: { kind?: DocumentKind } = {}): Promise<DocumentRow[]> =>
  documents.list(db, baId, 'AND ($2::text IS NULL OR d.kind = $2)', [filter.kind ?? null]);
export const getDocument = documents.get;
/** The stored file of a current document (the blob is named by its sha256), for the download route. */
export const getDocumentFile = documents.file;

export type AdditionalDocumentRow = DocumentRow & { companyName: string | null; companyCode: string };

const QUEUE_SORT: Record<string, string> = {
  id: 'd.id',
  uploadedAt: 'd.uploaded_at',
  reviewedAt: 'd.reviewed_at',
  documentTypeName: 'd.document_type_name',
  reviewStatus: 'd.review_status',
  companyName: 'b.company_name',
};
export const ADDITIONAL_DOCUMENT_SORT_FIELDS = Object.keys(QUEUE_SORT);

/**
 * The staff queue of additional documents (spec: verified BAs upload them, staff verify them), across the
 * BAs of the caller's company codes; oldest upload first by default, so the queue is worked in order.
 */
export async function listAdditionalDocuments(
  db: Db,
  query: {
    companyCodes: readonly string[] | 'all';
    reviewStatus?: ReviewStatus;
    baId?: string;
    range?: Partial<Range>;
    sort?: { field: string; order: string };
  },
): Promise<{ rows: AdditionalDocumentRow[]; total: number }> {
  const range = clampRange(query.range);
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [`d.kind = 'additional'`, 'NOT d.removed'];
  if (query.companyCodes !== 'all') where.push(`b.company_code = ANY(${param([...query.companyCodes])}::text[])`);
  if (query.reviewStatus) where.push(`d.review_status = ${param(query.reviewStatus)}`);
  if (query.baId) where.push(`d.ba_id = ${param(query.baId)}`);
  const from = `FROM ba_documents d JOIN business_associates b ON b.id = d.ba_id WHERE ${where.join(' AND ')}`;
  const column = (query.sort && QUEUE_SORT[query.sort.field]) ?? 'd.uploaded_at';
  const order = query.sort && QUEUE_SORT[query.sort.field] ? sortOrder(query.sort.order) : 'ASC';
  const countParams = [...params];
  const [page, count] = await Promise.all([
    db.query(
      `SELECT ${DOC_COLUMNS}, b.company_name, b.company_code ${from}
       ORDER BY ${column} ${order} NULLS LAST, d.ba_id ${order}, d.id ${order}
       LIMIT ${param(range.limit)} OFFSET ${param(range.offset)}`,
      params,
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total ${from}`, countParams),
  ]);
  return {
    rows: page.rows.map((r: Raw) => ({
      ...toDocument(r),
      // Across BAs the document id alone is the row's id (uuids chosen by the API).
      companyName: str(r.company_name),
      companyCode: String(r.company_code),
    })),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

/** Additional documents waiting for review in the caller's company codes (the sidebar badge). */
export async function countPendingAdditionalDocuments(db: Db, companyCodes: readonly string[] | 'all'): Promise<number> {
  const { rows } = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM ba_documents d JOIN business_associates b ON b.id = d.ba_id
     WHERE d.kind = 'additional' AND d.review_status = 'pending' AND NOT d.removed
     ${companyCodes === 'all' ? '' : 'AND b.company_code = ANY($1::text[])'}`,
    companyCodes === 'all' ? [] : [[...companyCodes]],
  );
  return Number(rows[0]?.total ?? 0);
}

// Concessions ------------------------------------------------------------------------------------------------

const CONCESSION_COLUMNS = `c.*, ${masterName('exemption-reasons', 'c.exemption_reason_id', 'description')} AS exemption_reason`;

const toConcession = (r: Raw): ConcessionRow => ({
  id: String(r.id),
  baId: String(r.ba_id),
  exemptionNumber: String(r.exemption_number ?? ''),
  exemptionRate: String(r.exemption_rate ?? ''),
  exemptionFrom: String(r.exemption_from ?? ''),
  exemptionTo: String(r.exemption_to ?? ''),
  exemptionReasonId: Number(r.exemption_reason_id),
  exemptionReason: str(r.exemption_reason),
  exemptionThreshold: String(r.exemption_threshold ?? ''),
  withHoldingTaxType: String(r.withholding_tax_type ?? ''),
  withHoldingTaxCode: String(r.withholding_tax_code ?? ''),
  sectionCode: String(r.section_code ?? ''),
  fileName: String((r.file as Partial<StoredFile> | null)?.name ?? ''),
  isInternalUpload: r.is_internal_upload === true,
  reviewStatus: r.review_status as ReviewStatus,
  reviewRemarks: str(r.review_remarks),
  reviewedBy: str(r.reviewed_by),
  reviewedAt: time(r.reviewed_at),
  createdAt: time(r.created_at) ?? '',
  updatedAt: time(r.updated_at) ?? '',
});

const concessions = itemTable('ba_concessions', 'c', CONCESSION_COLUMNS, 'c.created_at, c.id', toConcession);
export const listConcessions = (db: Db, baId: string): Promise<ConcessionRow[]> => concessions.list(db, baId);
export const getConcession = concessions.get;
export const getConcessionFile = concessions.file;

// Vertical mapping -------------------------------------------------------------------------------------------

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

/** The BA's vertical mapping; a BA without one gets empty lists and a null review status. */
export async function getVerticalMapping(db: Db, baId: string): Promise<VerticalMappingRow> {
  const { rows } = await db.query(`SELECT * FROM ba_vertical_mappings WHERE ba_id = $1`, [baId]);
  const r = rows[0] as Raw | undefined;
  return {
    baId,
    verticalIds: ids(r?.vertical_ids),
    subServiceIds: ids(r?.sub_service_ids),
    vehicleTypeIds: ids(r?.vehicle_type_ids),
    zoneIds: ids(r?.zone_ids),
    pickupZoneIds: ids(r?.pickup_zone_ids),
    deliveryZoneIds: ids(r?.delivery_zone_ids),
    reviewStatus: r ? (r.review_status as ReviewStatus) : null,
    reviewRemarks: str(r?.review_remarks),
    reviewedBy: str(r?.reviewed_by),
    reviewedAt: time(r?.reviewed_at),
    updatedAt: time(r?.updated_at),
  };
}

// Company applications ---------------------------------------------------------------------------------------

const toApplication = (r: Raw): CompanyApplicationRow => ({
  id: String(r.company_code),
  companyCode: String(r.company_code),
  first: r.is_first === true,
  status: r.status as CompanyApplicationRow['status'],
  stage: r.stage === 1 || r.stage === 2 ? r.stage : null,
  submission: Number(r.submission ?? 0),
  remarks: str(r.remarks),
  stage1ApprovedBy: str(r.stage1_approved_by),
  appliedAt: time(r.applied_at) ?? '',
  submittedAt: time(r.submitted_at),
  updatedAt: time(r.updated_at) ?? '',
});

/** Every company code the BA is registered for or applied for, the first (registration) code first. */
export async function listCompanyApplications(db: Db, baId: string): Promise<CompanyApplicationRow[]> {
  const { rows } = await db.query(
    `SELECT * FROM ba_company_applications WHERE ba_id = $1 ORDER BY is_first DESC, applied_at, company_code`,
    [baId],
  );
  return rows.map(toApplication);
}

export async function getCompanyApplication(db: Db, baId: string, companyCode: string): Promise<CompanyApplicationRow | null> {
  const { rows } = await db.query(`SELECT * FROM ba_company_applications WHERE ba_id = $1 AND company_code = $2`, [
    baId,
    companyCode,
  ]);
  return rows[0] ? toApplication(rows[0]) : null;
}

// Change requests --------------------------------------------------------------------------------------------

const toChangeRequest = (r: Raw): ChangeRequestRow => ({
  id: String(r.id),
  baId: String(r.ba_id),
  section: r.section as ChangeRequestRow['section'],
  proposed: (r.proposed ?? {}) as Record<string, unknown>,
  changes: (r.changes ?? {}) as ChangeRequestRow['changes'],
  status: r.status as ChangeRequestRow['status'],
  approvals: (r.approvals ?? []) as ChangeRequestRow['approvals'],
  remarks: str(r.remarks),
  raisedBy: str(r.raised_by),
  raisedAt: time(r.raised_at) ?? '',
  decidedBy: str(r.decided_by),
  decidedAt: time(r.decided_at),
  updatedAt: time(r.updated_at) ?? '',
});

/** A BA's change requests, newest first (filter: status). */
export async function listChangeRequests(
  db: Db,
  baId: string,
  filter: { status?: ChangeRequestRow['status'] | 'open' } = {},
): Promise<ChangeRequestRow[]> {
  const status = filter.status === 'open' ? ['pending', 'first-approved'] : filter.status ? [filter.status] : null;
  const { rows } = await db.query(
    `SELECT * FROM ba_change_requests WHERE ba_id = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[]))
     ORDER BY raised_at DESC, id DESC`,
    [baId, status],
  );
  return rows.map(toChangeRequest);
}

export async function getChangeRequest(db: Db, baId: string, id: string): Promise<ChangeRequestRow | null> {
  const { rows } = await db.query(`SELECT * FROM ba_change_requests WHERE ba_id = $1 AND id = $2`, [baId, id]);
  return rows[0] ? toChangeRequest(rows[0]) : null;
}
