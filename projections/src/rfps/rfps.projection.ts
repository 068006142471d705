import type { PoolClient } from 'pg';
import { isRfpEvent, RFP_STREAM_PREFIX, type RfpEvent } from '../../../domain/src/rfp/events';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';
import { upsertRows, type Column } from '../sql';
import { GROUP_COLUMNS, groupKeySql, laneKeysOf, rateKeyOf, rateOf, type ComparisonBy } from './comparison';
import { describeRfpEvent } from './rfp-activity';

/**
 * The RFP read models (issue 10), from the `rfp-<rfpCode>` streams:
 * - `rfps`: one row per RFP (both dashboards, the RFP view), with its counts kept here rather than counted per
 *   request: lanes, invited BAs, BAs that quoted in the current round.
 * - `rfp_lanes`: the uploaded lanes, with the city and vehicle keys the comparisons group by.
 * - `rfp_invitations`: the BAs an RFP was floated to (the BA dashboard's scope) and their backhaul invitation.
 * - `rfp_quotes`: each round's quotes per BA per lane, with the rate compared by; earlier rounds stay.
 * - `rfp_quote_groups`: per round, BA and lane group of each grouped comparison (location, vehicle, both), the
 *   sum and count of the BA's rates there, kept with the quotes: a comparison page then reads a few rows per
 *   group instead of aggregating every quote of the RFP (a vehicle group of 50 BAs × 1,000 lanes is 50,000).
 * - `rfp_awards`: each round's award per lane and BA: share and contract rates.
 * - `rfp_activity`: the RFP's history, one line per event.
 * An RFP belongs to the company code in its RfpDraftCreated metadata (the creating staff member's company).
 * Every event is applied behind a guard on the RFP row's stream version, so a page applied twice changes
 * nothing; the child tables are written only when that guard passed.
 */
