import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { NewEvent } from '../../../domain/src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { loadConfig } from '../config';
import { verifyHashChain } from '../event-store/hash';
import { createPostgresEventStore } from '../event-store/postgres';
import { openDatabase } from './connect';
import { appConnectionProblems, ensureRoles } from './roles';
import { applySchema } from './schema';
import { testMetadata as metadata } from '../event-store/testing';

const ev = (type: string): NewEvent => ({ eventId: randomUUID(), type, data: { n: 1 }, metadata });

/** A permission error, not the append-only trigger's (which a superuser or the owner would meet instead). */
const PERMISSION = /permission denied|must be owner/;

const appRole = () => process.env.TEST_DATABASE_APP_ROLE!;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  await createPostgresEventStore(db.appPool).appendToStream('ba-seed', [ev('A'), ev('B')], { expectedVersion: 'no_stream' });
});
afterAll(async () => {
  await db.drop();
});

/** Runs `sql` on a connection of its own as the application role (a failed statement leaves nothing behind). */
async function asApp(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: db.appUrl });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

describe('the application role', () => {
  it('is a plain login role: no superuser, createdb, createrole, replication, bypassrls, server programs or files', async () => {
    const { rows } = await db.pool.query(
      `select rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolcanlogin,
              pg_has_role(rolname, 'pg_execute_server_program', 'member') as program,
              pg_has_role(rolname, 'pg_read_server_files', 'member') as read_files,
              pg_has_role(rolname, 'pg_write_server_files', 'member') as write_files,
              pg_has_role(rolname, 'pg_write_all_data', 'member') as write_all
         from pg_roles where rolname = $1`,
      [appRole()],
    );
    expect(rows[0]).toEqual({
      rolsuper: false,
      rolcreatedb: false,
      rolcreaterole: false,
      rolreplication: false,
      rolbypassrls: false,
      rolcanlogin: true,
      program: false,
      read_files: false,
      write_files: false,
      write_all: false,
    });
  });

  const refused: [string, string][] = [
    ['update stored events', `update events set data = '{"forged": true}' where version = 0`],
    ['delete stored events', 'delete from events'],
    ['truncate events', 'truncate events'],
    ['insert into events directly', `insert into events select global_position + 100, stream_id, version + 100, gen_random_uuid(), type, data, metadata, recorded_at, prev_hash, hash from events limit 1`],
    ['move the head row', 'update event_store_head set position = 0'],
    ['disable the append-only trigger', 'alter table events disable trigger all'],
    ['drop the append-only trigger', 'drop trigger events_append_only on events'],
    ['append without the head lock', `select append_split_locked('ba-x', 'any', '{}', '{}', '{}', '{}', '{}', '{}', null)`],
    [
      'append columns without the head lock',
      `select append_columns_locked('{ba-x}', '{any}', '{0}', '{}', '{}', '{}', '{}', '{}', '{}', '{}')`,
    ],
    ['create a table', 'create table sneaky (id int)'],
    ['create a schema', 'create schema sneaky'],
    ['replace an append function', `create or replace function append_to_streams(p jsonb) returns jsonb language sql as 'select p'`],
    ['run a server program', `copy (select 1) to program 'true'`],
    ['read a server file', `select pg_read_file('/etc/hostname')`],
    ['switch triggers off for the session', 'set session_replication_role = replica'],
    ['become the owner', 'set role postgres'],
    ['make itself a superuser', `alter role current_user superuser`],
    ['truncate a read model', 'truncate projection_checkpoints'],
  ];
  it.each(refused)('may not %s', async (_what, sql) => {
    await expect(asApp(sql)).rejects.toThrow(PERMISSION);
  });

  it('cannot grant itself write access to events', async () => {
    // Holding SELECT, PostgreSQL answers a grant without grant option with a warning, not an error.
    await asApp('grant update, delete, truncate on events to current_user').catch(() => undefined);
    await expect(asApp('delete from events')).rejects.toThrow(PERMISSION);
  });

  it('appends through the store adapter, singly and coalesced, and the chain stays intact', async () => {
    const store = createPostgresEventStore(db.appPool);
    const one = await store.appendToStream(`ba-${randomUUID()}`, [ev('Created')], { expectedVersion: 'no_stream' });
    expect(one.nextExpectedVersion).toBe(0);
    // Concurrent appends go out together through append_to_streams.
    const many = await Promise.all(
      Array.from({ length: 5 }, () => store.appendToStream(`ba-${randomUUID()}`, [ev('Created')], { expectedVersion: 'no_stream' })),
    );
    expect(new Set(many.map((r) => r.lastGlobalPosition)).size).toBe(5);
    expect(await store.headPosition()).toBe(Math.max(...many.map((r) => r.lastGlobalPosition)));
    expect(await verifyHashChain(db.appPool)).toMatchObject({ ok: true });
  });

  it('cannot redirect an append into tables of its own (the append functions have a fixed search_path)', async () => {
    const client = new pg.Client({ connectionString: db.appUrl });
    await client.connect();
    try {
      // Temporary tables come first on the default search_path: without the fixed one, the append would
      // read this forged head and write here instead of the event store.
      await client.query('create temp table event_store_head (like public.event_store_head)');
      await client.query(`insert into event_store_head values (true, 1000, 'forged')`);
      await client.query('create temp table events (like public.events)');
      const { rows } = await client.query(`select * from append_to_stream($1, 'no_stream', $2::jsonb, $3::jsonb)`, [
        `ba-${randomUUID()}`,
        JSON.stringify([{ eventId: randomUUID(), type: 'Created', data: {} }]),
        JSON.stringify(metadata),
      ]);
      expect(rows[0].last_global_position).toBeLessThan(1000);
      expect((await client.query('select count(*)::int as n from pg_temp.events')).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
    expect(await verifyHashChain(db.pool)).toMatchObject({ ok: true });
  });

  it('reads and writes every read-model and operational table, but never truncates one', async () => {
    const { rows } = await db.pool.query<{ table: string; select: boolean; write: boolean; truncate: boolean }>(
      `select c.relname as table,
              has_table_privilege($1, c.oid, 'select') as select,
              has_table_privilege($1, c.oid, 'insert') and has_table_privilege($1, c.oid, 'update')
                and has_table_privilege($1, c.oid, 'delete') as write,
              has_table_privilege($1, c.oid, 'truncate') as truncate
         from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
        order by 1`,
      [appRole()],
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      const readOnly = r.table === 'events' || r.table === 'event_store_head';
      expect(r).toEqual({ table: r.table, select: true, write: !readOnly, truncate: false });
    }
    // And really writes: a read model (its checkpoint row) and an operational table with an identity column.
    await asApp(`insert into projection_checkpoints (name, position) values ('grant-test', 1)`);
    await asApp(`update projection_checkpoints set position = 2 where name = 'grant-test'`);
    await asApp(`delete from projection_checkpoints where name = 'grant-test'`);
    const id = randomUUID();
    await asApp(`insert into outbox (id, channel, recipient, template, body) values ($1, 'sms', '9876543210', 't', 'b')`, [id]);
    await asApp('delete from outbox where id = $1', [id]);
  });

  it('keeps its grants and refusals when the schema is applied again, and gets tables the owner adds later', async () => {
    await applySchema(db.pool);
    await ensureRoles(db.pool, { appRole: appRole() });
    await ensureRoles(db.pool, { appRole: appRole() });
    await expect(asApp(`select append_split_locked('ba-x', 'any', '{}', '{}', '{}', '{}', '{}', '{}', null)`)).rejects.toThrow(PERMISSION);
    await expect(asApp(`select append_columns_locked('{ba-x}', '{any}', '{0}', '{}', '{}', '{}', '{}', '{}', '{}', '{}')`)).rejects.toThrow(PERMISSION);
    await expect(asApp('delete from events')).rejects.toThrow(PERMISSION);
    await createPostgresEventStore(db.appPool).appendToStream(`ba-${randomUUID()}`, [ev('Again')], { expectedVersion: 'no_stream' });

    // Created by the owner after the grants ran (e.g. the projections rebuild's fresh tables).
    await db.pool.query('create table later_read_model (id int primary key, n bigint generated always as identity)');
    await asApp('insert into later_read_model (id) values (1)');
    await asApp('update later_read_model set id = 2');
    await asApp('delete from later_read_model');
  });
});

describe('ensureRoles', () => {
  it('creates a missing role and takes away what an existing one must not have', async () => {
    const role = `roles_test_${randomUUID().slice(0, 8)}`;
    const scratch = await createTestDatabase({ poolSize: 2 });
    try {
      await ensureRoles(scratch.pool, { appRole: role });
      const created = await scratch.pool.query('select rolsuper, rolcreatedb, rolcanlogin from pg_roles where rolname = $1', [role]);
      expect(created.rows[0]).toEqual({ rolsuper: false, rolcreatedb: false, rolcanlogin: true });

      await scratch.pool.query(`alter role ${role} createdb bypassrls`);
      await scratch.pool.query(`grant pg_execute_server_program, pg_write_all_data to ${role}`);
      await ensureRoles(scratch.pool, { appRole: role });
      const fixed = await scratch.pool.query(
        `select rolcreatedb, rolbypassrls, pg_has_role(rolname, 'pg_execute_server_program', 'member') as program,
                pg_has_role(rolname, 'pg_write_all_data', 'member') as write_all
           from pg_roles where rolname = $1`,
        [role],
      );
      expect(fixed.rows[0]).toEqual({ rolcreatedb: false, rolbypassrls: false, program: false, write_all: false });
    } finally {
      await scratch.drop();
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop role if exists ${role}`).finally(() => admin.end());
    }
  });

  it('works for an owner that is no superuser (CREATEROLE, owns the database: the docker-compose set-up)', async () => {
    const suffix = randomUUID().slice(0, 8);
    const [owner, app, database] = [`owner_${suffix}`, `app_${suffix}`, `owned_${suffix}`];
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
    await admin.connect();
    const at = (user: string) => {
      const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
      url.username = user;
      url.pathname = `/${database}`;
      return url.toString();
    };
    const ownerPool = new pg.Pool({ connectionString: at(owner), max: 2 });
    const appPool = new pg.Pool({ connectionString: at(app), max: 2 });
    // end() resolves before the sockets close: the forced DROP DATABASE below may still terminate one.
    for (const p of [ownerPool, appPool]) p.on('error', () => undefined);
    try {
      await admin.query(`create role ${owner} login createrole nosuperuser nocreatedb`);
      await admin.query(`create database ${database} owner ${owner}`);
      await applySchema(ownerPool);
      await ensureRoles(ownerPool, { appRole: app, appPassword: 'a-password-of-16-or-more' });
      await ensureRoles(ownerPool, { appRole: app, appPassword: 'a-password-of-16-or-more' });

      const store = createPostgresEventStore(appPool);
      await store.appendToStream(`ba-${suffix}`, [ev('Created'), ev('Saved')], { expectedVersion: 'no_stream' });
      expect(await appConnectionProblems(appPool)).toEqual({ role: app, problems: [] });
      expect((await appConnectionProblems(ownerPool)).problems).toEqual(['the owner of the event store tables']);
      await expect(appPool.query('delete from events')).rejects.toThrow(PERMISSION);
      await expect(appPool.query('alter table events disable trigger all')).rejects.toThrow(PERMISSION);
      await expect(appPool.query('create table sneaky (id int)')).rejects.toThrow(PERMISSION);
      expect(await verifyHashChain(appPool)).toMatchObject({ ok: true, checked: 2 });
    } finally {
      await Promise.all([ownerPool.end(), appPool.end()]);
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.query(`drop role if exists ${app}`);
      await admin.query(`drop role if exists ${owner}`);
      await admin.end();
    }
  });

  it('refuses to make the owner the application role', async () => {
    const { rows } = await db.pool.query<{ user: string }>('select current_user as user');
    await expect(ensureRoles(db.pool, { appRole: rows[0]!.user })).rejects.toThrow(/must not be the role that owns/);
  });
});

describe('a process in app mode', () => {
  const withPassword = (url: string) => {
    const u = new URL(url);
    u.password = 'not-to-be-echoed';
    return u.toString();
  };
  const configFor = (url: string, env: 'production' | 'development') =>
    loadConfig({ NODE_ENV: env, DATABASE_URL: url, DATABASE_APP_ROLE: appRole() });

  it('reports a superuser or owner connection, and none for the application role', async () => {
    expect((await appConnectionProblems(db.pool)).problems).toEqual(['a superuser']);
    expect(await appConnectionProblems(db.appPool)).toEqual({ role: appRole(), problems: [] });
  });

  it('refuses to start in production on the owner’s connection, naming DATABASE_URL without its secret', async () => {
    const attempt = openDatabase(configFor(withPassword(db.url), 'production'), { mode: 'app', poolSize: 1 });
    await expect(attempt).rejects.toThrow(/Refusing to start: DATABASE_URL connects as .*superuser/);
    await attempt.catch((e: Error) => expect(e.message).not.toContain('not-to-be-echoed'));
  });

  it('only warns outside production, and starts quietly as the application role', async () => {
    const lines: string[] = [];
    const owner = await openDatabase(configFor(db.url, 'development'), { mode: 'app', poolSize: 1, log: (l) => lines.push(l) });
    await owner.close();
    expect(lines).toEqual([expect.stringMatching(/^warning: DATABASE_URL connects as .*superuser/)]);

    lines.length = 0;
    const app = await openDatabase(configFor(db.appUrl, 'production'), { mode: 'app', poolSize: 1, log: (l) => lines.push(l) });
    await app.close();
    expect(lines).toEqual([]);
  });
});
