import { Router, type Request } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { DISPLAY_TIME_ZONE } from '../../../domain/src/shared/format';
import { listOutbox, OUTBOX_SORT_FIELDS, type OutboxEntry, type OutboxItem } from '../../../platform/src/notifications/outbox';
import { publicRoute } from '../http/auth';
import { HttpError } from '../http/problem';
import { parseListQuery, sendList } from '../http/simple-rest';

/**
 * The dev outbox (DEV_OUTBOX=true, which `npm start` sets): every e-mail and SMS the system wrote, readable
 * without signing in, so a newcomer can read sign-in codes and open reset links without a mail server or a
 * phone. Public by design, and therefore off (404) unless switched on; config refuses it in production.
 *
 * - `api`: GET /dev/outbox, mounted under /api: a simple-rest list, newest first, filter {"to": "..."}.
 * - `pages`: GET /dev/outbox on the app itself (before the portal's fallback): the same list as a page.
 */
export type DevRoutesDeps = { pool: Pool; enabled: boolean };

const PAGE_SIZE = 100;
const REFRESH_SECONDS = 5;

const filterSchema = z
  .object({
    to: z.string({ error: 'must be an e-mail address or a mobile number' }).trim().min(1).max(320).optional(),
    channel: z.enum(['email', 'sms'], { error: 'must be email or sms' }).optional(),
  })
  .strict();

const item = (e: OutboxEntry): OutboxItem => ({
  id: e.id,
  to: e.to,
  channel: e.channel,
  subject: e.subject,
  text: e.text,
  createdAt: e.createdAt,
});

const notFound = () => new HttpError(404, 'Not found');

export function devRoutes({ pool, enabled }: DevRoutesDeps): { api: Router; pages: Router } {
  const api = Router();
  api.get('/dev/outbox', publicRoute(), async (req, res) => {
    if (!enabled) throw notFound();
    const { sort, range, filter } = parseListQuery(req.query, {
      sortFields: OUTBOX_SORT_FIELDS,
      defaultSort: { field: 'createdAt', order: 'DESC' },
      filter: filterSchema,
      defaultPageSize: 25,
    });
    const { rows, total } = await listOutbox(pool, { to: filter.to, channel: filter.channel, sort, range });
    sendList(res, 'outbox', range, rows.map(item), total);
  });

  const pages = Router();
  pages.get('/dev/outbox', publicRoute(), async (req, res) => {
    if (!enabled) throw notFound();
    const to = queryText(req, 'to');
    const { rows, total } = await listOutbox(pool, { to: to || undefined, range: { offset: 0, limit: PAGE_SIZE } });
    res.setHeader('Cache-Control', 'no-store');
    // Only our own inline styles; no script at all, so a message text could not run one even if escaping failed.
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'");
    res.type('html').send(outboxPage(rows, total, to));
  });

  return { api, pages };
}

function queryText(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim().slice(0, 320) : '';
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: every markup character escaped, so a message shows literally whatever it contains. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const LINK = /https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)]/g;

/** Plain text with the codes (4 to 6 digits standing alone) marked, so the eye finds them at once. */
const plainHtml = (text: string): string =>
  escapeHtml(text).replace(/(^|[^\w/=.:-])(\d{4,6})(?![\w/])/g, (_m, before: string, code: string) => `${before}<strong class="code">${code}</strong>`);

/**
 * A message body for the page: links clickable, codes marked, everything else escaped. Links and the text
 * between them are escaped separately, so neither can end up inside the other's markup.
 */
