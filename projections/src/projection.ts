import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../domain/src/shared/events';

/** Maps a projection's base table name to the table actually written: live, or a rebuild copy. */
export type TableNames = (base: string) => string;

/**
 * An async projection: a set of read-model tables rebuilt only from events. The runner calls `apply` with a
 * page of events inside the transaction that also moves the projection's checkpoint, so a page is applied
 * exactly once; `apply` must still be idempotent (guard on stream version or global position) and must
 * ignore event types it does not know.
 */
export type Projection = {
  /** Checkpoint key, e.g. 'business_associates'. Never rename: the checkpoint row is keyed by it. */
  name: string;
  /** Base names of the tables it owns (snake_case plural, matching the API resource). */
  tables: readonly string[];
  /** Idempotent DDL creating its tables (and indexes) under the names `t` gives. */
  schema: (t: TableNames) => string;
  apply: (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => Promise<void>;
};

export const liveTables: TableNames = (base) => base;

/** What a rebuild appends to a table's name: it builds into `<table>__rebuild` beside the live one. */
export const REBUILD_SUFFIX = '__rebuild';

/**
 * A rebuild's table receives each page once, in order, from one writer, and is thrown away unless the whole
 * rebuild succeeds: a page is never applied to it twice.
 */
export const isRebuildTable = (table: string): boolean => table.endsWith(REBUILD_SUFFIX);
