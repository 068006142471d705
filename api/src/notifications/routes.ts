import { Router, type Request } from 'express';
import { decodeJwt } from 'jose';
import type { Pool } from 'pg';
import { z } from 'zod';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  unreadCount,
} from '../../../projections/src/notifications/notifications.queries';
import type { NotificationItem } from '../../../projections/src/notifications/notifications.queries';
import { principalOf, requireAuth } from '../http/auth';
import { HttpError } from '../http/problem';
import { parseListQuery, sendList } from '../http/simple-rest';
import type { NotificationStreams } from './streams';

export type { NotificationItem };

/** A bell shows a handful at a time; a page never holds more than this (spec 001 §2: infinite scroll). */
export const NOTIFICATION_PAGE_MAX = 50;
/** Spec 000 §9: default page of 10 rows. */
const DEFAULT_PAGE = 10;

export const NOT_FOUND_MESSAGE = 'Notification not found';

/** When the access token the stream was opened with expires (it was verified by `authenticate` already). */
function tokenExpiry(req: Request): number {
  const token = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
  try {
    const exp = token ? decodeJwt(token).exp : undefined;
    if (typeof exp === 'number') return exp * 1000;
  } catch {
    // Unreadable here means unreadable to `authenticate` too, which refused it already.
  }
  return Date.now() + 15 * 60_000;
}

/**
 * The signed-in user's own notifications, in both applications. Every query is keyed by the caller's user id,
 * so nobody reaches another's rows; someone else's id answers 404 like one that does not exist.
 *
 * The stream takes the access token in the Authorization header like every other call: the front ends read
 * it with fetch rather than EventSource (which cannot send headers), so no token ever travels in a URL, where
 * proxies and access logs would keep it.
 */
export function notificationRoutes({ pool, streams }: { pool: Pool; streams: NotificationStreams }): Router {
  const router = Router();
  const anyone = () => requireAuth();

  router.get('/notifications', anyone(), async (req, res) => {
    const p = principalOf(res);
    const { range, sort } = parseListQuery(req.query, {
      sortFields: ['createdAt'],
      defaultSort: { field: 'createdAt', order: 'DESC' },
      filter: z.object({}).strict(),
      defaultPageSize: DEFAULT_PAGE,
    });
    const page = { offset: range.offset, limit: Math.min(range.limit, NOTIFICATION_PAGE_MAX) };
    const { rows, total } = await listNotifications(pool, p.userId, page, sort.order);
    sendList(res, 'notifications', page, rows, total);
  });

  router.get('/notifications/unread-count', anyone(), async (_req, res) => {
    res.json({ unread: await unreadCount(pool, principalOf(res).userId) });
  });

  router.get('/notifications/stream', anyone(), async (req, res) => {
    const p = principalOf(res);
    await streams.open(req, res, { userId: p.userId, expiresAt: tokenExpiry(req) });
  });

  router.post('/notifications/read-all', anyone(), async (_req, res) => {
    const { userId } = principalOf(res);
    await markAllNotificationsRead(pool, userId);
    res.json({ unread: await unreadCount(pool, userId) });
  });

  router.post('/notifications/:id/read', anyone(), async (req, res) => {
    const { userId } = principalOf(res);
    const id = String(req.params['id'] ?? '');
    if (!(await markNotificationRead(pool, userId, id))) throw new HttpError(404, NOT_FOUND_MESSAGE);
    res.json({ id, read: true, unread: await unreadCount(pool, userId) });
  });

  return router;
}