export const rfpsProjection: Projection = {
  name: 'rfps',
  tables: ['rfps', 'rfp_lanes', 'rfp_invitations', 'rfp_quotes', 'rfp_quote_groups', 'rfp_awards', 'rfp_activity'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('rfps')} (
      code text PRIMARY KEY,
      cassh_opp_id text NOT NULL,
      opp_description text NOT NULL,
      customer_name text NOT NULL,
      receive_date date NOT NULL,
      due_date date NOT NULL,
      rfp_type text,
      status text NOT NULL,
      round integer NOT NULL DEFAULT 0,
      due_at timestamptz,
      company_code text,
      header jsonb NOT NULL,
      steps jsonb NOT NULL DEFAULT '{}',
      rate_key text,
      terms jsonb,
      created_by jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      floated_at timestamptz,
      updated_at timestamptz NOT NULL,
      lane_count integer NOT NULL DEFAULT 0,
      invited_count integer NOT NULL DEFAULT 0,
      response_count integer NOT NULL DEFAULT 0,
      stream_version integer NOT NULL,
      global_position bigint NOT NULL
    );
    -- When bidding of the current round was closed (by staff early, or by the due timer); null while open.
    -- ADD COLUMN keeps data folders made before it usable; a rebuild fills it for old RFPs.
    ALTER TABLE ${t('rfps')} ADD COLUMN IF NOT EXISTS bidding_closed_at timestamptz;
    CREATE INDEX IF NOT EXISTS ${t('rfps')}_scope_idx ON ${t('rfps')} (company_code, created_at, code);
    CREATE INDEX IF NOT EXISTS ${t('rfps')}_status_idx ON ${t('rfps')} (status, created_at);
    CREATE INDEX IF NOT EXISTS ${t('rfps')}_receive_idx ON ${t('rfps')} (receive_date);
    CREATE TABLE IF NOT EXISTS ${t('rfp_lanes')} (
      rfp_code text NOT NULL,
      lane_id text NOT NULL,
      position integer NOT NULL,
      from_city text,
      to_city text,
      vehicle_type text,
      data jsonb NOT NULL,
      PRIMARY KEY (rfp_code, lane_id)
    );
    CREATE INDEX IF NOT EXISTS ${t('rfp_lanes')}_position_idx ON ${t('rfp_lanes')} (rfp_code, position);
    CREATE TABLE IF NOT EXISTS ${t('rfp_invitations')} (
      rfp_code text NOT NULL,
      ba_id text NOT NULL,
      round_invited integer NOT NULL,
      invited_at timestamptz NOT NULL,
      comments text NOT NULL DEFAULT '',
      backhaul_invited boolean NOT NULL DEFAULT false,
      backhaul_changed_at timestamptz,
      PRIMARY KEY (rfp_code, ba_id)
    );
    CREATE INDEX IF NOT EXISTS ${t('rfp_invitations')}_ba_idx ON ${t('rfp_invitations')} (ba_id, invited_at);
    CREATE TABLE IF NOT EXISTS ${t('rfp_quotes')} (
      rfp_code text NOT NULL,
      round integer NOT NULL,
      ba_id text NOT NULL,
      lane_id text NOT NULL,
      data jsonb NOT NULL,
      rate numeric,
      -- The lane's group keys, copied (lanes never change once quoted): comparisons read this table alone.
      from_city text,
      to_city text,
      vehicle_type text,
      submitted_at timestamptz NOT NULL,
      PRIMARY KEY (rfp_code, round, ba_id, lane_id)
    );
    -- The comparison by lane reads a page's lanes, every BA's quote of each (the key above leads with the BA).
    CREATE INDEX IF NOT EXISTS ${t('rfp_quotes')}_lane_idx ON ${t('rfp_quotes')} (rfp_code, round, lane_id);
    CREATE TABLE IF NOT EXISTS ${t('rfp_quote_groups')} (
      rfp_code text NOT NULL,
      round integer NOT NULL,
      -- The grouping (comparison.ts ComparisonBy other than 'all') and the group's key in it (groupKeySql).
      grouped_by text NOT NULL,
      group_key text NOT NULL,
      ba_id text NOT NULL,
      rate_sum numeric NOT NULL,
      rated_lanes integer NOT NULL,
      PRIMARY KEY (rfp_code, round, grouped_by, group_key, ba_id)
    );
    -- A BA's submission replaces that BA's rows (regroupQuotes).
    CREATE INDEX IF NOT EXISTS ${t('rfp_quote_groups')}_ba_idx ON ${t('rfp_quote_groups')} (rfp_code, round, ba_id);
    CREATE TABLE IF NOT EXISTS ${t('rfp_awards')} (
      rfp_code text NOT NULL,
      round integer NOT NULL,
      lane_id text NOT NULL,
      ba_id text NOT NULL,
      share numeric(5, 2) NOT NULL,
      rates jsonb NOT NULL,
      rate numeric,
      awarded_at timestamptz NOT NULL,
      PRIMARY KEY (rfp_code, round, lane_id, ba_id)
    );
    CREATE INDEX IF NOT EXISTS ${t('rfp_awards')}_ba_idx ON ${t('rfp_awards')} (ba_id, rfp_code);
    CREATE TABLE IF NOT EXISTS ${t('rfp_activity')} (
      id bigint PRIMARY KEY,
      rfp_code text NOT NULL,
      round integer NOT NULL,
      at timestamptz NOT NULL,
      actor_user_id text NOT NULL,
      actor_name text,
      role text NOT NULL,
      event_type text NOT NULL,
      action text NOT NULL,
      detail text,
      ba_id text
    );
    CREATE INDEX IF NOT EXISTS ${t('rfp_activity')}_rfp_idx ON ${t('rfp_activity')} (rfp_code, id);
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const touched = new Set<string>();
    for (const stored of events) {
      if (!stored.streamId.startsWith(RFP_STREAM_PREFIX) || !isRfpEvent(stored)) continue;
      const code = stored.streamId.slice(RFP_STREAM_PREFIX.length);
      if (await applyEvent(client, stored, { type: stored.type, data: stored.data } as RfpEvent, code, t)) touched.add(code);
    }
    if (touched.size > 0) await recount(client, [...touched], t);
  },
};

type Guarded = { round: number; rate_key: string | null };

