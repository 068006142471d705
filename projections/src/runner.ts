import type { Pool } from 'pg';
import type { EventStore } from '../../domain/src/event-store/port';
import type { StoredEvent } from '../../domain/src/shared/events';
import { createNotificationListener } from '../../platform/src/db/listener';
import { beginLocked, lowestCheckpoint, readCheckpoints, saveCheckpointSql } from './checkpoints';
import { liveTables, type Projection } from './projection';

/** Channel the PostgreSQL event store notifies at each append's commit (payload: its last global position). */
export const EVENTS_CHANNEL = 'events';
/** Lets operators (and tests) find the listener connection in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'projector-listener';

export type ProjectorOptions = {
  pool: Pool;
  store: Pick<EventStore, 'readAll' | 'headPosition'>;
  projections: readonly Projection[];
  pageSize?: number;
  /** Fallback poll interval: NOTIFY wakes the runner at once, polling covers a lost notification. */
  pollMs?: number;
  log?: (line: string) => void;
  /** Upper bound of the retry delay after a projection or the store failed. */
  maxBackoffMs?: number;
};

export type Projector = {
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Applies events until every projection reached the head seen when the call began and returns the lowest
   * checkpoint. A failing projection is logged and left behind (retried later with backoff); the others go on.
   */
  catchUp(): Promise<number>;
};

type Failure = { attempts: number; retryAt: number };

const backoff = (attempts: number, max: number): number => Math.min(max, 250 * 2 ** Math.min(attempts - 1, 16));

