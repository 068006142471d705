import type pg from 'pg';

/**
 * Whether the demo seed has run on this database (issue 6: "the seed runs only into an empty store, or is a
 * no-op once it has run" and "/health readiness comes after the seed has finished"). One row, written by the
 * seed; read by /health so the printed demo logins work once it answers ready.
 */
export type DemoSeedStatus = 'none' | 'running' | 'done' | 'skipped';

export const DEMO_SEED_SCHEMA_SQL = /* sql */ `
create table if not exists demo_seed (
  id boolean primary key default true check (id),
  status text not null check (status in ('running', 'done', 'skipped')),
  detail text,
  started_at timestamptz not null default now(),
  finished_at timestamptz
);`;

export async function ensureDemoSeedSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(DEMO_SEED_SCHEMA_SQL);
}

export async function demoSeedStatus(db: pg.Pool | pg.PoolClient): Promise<DemoSeedStatus> {
  const r = await db.query<{ status: DemoSeedStatus }>('select status from demo_seed where id');
  return r.rows[0]?.status ?? 'none';
}

/** Records the seed's progress; `detail` says why it was skipped (e.g. "the store already holds events"). */
export async function setDemoSeedStatus(
  db: pg.Pool | pg.PoolClient,
  status: Exclude<DemoSeedStatus, 'none'>,
  detail: string | null = null,
): Promise<void> {
  await db.query(
    `insert into demo_seed (id, status, detail, started_at, finished_at)
       values (true, $1, $2, now(), case when $1 = 'running' then null else now() end)
     on conflict (id) do update set status = excluded.status, detail = excluded.detail,
       finished_at = case when excluded.status = 'running' then null else now() end`,
    [status, detail],
  );
}