/** Applies one event; false when it was applied before (or its RFP is unknown) and nothing was written. */
async function applyEvent(client: PoolClient, stored: StoredEvent, event: RfpEvent, code: string, t: TableNames): Promise<boolean> {
  const at = stored.metadata.at;
  const version = Number(stored.version);
  const rfps = t('rfps');
  // The guard: the RFP row moves to this event's version only if it was behind it; RETURNING tells us it did.
  const update = async (set: string, params: unknown[]): Promise<Guarded | null> => {
    const { rows } = await client.query<Guarded>(
      `UPDATE ${rfps} SET ${set ? `${set}, ` : ''}updated_at = $2, stream_version = $3, global_position = $4
       WHERE code = $1 AND stream_version < $3 RETURNING round, rate_key`,
      [code, at, version, stored.globalPosition, ...params],
    );
    return rows[0] ?? null;
  };

  let guarded: Guarded | null;
  switch (event.type) {
    case 'RfpDraftCreated': {
      const h = event.data.header;
      const { rows } = await client.query<Guarded>(
        `INSERT INTO ${rfps} (code, cassh_opp_id, opp_description, customer_name, receive_date, due_date, status, company_code, header,
           created_by, created_at, updated_at, stream_version, global_position)
         VALUES ($1, $2, $3, $4, $5, $6, 'draft', $7, $8, $9, $10, $10, $11, $12)
         ON CONFLICT (code) DO NOTHING RETURNING round, rate_key`,
        [
          code,
          h.casshOppId,
          h.oppDescription,
          h.customerName,
          h.receiveDate,
          h.dueDate,
          stored.metadata.companyCode,
          JSON.stringify(h),
          JSON.stringify(event.data.createdBy),
          at,
          version,
          stored.globalPosition,
        ],
      );
      guarded = rows[0] ?? null;
      break;
    }
    case 'RfpStepSaved': {
      const d = event.data;
      const cleared = d.clearedSteps.map(String);
      guarded = await update(
        // Step 1 edits the header; the other steps leave it ($7 null).
        `steps = (steps - $5::text[]) || $6::jsonb, header = coalesce($7::jsonb, header),
         cassh_opp_id = coalesce($7::jsonb->>'casshOppId', cassh_opp_id), opp_description = coalesce($7::jsonb->>'oppDescription', opp_description),
         customer_name = coalesce($7::jsonb->>'customerName', customer_name), receive_date = coalesce(($7::jsonb->>'receiveDate')::date, receive_date),
         due_date = coalesce(($7::jsonb->>'dueDate')::date, due_date),
         rfp_type = CASE WHEN $8::text IS NULL THEN rfp_type ELSE $8 END,
         rate_key = CASE WHEN $9::boolean THEN $10 WHEN '3' = ANY($5::text[]) THEN NULL ELSE rate_key END`,
        [
          cleared,
          d.step === 1 ? '{}' : JSON.stringify({ [d.step]: d.data }),
          d.step === 1 ? JSON.stringify(d.data) : null,
          d.step === 2 ? d.data.rfpType : null,
          d.step === 3,
          d.step === 3 ? rateKeyOf(d.data.headerData) : null,
        ],
      );
      if (guarded && (d.clearsLanes || d.clearedSteps.includes(3))) await client.query(`DELETE FROM ${t('rfp_lanes')} WHERE rfp_code = $1`, [code]);
      break;
    }
    case 'RfpLanesUploaded': {
      const d = event.data;
      guarded = await update(`steps = steps || $5::jsonb, rfp_type = $6, rate_key = $7`, [
        JSON.stringify({ 3: { headerData: d.headerData } }),
        d.rfpType,
        rateKeyOf(d.headerData),
      ]);
      if (guarded) {
        // An upload replaces the sheet: lanes of the earlier upload that this one lacks must go too.
        await client.query(`DELETE FROM ${t('rfp_lanes')} WHERE rfp_code = $1`, [code]);
        await upsertRows(
          client,
          t('rfp_lanes'),
          LANE_COLUMNS,
          d.lanes.map((lane, position) => {
            const keys = laneKeysOf(lane.values);
            return { rfp_code: code, lane_id: lane.laneId, position, from_city: keys.fromCity, to_city: keys.toCity, vehicle_type: keys.vehicleType, data: lane.values };
          }),
          { conflict: ['rfp_code', 'lane_id'], doNothing: true },
        );
      }
      break;
    }
    case 'RfpFloated': {
      const d = event.data;
      guarded = await update(`status = 'floated', round = $5, due_at = $6, floated_at = coalesce(floated_at, $2), bidding_closed_at = NULL`, [
        d.round,
        d.dueAt,
      ]);
      if (guarded && d.baIds.length > 0)
        await client.query(
          `INSERT INTO ${t('rfp_invitations')} (rfp_code, ba_id, round_invited, invited_at, comments)
           SELECT $1, ba_id, $3, $4, $5 FROM unnest($2::text[]) AS x(ba_id)
           ON CONFLICT (rfp_code, ba_id) DO NOTHING`,
          [code, d.baIds, d.round, at, d.comments],
        );
      break;
    }
    case 'LaneResponsesSubmitted': {
      const d = event.data;
      guarded = await update('', []);
      if (guarded) await saveQuotes(client, t, code, d.round, d.baId, d.quotes, guarded.rate_key, at);
      break;
    }
    case 'RfpBiddingClosed':
      guarded = await update(`status = 'evaluation', bidding_closed_at = $2`, []);
      break;
    case 'RfpAwarded': {
      const d = event.data;
      guarded = await update(`status = 'awarded'`, []);
      if (guarded) {
        const rateKey = guarded.rate_key;
        await client.query(`DELETE FROM ${t('rfp_awards')} WHERE rfp_code = $1 AND round = $2`, [code, d.round]);
        await upsertRows(
          client,
          t('rfp_awards'),
          AWARD_COLUMNS,
          Object.entries(d.lanes).flatMap(([laneId, shares]) =>
            shares.map((s) => ({
              rfp_code: code,
              round: d.round,
              lane_id: laneId,
              ba_id: s.baId,
              share: String(s.sharePercent),
              rates: s.rates,
              rate: rateOf(s.rates, rateKey),
              awarded_at: at,
            })),
          ),
          { conflict: ['rfp_code', 'round', 'lane_id', 'ba_id'], doNothing: true },
        );
      }
      break;
    }
    case 'RfpClosed':
      // Closing a floated RFP ends its bidding too; after an evaluation the earlier close stays.
      guarded = await update(`status = 'closed', bidding_closed_at = coalesce(bidding_closed_at, $2)`, []);
      break;
    case 'RfpReopened':
      guarded = await update(`status = 'floated', round = $5, due_at = $6, bidding_closed_at = NULL`, [event.data.round, event.data.dueAt]);
      break;
    case 'BackhaulInvitationChanged':
      guarded = await update('', []);
      if (guarded)
        await client.query(
          `UPDATE ${t('rfp_invitations')} SET backhaul_invited = $3, backhaul_changed_at = $4 WHERE rfp_code = $1 AND ba_id = $2`,
          [code, event.data.baId, event.data.isInvited, at],
        );
      break;
    case 'RfpTermsUploaded':
      guarded = await update('terms = $5', [JSON.stringify(event.data.file)]);
      break;
    default: {
      const never: never = event;
      return never;
    }
  }
  if (!guarded) return false;
  const line = describeRfpEvent(event);
  const { actor } = stored.metadata;
  await client.query(
    `INSERT INTO ${t('rfp_activity')} (id, rfp_code, round, at, actor_user_id, actor_name, role, event_type, action, detail, ba_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
    [stored.globalPosition, code, guarded.round, at, actor.userId, actor.name ?? null, actor.role, stored.type, line.action, line.detail, line.baId],
  );
  return true;
}

type LaneRow = {
  rfp_code: string;
  lane_id: string;
  position: number;
  from_city: string | null;
  to_city: string | null;
  vehicle_type: string | null;
  data: Record<string, string | null>;
};
const LANE_COLUMNS: Column<LaneRow>[] = [
  { name: 'rfp_code', type: 'text' },
  { name: 'lane_id', type: 'text' },
  { name: 'position', type: 'integer' },
  { name: 'from_city', type: 'text' },
  { name: 'to_city', type: 'text' },
  { name: 'vehicle_type', type: 'text' },
  { name: 'data', type: 'jsonb' },
];

type QuoteRow = {
  rfp_code: string;
  round: number;
  ba_id: string;
  lane_id: string;
  data: Record<string, string | null>;
  rate: string | null;
  from_city: string | null;
  to_city: string | null;
  vehicle_type: string | null;
  submitted_at: string;
};
const QUOTE_COLUMNS: Column<QuoteRow>[] = [
  { name: 'rfp_code', type: 'text' },
  { name: 'round', type: 'integer' },
  { name: 'ba_id', type: 'text' },
  { name: 'lane_id', type: 'text' },
  { name: 'data', type: 'jsonb' },
  { name: 'rate', type: 'numeric' },
  { name: 'from_city', type: 'text' },
  { name: 'to_city', type: 'text' },
  { name: 'vehicle_type', type: 'text' },
  { name: 'submitted_at', type: 'timestamptz' },
];

type AwardRow = {
  rfp_code: string;
  round: number;
  lane_id: string;
  ba_id: string;
  share: string;
  rates: Record<string, string | null>;
  rate: string | null;
  awarded_at: string;
};
const AWARD_COLUMNS: Column<AwardRow>[] = [
  { name: 'rfp_code', type: 'text' },
  { name: 'round', type: 'integer' },
  { name: 'lane_id', type: 'text' },
  { name: 'ba_id', type: 'text' },
  { name: 'share', type: 'numeric' },
  { name: 'rates', type: 'jsonb' },
  { name: 'rate', type: 'numeric' },
  { name: 'awarded_at', type: 'timestamptz' },
];

/** Merges a BA's lane responses into what it quoted before in that round: each lane replaced, null withdraws it. */
async function saveQuotes(
  client: PoolClient,
  t: TableNames,
  code: string,
  round: number,
  baId: string,
  quotes: Record<string, Record<string, string | null> | null>,
  rateKey: string | null,
  at: string,
): Promise<void> {
  const table = t('rfp_quotes');
  const withdrawn = Object.keys(quotes).filter((laneId) => quotes[laneId] === null);
  if (withdrawn.length > 0)
    await client.query(`DELETE FROM ${table} WHERE rfp_code = $1 AND round = $2 AND ba_id = $3 AND lane_id = ANY($4::text[])`, [
      code,
      round,
      baId,
      withdrawn,
    ]);
  const quoted = Object.keys(quotes).filter((laneId) => quotes[laneId] !== null);
  if (quoted.length > 0) await upsertQuotes(client, t, code, round, baId, quoted.map((laneId) => [laneId, quotes[laneId]!]), rateKey, at);
  await regroupQuotes(client, t, code, round, baId);
}

/** Writes the quoted lanes, each with its rate and its lane's group keys. */
async function upsertQuotes(
  client: PoolClient,
  t: TableNames,
  code: string,
  round: number,
  baId: string,
  quotes: [laneId: string, values: Record<string, string | null>][],
  rateKey: string | null,
  at: string,
): Promise<void> {
  const quoted = quotes.map(([laneId]) => laneId);
  const { rows: lanes } = await client.query<{ lane_id: string; from_city: string | null; to_city: string | null; vehicle_type: string | null }>(
    `SELECT lane_id, from_city, to_city, vehicle_type FROM ${t('rfp_lanes')} WHERE rfp_code = $1 AND lane_id = ANY($2::text[])`,
    [code, quoted],
  );
  const keys = new Map(lanes.map((l) => [l.lane_id, l]));
  const rows: QuoteRow[] = quotes.map(([laneId, values]) => {
    const lane = keys.get(laneId);
    return {
      rfp_code: code,
      round,
      ba_id: baId,
      lane_id: laneId,
      data: values,
      rate: rateOf(values, rateKey),
      from_city: lane?.from_city ?? null,
      to_city: lane?.to_city ?? null,
      vehicle_type: lane?.vehicle_type ?? null,
      submitted_at: at,
    };
  });
  await upsertRows(client, t('rfp_quotes'), QUOTE_COLUMNS, rows, { conflict: ['rfp_code', 'round', 'ba_id', 'lane_id'] });
}

const GROUPINGS = (Object.keys(GROUP_COLUMNS) as ComparisonBy[]).filter((by) => by !== 'all');

/**
 * Recomputes the BA's rows of `rfp_quote_groups` for the round from its quotes as they now stand: one aggregate
 * per grouping over the BA's quotes (a lateral join giving each quote its three keys took four times as long).
 */
async function regroupQuotes(client: PoolClient, t: TableNames, code: string, round: number, baId: string): Promise<void> {
  const table = t('rfp_quote_groups');
  await client.query(`DELETE FROM ${table} WHERE rfp_code = $1 AND round = $2 AND ba_id = $3`, [code, round, baId]);
  const perGrouping = GROUPINGS.map((by) => {
    const key = groupKeySql(GROUP_COLUMNS[by], 'q');
    return `SELECT '${by}' AS grouped_by, ${key} AS group_key, sum(q.rate) AS rate_sum, count(*)::int AS rated_lanes
      FROM ${t('rfp_quotes')} q WHERE q.rfp_code = $1 AND q.round = $2 AND q.ba_id = $3 AND q.rate IS NOT NULL GROUP BY ${key}`;
  });
  await client.query(
    `INSERT INTO ${table} (rfp_code, round, grouped_by, group_key, ba_id, rate_sum, rated_lanes)
     SELECT $1, $2, grouped_by, group_key, $3, rate_sum, rated_lanes FROM (${perGrouping.join(' UNION ALL ')}) g`,
    [code, round, baId],
  );
}

/** The counts the lists show, recounted from the child tables for the RFPs a page touched. */
async function recount(client: PoolClient, codes: string[], t: TableNames): Promise<void> {
  await client.query(
    `UPDATE ${t('rfps')} r SET
       lane_count = (SELECT count(*) FROM ${t('rfp_lanes')} l WHERE l.rfp_code = r.code),
       invited_count = (SELECT count(*) FROM ${t('rfp_invitations')} i WHERE i.rfp_code = r.code),
       -- Only invited BAs quote (the decider's rule), so one index probe per invited BA instead of counting quotes.
       response_count = (SELECT count(*) FROM ${t('rfp_invitations')} i WHERE i.rfp_code = r.code AND EXISTS
         (SELECT 1 FROM ${t('rfp_quotes')} q WHERE q.rfp_code = r.code AND q.round = r.round AND q.ba_id = i.ba_id))
     WHERE r.code = ANY($1::text[])`,
    [codes],
  );
}
