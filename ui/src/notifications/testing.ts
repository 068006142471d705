import type { NotificationItem } from './useNotifications';
import type { ByteStream } from './sse';

/**
 * Test doubles for the bells' UI tests (console and portal): an event stream the test writes to, and
 * notification rows. Test-only.
 */
export type FakeEventStream = {
  body: ByteStream;
  /** Sends one Server-Sent Event, as the API writes it. */
  send(event: 'unread' | 'notification', data: unknown): void;
  /** Whether a reader has the stream open (the bell connected). */
  readonly opened: boolean;
};

export function fakeEventStream(): FakeEventStream {
  const chunks: Uint8Array[] = [];
  let wake: (() => void) | null = null;
  let cancelled = false;
  let opened = false;
  const encoder = new TextEncoder();
  return {
    body: {
      getReader() {
        opened = true;
        return {
          async read() {
            while (chunks.length === 0 && !cancelled) await new Promise<void>((r) => (wake = r));
            const value = chunks.shift();
            return value ? { done: false, value } : { done: true };
          },
          async cancel() {
            cancelled = true;
            wake?.();
          },
        };
      },
    },
    send(event, data) {
      chunks.push(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      wake?.();
    },
    get opened() {
      return opened;
    },
  };
}

export const notification = (n: number, over: Partial<NotificationItem> = {}): NotificationItem => ({
  id: `n-${n}`,
  kind: 'onboarding.submitted',
  title: `Notification ${n}`,
  body: `Body of notification ${n}`,
  link: '/business-associates/ba-1/show',
  createdAt: new Date(Date.UTC(2026, 0, 1, 9, 0) + n * 60_000).toISOString(),
  read: false,
  ...over,
});

/** `count` notifications, newest first (n = count … 1), as GET /api/notifications pages them. */
export const notificationRows = (count: number): NotificationItem[] =>
  Array.from({ length: count }, (_, i) => notification(count - i));

/** The scroll position of `el` at its bottom: jsdom lays nothing out, so the test says where it is. */
export function scrolledToBottom(el: HTMLElement): void {
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: 1000 });
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: 400 });
  Object.defineProperty(el, 'scrollTop', { configurable: true, writable: true, value: 600 });
}
