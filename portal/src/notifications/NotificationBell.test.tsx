import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  fakeEventStream,
  notification,
  notificationRows,
  scrolledToBottom,
} from '../../../ui/src/notifications/testing';
import type { NotificationItem } from '../../../ui/src/notifications/useNotifications';
import { billHubOnlyUser, completeDetails, fakeApi, verifiedBaAdmin, type FakeApi } from '../testing/fakeApi';
import { renderPortal } from '../testing/render';

const user = userEvent.setup({ delay: null });
const verifiedBa = { status: 'verified' as const, details: completeDetails, companyName: completeDetails.companyName };

/**
 * The portal's fake API with the notification routes: GET /api/notifications pages over `rows`, read marks
 * count down, and the event stream is one the test writes to (the fake's fetch answers everything else).
 */
function withNotifications(rows: NotificationItem[], session = verifiedBaAdmin) {
  const stream = fakeEventStream();
  let unread = rows.filter((r) => !r.read).length;
  const api = fakeApi({
    session,
    ba: verifiedBa,
    intercept: (req) => {
      if (req.path === '/api/notifications') {
        const [start, end] = JSON.parse(req.query.get('range') ?? '[0,9]') as [number, number];
        return { status: 200, body: rows.slice(start, end + 1) };
      }
      if (req.path === '/api/notifications/unread-count') return { status: 200, body: { unread } };
      if (req.method === 'POST' && req.path === '/api/notifications/read-all') {
        unread = 0;
        return { status: 200, body: { unread } };
      }
      if (req.method === 'POST' && /^\/api\/notifications\/.+\/read$/.test(req.path)) {
        unread = Math.max(0, unread - 1);
        return { status: 200, body: { read: true, unread } };
      }
      return undefined;
    },
  });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    String(input).endsWith('/api/notifications/stream')
      ? ({ status: 200, ok: true, headers: new Headers(), body: stream.body } as unknown as Response)
      : api.fetch(input, init)) as typeof globalThis.fetch;
  return { api, stream, portalApi: { ...api, fetch } as FakeApi };
}

const bell = () => screen.findByRole('button', { name: /^Notifications: \d+ unread$/ });
const pagesAsked = (api: FakeApi) => api.sent('GET', '/api/notifications').map((r) => r.query.get('range'));

describe('NotificationBell (portal)', () => {
  it('shows 0 at first and the new count when the stream brings a notification', async () => {
    const rows: NotificationItem[] = [];
    const { stream, portalApi } = withNotifications(rows);
    renderPortal(portalApi, '/home');
    expect(await bell()).toHaveAccessibleName('Notifications: 0 unread');
    expect(screen.getByTestId('notification-count')).toHaveTextContent('0');
    await waitFor(() => expect(stream.opened).toBe(true));

    const item = notification(1, { title: 'Your organisation is verified', link: '/home' });
    rows.push(item);
    stream.send('notification', { item, unread: 1 });
    await waitFor(() => expect(screen.getByTestId('notification-count')).toHaveTextContent('1'));
    await user.click(await bell());
    const list = await screen.findByRole('list', { name: 'Notification list' });
    expect(await within(list).findByText('Your organisation is verified')).toBeInTheDocument();
  });

  it('loads the next page when the list is scrolled to its bottom, counting pages from 0', async () => {
    const { api, portalApi } = withNotifications(notificationRows(15));
    renderPortal(portalApi, '/home');
    await user.click(await bell());
    const list = await screen.findByRole('list', { name: 'Notification list' });
    await within(list).findByText('Notification 15');
    expect(within(list).getAllByRole('button')).toHaveLength(10);
    expect(pagesAsked(api)).toEqual(['[0,9]']);

    scrolledToBottom(list);
    fireEvent.scroll(list);
    await within(list).findByText('Notification 1');
    expect(within(list).getAllByRole('button')).toHaveLength(15);
    expect(pagesAsked(api)).toEqual(['[0,9]', '[10,19]']);
    // A short page was the last: no further requests.
    fireEvent.scroll(list);
    await new Promise((r) => setTimeout(r, 100));
    expect(pagesAsked(api)).toHaveLength(2);
  });

  it('marks an item read when opened and follows its link; Mark all as read clears the badge', async () => {
    const rows = [
      notification(2, { title: 'First review passed', link: '/onboard/status' }),
      notification(1, { title: 'Your details need changes', link: '/onboard/status' }),
    ];
    const { api, portalApi } = withNotifications(rows);
    renderPortal(portalApi, '/home');
    await waitFor(async () => expect(await bell()).toHaveAccessibleName('Notifications: 2 unread'));
    await user.click(await bell());
    const list = await screen.findByRole('list', { name: 'Notification list' });
    expect(await within(list).findByText('First review passed')).toHaveStyle({ fontWeight: 700 });

    await user.click(within(list).getByRole('button', { name: 'Unread: Your details need changes' }));
    await waitFor(() => expect(api.sent('POST', '/api/notifications/n-1/read')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('notification-count')).toHaveTextContent('1'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/onboard/status'));

    await user.click(await bell());
    const reopened = await screen.findByRole('list', { name: 'Notification list' });
    await within(reopened).findByText('First review passed');
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByTestId('notification-count')).toHaveTextContent('0'));
    expect(within(reopened).getByText('First review passed')).toHaveStyle({ fontWeight: 400 });
    expect(api.sent('POST', '/api/notifications/read-all')).toHaveLength(1);
  });

  it('has no bell for a Bill-Hub-only user, whom the notification routes refuse', async () => {
    const { portalApi } = withNotifications([], billHubOnlyUser);
    renderPortal(portalApi, '/bill-hub');
    await screen.findByRole('button', { name: billHubOnlyUser.name });
    expect(screen.queryByRole('button', { name: /^Notifications/ })).not.toBeInTheDocument();
  });
});
