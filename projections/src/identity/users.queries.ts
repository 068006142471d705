import type { Pool } from 'pg';
import type { AppAccess } from '../../../domain/src/identity/applications';
import type { Role } from '../../../domain/src/identity/roles';
import type { UserKind, UserStatus } from '../../../domain/src/identity/users';
import type { Db, Range, SortOrder } from '../sql';
import { likeEscape } from '../sql';

export type UserRecord = {
  id: string;
  username: string;
  name: string;
  /** The `credentials` row that is the user's password (null: none set yet, e.g. an invited account). */
  credentialId: string | null;
  /** The current and earlier credential ids (newest first, at most five) for the reuse rule. */
  credentialHistory: string[];
  passwordChangedAt: string | null;
  mustChangePassword: boolean;
  mobileNo: string | null;
  department: string | null;
  kind: UserKind;
  status: UserStatus;
  roles: Role[];
  applications: AppAccess[];
  companyCodes: string[];
  baId: string | null;
  /** A child Bill-Hub user's GST state (catalogue id); null for everyone else. */
  billHubStateId: number | null;
  createdAt: string;
  version: number;
};

type Row = {
  id: string;
  username: string;
  name: string;
  credential_id: string | null;
  credential_history: string[];
  password_changed_at: string | null;
  must_change_password: boolean;
  mobile_no: string | null;
  department: string | null;
  kind: UserKind;
  status: UserStatus;
  roles: string[];
  applications: AppAccess[];
  company_codes: string[];
  ba_id: string | null;
  bill_hub_state_id: number | null;
  created_at: string;
  stream_version: number;
};

const toUser = (r: Row): UserRecord => ({
  id: r.id,
  username: r.username,
  name: r.name,
  credentialId: r.credential_id,
  credentialHistory: r.credential_history,
  passwordChangedAt: r.password_changed_at,
  mustChangePassword: r.must_change_password,
  mobileNo: r.mobile_no,
  department: r.department,
  kind: r.kind,
  status: r.status,
  roles: r.roles as Role[],
  applications: r.applications,
  companyCodes: r.company_codes,
  baId: r.ba_id,
  billHubStateId: r.bill_hub_state_id,
  createdAt: r.created_at,
  version: r.stream_version,
});

// Times leave PostgreSQL as ISO text (see ARCHITECTURE.md, "List rows").
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const columns = `id, username, name, credential_id, credential_history, ${iso('password_changed_at')} AS password_changed_at,
  must_change_password, mobile_no, department, kind, status, roles, applications, company_codes, ba_id,
  bill_hub_state_id, ${iso('created_at')} AS created_at, stream_version`;

/** Usernames are lower-cased e-mail addresses; the lookup is case-insensitive for the caller's sake. */
export async function findUserByUsername(db: Db, username: string): Promise<UserRecord | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM users WHERE username = $1`, [username.trim().toLowerCase()]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findUserById(db: Db, id: string): Promise<UserRecord | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM users WHERE id = $1`, [id]);
  return rows[0] ? toUser(rows[0]) : null;
}

/** Every user holding this mobile number (a mobile is unique among users, but old data may repeat one). */
export async function findUsersByMobile(db: Db, mobileNo: string): Promise<UserRecord[]> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM users WHERE mobile_no = $1`, [mobileNo.trim()]);
  return rows.map(toUser);
}

export const USER_SORT_FIELDS = ['name', 'username', 'createdAt', 'status', 'kind'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
const sortColumn: Record<UserSortField, string> = {
  name: 'name',
  username: 'username',
  createdAt: 'created_at',
  status: 'status',
  kind: 'kind',
};

export type UserListQuery = {
  kind?: UserKind;
  baId?: string;
  /** Only users holding at least one of these company codes (staff scoping). */
  companyCodes?: readonly string[];
  status?: UserStatus;
  role?: string;
  appId?: string;
  /** true: only child Bill-Hub users; false: everyone but them. */
  billHub?: boolean;
  q?: string;
  ids?: readonly string[];
  sort: { field: UserSortField; order: SortOrder };
  range: Range;
};

export async function listUsers(db: Pool | Db, query: UserListQuery): Promise<{ rows: UserRecord[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (query.kind) add((p) => `kind = ${p}`, query.kind);
  if (query.baId) add((p) => `ba_id = ${p}`, query.baId);
  if (query.companyCodes) add((p) => `company_codes && ${p}::text[]`, query.companyCodes);
  if (query.status) add((p) => `status = ${p}`, query.status);
  if (query.role) add((p) => `${p} = ANY(roles)`, query.role);
  if (query.appId) add((p) => `applications @> jsonb_build_array(jsonb_build_object('appId', ${p}::text))`, query.appId);
  if (query.billHub !== undefined) where.push(`bill_hub_state_id IS ${query.billHub ? 'NOT ' : ''}NULL`);
  if (query.ids) add((p) => `id = ANY(${p}::text[])`, query.ids);
  if (query.q) add((p) => `(name ILIKE ${p} OR username ILIKE ${p} OR mobile_no ILIKE ${p})`, `%${likeEscape(query.q)}%`);
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const order = `${sortColumn[query.sort.field]} ${query.sort.order === 'DESC' ? 'DESC' : 'ASC'}, id ASC`;
  const { rows } = await db.query<Row & { total: number }>(
    `SELECT ${columns}, count(*) OVER ()::int AS total FROM users ${filter} ORDER BY ${order}
     LIMIT ${Math.trunc(query.range.limit)} OFFSET ${Math.trunc(query.range.offset)}`,
    params,
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.range.offset > 0) {
    const counted = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM users ${filter}`, params);
    total = counted.rows[0]?.total ?? 0;
  }
  return { rows: rows.map(toUser), total };
}
