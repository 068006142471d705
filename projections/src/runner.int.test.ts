import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { EventStore } from '../../domain/src/event-store/port';
import { createPostgresEventStore } from '../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../tests/support/postgres';
import type { Projection } from './projection';
import { allProjections } from './registry';
import { createProjector, LISTENER_APPLICATION_NAME, projectorLag, waitForProjections, type Projector } from './runner';
import { actors, createOnboardingDriver, type Onboarding } from './test-support';

let db: TestDatabase;
let store: EventStore;
let ba: Onboarding;
const running: Projector[] = [];
const logs: string[] = [];

function projector(options: { pollMs?: number; pageSize?: number; projections?: Projection[]; maxBackoffMs?: number } = {}) {
  // The application role, as the projector process connects (db.pool, the owner, is for the checks).
  const p = createProjector({
    pool: db.appPool,
    store,
    projections: options.projections ?? allProjections(),
    pollMs: options.pollMs ?? 60_000,
    pageSize: options.pageSize,
    maxBackoffMs: options.maxBackoffMs,
    log: (line) => logs.push(line),
  });
  running.push(p);
  return p;
}

const activityCount = async () => Number((await db.pool.query('SELECT count(*) AS n FROM activity_log')).rows[0].n);
const statusOf = async (id: string) =>
  (await db.pool.query('SELECT status, stage FROM business_associates WHERE id = $1', [id])).rows[0];

async function listenerPids(): Promise<number[]> {
  const { rows } = await db.pool.query(
    `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
    [LISTENER_APPLICATION_NAME],
  );
  return rows.map((r: { pid: number }) => r.pid);
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 6, empty: true });
  store = createPostgresEventStore(db.appPool);
  ba = createOnboardingDriver(store);
  logs.length = 0;
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await db.drop();
});

describe('projection runner', () => {
  it('catches up page by page, moving every checkpoint to the head', async () => {
    for (const id of ['r1', 'r2', 'r3']) {
      await ba.create(id);
      await ba.save(id);
    }
    await ba.submit('r2');
    const head = await store.headPosition();
    expect(await projectorLag(db.pool, store)).toMatchObject({ head, lag: head });
    expect(await projector({ pageSize: 2 }).catchUp()).toBe(head);
    expect(await projectorLag(db.pool, store)).toEqual({ head, checkpoint: head, lag: 0 });
    expect(await activityCount()).toBe(head);
    expect(await statusOf('r2')).toEqual({ status: 'inprogress', stage: 1 });
  });

  it('wakes on NOTIFY without waiting for the poll, and skips events nobody knows', async () => {
    const p = projector({ pollMs: 60_000 });
    await p.start();
    await until(async () => (await listenerPids()).length === 1);
    await store.appendToStream(
      'other-1',
      [{ eventId: randomUUID(), type: 'SomethingNobodyKnows', data: { baId: 'n1' }, metadata: {} as never }],
      { expectedVersion: 'no_stream' },
    );
    const position = (await ba.create('n1')) && (await ba.save('n1'));
    expect(await waitForProjections(db.pool, position, { timeoutMs: 10_000 })).toBe(true);
    expect(await statusOf('n1')).toEqual({ status: 'pending', stage: null });
    expect(logs.filter((l) => l.includes('failed'))).toEqual([]);
  });

  it('reconnects its LISTEN connection when it drops', async () => {
    const p = projector({ pollMs: 60_000 });
    await p.start();
    await until(async () => (await listenerPids()).length === 1);
    const [old] = await listenerPids();
    await db.pool.query('SELECT pg_terminate_backend($1)', [old]);
    await until(async () => {
      const pids = await listenerPids();
      return pids.length === 1 && pids[0] !== old;
    });
    const position = await ba.create('after-drop');
    expect(await waitForProjections(db.pool, position, { timeoutMs: 10_000 })).toBe(true);
    expect(logs.some((l) => l.includes('LISTEN connection lost'))).toBe(true);
  });

  it('resumes from its checkpoints after a stop, applying each event exactly once', async () => {
    const first = projector({ pollMs: 50 });
    await first.start();
    await ba.create('s1');
    const p1 = await ba.save('s1');
    expect(await waitForProjections(db.pool, p1, { timeoutMs: 10_000 })).toBe(true);
    await first.stop();

    await ba.submit('s1');
    const p2 = await ba.approve('s1', 1, actors.procurement);
    expect(await waitForProjections(db.pool, p2, { timeoutMs: 200 })).toBe(false);
    expect((await projectorLag(db.pool, store)).lag).toBe(p2 - p1);

    const second = projector({ pollMs: 50 });
    await second.start();
    expect(await waitForProjections(db.pool, p2, { timeoutMs: 10_000 })).toBe(true);
    expect(await statusOf('s1')).toEqual({ status: 'inprogress', stage: 2 });
    expect(await activityCount()).toBe(p2);
    const tasks = await db.pool.query(`SELECT id, status FROM tasks ORDER BY id`);
    expect(tasks.rows).toEqual([
      { id: 's1:1:1', status: 'done' },
      { id: 's1:1:2', status: 'open' },
    ]);
  });

  it('logs a failing projection and retries it with backoff while the others keep going', async () => {
    let calls = 0;
    const flaky: Projection = {
      name: 'flaky',
      tables: ['flaky_rows'],
      schema: (t) => `CREATE TABLE IF NOT EXISTS ${t('flaky_rows')} (position bigint PRIMARY KEY)`,
      apply: async (client: PoolClient, events, t) => {
        calls += 1;
        // Writes first, then fails: the rollback must take the write back with the checkpoint.
        for (const e of events) await client.query(`INSERT INTO ${t('flaky_rows')} VALUES ($1)`, [e.globalPosition]);
        if (calls <= 2) throw new Error('read model unavailable');
      },
    };
    await db.pool.query(flaky.schema((b) => b));
    const projections = [...allProjections(), flaky];
    const p = projector({ pollMs: 20, projections, maxBackoffMs: 2_000 });
    await p.start();
    const position = await ba.create('f1');
    expect(await waitForProjections(db.pool, position, { timeoutMs: 5_000, names: ['business_associates'] })).toBe(true);
    expect(await waitForProjections(db.pool, position, { timeoutMs: 10_000, names: ['flaky'] })).toBe(true);
    const rows = await db.pool.query('SELECT position FROM flaky_rows');
    expect(rows.rows.map((r: { position: number }) => Number(r.position))).toEqual([position]);
    expect(calls).toBe(3);
    expect(logs.filter((l) => l.includes('projection flaky failed'))).toHaveLength(2);
    expect(logs[0]).toMatch(/read model unavailable; retrying in \d+ ms/);
  });

  it('leaves a projection that keeps failing behind without stopping catch-up', async () => {
    const broken: Projection = {
      name: 'broken',
      tables: [],
      schema: () => '',
      apply: async () => {
        throw new Error('always broken');
      },
    };
    const position = await ba.create('b1');
    const lowest = await projector({ projections: [...allProjections(), broken] }).catchUp();
    expect(lowest).toBe(0);
    expect(await waitForProjections(db.pool, position, { timeoutMs: 1_000, names: ['business_associates', 'tasks'] })).toBe(true);
    expect(await waitForProjections(db.pool, position, { timeoutMs: 100 })).toBe(false);
    expect(logs.some((l) => l.includes('projection broken failed after position 0 (attempt 1): always broken'))).toBe(true);
  });
});
