import type { AuthProvider } from 'react-admin';
import { AUDITOR_ROLE, isStaffRole } from '../../../domain/src/identity/roles';
import type { Me, OtpChallenge, OtpResent, Session, SessionResponse } from '../shared/types';
import { API_URL, httpClient, refreshSession, sessionStore } from './httpClient';

/** Spec 000 §8, code 101: a signed-in user whose roles do not include this application. */
export const NO_ACCESS_MESSAGE =
  "You don't have access to this application. Please contact admin team for support";
/** Spec 000 §8: a 401 ends the session with this text. */
export const SESSION_TIMED_OUT_MESSAGE = 'Session Timed out.Please login again';
export const BAD_CREDENTIALS_MESSAGE = 'Invalid username or password';
export const INVALID_OTP_MESSAGE = 'Invalid OTP';
export const PROBLEM_AT_OUR_END = 'There was a problem at our end';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';

/**
 * The "All" company selection (spec 000 §9, a sentinel): api/src/contract.ts ALL_COMPANIES, repeated here
 * because the front ends take only types from the API's modules.
 */
export const ALL_COMPANIES = 'All';

/** Staff and auditors use the console; BA admins and users have the portal. */
export const mayUseConsole = (roles: readonly string[]): boolean =>
  roles.some((r) => isStaffRole(r) || r === AUDITOR_ROLE);

/** First sign-in or an expired password: the session may only change the password (spec 000 §2, §4). */
export const mustChangePassword = (user: Me): boolean =>
  user.firstLogin === true || user.passwordExpired === true || user.home === '/change-password';

export type ConsoleIdentity = {
  id: string;
  fullName: string;
  username: string;
  roles: string[];
  companyCodes: string[];
  /** 'All' or one of companyCodes: what the lists are narrowed to. */
  activeCompanyCode: string;
  mustChangePassword: boolean;
};

/**
 * A refusal of the sign-in API in the shape the sign-in page acts on: the message to show, whether the
 * captcha must be solved first, how many code attempts are left, how long to wait before resending.
 */
export class LoginRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly captchaRequired = false,
    readonly attemptsLeft: number | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'LoginRefusal';
  }
}

type ProblemBody = { message?: unknown; captchaRequired?: unknown; attemptsLeft?: unknown };

async function postPublic(path: string, body?: unknown): Promise<Response> {
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

async function readBody(res: Response): Promise<ProblemBody> {
  try {
    const body = (await res.json()) as unknown;
    return body && typeof body === 'object' ? (body as ProblemBody) : {};
  } catch {
    return {};
  }
}

/** The API's refusal as a LoginRefusal; the fallback text when the body says nothing. */
async function refusal(res: Response, fallback: string): Promise<LoginRefusal> {
  const body = await readBody(res);
  const message = typeof body.message === 'string' && body.message ? body.message : fallback;
  const retryAfter = Number(res.headers.get('Retry-After'));
  return new LoginRefusal(
    message,
    res.status,
    body.captchaRequired === true,
    typeof body.attemptsLeft === 'number' ? body.attemptsLeft : null,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/** A public sign-in call that answers JSON; a network failure reads as the spec's code-1 text. */
async function signInCall<T>(path: string, body: unknown, fallback: string): Promise<T> {
  let res: Response;
  try {
    res = await postPublic(path, body);
  } catch {
    throw new LoginRefusal('Unexpected error occured', 0);
  }
  if (!res.ok) throw await refusal(res, fallback);
  return (await res.json()) as T;
}

/** Drops the refresh cookie server-side; failing to reach the API must not keep anyone signed in locally. */
async function endServerSession(): Promise<void> {
  try {
    await postPublic('/auth/logout?app=console');
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

function keep(body: SessionResponse): Session {
  const session = { accessToken: body.accessToken, user: body.user };
  sessionStore.set(session);
  return session;
}

export type StartLoginParams = { username: string; password: string; captcha?: string | null };
export type LoginParams = { challengeId: string; otp: string };
export type ChangePasswordParams = { oldPassword: string; newPassword: string; confirmPassword: string };

export const authProvider = {
  /** Step 1 of sign-in: the password; the API answers with the OTP challenge it sent by SMS and e-mail. */
  async startLogin({ username, password, captcha }: StartLoginParams): Promise<OtpChallenge> {
    const body = { username: username.trim(), password, ...(captcha ? { captcha } : {}) };
    return signInCall<OtpChallenge>('/auth/login', body, BAD_CREDENTIALS_MESSAGE);
  },

  /** New codes for the same challenge; a 429 carries the seconds to wait. */
  async resendLoginOtp(challengeId: string): Promise<OtpResent> {
    return signInCall<OtpResent>('/auth/login/resend-otp', { challengeId }, PROBLEM_AT_OUR_END);
  },

  /**
   * Step 2, react-admin's login (called through useLogin, which then goes where the visitor was heading):
   * the code opens the session. A session that must change its password goes to that page first.
   */
  async login({ challengeId, otp }: LoginParams) {
    // `app=console`: the API refuses a BA here (403, the spec's code-101 text) without opening a session, so
    // the staff session this browser may hold keeps its cookie.
    const body = await signInCall<SessionResponse>(
      '/auth/login/verify-otp?app=console',
      { challengeId, otp: otp.trim() },
      INVALID_OTP_MESSAGE,
    );
    if (!mayUseConsole(body.user.roles)) {
      // Not expected (the API refused above); end the session just opened under its own application's
      // cookie, never the console's.
      try {
        await postPublic(`/auth/logout?app=${body.user.application}`);
      } catch {
        // offline: its cookie expires on its own
      }
      throw new LoginRefusal(NO_ACCESS_MESSAGE, 403);
    }
    keep(body);
    // A fresh sign-in restores nothing: the cookie it set is this session's.
    restoring = null;
    return mustChangePassword(body.user) ? { redirectTo: '/change-password' } : undefined;
  },

  /** POST /api/auth/change-password: the answer is the caller's new session (every other one ended). */
  async changePassword(params: ChangePasswordParams): Promise<string> {
    const { json } = await httpClient(`${API_URL}/auth/change-password`, {
      method: 'POST',
      body: JSON.stringify(params),
    });
    const answer = json as SessionResponse & { message?: string };
    keep(answer);
    return answer.message ?? PASSWORD_CHANGED_MESSAGE;
  },

  /** PUT /api/me/active-company: a new access token narrowed to the chosen code ('All' for every code). */
  async setActiveCompany(companyCode: string): Promise<Me> {
    const { json } = await httpClient(`${API_URL}/me/active-company`, {
      method: 'PUT',
      body: JSON.stringify({ companyCode }),
    });
    return keep(json as SessionResponse).user;
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
    const { user } = session;
    return {
      id: user.id,
      fullName: user.name,
      username: user.username,
      roles: user.roles,
      companyCodes: user.companyCodes,
      activeCompanyCode: user.activeCompanyCode ?? ALL_COMPANIES,
      mustChangePassword: mustChangePassword(user),
    };
  },
} satisfies AuthProvider;

/** The console's auth provider: react-admin's methods plus the sign-in steps and session commands. */
export type ConsoleAuthProvider = typeof authProvider;
