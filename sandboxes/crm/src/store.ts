import pg from 'pg';
import { MAX_OPPORTUNITY_SEARCH, type Opportunity } from '../../../domain/src/crm/port';
import { SEED_OPPORTUNITIES } from './seed';

/**
 * The sandbox CRM's opportunities, in its own PostgreSQL schema `crm_sandbox` (never the portal's tables): one
 * table, `opportunities`, seeded from seed.ts. Dates are kept as day offsets and answered relative to today in
 * India (seed.ts says why). The portal only reads the CRM, so nothing here writes after the seed.
 */
export const SCHEMA = 'crm_sandbox';

const DDL = `
  create schema if not exists crm_sandbox;
  create table if not exists crm_sandbox.opportunities (
    opp_id text primary key,
    opp_description text not null,
    rfp_value numeric(16, 2) not null,
    product_description text,
    cassh_acc_id text not null,
    customer_name text not null,
    total_logistics_spent numeric(16, 2),
    contact_person text,
    contact_details text not null,
    customer_address text not null,
    vertical_name text not null,
    source_state text not null,
    destination_state text not null,
    service_type text not null,
    sub_service_type text not null,
    source_system text not null default 'SCM',
    customer_receive_offset integer not null,
    receive_offset integer not null,
    due_offset integer not null,
    customer_due_offset integer not null
  );
  create index if not exists opportunities_customer on crm_sandbox.opportunities (lower(customer_name));
`;

const TABLES = ['crm_sandbox.opportunities'];

/** Arbitrary constant (the ERP sandbox's plus one): two sandboxes starting on one database do not run the DDL at once. */
const SCHEMA_LOCK = 7_340_100;

/**
 * Creates the schema when it is missing and seeds the opportunities it lacks (idempotent). Needs CREATE on the
 * database: run as the owner (the supervisor and compose's migrate do before the sandbox starts; tests pass the
 * owner's URL). With `appRole` that role may read the schema (the sandbox process connects as it). A
 * connection without CREATE finds an existing schema and only seeds (an insert the owner granted).
 */
export async function ensureCrmSandboxSchema(pool: pg.Pool, options: { appRole?: string } = {}): Promise<void> {
  if (!(await schemaReady(pool))) {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
      try {
        await client.query(DDL);
      } catch (e) {
        if ((e as { code?: string }).code === '42501') {
          throw new Error(
            `The sandbox CRM's schema ${SCHEMA} does not exist and this connection may not create it: ` +
              "start it once with the owner's connection (`npm start` and compose's migrate do; tests: pass " +
              "createTestDatabase()'s `url`, not `appUrl`), or point CRM_URL at another CRM",
          );
        }
        throw e;
      } finally {
        await client.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => undefined);
      }
    } finally {
      client.release();
    }
  }
  if (options.appRole) await grant(pool, options.appRole);
  await seedOpportunities(pool);
}

async function schemaReady(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ missing: number }>(
    'select count(*)::int as missing from unnest($1::text[]) t(name) where to_regclass(t.name) is null',
    [TABLES],
  );
  return rows[0]?.missing === 0;
}

async function grant(pool: pg.Pool, appRole: string): Promise<void> {
  const role = pg.escapeIdentifier(appRole);
  const exists = await pool.query('select 1 from pg_roles where rolname = $1', [appRole]);
  if (exists.rowCount === 0) return;
  await pool.query(`
    grant usage on schema crm_sandbox to ${role};
    grant select, insert on all tables in schema crm_sandbox to ${role};
  `);
}

