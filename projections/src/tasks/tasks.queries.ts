import { clampRange, iso, sortOrder, type Db, type Range } from '../sql';

export type TaskRow = {
  id: string;
  baId: string;
  companyCode: string;
  companyName: string | null;
  stage: 1 | 2;
  submission: number;
  candidateRoles: string[];
  createdAt: string;
  slaDueAt: string;
  /** Seconds since the task opened, at the time of the query. */
  ageSeconds: number;
  overdue: boolean;
  overdueAt: string | null;
};

export type TaskScope = {
  /** The caller's roles: a task is theirs when its candidate roles include one of them. */
  roles: readonly string[];
  companyCodes: readonly string[] | 'all';
  /** The caller: a stage-2 task is not shown to the person who approved stage 1. */
  userId: string;
};

const SORT_COLUMNS: Record<string, string> = {
  id: 'id',
  baId: 'ba_id',
  companyCode: 'company_code',
  companyName: 'company_name',
  stage: 'stage',
  submission: 'submission',
  createdAt: 'created_at',
  // Older tasks are "older": sorting by age ascending is sorting by opening time descending.
  ageSeconds: 'created_at',
  slaDueAt: 'sla_due_at',
  overdue: 'overdue',
};

function scopeWhere(scope: TaskScope, params: unknown[]): string {
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [
    `status = 'open'`,
    `candidate_roles && ${param(scope.roles)}::text[]`,
    `(excluded_user_id IS NULL OR excluded_user_id <> ${param(scope.userId)})`,
  ];
  if (scope.companyCodes !== 'all') where.push(`company_code = ANY(${param(scope.companyCodes)}::text[])`);
  return where.join(' AND ');
}

type DbRow = {
  id: string;
  ba_id: string;
  company_code: string;
  company_name: string | null;
  stage: number;
  submission: number;
  candidate_roles: string[];
  created_at: Date;
  sla_due_at: Date;
  age_seconds: string;
  overdue: boolean;
  overdue_at: Date | null;
};

/** The caller's open review tasks ("My Pending Task"), oldest first by default. */
export async function listTasks(
  db: Db,
  query: TaskScope & { range?: Partial<Range>; sort?: { field: string; order: string } },
): Promise<{ rows: TaskRow[]; total: number }> {
  const range = clampRange(query.range);
  const params: unknown[] = [];
  const where = scopeWhere(query, params);
  const field = query.sort?.field ?? 'createdAt';
  const column = SORT_COLUMNS[field] ?? 'created_at';
  let order = SORT_COLUMNS[field] ? sortOrder(query.sort?.order) : 'ASC';
  if (field === 'ageSeconds') order = order === 'ASC' ? 'DESC' : 'ASC';
  const countParams = [...params];
  params.push(range.limit, range.offset);
  const [page, count] = await Promise.all([
    db.query<DbRow>(
      `SELECT id, ba_id, company_code, company_name, stage, submission, candidate_roles, created_at, sla_due_at,
              floor(extract(epoch FROM now() - created_at))::bigint AS age_seconds, overdue, overdue_at
       FROM tasks WHERE ${where}
       ORDER BY ${column} ${order}${column === 'id' ? '' : `, id ${order}`}
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM tasks WHERE ${where}`, countParams),
  ]);
  return {
    rows: page.rows.map((r) => ({
      id: r.id,
      baId: r.ba_id,
      companyCode: r.company_code,
      companyName: r.company_name,
      stage: r.stage === 2 ? 2 : 1,
      submission: r.submission,
      candidateRoles: r.candidate_roles,
      createdAt: iso(r.created_at) ?? '',
      slaDueAt: iso(r.sla_due_at) ?? '',
      ageSeconds: Math.max(0, Number(r.age_seconds)),
      overdue: r.overdue,
      overdueAt: iso(r.overdue_at),
    })),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

/** The "My Pending Task" badge. */
export async function countTasks(db: Db, scope: TaskScope): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM tasks WHERE ${scopeWhere(scope, params)}`,
    params,
  );
  return Number(rows[0]?.total ?? 0);
}
