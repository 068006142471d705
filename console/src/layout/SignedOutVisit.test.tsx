import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryStore } from 'react-admin';
import { App } from '../App';
import { createDataProvider } from '../providers/dataProvider';
import { sessionStore } from '../providers/httpClient';
import { installFetch, requests } from '../testing/fakeFetch';
import { fakeDataProvider, me } from '../testing/fakes';

/**
 * The defect (issue 5): opening the console signed out froze the page for ~14 s while react-admin pushed
 * #/login onto the history thousands of times, which also broke Back. These tests run the console as the
 * browser does, on react-admin's own hash router over jsdom's history, and count what reaches the history.
 */

// React Router's data router builds a fetch Request per navigation; jsdom has none. Navigations here run
// no loaders, so a plain record stands in.
class NavigationRequest {
  readonly url: string;
  readonly method: string;
  readonly signal: AbortSignal | undefined;
  readonly headers = new Headers();
  constructor(url: string | URL, init: { method?: string; signal?: AbortSignal } = {}) {
    this.url = String(url);
    this.method = init.method ?? 'GET';
    this.signal = init.signal;
  }
}
(globalThis as { Request?: unknown }).Request ??= NavigationRequest;

const signedOut = () =>
  installFetch(() => ({ status: 401, body: { status: 401, message: 'Session Timed out.Please login again' } }));

function watchHistory() {
  const push = jest.spyOn(window.history, 'pushState');
  const replace = jest.spyOn(window.history, 'replaceState');
  const toLogin = () =>
    [...push.mock.calls, ...replace.mock.calls].filter(([, , url]) => String(url ?? '').endsWith('#/login'));
  return { push, toLogin };
}

afterEach(() => jest.restoreAllMocks());

describe('a signed-out visit', () => {
  it.each([
    ['the console root', '/console/'],
    ['a deep link', '/console/#/business-associates/ba-1/show'],
  ])('lands on the sign-in page at once from %s, with one redirect and no new history entry', async (_name, url) => {
    window.history.replaceState(null, '', url);
    const lengthBefore = window.history.length;
    const fetch = signedOut();
    const history = watchHistory();

    render(<App dataProvider={createDataProvider()} store={memoryStore()} />);

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.hash).toBe('#/login');
    // Let anything still queued (react-admin's logout timers, a second auth check) run before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(history.push).not.toHaveBeenCalled();
    expect(history.toLogin()).toHaveLength(1);
    expect(window.history.length).toBe(lengthBefore);
    // The one refresh call answers every auth question of the visit; nothing else reaches the API.
    await waitFor(() => expect(requests(fetch).every((r) => r.url.pathname === '/api/auth/refresh')).toBe(true));
  });
});

describe('signing out', () => {
  it('lands on the sign-in page once, without a storm of history entries', async () => {
    window.history.replaceState(null, '', '/console/#/business-associates');
    sessionStore.set({ accessToken: 'tok-1', user: me() });
    const fetch = installFetch((url) => (url.pathname === '/api/auth/logout' ? { status: 204 } : undefined));
    render(<App dataProvider={fakeDataProvider()} store={memoryStore()} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Profile' }));
    const history = watchHistory();
    const lengthBefore = window.history.length;
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(window.location.hash).toBe('#/login');
    // react-admin's logout pushes #/login once (Back returns to the page the user left).
    expect(history.push.mock.calls.length).toBeLessThanOrEqual(1);
    expect(window.history.length - lengthBefore).toBeLessThanOrEqual(1);
    expect(requests(fetch).map((r) => `${r.method} ${r.url.pathname}`)).toContain('POST /api/auth/logout');
    expect(sessionStore.get()).toBeNull();
  });
});