export function createProjector(options: ProjectorOptions): Projector {
  const { pool, store, projections } = options;
  const pageSize = options.pageSize ?? 1000;
  const pollMs = options.pollMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const log = options.log ?? ((line: string) => console.log(line));
  const names = projections.map((p) => p.name);

  const positions = new Map<string, number>();
  const failures = new Map<string, Failure>();

  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let woken = false;
  let wakeSleeper: (() => void) | null = null;
  let exclusive: Promise<unknown> = Promise.resolve();

  const wake = () => {
    woken = true;
    wakeSleeper?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = null;
        resolve();
      }
      wakeSleeper = done;
    });

  /** Applies one page to one projection, in one transaction with its checkpoint; returns its new position. */
  async function applyPage(projection: Projection, events: readonly StoredEvent[]): Promise<number> {
    const cached = positions.get(projection.name) ?? 0;
    const client = await pool.connect();
    try {
      // Asynchronous commit: the rows and the checkpoint commit together, so a crash that loses the last
      // commits only moves the checkpoint back and the events are applied again from the durable store.
      // Waiting for each of ~17 fsyncs per page was most of the projection lag (commit → visible row). A
      // later durable commit (the e-mail outbox marking a message sent) flushes the WAL before it, so nothing
      // outside the read models can depend on a row that a crash takes back.
      // The transaction's fixed statements travel together (one round trip to begin and lock, one to save and
      // commit): a page is ~17 such transactions, most of them for projections with nothing in the page, and
      // their round trips were a large part of the projector's and PostgreSQL's CPU under a steady command load.
      const stored = await beginLocked(client, projection.name);
      // Moved back by someone (a reset): re-read from there rather than skip what lies between.
      if (stored < cached) {
        await client.query('COMMIT');
        return stored;
      }
      const todo = events.filter((e) => e.globalPosition > stored);
      const last = todo[todo.length - 1];
      if (!last) {
        await client.query('COMMIT');
        return stored;
      }
      await projection.apply(client, todo, liveTables);
      await client.query(`${saveCheckpointSql(projection.name, last.globalPosition)}; COMMIT`);
      return last.globalPosition;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  let registered = false;

  async function pass(): Promise<number> {
    if (!registered) {
      // A row per projection from the start, so "every checkpoint" (waitForProjections, /health) counts a
      // projection that has not managed to apply anything yet.
      await pool.query(
        `INSERT INTO projection_checkpoints (name, position)
         SELECT unnest($1::text[]), 0 ON CONFLICT (name) DO NOTHING`,
        [names],
      );
      registered = true;
    }
    const head = await store.headPosition();
    // Checkpoints may have moved elsewhere (another projector, a rebuild's swap): start from the stored ones.
    for (const [name, position] of await readCheckpoints(pool, names)) positions.set(name, position);
    for (;;) {
      const now = Date.now();
      const due = projections.filter(
        (p) => (positions.get(p.name) ?? 0) < head && (failures.get(p.name)?.retryAt ?? 0) <= now,
      );
      if (due.length === 0) break;
      const from = Math.min(...due.map((p) => positions.get(p.name) ?? 0));
      const page = await store.readAll(from, pageSize);
      if (page.length === 0) break;
      for (const projection of due) {
        const position = positions.get(projection.name) ?? 0;
        // The same page object for every projection at the same position lets them share per-page work.
        const events =
          position < (page[0]?.globalPosition ?? 0) ? page : page.filter((e) => e.globalPosition > position);
        if (events.length === 0) continue;
        try {
          positions.set(projection.name, await applyPage(projection, events));
          failures.delete(projection.name);
        } catch (e) {
          const attempts = (failures.get(projection.name)?.attempts ?? 0) + 1;
          const delay = backoff(attempts, maxBackoffMs);
          failures.set(projection.name, { attempts, retryAt: Date.now() + delay });
          log(
            `projection ${projection.name} failed after position ${position} (attempt ${attempts}): ` +
              `${e instanceof Error ? e.message : String(e)}; retrying in ${delay} ms`,
          );
        }
      }
    }
    return names.length === 0 ? head : Math.min(...names.map((n) => positions.get(n) ?? 0));
  }

  /** One pass at a time per projector, whether from the loop or a caller. */
  function catchUp(): Promise<number> {
    const run = exclusive.then(pass);
    exclusive = run.catch(() => undefined);
    return run;
  }

  const listener = createNotificationListener({
    pool,
    channel: EVENTS_CHANNEL,
    applicationName: LISTENER_APPLICATION_NAME,
    // Also after each (re)connect: notifications sent while we were not listening are gone, look for their events.
    onNotify: wake,
    running: () => running,
    onLost: (reason) => log(`projector: LISTEN connection lost (${reason}); reconnecting`),
  });

  async function loop(): Promise<void> {
    let storeFailures = 0;
    while (running) {
      woken = false;
      let wait = pollMs;
      try {
        await catchUp();
        storeFailures = 0;
      } catch (e) {
        storeFailures += 1;
        wait = backoff(storeFailures, maxBackoffMs);
        log(`projector: catch-up failed (${e instanceof Error ? e.message : String(e)}); retrying in ${wait} ms`);
      }
      const nextRetry = Math.min(...[...failures.values()].map((f) => f.retryAt));
      if (Number.isFinite(nextRetry)) wait = Math.min(wait, Math.max(0, nextRetry - Date.now()));
      await sleep(wait);
    }
  }

  return {
    async start() {
      if (running) return;
      running = true;
      await listener.connect();
      loopDone = loop();
    },
    async stop() {
      if (!running) return;
      running = false;
      wakeSleeper?.();
      await loopDone;
      await listener.close();
    },
    catchUp,
  };
}

/**
 * Waits until the named projections (all, when omitted) have applied `position`. The API uses it for a bounded
 * wait so a screen shows its own write; false on timeout. Every wait of a process on the same pool shares one
 * poll of the checkpoint table (`checkpointWatchers`): under a burst of commands, dozens of waiters each polling
 * on their own were hundreds of queries a second competing for the pool with the commands themselves.
 */
export async function waitForProjections(
  pool: Pool,
  position: number,
  options: { timeoutMs: number; names?: readonly string[] },
): Promise<boolean> {
  return watcherOf(pool).wait(position, options.timeoutMs, options.names);
}

type Waiter = { position: number; names?: readonly string[]; done: (reached: boolean) => void; deadline: number };

/** One poller per pool: reads every checkpoint while someone waits, resolves the waiters it satisfies. */
function createCheckpointWatcher(pool: Pool) {
  const waiters = new Set<Waiter>();
  let polling = false;
  const POLL_MS = 5;

  const reached = (w: Waiter, checkpoints: Map<string, number>): boolean => {
    if (w.names && w.names.length === 0) return true;
    const positions = w.names ? w.names.map((n) => checkpoints.get(n) ?? 0) : [...checkpoints.values()];
    return (positions.length === 0 ? 0 : Math.min(...positions)) >= w.position;
  };

  async function poll(): Promise<void> {
    polling = true;
    try {
      while (waiters.size > 0) {
        let checkpoints: Map<string, number> | null = null;
        try {
          const { rows } = await pool.query<{ name: string; position: string }>(
            'SELECT name, position FROM projection_checkpoints',
          );
          checkpoints = new Map(rows.map((r) => [r.name, Number(r.position)]));
        } catch {
          // A failed read (pool closing, database restarting) counts as "not yet": deadlines still apply.
        }
        const now = Date.now();
        for (const w of waiters) {
          if (checkpoints && reached(w, checkpoints)) w.done(true);
          else if (now >= w.deadline) w.done(false);
        }
        if (waiters.size > 0) await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } finally {
      polling = false;
    }
  }

  return {
    wait(position: number, timeoutMs: number, names?: readonly string[]): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          position,
          names,
          deadline: Date.now() + timeoutMs,
          done: (ok) => {
            waiters.delete(waiter);
            resolve(ok);
          },
        };
        waiters.add(waiter);
        if (!polling) void poll();
      });
    },
  };
}

const checkpointWatchers = new WeakMap<Pool, ReturnType<typeof createCheckpointWatcher>>();
function watcherOf(pool: Pool): ReturnType<typeof createCheckpointWatcher> {
  let watcher = checkpointWatchers.get(pool);
  if (!watcher) {
    watcher = createCheckpointWatcher(pool);
    checkpointWatchers.set(pool, watcher);
  }
  return watcher;
}

/** For /health: how far the slowest projection is behind the event store's head. */
export async function projectorLag(
  pool: Pool,
  store: Pick<EventStore, 'headPosition'>,
  names?: readonly string[],
): Promise<{ head: number; checkpoint: number; lag: number }> {
  const [head, checkpoint] = await Promise.all([store.headPosition(), lowestCheckpoint(pool, names)]);
  return { head, checkpoint, lag: Math.max(0, head - checkpoint) };
}
