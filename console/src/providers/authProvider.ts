import type { AuthProvider } from 'react-admin';
import { AUDITOR_ROLE, isStaffRole } from '../../../domain/src/identity/roles';
import type { Session } from '../shared/types';
import { API_URL, refreshSession, sessionStore } from './httpClient';

/** Spec 000 §8, code 101: a signed-in user whose roles do not include this application. */
export const NO_ACCESS_MESSAGE =
  "You don't have access to this application. Please contact admin team for support";
/** Spec 000 §8: a 401 ends the session with this text. */
export const SESSION_TIMED_OUT_MESSAGE = 'Session Timed out.Please login again';
export const BAD_CREDENTIALS_MESSAGE = 'Invalid username or password';

/** Staff and auditors use the console; BA admins and users have the portal. */
export const mayUseConsole = (roles: readonly string[]): boolean =>
  roles.some((r) => isStaffRole(r) || r === AUDITOR_ROLE);

export type ConsoleIdentity = {
  id: string;
  fullName: string;
  username: string;
  roles: string[];
  companyCodes: string[];
};

async function postJson(path: string, body?: unknown): Promise<Response> {
  return fetch(`${API_URL}${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function messageOf(res: Response, fallback: string): Promise<string> {
  try {
    const body = (await res.json()) as { message?: unknown };
    return typeof body.message === 'string' && body.message ? body.message : fallback;
  } catch {
    return fallback;
  }
}

/** Drops the refresh cookie server-side; failing to reach the API must not keep anyone signed in locally. */
async function endServerSession(): Promise<void> {
  try {
    await postJson('/auth/logout?app=console');
  } catch {
    // offline: the in-memory token is gone anyway and the cookie expires on its own
  }
}

/**
 * Restores the session from the refresh cookie once per page load (the token is memory-only, so a reload
 * loses it). react-admin asks checkAuth, getPermissions and getIdentity in quick succession: one refresh
 * call answers them all, and a signed-out visitor costs one 401, not one per question.
 */
let restoring: Promise<Session | null> | null = null;

async function currentSession(): Promise<Session | null> {
  const session = sessionStore.get();
  if (session) return session;
  restoring ??= refreshSession();
  return (await restoring) && sessionStore.get();
}

export const authProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const res = await postJson('/auth/login', { username, password });
    if (!res.ok) {
      const fallback = res.status === 401 ? BAD_CREDENTIALS_MESSAGE : 'There was a problem at our end';
      throw new Error(await messageOf(res, fallback));
    }
    const body = (await res.json()) as Session;
    if (!mayUseConsole(body.user.roles)) {
      await endServerSession();
      throw new Error(NO_ACCESS_MESSAGE);
    }
    sessionStore.set({ accessToken: body.accessToken, user: body.user });
  },

  async logout() {
    const hadSession = sessionStore.get() !== null;
    sessionStore.set(null);
    // The cookie is about to be cleared: there is nothing left to restore until the next sign-in.
    restoring = Promise.resolve(null);
    if (hadSession) await endServerSession();
  },

  async checkAuth() {
    const session = await currentSession();
    // message: false — arriving at the console signed out is normal, not an error worth a dialog.
    if (!session) throw { message: false };
    if (!mayUseConsole(session.user.roles)) {
      // A BA signed in to the portal in this browser: forget it here but leave its portal session alone.
      sessionStore.set(null);
      throw new Error(NO_ACCESS_MESSAGE);
    }
  },

  async checkError(error: { status?: number } | null | undefined) {
    // The httpClient already tried a refresh: a 401 reaching here means the session is over.
    if (error?.status === 401) throw new Error(SESSION_TIMED_OUT_MESSAGE);
    // 403 and others stay signed in: the screen shows the API's message.
  },

  async getPermissions() {
    const session = await currentSession();
    return session && mayUseConsole(session.user.roles) ? session.user.roles : [];
  },

  async getIdentity(): Promise<ConsoleIdentity> {
    const session = await currentSession();
    if (!session) throw new Error(SESSION_TIMED_OUT_MESSAGE);
    const { id, name, username, roles, companyCodes } = session.user;
    return { id, fullName: name, username, roles, companyCodes };
  },
} satisfies AuthProvider;
