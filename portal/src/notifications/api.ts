import type { NotificationItem } from '../../../api/src/contract';
import type { NotificationsApi } from '../../../ui/src/notifications/useNotifications';
import type { ApiClient } from '../api/client';

/**
 * The portal's side of the bell, on the client's plumbing: the session's token, one refresh on 401, and the
 * event stream read with fetch (the token in the Authorization header, never in the URL).
 */
export function portalNotificationsApi(client: ApiClient): NotificationsApi {
  const unreadOf = (answer: { unread: number }) => answer.unread;
  return {
    async list(page, perPage) {
      const range = JSON.stringify([page * perPage, page * perPage + perPage - 1]);
      const items = await client.call<NotificationItem[]>(`/api/notifications?range=${encodeURIComponent(range)}`);
      // The client answers bodies only: a full page means there may be more (the next one tells).
      return { items, total: items.length < perPage ? page * perPage + items.length : Number.POSITIVE_INFINITY };
    },
    unreadCount: async () => unreadOf(await client.call<{ unread: number }>('/api/notifications/unread-count')),
    markRead: async (id) =>
      unreadOf(
        await client.call<{ unread: number }>(`/api/notifications/${encodeURIComponent(id)}/read`, {
          method: 'POST',
          body: {},
        }),
      ),
    markAllRead: async () =>
      unreadOf(await client.call<{ unread: number }>('/api/notifications/read-all', { method: 'POST', body: {} })),
    async openStream(signal) {
      const response = await client.streamCall('/api/notifications/stream', signal);
      if (!response.body) throw Object.assign(new Error('The notification stream has no body'), { status: 400 });
      return response.body;
    },
  };
}
