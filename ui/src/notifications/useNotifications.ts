import { useCallback, useEffect, useRef, useState } from 'react';
import type { NotificationItem, NotificationStreamEvent } from '../../../api/src/contract';
import { announceNotification } from './arrivals';
import { readEventStream, type ByteStream } from './sse';

export type { NotificationItem };

/**
 * What a bell needs from its application's API client. Each front end supplies its own (the console's
 * httpClient, the portal's ApiClient), so token handling and refresh stay where they are.
 */
export type NotificationsApi = {
  /** GET /api/notifications, page `page` (counted from 0, spec 000 §9) of `perPage` rows. */
  list(page: number, perPage: number): Promise<{ items: NotificationItem[]; total: number }>;
  unreadCount(): Promise<number>;
  /** Answers the unread count after the change. */
  markRead(id: string): Promise<number>;
  markAllRead(): Promise<number>;
  /**
   * GET /api/notifications/stream with the session's token in the header. Rejects when it cannot be opened; a
   * rejection whose `status` is 4xx (other than 408/429) means "do not try again in this session".
   */
  openStream(signal: AbortSignal): Promise<ByteStream>;
};

/** Spec 000 §9 default page size. */
export const NOTIFICATION_PAGE_SIZE = 10;
/** Two missed heartbeats (25 s each) and some: the connection is dead, reconnect. */
const IDLE_MS = 60_000;
const BACKOFF_START_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

const isFinal = (e: unknown): boolean => {
  const status = (e as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
};

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export type NotificationsState = {
  unread: number;
  items: NotificationItem[];
  /** The next page to load (0 before the first). */
  page: number;
  hasMore: boolean;
  loading: boolean;
  /** Reloads from page 0 (the list was opened). */
  reload(): void;
  /** Loads the next page (the list was scrolled to its bottom). */
  loadMore(): void;
  markRead(item: NotificationItem): Promise<void>;
  markAllRead(): Promise<void>;
};

/**
 * The bell's state: the unread badge (0 until the server says otherwise), the pages loaded so far and the
 * live stream, reconnected with backoff (1 s doubling to 30 s; reset once a connection opened). A failing
 * bell stays quiet: it must never get in the way of the page it sits on.
 */
export function useNotifications(api: NotificationsApi, perPage = NOTIFICATION_PAGE_SIZE): NotificationsState {
  const [unread, setUnread] = useState(0);
  const [items, setItems] = useState<NotificationItem[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(true);
  const [loading, setLoading] = useState(false);
  const apiRef = useRef(api);
  apiRef.current = api;
  // The page requests in flight belong to one "generation" of the list; a reload starts a new one.
  const generation = useRef(0);
  const busy = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    const abort = new AbortController();
    // The stream's own first event carries the count too; whichever the stream said last wins over this answer.
    let streamed = false;
    void apiRef.current.unreadCount().then(
      (n) => !abort.signal.aborted && !streamed && setUnread(n),
      () => undefined,
    );
    void (async () => {
      let delay = BACKOFF_START_MS;
      while (!abort.signal.aborted) {
        try {
          const body = await apiRef.current.openStream(abort.signal);
          delay = BACKOFF_START_MS;
          await readEventStream(
            body,
            ({ event, data }) => {
              if (abort.signal.aborted) return;
              streamed = true;
              if (event === 'unread') {
                setUnread((JSON.parse(data) as NotificationStreamEvent['unread']).unread);
              } else if (event === 'notification') {
                const { item, unread: count } = JSON.parse(data) as NotificationStreamEvent['notification'];
                setUnread(count);
                setItems((list) => (list.some((i) => i.id === item.id) ? list : [item, ...list]));
                announceNotification(item);
              }
            },
            { signal: abort.signal, idleMs: IDLE_MS },
          );
        } catch (e) {
          if (abort.signal.aborted || isFinal(e)) return;
        }
        // Ended (token expired, server restarting) or failed: try again after a pause.
        await wait(delay, abort.signal);
        delay = Math.min(delay * 2, BACKOFF_MAX_MS);
      }
    })();
    return () => {
      mounted.current = false;
      abort.abort();
    };
  }, []);

  const load = useCallback(
    (pageNo: number, gen: number) => {
      if (busy.current) return;
      busy.current = true;
      setLoading(true);
      void apiRef.current
        .list(pageNo, perPage)
        .then(
          ({ items: rows, total }) => {
            if (!mounted.current || gen !== generation.current) return;
            setItems((list) => {
              const base = pageNo === 0 ? [] : list;
              const known = new Set(base.map((i) => i.id));
              return [...base, ...rows.filter((r) => !known.has(r.id))];
            });
            setHasMore(rows.length === perPage && (pageNo + 1) * perPage < total);
            setPage(pageNo + 1);
          },
          () => {
            if (mounted.current && gen === generation.current) setHasMore(false);
          },
        )
        .finally(() => {
          busy.current = false;
          if (mounted.current) setLoading(false);
        });
    },
    [perPage],
  );

  const reload = useCallback(() => {
    generation.current += 1;
    busy.current = false;
    setHasMore(true);
    load(0, generation.current);
  }, [load]);

  const loadMore = useCallback(() => {
    if (hasMore) load(page, generation.current);
  }, [hasMore, load, page]);

  const markRead = useCallback(async (item: NotificationItem) => {
    if (item.read) return;
    setItems((list) => list.map((i) => (i.id === item.id ? { ...i, read: true } : i)));
    try {
      setUnread(await apiRef.current.markRead(item.id));
    } catch {
      // Shown read here; the server's count comes back with the next event or page.
    }
  }, []);

  const markAllRead = useCallback(async () => {
    try {
      const count = await apiRef.current.markAllRead();
      setItems((list) => list.map((i) => ({ ...i, read: true })));
      setUnread(count);
    } catch {
      // Nothing changed on the server: nothing changes here.
    }
  }, []);

  return { unread, items, page, hasMore, loading, reload, loadMore, markRead, markAllRead };
}
