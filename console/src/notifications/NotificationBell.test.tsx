import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  fakeEventStream,
  notification,
  notificationRows,
  scrolledToBottom,
  type FakeEventStream,
} from '../../../ui/src/notifications/testing';
import type { NotificationItem } from '../../../ui/src/notifications/useNotifications';
import { fakeDataProvider, renderConsole } from '../testing/fakes';
import { installFetch, requests } from '../testing/fakeFetch';


/**
 * The console's bell against a fake API: GET /api/notifications pages over `rows`, read marks change them,
 * and the event stream is one the test writes to.
 */
function fakeNotificationsApi(rows: NotificationItem[], unread = rows.filter((r) => !r.read).length) {
  const stream = fakeEventStream();
  let count = unread;
  const mock = installFetch((url, init) => {
    const path = url.pathname;
    if (path === '/api/notifications') {
      const [start, end] = JSON.parse(url.searchParams.get('range') ?? '[0,9]') as [number, number];
      const page = rows.slice(start, end + 1);
      return { body: page, headers: { 'Content-Range': `notifications ${start}-${start + page.length - 1}/${rows.length}` } };
    }
    if (path === '/api/notifications/unread-count') return { body: { unread: count } };
    if (path === '/api/notifications/read-all' && init.method === 'POST') {
      count = 0;
      return { body: { unread: 0 } };
    }
    const read = /^\/api\/notifications\/(.+)\/read$/.exec(path);
    if (read && init.method === 'POST') {
      count = Math.max(0, count - 1);
      return { body: { id: decodeURIComponent(read[1]!), read: true, unread: count } };
    }
    return undefined;
  });
  const json = globalThis.fetch as jest.Mock;
  // The stream is a fetch whose body the bell reads; everything else is the JSON fake.
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (input: string, init?: RequestInit) =>
    String(input).endsWith('/api/notifications/stream')
      ? { status: 200, ok: true, headers: new Headers({ 'Content-Type': 'text/event-stream' }), body: stream.body }
      : json(input, init),
  );
  return { stream, mock, fetch: globalThis.fetch as jest.Mock };
}

const bell = () => screen.findByRole('button', { name: /^Notifications: \d+ unread$/ });
const ranges = (mock: jest.Mock) =>
  requests(mock)
    .filter((r) => r.url.pathname === '/api/notifications')
    .map((r) => r.url.searchParams.get('range'));

async function connected(stream: FakeEventStream) {
  await waitFor(() => expect(stream.opened).toBe(true));
}

describe('NotificationBell (console)', () => {
  it('shows 0 at first and counts a notification that arrives on the stream, without a reload', async () => {
    const rows: NotificationItem[] = [];
    const { stream } = fakeNotificationsApi(rows);
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    expect(await bell()).toHaveAccessibleName('Notifications: 0 unread');
    expect(screen.getByTestId('notification-count')).toHaveTextContent('0');
    await connected(stream);

    // The projector adds the row and the API pushes it to the open stream.
    const item = notification(1, { title: 'New BA submitted for review' });
    rows.push(item);
    stream.send('notification', { item, unread: 1 });
    await waitFor(() => expect(screen.getByTestId('notification-count')).toHaveTextContent('1'));
    await userEvent.click(await bell());
    const list = await screen.findByRole('list', { name: 'Notification list' });
    expect(await within(list).findByText('New BA submitted for review')).toBeInTheDocument();
  });

  it('loads page 0 when opened and the next page when the list is scrolled to its bottom', async () => {
    const { mock } = fakeNotificationsApi(notificationRows(25));
    renderConsole('/business-associates', { dataProvider: fakeDataProvider(), roles: ['MLL Procurement'] });
    await waitFor(async () => expect(await bell()).toHaveAccessibleName('Notifications: 25 unread'));
    await userEvent.click(await bell());
    const list = await screen.findByRole('list', { name: 'Notification list' });
    await within(list).findByText('Notification 25');
    expect(within(list).getAllByRole('button')).toHaveLength(10);
    expect(ranges(mock)).toEqual(['[0,9]']);

    scrolledToBottom(list);
    fireEvent.scroll(list);
    await within(list).findByText('Notification 15');
    expect(within(list).getAllByRole('button')).toHaveLength(20);
    expect(ranges(mock)).toEqual(['[0,9]', '[10,19]']);

    fireEvent.scroll(list);
    await within(list).findByText('Notification 1');
    expect(ranges(mock)).toEqual(['[0,9]', '[10,19]', '[20,29]']);
    // Everything is loaded: scrolling further asks for nothing more.
    fireEvent.scroll(list);
    await new Promise((r) => setTimeout(r, 100));
    expect(ranges(mock)).toHaveLength(3);
  });

  it('shows unread items in bold, marks one read on click and follows its link, and marks all read', async () => {
    const rows = [
      notification(3, { title: 'Unread one', link: '/business-associates/ba-1/show' }),
      notification(2, { title: 'Unread two' }),
      notification(1, { title: 'Already read', read: true }),
    ];
    const { fetch } = fakeNotificationsApi(rows);
    const dataProvider = fakeDataProvider();
    renderConsole('/business-associates', { dataProvider, roles: ['MLL Procurement'] });
    await waitFor(async () => expect(await bell()).toHaveAccessibleName('Notifications: 2 unread'));
    await userEvent.click(await bell());
    const list = await screen.findByRole('list', { name: 'Notification list' });
    expect(await within(list).findByText('Unread one')).toHaveStyle({ fontWeight: 700 });
    expect(within(list).getByText('Already read')).toHaveStyle({ fontWeight: 400 });

    await userEvent.click(within(list).getByRole('button', { name: 'Unread: Unread one' }));
    await waitFor(() =>
      expect(requests(fetch).some((r) => r.method === 'POST' && r.url.pathname === '/api/notifications/n-3/read')).toBe(true),
    );
    await waitFor(() => expect(screen.getByTestId('notification-count')).toHaveTextContent('1'));
    // The link opened the BA's page.
    await waitFor(() => expect(dataProvider.getOne).toHaveBeenCalledWith('business-associates', expect.objectContaining({ id: 'ba-1' })));

    await userEvent.click(await bell());
    const reopened = await screen.findByRole('list', { name: 'Notification list' });
    await within(reopened).findByText('Unread two');
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByTestId('notification-count')).toHaveTextContent('0'));
    expect(within(reopened).getByText('Unread two')).toHaveStyle({ fontWeight: 400 });
    expect(requests(fetch).some((r) => r.method === 'POST' && r.url.pathname === '/api/notifications/read-all')).toBe(true);
  });
});
