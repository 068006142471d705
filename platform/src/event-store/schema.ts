import type pg from 'pg';

/** Channel `append_to_stream` notifies at commit, with the append's last global position as payload. */
export const EVENTS_CHANNEL = 'events';

/** prev_hash of the first event: the chain starts from a fixed, well-known value. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The event store's tables and its append function (design.md §2), idempotent: tables are created if
 * missing and the functions are replaced, so every process may call this at start-up.
 *
 * - `events`: one row per event, append-only (a trigger refuses UPDATE, DELETE and TRUNCATE).
 *   `unique(stream_id, version)` doubles as the index streams are read by.
 * - `event_store_head`: exactly one row holding the last global position and the last hash. Every append
 *   locks it first, so appends are serialised and a position is only taken by a transaction that will
 *   commit before the next one can take the following position: positions are gapless and in commit order
 *   (a sequence would leave holes on rollback and let a later position commit before an earlier one).
 * - `event_hash(...)`: the chain's hash, see hash.ts for the canonical text (Node recomputes it exactly).
 * - `append_to_stream(stream, expected, events)`: the whole append in one round trip, its events taken apart
 *   (append_events_split) before the head lock so the lock covers only versions, hashes and the insert;
 *   `append_to_streams(appends)`: several independent appends in one transaction;
 *   `append_columns(...)`: the same with the appends as columns (binary arrays), which is what the adapter
 *   (postgres.ts) sends; the JSON forms stay for SQL callers (psql, scripts, tests).
 */
export async function ensureEventStoreSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  const encoding = await db.query<{ server_encoding: string }>('show server_encoding');
  if (encoding.rows[0]?.server_encoding !== 'UTF8') {
    // The hash covers byte lengths of UTF-8 text; another server encoding would make Node and SQL disagree.
    const actual = encoding.rows[0]?.server_encoding;
    throw new Error(`The event store needs a UTF8 database (server_encoding is ${actual})`);
  }
  await db.query(SCHEMA_SQL);
}

