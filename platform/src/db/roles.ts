import pg from 'pg';

/**
 * Least privilege in PostgreSQL (issue 6, design.md §12). Two roles:
 * - the owner: owns every table and function, runs the DDL (applySchema) and this module. Whoever runs
 *   `npm run db:migrate`, the supervisor when it has owner rights, `projections:rebuild`, tests' set-up.
 * - the application role (DATABASE_APP_ROLE): what the api, worker, projector and seed connect as. It reads
 *   the event store but appends only through `append_to_stream` / `append_to_streams` / `append_columns` (SECURITY DEFINER,
 *   owned by the owner), reads and writes every other table, and can do nothing else: no DDL, no direct
 *   write to `events`, no superuser-only settings, no `COPY … PROGRAM`. Not being the owner, it cannot
 *   disable the append-only trigger either.
 */

/** Tables the application only reads: written only by the append functions, running as the owner. */
export const APPEND_ONLY_TABLES = ['events', 'event_store_head'] as const;

/** The append functions the application calls (SECURITY DEFINER, see event-store/schema.ts). */
const APPEND_FUNCTIONS = [
  'append_to_stream(text, text, jsonb, jsonb)',
  'append_to_streams(jsonb)',
  'append_columns(text[], text[], int[], uuid[], text[], jsonb[], int[], jsonb[])',
];

/** Write without taking the head lock: only the append functions may call them, never the application. */
const INTERNAL_FUNCTIONS = [
  'append_split_locked(text, text, uuid[], text[], jsonb[], text[], jsonb[], text[], jsonb)',
  'append_columns_locked(text[], text[], int[], uuid[], text[], jsonb[], text[], int[], jsonb[], text[])',
];

/**
 * Predefined roles whose membership would undo the point: server files and programs (`COPY … PROGRAM`),
 * and the blanket data roles (pg_write_all_data would give UPDATE/DELETE on events).
 */
const FORBIDDEN_MEMBERSHIPS = [
  'pg_execute_server_program',
  'pg_read_server_files',
  'pg_write_server_files',
  'pg_write_all_data',
  'pg_read_all_data',
  'pg_signal_backend',
];

/** Arbitrary constant, the same as applySchema's: grants and DDL never interleave between processes. */
const SCHEMA_LOCK = 7_340_031;

export type RoleOptions = {
  appRole: string;
  /** Set (or reset) as the role's password when given; null keeps whatever it has (trust auth needs none). */
  appPassword?: string | null;
  /** The database to revoke CREATE on; default the connection's. */
  database?: string;
  log?: (line: string) => void;
};

type Queryable = pg.Pool | pg.PoolClient | pg.Client;

const ident = (name: string) => pg.escapeIdentifier(name);

/**
 * Creates the application role if missing and (re)applies its grants, idempotently. Run by the owner after
 * every applySchema, so tables later issues add are covered too; default privileges cover tables the owner
 * creates in between (the projections rebuild's fresh tables).
 */
export async function ensureRoles(owner: Queryable, options: RoleOptions): Promise<void> {
  const client = owner instanceof pg.Pool ? await owner.connect() : owner;
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    try {
      await ensureRolesLocked(client, options);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => undefined);
    }
  } finally {
    if (client !== owner) (client as pg.PoolClient).release();
  }
}

async function ensureRolesLocked(client: pg.PoolClient | pg.Client, options: RoleOptions): Promise<void> {
  const { appRole } = options;
  const app = ident(appRole);
  const who = await client.query<{ owner: string; schema: string; database: string }>(
    'select current_user as owner, current_schema() as schema, current_database() as database',
  );
  const { owner, schema } = who.rows[0]!;
  const database = options.database ?? who.rows[0]!.database;
  if (owner === appRole) {
    throw new Error(
      `The application role (DATABASE_APP_ROLE=${appRole}) must not be the role that owns the schema: ` +
        'connect as the owner for migrations (DATABASE_OWNER_URL) and give the application a role of its own',
    );
  }

  await ensureRoleAttributes(client, appRole, options.log);
  if (options.appPassword) {
    try {
      await client.query(`alter role ${app} password ${pg.escapeLiteral(options.appPassword)}`);
    } catch (e) {
      if ((e as { code?: string }).code !== '42501') throw e;
      options.log?.(`warning: could not set the password of role ${appRole}; it must match DATABASE_APP_PASSWORD`);
    }
  }
  await dropForbiddenMemberships(client, appRole, owner);

  const s = ident(schema);
  const db = ident(database);
  const appendOnly = APPEND_ONLY_TABLES.map(ident).join(', ');
  await client.query(`
    grant connect, temporary on database ${db} to ${app};
    revoke create on database ${db} from public, ${app};
    revoke create on schema ${s} from public, ${app};
    grant usage on schema ${s} to ${app};

    grant select, insert, update, delete on all tables in schema ${s} to ${app};
    revoke truncate, references, trigger on all tables in schema ${s} from ${app};
    revoke all on ${appendOnly} from public, ${app};
    grant select on ${appendOnly} to ${app};
    grant usage, select on all sequences in schema ${s} to ${app};

    revoke execute on function ${INTERNAL_FUNCTIONS.join(', ')} from public, ${app};
    revoke execute on function ${APPEND_FUNCTIONS.join(', ')} from public;
    grant execute on function ${APPEND_FUNCTIONS.join(', ')} to ${app};

    alter default privileges for role ${ident(owner)} in schema ${s}
      grant select, insert, update, delete on tables to ${app};
    alter default privileges for role ${ident(owner)} in schema ${s}
      grant usage, select on sequences to ${app};
  `);
}

