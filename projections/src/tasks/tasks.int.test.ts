import type { EventStore } from '../../../domain/src/event-store/port';
import { REVIEW_STAGE_ROLES } from '../../../domain/src/identity/roles';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { actors, applyDirectly, createOnboardingDriver, dumpTables, foreignEvent, type Onboarding } from '../test-support';
import { createTasksProjection } from './tasks.projection';
import { countTasks, listTasks } from './tasks.queries';

const SLA_MS = 2 * 60 * 60 * 1000;
const projection = createTasksProjection({ reviewSlaMs: SLA_MS });

let db: TestDatabase;
let store: EventStore;
let ba: Onboarding;

async function project(): Promise<void> {
  await applyDirectly(db.pool, projection, await store.readAll(0, 10_000));
}

const procurement = { roles: ['MLL Procurement'], companyCodes: ['1000'], userId: actors.procurement.userId };
const admin = { roles: ['MLL-ADMIN'], companyCodes: ['1000'], userId: actors.admin.userId };
const commercial = { roles: ['MLL Commercial'], companyCodes: ['1000'], userId: actors.commercial.userId };

async function tasksOf(pool: TestDatabase['pool']) {
  const { rows } = await pool.query(
    `SELECT id, stage, submission, status, company_name, excluded_user_id, closed_by, overdue, candidate_roles
     FROM tasks ORDER BY id`,
  );
  return rows;
}

async function submitted(id: string, companyCode = '1000'): Promise<void> {
  await ba.create(id, companyCode);
  await ba.save(id, { companyName: `Company ${id}` });
  await ba.submit(id);
}

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
  ba = createOnboardingDriver(store);
});

afterEach(async () => {
  await db.drop();
});

describe('tasks projection', () => {
  it('opens a stage-1 task on submission and a stage-2 task on stage-1 approval, closing each on its decision', async () => {
    await submitted('b1');
    const submittedAt = ba.now();
    await project();
    expect(await tasksOf(db.pool)).toEqual([
      {
        id: 'b1:1:1',
        stage: 1,
        submission: 1,
        status: 'open',
        company_name: 'Company b1',
        excluded_user_id: null,
        closed_by: null,
        overdue: false,
        candidate_roles: [...REVIEW_STAGE_ROLES[1]],
      },
    ]);
    const [task] = (await listTasks(db.pool, procurement)).rows;
    expect(task).toMatchObject({ id: 'b1:1:1', baId: 'b1', companyCode: '1000', stage: 1, overdue: false });
    expect(task?.createdAt).toBe(submittedAt);
    expect(task?.slaDueAt).toBe(new Date(new Date(submittedAt).getTime() + SLA_MS).toISOString());
    expect(task?.ageSeconds).toBeGreaterThan(0);
    expect(await countTasks(db.pool, commercial)).toBe(0);

    await ba.approve('b1', 1, actors.admin);
    await project();
    expect(await countTasks(db.pool, procurement)).toBe(0);
    expect((await listTasks(db.pool, commercial)).rows.map((t) => t.id)).toEqual(['b1:1:2']);

    await ba.approve('b1', 2, actors.commercial);
    await project();
    expect(await countTasks(db.pool, commercial)).toBe(0);
    expect((await tasksOf(db.pool)).map((t) => [t.id, t.status, t.closed_by])).toEqual([
      ['b1:1:1', 'done', actors.admin.userId],
      ['b1:1:2', 'done', actors.commercial.userId],
    ]);
  });

  it('hides a stage-2 task from the person who approved stage 1', async () => {
    await submitted('b2');
    await ba.approve('b2', 1, actors.admin);
    await project();
    expect(await tasksOf(db.pool)).toContainEqual(expect.objectContaining({ id: 'b2:1:2', excluded_user_id: actors.admin.userId }));
    expect(await countTasks(db.pool, admin)).toBe(0);
    const otherAdmin = { ...admin, userId: 'u-admin-2' };
    expect((await listTasks(db.pool, otherAdmin)).rows.map((t) => t.id)).toEqual(['b2:1:2']);
  });

  it('closes a task on rejection and opens a new one for the resubmission', async () => {
    await submitted('b3');
    await ba.reject('b3', 1, actors.procurement, 'Wrong PAN');
    await project();
    expect(await countTasks(db.pool, procurement)).toBe(0);
    await ba.save('b3', { panNumber: 'ZZZZZ9999Z' });
    await ba.submit('b3');
    await project();
    expect((await listTasks(db.pool, procurement)).rows.map((t) => [t.id, t.submission])).toEqual([['b3:2:1', 2]]);
  });

  it('marks a task overdue with the workflow due time', async () => {
    await submitted('b4');
    const dueAt = '2026-01-05T09:30:00.000Z';
    await ba.overdue('b4', 1, 1, dueAt);
    await project();
    const [task] = (await listTasks(db.pool, procurement)).rows;
    expect(task).toMatchObject({ id: 'b4:1:1', overdue: true, slaDueAt: dueAt });
    expect(task?.overdueAt).toBe(ba.now());
  });

  it('scopes tasks by company code and role, and sorts and pages them', async () => {
    await submitted('c1');
    await submitted('c2');
    await submitted('c3', '2000');
    await project();
    expect(await listTasks(db.pool, procurement)).toMatchObject({ total: 2, rows: [{ id: 'c1:1:1' }, { id: 'c2:1:1' }] });
    expect((await listTasks(db.pool, { ...procurement, companyCodes: 'all' })).total).toBe(3);
    expect(await countTasks(db.pool, { ...procurement, roles: ['Auditor', 'BA Admin'] })).toBe(0);
    const page = await listTasks(db.pool, { ...procurement, sort: { field: 'ageSeconds', order: 'ASC' }, range: { offset: 0, limit: 1 } });
    expect(page).toMatchObject({ total: 2, rows: [{ id: 'c2:1:1' }] });
  });

  it('gives the same rows when events are applied again, one by one, or with unknown events among them', async () => {
    await submitted('d1');
    await ba.approve('d1', 1, actors.procurement);
    await submitted('d2');
    await ba.overdue('d2', 1, 1, ba.now());
    await ba.reject('d2', 1, actors.admin, 'Blurred documents');
    const events = await store.readAll(0, 1000);
    for (const e of events) await applyDirectly(db.pool, projection, [e]);
    const once = await dumpTables(db.pool, ['tasks', 'task_subjects']);
    await applyDirectly(db.pool, projection, [foreignEvent(events.length + 1), ...events]);
    expect(await dumpTables(db.pool, ['tasks', 'task_subjects'])).toEqual(once);
    expect(once.tasks).toHaveLength(3);
  });
});
