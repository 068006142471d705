import type { Pool } from 'pg';
import { eventIdFor, handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import { masterDecider } from '../../../domain/src/masters/decide';
import {
  codeIdOf,
  duplicateMessage,
  invalidRefMessage,
  masterByResource,
  masterSchema,
  presentValues,
  type MasterDefinition,
  type MasterStatus,
  type MasterValues,
} from '../../../domain/src/masters/definitions';
import { masterItemStreamId, type MasterEvent, type MasterItemId } from '../../../domain/src/masters/events';
import { fold, type CommandMetadata } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { getMasterItems } from '../../../projections/src/masters/masters.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { claimKeys, nextMasterId } from './keys';

/**
 * Writing master items, shared by the JSON routes and the workbook import: validate with the master's zod
 * rule, check references against the read model, claim unique keys, append through the decider, wait for
 * the projection.
 */
export type MasterWriteDeps = { pool: Pool; store: EventStore; projectionWaitMs?: number };

export type WriteContext = {
  actor: Actor;
  /** Makes the write idempotent: the same request id appends nothing twice. */
  requestId: string;
  correlationId: string;
  /** The request id is the client's (Idempotency-Key) or derived from a file: the request may come again. */
  retryable: boolean;
  /** The caller waits for the projection itself, once, after many writes (the workbook import). */
  deferWait?: boolean;
};

export const INVALID_INPUT = 'Please correct the highlighted fields';

export type CurrentItem = { id: MasterItemId; values: MasterValues; status: MasterStatus };

/** Ids in the URL: numbers for idKind 'int', the code for companies. Anything else is simply not found. */
export function parseItemId(def: MasterDefinition, raw: string): MasterItemId | null {
  if (def.idKind === 'code') return /^[A-Z0-9]{1,25}$/i.test(raw) ? raw.toUpperCase() : null;
  return /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null;
}

/** An item as its stream says (never stale, unlike the read model), or null. */
export async function readItem(store: EventStore, def: MasterDefinition, id: MasterItemId): Promise<CurrentItem | null> {
  const events = await store.readStream(masterItemStreamId(def.resource, id));
  const state = fold(masterDecider, events.map((e) => ({ type: e.type, data: e.data }) as MasterEvent));
  return state.exists ? { id, values: state.values, status: state.status } : null;
}

export function parseValues(def: MasterDefinition, mode: 'create' | 'update', body: unknown) {
  const result = masterSchema(def, mode).safeParse(body ?? {});
  if (!result.success) throw new DomainError('validation', INVALID_INPUT, fieldErrors(result.error));
  const data = result.data as Record<string, unknown>;
  return { values: presentValues(def, data), status: data['status'] as MasterStatus | undefined };
}

/**
 * References must name an existing, active item ("Please select a valid State"). Only the references that
 * change are checked: an item keeps pointing at a state deactivated after it was saved.
 */
export async function checkReferences(
  pool: Pool,
  def: MasterDefinition,
  values: MasterValues,
  before: MasterValues | null,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  for (const field of def.fields) {
    if ((field.kind !== 'ref' && field.kind !== 'refs') || !field.ref) continue;
    const value = values[field.name];
    if (value === null || value === undefined) continue;
    const ids = (Array.isArray(value) ? value : [value]) as number[];
    const prev = before?.[field.name];
    const old = new Set<unknown>(Array.isArray(prev) ? prev : prev === null || prev === undefined ? [] : [prev]);
    const fresh = ids.filter((id) => !old.has(id));
    if (fresh.length === 0) continue;
    const found = await getMasterItems(pool, field.ref, fresh);
    const active = new Set(found.filter((i) => i.status === 'active').map((i) => Number(i.id)));
    if (!fresh.every((id) => active.has(id))) errors[field.name] = invalidRefMessage(field);
  }
  return errors;
}

const metaOf = (ctx: WriteContext, commandId: string): CommandMetadata & { commandId: string } => ({
  commandId,
  actor: ctx.actor,
  at: new Date().toISOString(),
  companyCode: null,
  correlationId: ctx.correlationId,
  causationId: null,
  workflowId: null,
  requestId: ctx.requestId,
});

export async function waitFor(deps: MasterWriteDeps, position: number): Promise<void> {
  if (position > 0) await waitForProjections(deps.pool, position, { timeoutMs: deps.projectionWaitMs ?? 2000, names: ['masters'] });
}

let lastPrune = 0;

/**
 * The id a create writes to. A request that may be retried (an Idempotency-Key, a workbook row) must find
 * the item it created the first time, so the id drawn for it is remembered as a claim of its own in
 * master_keys, kept for a day (no client retries later than that).
 */
async function idForCreate(deps: MasterWriteDeps, def: MasterDefinition, values: MasterValues, ctx: WriteContext): Promise<MasterItemId> {
  const code = codeIdOf(def, values);
  if (code !== null) return code;
  if (!ctx.retryable) return nextMasterId(deps.pool);
  if (Date.now() - lastPrune > 10 * 60_000) {
    lastPrune = Date.now();
    await deps.pool.query(`delete from master_keys where key like 'request:%' and claimed_at < now() - interval '1 day'`);
  }
  const key = `request:${ctx.requestId}`;
  const existing = await deps.pool.query<{ item_id: string }>(
    'select item_id from master_keys where master = $1 and key = $2',
    [def.resource, key],
  );
  if (existing.rows[0]) return Number(existing.rows[0].item_id);
  const id = await nextMasterId(deps.pool);
  // Two copies of the same request racing: both end up with the id the first one stored.
  const inserted = await deps.pool.query<{ item_id: string }>(
    `insert into master_keys (master, key, item_id) values ($1, $2, $3)
     on conflict (master, key) do update set master = excluded.master returning item_id`,
    [def.resource, key, String(id)],
  );
  return Number(inserted.rows[0]!.item_id);
}

/** Creates an item from already parsed values; returns its id and whether anything was appended. */
export async function createItem(
  deps: MasterWriteDeps,
  def: MasterDefinition,
  values: MasterValues,
  status: MasterStatus | undefined,
  ctx: WriteContext,
): Promise<{ id: MasterItemId; appended: boolean; position: number }> {
  const refErrors = await checkReferences(deps.pool, def, values, null);
  if (Object.keys(refErrors).length > 0) throw new DomainError('validation', INVALID_INPUT, refErrors);
  const id = await idForCreate(deps, def, values, ctx);
  const commandId = `master:${def.resource}:create:${ctx.requestId}`;
  const prior = await readItem(deps.store, def, id);
  if (prior) {
    // Our own earlier attempt (a retry) replays below. Any other item under this id: for companies the code
    // is taken; for numbered items the sequence was reset behind existing streams.
    const first = (await deps.store.readStream(masterItemStreamId(def.resource, id)))[0];
    if (first?.eventId !== eventIdFor(commandId, 0)) {
      throw def.idKind === 'code'
        ? new DomainError('conflict', duplicateMessage(def, def.unique))
        : new DomainError('conflict', `${def.singular} ${id} already exists`);
    }
  }
  const claims = await claimKeys(deps.pool, deps.store, def, String(id), values, prior ? prior.values : null);
  try {
    const result = await handleCommand(
      deps.store,
      masterItemStreamId(def.resource, id),
      masterDecider,
      { type: 'CreateMasterItem', master: def.resource, id, values: { ...values, status: status ?? 'active' } },
      metaOf(ctx, commandId),
    );
    await claims.commit();
    if (!ctx.deferWait) await waitFor(deps, result.lastGlobalPosition);
    return { id, appended: result.events.length > 0 && !result.replayed, position: result.lastGlobalPosition };
  } catch (err) {
    if (!prior) await claims.release();
    throw err;
  }
}

/** Changes values and/or status of an existing item; appends nothing when nothing changes. */
export async function updateItem(
  deps: MasterWriteDeps,
  def: MasterDefinition,
  id: MasterItemId,
  values: MasterValues,
  status: MasterStatus | undefined,
  ctx: WriteContext,
): Promise<{ appended: boolean; position: number }> {
  const current = await readItem(deps.store, def, id);
  if (!current) throw new DomainError('not_found', `${def.singular} not found`);
  // Companies are known by their code: it cannot change under the events that name it.
  if (def.idKind === 'code') {
    const codeField = def.unique[0]!;
    if (codeField in values && String(values[codeField]) !== String(current.values[codeField]))
      throw new DomainError('validation', INVALID_INPUT, { [codeField]: 'The code of an existing item cannot be changed' });
  }
  const refErrors = await checkReferences(deps.pool, def, values, current.values);
  if (Object.keys(refErrors).length > 0) throw new DomainError('validation', INVALID_INPUT, refErrors);
  const merged = { ...current.values, ...values };
  const claims = await claimKeys(deps.pool, deps.store, def, String(id), merged, current.values);
  let position = 0;
  let appended = false;
  try {
    const stream = masterItemStreamId(def.resource, id);
    const changed = await handleCommand(
      deps.store,
      stream,
      masterDecider,
      { type: 'ChangeMasterItem', master: def.resource, id, values },
      metaOf(ctx, `master:${def.resource}:${id}:change:${ctx.requestId}`),
    );
    position = Math.max(position, changed.lastGlobalPosition);
    appended ||= changed.events.length > 0 && !changed.replayed;
    await claims.commit();
  } catch (err) {
    await claims.release();
    throw err;
  }
  if (status !== undefined) {
    const set = await handleCommand(
      deps.store,
      masterItemStreamId(def.resource, id),
      masterDecider,
      { type: 'SetMasterItemStatus', master: def.resource, id, status },
      metaOf(ctx, `master:${def.resource}:${id}:status:${ctx.requestId}`),
    );
    position = Math.max(position, set.lastGlobalPosition);
    appended ||= set.events.length > 0 && !set.replayed;
  }
  if (!ctx.deferWait) await waitFor(deps, position);
  return { appended, position };
}

export const definitionOf = (resource: string): MasterDefinition => {
  const def = masterByResource(resource);
  if (!def) throw new DomainError('not_found', 'Not found');
  return def;
};
