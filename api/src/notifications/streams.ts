import type { Request, Response } from 'express';
import type { Pool } from 'pg';
import { createNotificationListener } from '../../../platform/src/db/listener';
import { NOTIFICATIONS_CHANNEL } from '../../../projections/src/notifications/notifications.projection';
import {
  newestPosition,
  notificationsAfter,
  unreadCount,
  type NotificationItem,
} from '../../../projections/src/notifications/notifications.queries';

/**
 * The live side of the notifications centre: Server-Sent Events to every open bell of this api process.
 *
 * One LISTEN connection per process, shared by all open streams, connected while at least one stream is open.
 * The projection calls pg_notify('notifications', <user id>) in the transaction that adds the user's rows;
 * on it, this process reads what is new for that user (rows past the position each stream has seen) and
 * writes each as an event `notification` with `{ item, unread }`. A stream starts with an event `unread`
 * (`{ unread }`), so a client that reconnects corrects its badge for whatever it missed meanwhile.
 *
 * A stream ends when the client goes, when the access token it was opened with expires (the client then
 * reconnects with a fresh one), when the user is blocked (checked at each heartbeat), or at shutdown.
 */
export const DEFAULT_HEARTBEAT_MS = 25_000;
/** More open tabs than this per user: the oldest stream is ended (its tab reconnects if it still lives). */
const MAX_STREAMS_PER_USER = 10;
/** Rows read per query when a user has many new ones (a projector catching up after downtime). */
const BATCH = 50;

export type NotificationStreamsOptions = {
  pool: Pool;
  heartbeatMs?: number;
  /** The API's blocked-user check (cached): a blocked user's streams end at the next heartbeat. */
  isBlocked?: (userId: string) => Promise<boolean>;
  log?: (line: string) => void;
};

export type NotificationStreams = {
  /** Serves one event stream to the signed-in user until it ends (see above); resolves once it is set up. */
  open(req: Request, res: Response, session: { userId: string; expiresAt: number }): Promise<void>;
  /** How many streams are open (health, tests). */
  size(): number;
  /** Ends every stream and lets the LISTEN connection go. */
  close(): Promise<void>;
};

type Stream = { userId: string; res: Response; last: number; ready: boolean; expiry: NodeJS.Timeout | null };

export type StreamEvent = { notification: { item: NotificationItem; unread: number }; unread: { unread: number } };

const frame = <K extends keyof StreamEvent>(name: K, data: StreamEvent[K]) =>
  `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export function createNotificationStreams(options: NotificationStreamsOptions): NotificationStreams {
  const { pool } = options;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const log = options.log ?? ((line: string) => console.error(line));
  const byUser = new Map<string, Set<Stream>>();
  let listening = false;
  // Set by close(): the api is stopping, so a stream opened late (a browser's EventSource reconnecting) must not
  // connect the listener again — its reconnect timers would outlive the process's database.
  let closed = false;
  let heartbeat: NodeJS.Timeout | null = null;
  /** Per user: a delivery running, and whether another notification came in meanwhile. */
  const busy = new Set<string>();
  const again = new Set<string>();

  const listener = createNotificationListener({
    pool,
    channel: NOTIFICATIONS_CHANNEL,
    applicationName: 'api-notifications-listener',
    // No payload: (re)connected, notifications may have been missed: look for every open stream's user.
    onNotify: (userId) => {
      if (userId) check(userId);
      else for (const id of byUser.keys()) check(id);
    },
    running: () => listening,
    onLost: (reason) => log(`notifications: LISTEN connection lost (${reason}); reconnecting`),
  });

  const count = () => [...byUser.values()].reduce((n, set) => n + set.size, 0);

  function check(userId: string): void {
    if (!byUser.has(userId)) return;
    if (busy.has(userId)) {
      again.add(userId);
      return;
    }
    busy.add(userId);
    void (async () => {
      try {
        do {
          again.delete(userId);
          await deliver(userId);
        } while (again.has(userId));
      } catch (e) {
        log(`notifications: delivery to a stream failed: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        busy.delete(userId);
      }
    })();
  }

  /** Writes every row past each ready stream's position to it, with the user's unread count after them. */
  async function deliver(userId: string): Promise<void> {
    for (;;) {
      const streams = [...(byUser.get(userId) ?? [])].filter((s) => s.ready);
      if (streams.length === 0) return;
      const from = Math.min(...streams.map((s) => s.last));
      const rows = await notificationsAfter(pool, userId, from, BATCH);
      if (rows.length === 0) return;
      const unread = await unreadCount(pool, userId);
      for (const s of streams)
        for (const { position, ...item } of rows) {
          if (position <= s.last) continue;
          s.res.write(frame('notification', { item, unread }));
          s.last = position;
        }
      if (rows.length < BATCH) return;
    }
  }

  function remove(stream: Stream): void {
    if (stream.expiry) clearTimeout(stream.expiry);
    stream.expiry = null;
    const set = byUser.get(stream.userId);
    if (!set?.delete(stream)) return;
    if (set.size === 0) byUser.delete(stream.userId);
    if (byUser.size === 0) void idle();
  }

  function end(stream: Stream): void {
    remove(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  /** The last stream ended: nobody to tell, so no LISTEN connection and no heartbeat until the next one. */
  async function idle(): Promise<void> {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    if (!listening) return;
    listening = false;
    await listener.close();
  }

  async function beat(): Promise<void> {
    for (const [userId, set] of byUser) {
      const blocked = await options.isBlocked?.(userId).catch(() => false);
      for (const s of [...set]) {
        if (blocked) end(s);
        // A comment line: keeps proxies from closing an idle connection and lets the client notice a dead one.
        else s.res.write(': heartbeat\n\n');
      }
    }
  }

  return {
    async open(req, res, { userId, expiresAt }) {
      if (closed) {
        res.status(503).json({ message: 'The server is stopping' });
        return;
      }
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache, no-transform');
      res.setHeader('Connection', 'keep-alive');
      // nginx and friends buffer responses unless told not to.
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      req.socket.setNoDelay(true);

      const stream: Stream = { userId, res, last: 0, ready: false, expiry: null };
      const set = byUser.get(userId) ?? new Set<Stream>();
      byUser.set(userId, set);
      set.add(stream);
      if (set.size > MAX_STREAMS_PER_USER) {
        const oldest = set.values().next().value;
        if (oldest) end(oldest);
      }
      req.on('close', () => remove(stream));
      stream.expiry = setTimeout(() => end(stream), Math.max(0, expiresAt - Date.now()));
      heartbeat ??= setInterval(() => void beat(), heartbeatMs);
      if (!listening) {
        listening = true;
        await listener.connect();
      }
      try {
        // Registered before reading where the user stands: a row committed from here on is either in this
        // read or announced afterwards, and check() delivers it once the stream is ready.
        const [last, unread] = await Promise.all([newestPosition(pool, userId), unreadCount(pool, userId)]);
        if (res.writableEnded) return;
        stream.last = last;
        res.write(frame('unread', { unread }));
        stream.ready = true;
        check(userId);
      } catch (e) {
        log(`notifications: opening a stream failed: ${e instanceof Error ? e.message : String(e)}`);
        end(stream);
      }
    },
    size: count,
    async close() {
      closed = true;
      for (const set of [...byUser.values()]) for (const s of [...set]) end(s);
      await idle();
    },
  };
}