export function messageHtml(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const at = match.index ?? 0;
    const url = escapeHtml(match[0]);
    html += `${plainHtml(text.slice(last, at))}<a href="${url}">${url}</a>`;
    last = at + match[0].length;
  }
  return html + plainHtml(text.slice(last));
}

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: DISPLAY_TIME_ZONE,
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** 21-Nov-2025 14:05:09 in Indian time, like the rest of the product. */
const shownTime = (iso: string): string => {
  const p = Object.fromEntries(timeFormat.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return `${p['day']}-${p['month']}-${p['year']} ${p['hour']}:${p['minute']}:${p['second']}`;
};

const STATUS_TEXT: Record<OutboxEntry['status'], string> = { pending: 'waiting', delivered: 'sent', failed: 'failed' };

function statusHtml(e: OutboxEntry): string {
  const label = e.status === 'delivered' && e.lastError ? 'kept here' : STATUS_TEXT[e.status];
  const title = e.lastError ? ` title="${escapeHtml(e.lastError)}"` : '';
  const tries = e.status !== 'delivered' && e.attempts > 0 ? ` (${e.attempts} ${e.attempts === 1 ? 'try' : 'tries'})` : '';
  return `<span class="status ${e.status}"${title}>${escapeHtml(label + tries)}</span>`;
}

function rowHtml(e: OutboxEntry): string {
  const channel = e.channel === 'email' ? 'E-mail' : 'SMS';
  const subject = e.subject ? `<div class="subject">${escapeHtml(e.subject)}</div>` : '';
  return `<tr>
  <td class="time"><time datetime="${escapeHtml(e.createdAt)}">${escapeHtml(shownTime(e.createdAt))}</time></td>
  <td><span class="channel ${e.channel}">${channel}</span></td>
  <td class="to"><a href="/dev/outbox?to=${escapeHtml(encodeURIComponent(e.to))}">${escapeHtml(e.to)}</a></td>
  <td>${subject}<div class="text">${messageHtml(e.text)}</div></td>
  <td>${statusHtml(e)}</td>
</tr>`;
}

export function outboxPage(rows: readonly OutboxEntry[], total: number, to: string): string {
  const shown = rows.length < total ? `the newest ${rows.length} of ${total}` : `${total}`;
  const scope = to ? ` to <strong>${escapeHtml(to)}</strong>` : '';
  const body =
    rows.length === 0
      ? `<p class="empty">No messages${scope} yet. Sign in, register or reset a password and the codes show up here.</p>`
      : `<p class="count">${shown} ${total === 1 ? 'message' : 'messages'}${scope}, newest first.</p>
<table>
<thead><tr><th>Written (IST)</th><th>Channel</th><th>To</th><th>Message</th><th>Status</th></tr></thead>
<tbody>
${rows.map(rowHtml).join('\n')}
</tbody>
</table>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<meta name="robots" content="noindex">
<title>Dev outbox · BA Portal</title>
<style>
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1d2733; background: #f5f7fa; }
  header { background: #fff; border-bottom: 1px solid #dde3ea; padding: 16px 24px; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  header p { margin: 0 0 12px; color: #5b6878; }
  form { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
  input { font: inherit; padding: 6px 10px; border: 1px solid #b8c2cc; border-radius: 4px; min-width: 280px; }
  button { font: inherit; padding: 6px 14px; border: 0; border-radius: 4px; background: #c8102e; color: #fff; cursor: pointer; }
  main { padding: 16px 24px; }
  table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #dde3ea; }
  th, td { text-align: left; vertical-align: top; padding: 8px 12px; border-bottom: 1px solid #eef1f4; }
  th { background: #f0f3f6; font-weight: 600; white-space: nowrap; }
  .time { white-space: nowrap; color: #5b6878; }
  .to { white-space: nowrap; }
  .subject { font-weight: 600; margin-bottom: 4px; }
  .text { white-space: pre-wrap; word-break: break-word; max-width: 72ch; }
  .code { background: #fff3c4; padding: 0 4px; border-radius: 3px; font-size: 15px; letter-spacing: 1px; }
  .channel { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; background: #e3ecf7; }
  .channel.sms { background: #e4f4e8; }
  .status { font-size: 12px; color: #5b6878; }
  .status.failed { color: #b3261e; font-weight: 600; }
  .status.pending { color: #8a5a00; }
  .count, .empty { color: #5b6878; }
  a { color: #0b5cad; }
</style>
</head>
<body>
<header>
<h1>Dev outbox</h1>
<p>Every e-mail and SMS BA Portal wrote, so you can read sign-in codes and open links without a mail server or a phone.
Development only (DEV_OUTBOX=true). This page refreshes every ${REFRESH_SECONDS} seconds.</p>
<form method="get" action="/dev/outbox">
<label for="to">To</label>
<input id="to" name="to" type="search" value="${escapeHtml(to)}" placeholder="e-mail address or mobile number">
<button type="submit">Filter</button>
${to ? '<a href="/dev/outbox">Show all</a>' : ''}
</form>
</header>
<main>
${body}
</main>
</body>
</html>
`;
}