/** Inserts the seeded opportunities that are missing; an existing row (perhaps edited by hand) stays as it is. */
async function seedOpportunities(pool: pg.Pool): Promise<void> {
  const rows = SEED_OPPORTUNITIES.map((o) => [
    o.id,
    o.oppDescription,
    o.rfpValue,
    o.productDescription,
    o.casshAccId,
    o.customerName,
    o.totalLogisticsSpent,
    o.contactPerson,
    o.contactDetails,
    o.customerAddress,
    o.verticalName,
    o.sourceState,
    o.destinationState,
    o.serviceType,
    o.subServiceType,
    o.sourceSystem,
    o.days.customerReceive,
    o.days.receive,
    o.days.due,
    o.days.customerDue,
  ]);
  await pool.query(
    `insert into crm_sandbox.opportunities
       select * from json_populate_recordset(null::crm_sandbox.opportunities, $1::json)
     on conflict (opp_id) do nothing`,
    [JSON.stringify(rows.map((r) => Object.fromEntries(COLUMNS.map((c, i) => [c, r[i]]))))],
  );
}

const COLUMNS = [
  'opp_id',
  'opp_description',
  'rfp_value',
  'product_description',
  'cassh_acc_id',
  'customer_name',
  'total_logistics_spent',
  'contact_person',
  'contact_details',
  'customer_address',
  'vertical_name',
  'source_state',
  'destination_state',
  'service_type',
  'sub_service_type',
  'source_system',
  'customer_receive_offset',
  'receive_offset',
  'due_offset',
  'customer_due_offset',
] as const;

/** The columns as the contract names them; dates are today in India plus the offset, as YYYY-MM-DD. */
const SELECT = `
  select opp_id as "casshOppId", opp_description as "oppDescription", rfp_value::text as "rfpValue",
         to_char(today + receive_offset, 'YYYY-MM-DD') as "receiveDate",
         to_char(today + due_offset, 'YYYY-MM-DD') as "dueDate",
         product_description as "productDescription", cassh_acc_id as "casshAccId", customer_name as "customerName",
         total_logistics_spent::text as "totalLogisticsSpent", contact_person as "contactPerson",
         contact_details as "contactDetails", customer_address as "customerAddress",
         to_char(today + customer_receive_offset, 'YYYY-MM-DD') as "customerReceiveDate",
         to_char(today + customer_due_offset, 'YYYY-MM-DD') as "customerDueDate",
         vertical_name as "verticalName", source_state as "sourceState", destination_state as "destinationState",
         service_type as "serviceType", sub_service_type as "subServiceType", source_system as "sourceSystem"
    from crm_sandbox.opportunities, (select (now() at time zone 'Asia/Kolkata')::date as today) t`;

/** numeric(16,2) answers '48500000.00': the contract's amounts carry decimals only when there are some. */
const plainAmount = (v: string | null): string | null => (v === null ? null : v.replace(/\.00$/, ''));
const toOpportunity = (row: Opportunity): Opportunity => ({
  ...row,
  rfpValue: plainAmount(row.rfpValue) ?? '0',
  totalLogisticsSpent: plainAmount(row.totalLogisticsSpent),
});

/** `\`, `%` and `_` match themselves in a LIKE pattern. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createCrmSandboxStore(pool: pg.Pool) {
  /** One opportunity by id (case-insensitive, surrounding blanks ignored); null when there is none. */
  async function opportunity(id: string): Promise<Opportunity | null> {
    const { rows } = await pool.query<Opportunity>(`${SELECT} where opp_id = upper($1)`, [id.trim()]);
    return rows[0] ? toOpportunity(rows[0]) : null;
  }

  /** Ids starting with `q` or customer names containing it, newest receive date first; '' lists all. */
  async function search(q: string, limit: number): Promise<{ opportunities: Opportunity[]; total: number }> {
    const pattern = likeLiteral(q.trim());
    const { rows } = await pool.query<Opportunity & { total: number }>(
      `select *, count(*) over ()::int as total from (${SELECT}
          where opp_id ilike $1 || '%' or customer_name ilike '%' || $1 || '%') found
        order by "receiveDate" desc, "casshOppId"
        limit $2`,
      [pattern, Math.min(MAX_OPPORTUNITY_SEARCH, Math.max(1, limit))],
    );
    return { opportunities: rows.map(({ total: _total, ...o }) => toOpportunity(o)), total: rows[0]?.total ?? 0 };
  }

  return { opportunity, search };
}

export type CrmSandboxStore = ReturnType<typeof createCrmSandboxStore>;
