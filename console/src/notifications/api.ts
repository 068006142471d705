import type { NotificationItem } from '../../../api/src/contract';
import type { NotificationsApi } from '../../../ui/src/notifications/useNotifications';
import { API_URL, httpClient, refreshSession, sessionStore } from '../providers/httpClient';

/** Content-Range: notifications 0-9/42 → 42. */
const totalOf = (headers: Headers, fallback: number): number => {
  const total = Number(headers.get('Content-Range')?.split('/').pop());
  return Number.isFinite(total) ? total : fallback;
};

/** An answer the stream could not open with; `status` tells the bell whether to try again. */
class StreamRefused extends Error {
  constructor(readonly status: number) {
    super(`The notification stream was refused (${status})`);
  }
}

/**
 * The console's side of the bell: JSON calls through httpClient (bearer token, one refresh on 401) and the
 * event stream through fetch with the same token in its Authorization header (never in the URL).
 */
export const consoleNotificationsApi: NotificationsApi = {
  async list(page, perPage) {
    const range = JSON.stringify([page * perPage, page * perPage + perPage - 1]);
    const { json, headers } = await httpClient(`${API_URL}/notifications?range=${encodeURIComponent(range)}`);
    const items = (json ?? []) as NotificationItem[];
    return { items, total: totalOf(headers, items.length) };
  },
  async unreadCount() {
    const { json } = await httpClient(`${API_URL}/notifications/unread-count`);
    return (json as { unread: number }).unread;
  },
  async markRead(id) {
    const { json } = await httpClient(`${API_URL}/notifications/${encodeURIComponent(id)}/read`, { method: 'POST', body: '{}' });
    return (json as { unread: number }).unread;
  },
  async markAllRead() {
    const { json } = await httpClient(`${API_URL}/notifications/read-all`, { method: 'POST', body: '{}' });
    return (json as { unread: number }).unread;
  },
  async openStream(signal) {
    const open = () => {
      const token = sessionStore.get()?.accessToken;
      return fetch(`${API_URL}/notifications/stream`, {
        headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        credentials: 'same-origin',
        cache: 'no-store',
        signal,
      });
    };
    let res = await open();
    // The stream ends when the access token expires; the next attempt finds it expired and renews it.
    if (res.status === 401 && (await refreshSession())) res = await open();
    if (!res.ok || !res.body) throw new StreamRefused(res.status);
    return res.body;
  },
};