async function ensureRoleAttributes(client: pg.PoolClient | pg.Client, appRole: string, log?: (l: string) => void) {
  const app = ident(appRole);
  const attributes = 'login nosuperuser nocreatedb nocreaterole noreplication nobypassrls inherit';
  const found = await client.query<{
    rolsuper: boolean;
    rolcreatedb: boolean;
    rolcreaterole: boolean;
    rolreplication: boolean;
    rolbypassrls: boolean;
    rolcanlogin: boolean;
  }>('select rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolcanlogin from pg_roles where rolname = $1', [
    appRole,
  ]);
  const role = found.rows[0];
  if (!role) {
    try {
      await client.query(`create role ${app} ${attributes}`);
      log?.(`created the application role ${appRole}`);
    } catch (e) {
      // Created meanwhile by a process preparing another database of the same cluster.
      if ((e as { code?: string }).code !== '42710') throw e;
    }
    return;
  }
  const wrong = role.rolsuper || role.rolcreatedb || role.rolcreaterole || role.rolreplication || role.rolbypassrls;
  if (!wrong && role.rolcanlogin) return;
  try {
    await client.query(`alter role ${app} ${attributes}`);
  } catch (e) {
    throw new Error(
      `The application role ${appRole} has attributes it must not have (superuser, createdb, createrole, ` +
        `replication or bypassrls) and the owner may not remove them: ${(e as Error).message}`,
    );
  }
}

async function dropForbiddenMemberships(client: pg.PoolClient | pg.Client, appRole: string, owner: string) {
  const { rows } = await client.query<{ granted: string }>(
    `select g.rolname as granted
       from pg_auth_members m
       join pg_roles g on g.oid = m.roleid
       join pg_roles r on r.oid = m.member
      where r.rolname = $1 and (g.rolname = any($2) or g.rolname = $3 or g.rolsuper)`,
    [appRole, FORBIDDEN_MEMBERSHIPS, owner],
  );
  for (const { granted } of rows) await client.query(`revoke ${ident(granted)} from ${ident(appRole)}`);
  // Left over: granted through another role, or by a grantor whose grant we may not revoke. Refuse.
  const indirect = await client.query<{ name: string }>(
    `select g.rolname as name from pg_roles g
      where (g.rolname = any($2) or g.rolname = $3 or g.rolsuper) and pg_has_role($1, g.oid, 'member')`,
    [appRole, FORBIDDEN_MEMBERSHIPS, owner],
  );
  if (indirect.rows.length > 0) {
    throw new Error(
      `The application role ${appRole} is still a member of ${indirect.rows.map((r) => r.name).join(', ')} ` +
        '(directly or through another role): remove that membership',
    );
  }
}

/**
 * What is wrong with a connection the application is to use: connected as a superuser, as (a member of) the
 * role that owns the event store, or able to change stored events. Empty when it is least-privileged.
 * Throws when the schema is missing (nothing to run against: the owner has to migrate first).
 */
export async function appConnectionProblems(db: Queryable): Promise<{ role: string; problems: string[] }> {
  const { rows } = await db.query<{
    role: string;
    superuser: boolean;
    owns: boolean | null;
    writes: boolean | null;
  }>(
    `select current_user as role,
            (select rolsuper from pg_roles where rolname = current_user) as superuser,
            (select pg_has_role(current_user, c.relowner, 'member') from pg_class c
              where c.oid = to_regclass('events')) as owns,
            (select has_table_privilege('events', 'insert, update, delete, truncate, trigger')
              where to_regclass('events') is not null) as writes`,
  );
  const r = rows[0]!;
  if (r.owns === null) throw new MissingSchemaError();
  const problems: string[] = [];
  if (r.superuser) problems.push('a superuser');
  else if (r.owns) problems.push('the owner of the event store tables');
  else if (r.writes) problems.push('a role that may change stored events directly');
  return { role: r.role, problems };
}

export class MissingSchemaError extends Error {
  constructor() {
    super('The database has no schema yet: run `npm run db:migrate` (as the owner, DATABASE_OWNER_URL) or `npm start` first');
    this.name = 'MissingSchemaError';
  }
}

/** The application role's URL on the same server and database as `ownerUrl`. */
export function appRoleUrl(ownerUrl: string, appRole: string, appPassword: string | null): string {
  const url = new URL(ownerUrl);
  url.username = encodeURIComponent(appRole);
  url.password = appPassword ? encodeURIComponent(appPassword) : '';
  return url.toString();
}