const SCHEMA_SQL = /* sql */ `
create table if not exists events (
  global_position bigint primary key,
  stream_id text not null,
  version int not null check (version >= 0),
  event_id uuid not null unique,
  type text not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default now(),
  prev_hash text not null,
  hash text not null,
  constraint events_stream_version_key unique (stream_id, version)
);

create table if not exists event_store_head (
  id boolean primary key default true check (id),
  position bigint not null,
  last_hash text not null
);
insert into event_store_head (id, position, last_hash) values (true, 0, '${GENESIS_HASH}')
  on conflict (id) do nothing;

-- Append-only: stored events are never changed or removed by the application. Whoever bypasses this (a
-- superuser disabling triggers) is still caught by the hash chain.
create or replace function events_append_only() returns trigger language plpgsql as $fn$
begin
  raise exception 'events are append-only: % is not allowed', tg_op using errcode = '42501';
end
$fn$;
create or replace trigger events_append_only before update or delete on events
  for each row execute function events_append_only();
create or replace trigger events_no_truncate before truncate on events
  for each statement execute function events_append_only();

-- Canonical text: see platform/src/event-store/hash.ts (canonicalEventText), which must stay identical.
-- Declared stable, not immutable, because convert_to() is stable: PostgreSQL only inlines a SQL function
-- whose body is no more volatile than declared, and the non-inlined call costs ~15x more per event.
create or replace function event_hash(
  p_prev text, p_position bigint, p_version int, p_event_id uuid, p_recorded_micros bigint,
  p_stream text, p_type text, p_data text, p_metadata text
) returns text language sql stable strict parallel safe as $fn$
  select encode(sha256(convert_to(
    p_prev || '|' || p_position::text || '|' || p_version::text || '|' || p_event_id::text || '|'
      || p_recorded_micros::text
      || '|' || octet_length(p_stream)::text || ':' || p_stream
      || '|' || octet_length(p_type)::text || ':' || p_type
      || '|' || octet_length(p_data)::text || ':' || p_data
      || '|' || octet_length(p_metadata)::text || ':' || p_metadata,
    'UTF8')), 'hex')
$fn$;

-- Earlier signatures and functions, replaced by the ones below (append_locked and append_many_locked by
-- append_columns_locked, which append_to_streams now reaches through append_columns).
drop function if exists append_to_stream(text, text, jsonb);
drop function if exists append_locked(text, text, jsonb);
drop function if exists append_locked(text, text, jsonb, jsonb);
drop function if exists append_many_locked(jsonb);

-- An append's events taken apart, in order: ids, types, data (as stored, and rendered as text for the hash),
-- and each event's own metadata (null where the event has none and takes the append's shared metadata).
-- append_to_stream calls this BEFORE taking the head lock: walking the JSON and rendering data as text is
-- about a third of an append's work, and done here it no longer holds up every other writer.
create or replace function append_events_split(
  p_events jsonb,
  out ids uuid[], out types text[], out data jsonb[], out data_text text[], out metadata jsonb[],
  out metadata_text text[]
) language sql immutable parallel safe as $fn$
  -- The ordered subquery (one sort) keeps every array in the events' order.
  select array_agg(s.id), array_agg(s.type), array_agg(s.data), array_agg(s.data_text), array_agg(s.metadata),
         array_agg(s.metadata_text)
    from (select (x.value->>'eventId')::uuid as id, x.value->>'type' as type, x.value->'data' as data,
                 (x.value->'data')::text as data_text, x.value->'metadata' as metadata,
                 (x.value->'metadata')::text as metadata_text
            from jsonb_array_elements(p_events) with ordinality as x(value, ord)
           order by x.ord) as s
$fn$;

-- The body of an append whose events append_events_split took apart, for a caller that already holds the
-- head row's lock. Never raises for a refused append: status 'ok', 'ESCNF' (expected version not met;
-- detail = the stream's actual version or 'no_stream') or 'ESDUP' (the first event id stands in another
-- stream; detail = that stream). An event without metadata of its own gets p_shared_metadata, so a batch
-- whose events share one metadata object sends, parses and renders it once.
create or replace function append_split_locked(
  p_stream text, p_expected text,
  p_ids uuid[], p_types text[], p_data jsonb[], p_data_text text[], p_metadata jsonb[], p_metadata_text text[],
  p_shared_metadata jsonb,
  out status text, out next_expected_version int, out last_global_position bigint, out replayed boolean,
  out detail text
) language plpgsql as $fn$
declare
  v_count int := coalesce(cardinality(p_ids), 0);
  v_position bigint;
  v_hash text;
  v_current int;
  v_first record;
  v_matched int;
  v_last bigint;
  v_at timestamptz;
  v_micros bigint;
  v_shared_metadata text := p_shared_metadata::text;
  a_prev text[] := '{}';
  a_hash text[] := '{}';
  v_first_version int;
begin
  status := 'ok';
  replayed := false;

  -- Idempotent retry: the append's ids already stand at the positions it expected.
  if v_count > 0 then
    select e.stream_id, e.version into v_first from events e where e.event_id = p_ids[1];
    if found then
      if v_first.stream_id <> p_stream then
        status := 'ESDUP';
        detail := v_first.stream_id;
        return;
      end if;
      select count(*), max(e.global_position) into v_matched, v_last
        from unnest(p_ids) with ordinality as x(id, ord)
        join events e on e.event_id = x.id
       where e.stream_id = p_stream and e.version = v_first.version + x.ord - 1;
      if v_matched = v_count and (
           p_expected = 'any'
        or (p_expected = 'no_stream' and v_first.version = 0)
        or (p_expected = 'stream_exists' and v_first.version > 0)
        or (p_expected ~ '^[0-9]+$' and v_first.version = p_expected::int + 1)) then
        next_expected_version := v_first.version + v_count - 1;
        last_global_position := v_last;
        replayed := true;
        return;
      end if;
      -- The ids stand in this stream but as (part of) a different append: a conflict, not a retry.
      select max(e.version) into v_current from events e where e.stream_id = p_stream;
      status := 'ESCNF';
      detail := coalesce(v_current::text, 'no_stream');
      return;
    end if;
  end if;

  select max(e.version) into v_current from events e where e.stream_id = p_stream;
  if (p_expected = 'no_stream' and v_current is not null)
     or (p_expected = 'stream_exists' and v_current is null)
     or (p_expected ~ '^[0-9]+$' and v_current is distinct from p_expected::int) then
    status := 'ESCNF';
    detail := coalesce(v_current::text, 'no_stream');
    return;
  end if;

  if v_count = 0 then
    next_expected_version := coalesce(v_current, -1);
    select coalesce(max(e.global_position), 0) into last_global_position
      from events e where e.stream_id = p_stream and e.version = v_current;
    return;
  end if;

  select h.position, h.last_hash into v_position, v_hash from event_store_head h where h.id;
  -- Taken under the lock, so recorded_at grows with the global position.
  v_at := clock_timestamp();
  v_micros := (extract(epoch from v_at) * 1000000)::bigint;
  v_first_version := coalesce(v_current, -1) + 1;
  -- The chain is sequential, so hashes are computed in a loop (plpgsql keeps these arrays expanded: reading
  -- and assigning an element is O(1)); the rows are then inserted in one set-based statement.
  for i in 1 .. v_count loop
    a_prev[i] := v_hash;
    v_hash := event_hash(v_hash, v_position + i, v_first_version + i - 1, p_ids[i], v_micros, p_stream,
                         p_types[i], p_data_text[i], coalesce(p_metadata_text[i], v_shared_metadata));
    a_hash[i] := v_hash;
  end loop;

  insert into events (global_position, stream_id, version, event_id, type, data, metadata, recorded_at,
                      prev_hash, hash)
  select v_position + x.ord, p_stream, v_first_version + x.ord::int - 1, x.id, x.type, x.data,
         coalesce(x.metadata, p_shared_metadata), v_at, x.prev, x.hash
    from unnest(p_ids, p_types, p_data, p_metadata, a_prev, a_hash)
         with ordinality as x(id, type, data, metadata, prev, hash, ord);
  update event_store_head set position = v_position + v_count, last_hash = v_hash where id;

  next_expected_version := v_first_version + v_count - 1;
  last_global_position := v_position + v_count;
end
$fn$;

-- What append_to_stream refuses before anything else (SQLSTATE 22023).
create or replace function append_check_arguments(p_stream text, p_expected text, p_events jsonb)
returns void language plpgsql immutable as $fn$
begin
  if p_stream is null or p_stream = '' then
    raise exception 'stream id must not be empty' using errcode = '22023';
  end if;
  if jsonb_typeof(p_events) is distinct from 'array' then
    raise exception 'events must be a JSON array' using errcode = '22023';
  end if;
  if p_expected is null or p_expected !~ '^(no_stream|stream_exists|any|[0-9]{1,9})$' then
    raise exception 'invalid expected version %', p_expected using errcode = '22023';
  end if;
end
$fn$;

-- One append in one round trip. Raises ESCNF / ESDUP (mapped in postgres.ts) for a refused append.
create or replace function append_to_stream(
  p_stream text, p_expected text, p_events jsonb, p_metadata jsonb default null,
  out next_expected_version int, out last_global_position bigint, out replayed boolean
) language plpgsql security definer as $fn$
declare
  s record;
  r record;
begin
  perform append_check_arguments(p_stream, p_expected, p_events);
  -- Before the lock: taking the events apart needs nothing another writer could change.
  s := append_events_split(p_events);
  -- The serialisation point: held until commit, so the next append sees this one's rows and head.
  perform 1 from event_store_head h where h.id for update;
  r := append_split_locked(p_stream, p_expected, s.ids, s.types, s.data, s.data_text, s.metadata,
                           s.metadata_text, p_metadata);
  if r.status = 'ESCNF' then
    raise exception 'stream % is at %, expected %', p_stream, r.detail, p_expected
      using errcode = 'ESCNF', detail = r.detail;
  elsif r.status = 'ESDUP' then
    raise exception 'event id % already stands in another stream', p_events->0->>'eventId'
      using errcode = 'ESDUP', detail = r.detail;
  end if;
  if not r.replayed and jsonb_array_length(p_events) > 0 then
    -- Delivered at commit only, so a listener woken by it can already read the rows.
    perform pg_notify('${EVENTS_CHANNEL}', r.last_global_position::text);
  end if;
  next_expected_version := r.next_expected_version;
  last_global_position := r.last_global_position;
  replayed := r.replayed;
end
$fn$;

-- Several independent appends in one transaction and one round trip, as JSON, for SQL callers (psql, scripts,
-- tests; the adapter sends the same as columns, append_columns below). Each item is all-or-nothing on its own: a
-- refused item is reported in its result and writes nothing; the others still commit.
-- p_appends: [{"streamId", "expected", "events", "metadata"?}], an event's own "metadata" taking precedence;
-- returns [{"status", "next", "last", "replayed", "detail"}], one per append, in order.
create or replace function append_to_streams(p_appends jsonb) returns jsonb language plpgsql security definer as $fn$
declare
  a_streams text[];
  a_expected text[];
  a_counts int[];
  a_ids uuid[];
  a_types text[];
  a_data jsonb[];
  a_metadata jsonb[];
begin
  if jsonb_typeof(p_appends) is distinct from 'array' then
    raise exception 'appends must be a JSON array' using errcode = '22023';
  end if;
  if jsonb_array_length(p_appends) = 0 then
    return '[]'::jsonb;
  end if;
  -- An item whose events are not an array has no count: append_columns refuses the call.
  select array_agg(i.value->>'streamId' order by i.ord), array_agg(i.value->>'expected' order by i.ord),
         array_agg(case when jsonb_typeof(i.value->'events') = 'array' then jsonb_array_length(i.value->'events') end order by i.ord)
    into a_streams, a_expected, a_counts
    from jsonb_array_elements(p_appends) with ordinality as i(value, ord);
  select coalesce(array_agg((x.value->>'eventId')::uuid order by i.ord, x.ord), '{}'),
         coalesce(array_agg(x.value->>'type' order by i.ord, x.ord), '{}'),
         coalesce(array_agg(x.value->'data' order by i.ord, x.ord), '{}'),
         coalesce(array_agg(coalesce(x.value->'metadata', i.value->'metadata') order by i.ord, x.ord), '{}')
    into a_ids, a_types, a_data, a_metadata
    from jsonb_array_elements(p_appends) with ordinality as i(value, ord)
    cross join lateral jsonb_array_elements(case when jsonb_typeof(i.value->'events') = 'array' then i.value->'events' else '[]' end)
         with ordinality as x(value, ord);
  return append_columns(a_streams, a_expected, a_counts, a_ids, a_types, a_data,
                        array(select generate_series(1, cardinality(a_ids))), a_metadata);
end
$fn$;

-- The adapter's append (postgres.ts): several appends as columns instead of one JSON document. The JSON form
-- costs the server a parse of the whole document and a walk over it per use (the check, the hash loop and the
-- insert each extract every event again: ~57 ms per 990 mass-upload-sized events); as columns each event's data
-- arrives as its own jsonb (the binary array format, parsed once, before the lock) and every step reads arrays.
-- p_counts[a] events of append a follow those of a - 1 in p_ids, p_types, p_data and p_meta_index; an event's
-- metadata is p_metadata[p_meta_index[i]] (a batch sends each distinct metadata object once).
-- Same results as append_to_streams: [{"status", "next", "last", "replayed", "detail"}], one per append.
create or replace function append_columns_locked(
  p_streams text[], p_expected text[], p_counts int[], p_ids uuid[], p_types text[], p_data jsonb[],
  p_data_text text[], p_meta_index int[], p_metadata jsonb[], p_metadata_text text[]
) returns jsonb language plpgsql as $fn$
declare
  v_appends int := cardinality(p_streams);
  a_current int[];
  v_ok boolean;
  v_position bigint;
  v_start bigint;
  v_hash text;
  v_at timestamptz;
  v_micros bigint;
  a_chain text[];
  a_stream text[] := '{}';
  a_version int[] := '{}';
  k int := 0;
  r record;
  v_results jsonb[] := '{}';
begin
  -- The common case, set-based: every append on a stream of its own, with events, its expected version met.
  select array_agg(c.version order by i.ord),
         coalesce(count(distinct i.stream) = count(*) and bool_and(i.n > 0 and case
           when i.expected = 'any' then true
           when i.expected = 'no_stream' then c.version is null
           when i.expected = 'stream_exists' then c.version is not null
           else c.version is not distinct from i.expected::int end), false)
    into a_current, v_ok
    from unnest(p_streams, p_expected, p_counts) with ordinality as i(stream, expected, n, ord)
    left join lateral (select max(s.version) as version from events s where s.stream_id = i.stream) as c on true;

  if v_ok then
    select h.position, h.last_hash into v_position, v_hash from event_store_head h where h.id;
    v_start := v_position;
    v_at := clock_timestamp();
    v_micros := (extract(epoch from v_at) * 1000000)::bigint;
    a_chain := array[v_hash];
    for a in 1 .. v_appends loop
      for e in 0 .. p_counts[a] - 1 loop
        k := k + 1;
        a_stream[k] := p_streams[a];
        a_version[k] := coalesce(a_current[a], -1) + 1 + e;
        v_hash := event_hash(v_hash, v_start + k, a_version[k], p_ids[k], v_micros, p_streams[a], p_types[k],
                             p_data_text[k], p_metadata_text[p_meta_index[k]]);
        -- Assigning an element extends the array in place; 'a_chain || v_hash' would copy it every time.
        a_chain[k + 1] := v_hash;
      end loop;
    end loop;
    -- An event id that stands already (a retry) or comes twice breaks a unique index: nothing of the fast path
    -- is then written (the block's subtransaction rolls back) and the appends go one by one below.
    begin
      insert into events (global_position, stream_id, version, event_id, type, data, metadata, recorded_at,
                          prev_hash, hash)
      select v_start + x.ord, x.stream, x.version, x.id, x.type, x.data, p_metadata[x.mi], v_at,
             a_chain[x.ord], a_chain[x.ord + 1]
        from unnest(a_stream, a_version, p_ids, p_types, p_data, p_meta_index)
             with ordinality as x(stream, version, id, type, data, mi, ord);
      update event_store_head set position = v_start + k, last_hash = v_hash where id;
      return (select jsonb_agg(jsonb_build_object('status', 'ok', 'next', coalesce(c.current, -1) + c.n,
                'last', v_start + c.upto, 'replayed', false, 'detail', null) order by c.ord)
                from (select i.current, i.n, i.ord, sum(i.n) over (order by i.ord) as upto
                        from unnest(a_current, p_counts) with ordinality as i(current, n, ord)) as c);
    exception when unique_violation then
      k := 0;
    end;
  end if;

  -- One by one, each all-or-nothing on its own (replays, refusals, several appends to one stream).
  for a in 1 .. v_appends loop
    r := append_split_locked(p_streams[a], p_expected[a], p_ids[k + 1 : k + p_counts[a]],
                             p_types[k + 1 : k + p_counts[a]], p_data[k + 1 : k + p_counts[a]],
                             p_data_text[k + 1 : k + p_counts[a]],
                             array(select p_metadata[m] from unnest(p_meta_index[k + 1 : k + p_counts[a]]) with ordinality as x(m, o) order by o),
                             array(select p_metadata_text[m] from unnest(p_meta_index[k + 1 : k + p_counts[a]]) with ordinality as x(m, o) order by o),
                             null);
    k := k + p_counts[a];
    v_results := v_results || jsonb_build_object('status', r.status, 'next', r.next_expected_version,
      'last', r.last_global_position, 'replayed', r.replayed, 'detail', r.detail);
  end loop;
  return to_jsonb(v_results);
end
$fn$;

create or replace function append_columns(
  p_streams text[], p_expected text[], p_counts int[], p_ids uuid[], p_types text[], p_data jsonb[],
  p_meta_index int[], p_metadata jsonb[]
) returns jsonb language plpgsql security definer as $fn$
declare
  v_appends int := coalesce(cardinality(p_streams), 0);
  v_events int := coalesce(cardinality(p_ids), 0);
  v_results jsonb;
  v_last bigint;
  a_data_text text[];
  a_metadata_text text[];
begin
  -- The shape, before anything else: a malformed call is refused whole (SQLSTATE 22023) and writes nothing.
  if v_appends = 0 or cardinality(p_expected) is distinct from v_appends or cardinality(p_counts) is distinct from v_appends then
    raise exception 'append_columns needs one stream, expected version and event count per append' using errcode = '22023';
  end if;
  if array_position(p_streams, null) is not null or array_position(p_streams, '') is not null then
    raise exception 'stream id must not be empty' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(p_expected) x where x is null or x !~ '^(no_stream|stream_exists|any|[0-9]{1,9})$') then
    raise exception 'invalid expected version' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(p_counts) n where n is null or n < 0)
     or (select coalesce(sum(n), 0) from unnest(p_counts) n) <> v_events
     or coalesce(cardinality(p_types), 0) <> v_events or coalesce(cardinality(p_data), 0) <> v_events
     or coalesce(cardinality(p_meta_index), 0) <> v_events then
    raise exception 'event columns do not match the appends'' event counts' using errcode = '22023';
  end if;
  if array_position(p_ids, null) is not null or array_position(p_types, null) is not null
     or array_position(p_data, null) is not null or array_position(p_metadata, null) is not null
     or exists (select 1 from unnest(p_meta_index) m where m is null or m < 1 or m > coalesce(cardinality(p_metadata), 0)) then
    raise exception 'every event needs an id, a type, data and metadata' using errcode = '22023';
  end if;
  -- Before the lock: rendering data and metadata as text for the hash needs nothing another writer could change.
  select array_agg(d::text order by o) into a_data_text from unnest(p_data) with ordinality as x(d, o);
  select array_agg(m::text order by o) into a_metadata_text from unnest(p_metadata) with ordinality as x(m, o);
  -- The serialisation point: held until commit, so the next append sees this one's rows and head.
  perform 1 from event_store_head h where h.id for update;
  v_results := append_columns_locked(p_streams, p_expected, p_counts, p_ids, p_types, p_data, a_data_text,
                                     p_meta_index, p_metadata, a_metadata_text);
  select max((r.value->>'last')::bigint) into v_last
    from jsonb_array_elements(v_results) with ordinality as r(value, ord)
   where r.value->>'status' = 'ok' and not (r.value->>'replayed')::boolean and p_counts[r.ord] > 0;
  if v_last is not null then
    -- Delivered at commit only, so a listener woken by it can already read the rows.
    perform pg_notify('${EVENTS_CHANNEL}', v_last::text);
  end if;
  return v_results;
end
$fn$;

-- Least privilege (platform/src/db/roles.ts): the application role has no write privilege on events or
-- event_store_head and appends only through append_to_stream, append_to_streams and append_columns, which run as
-- their owner (SECURITY DEFINER) with a fixed search_path, so a caller's own objects (a temp table named events)
-- cannot stand in. append_split_locked and append_columns_locked write without taking the head lock: nobody but
-- those three may call them. Repeated on every
-- run because CREATE OR REPLACE resets a function's settings; one transaction, so never seen half-done.
do $sec$
begin
  execute format('alter function append_to_stream(text, text, jsonb, jsonb) set search_path = %I, pg_temp', current_schema());
  execute format('alter function append_to_streams(jsonb) set search_path = %I, pg_temp', current_schema());
  execute format('alter function append_columns(text[], text[], int[], uuid[], text[], jsonb[], int[], jsonb[]) set search_path = %I, pg_temp', current_schema());
end
$sec$;
revoke execute on function
  append_columns_locked(text[], text[], int[], uuid[], text[], jsonb[], text[], int[], jsonb[], text[]),
  append_split_locked(text, text, uuid[], text[], jsonb[], text[], jsonb[], text[], jsonb) from public;
revoke execute on function append_to_stream(text, text, jsonb, jsonb), append_to_streams(jsonb),
  append_columns(text[], text[], int[], uuid[], text[], jsonb[], int[], jsonb[]) from public;
`;
