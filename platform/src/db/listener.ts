import pg, { type Pool } from 'pg';

export type NotificationListenerOptions = {
  /** Its connection settings are the pool's (`pool.options`); the listener is a connection of its own. */
  pool: Pool;
  /** The channel to LISTEN on. */
  channel: string;
  /** Lets operators (and tests) find the listener connection in pg_stat_activity. */
  applicationName: string;
  /**
   * Called at each notification, and once after each (re)connect: notifications sent while nobody listened
   * are gone, so the owner looks for their work then. A notification passes its payload; the call after a
   * (re)connect passes none.
   */
  onNotify: (payload?: string) => void;
  /** Whether the owner still runs: once false, nothing connects, reconnects or reports a loss. */
  running: () => boolean;
  /** A connection lost or a connect that failed (while running); a reconnect is scheduled after it. */
  onLost: (reason: string) => void;
};

export type NotificationListener = {
  /** Connects and LISTENs; a failure is reported (`onLost`) and retried with backoff, never thrown. */
  connect(): Promise<void>;
  /** Cancels a pending reconnect and closes the connection. */
  close(): Promise<void>;
};

/**
 * A LISTEN connection that wakes a polling loop (the projector, the outbox delivery): it reconnects with
 * backoff (250 ms doubling, at most 10 s) whenever it drops, the loop's polling covering the gap meanwhile.
 */
export function createNotificationListener(options: NotificationListenerOptions): NotificationListener {
  const { pool, channel, applicationName, onNotify, running, onLost } = options;
  let listener: pg.Client | null = null;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  // Bumped by close(): an attempt still in flight then, or the drop it causes, belongs to an older generation
  // and schedules nothing (else a timer fires after its owner stopped — in a test, after its modules were torn
  // down). connect() after close() starts a new generation (the SSE streams close when idle and connect again).
  let generation = 0;
  const current = (gen: number) => gen === generation && running();

  function scheduleReconnect(gen: number) {
    if (!current(gen) || reconnectTimer) return;
    failures += 1;
    const delay = Math.min(10_000, 250 * 2 ** Math.min(failures - 1, 10));
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void attempt(gen);
    }, delay);
  }

  async function attempt(gen: number): Promise<void> {
    if (!current(gen)) return;
    // keepAlive: a peer that vanished without closing the socket is noticed, not waited on forever.
    const client = new pg.Client({ ...pool.options, application_name: applicationName, keepAlive: true });
    let dropped = false;
    const drop = (reason: string) => {
      if (dropped) return;
      dropped = true;
      if (listener === client) listener = null;
      client.end().catch(() => undefined);
      if (current(gen)) {
        onLost(reason);
        scheduleReconnect(gen);
      }
    };
    client.on('notification', (message) => onNotify(message.payload));
    client.on('error', (e) => drop(e.message));
    client.on('end', () => drop('connection ended'));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      if (!current(gen)) {
        dropped = true;
        await client.end();
        return;
      }
      listener = client;
      failures = 0;
      onNotify();
    } catch (e) {
      drop(e instanceof Error ? e.message : String(e));
    }
  }

  const connect = (): Promise<void> => attempt(generation);

  async function close(): Promise<void> {
    generation += 1;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = null;
    const client = listener;
    listener = null;
    if (client) {
      client.removeAllListeners('end');
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }

  return { connect, close };
}
