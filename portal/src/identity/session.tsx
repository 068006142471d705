import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useApi } from '../api/ApiContext';
import { ApiError, errorTexts, type Me, type Session } from '../api/client';
import { useLeave } from '../shared/external';
import { useFeedback } from '../shared/feedback';
import { CONSOLE_URL, destinationOf, type Destination } from './routing';

export type SessionState =
  | { status: 'restoring' }
  | { status: 'anonymous' }
  | { status: 'authenticated'; user: Me };

export type SessionApi = {
  state: SessionState;
  user: Me | null;
  /**
   * Takes a new session (after the login OTP, registration, a password change) and says where the user
   * goes: a portal route, the staff console (already on its way), or a refusal, thrown as an ApiError with
   * the spec 000 §8 text and code, which leaves no session behind.
   */
  signIn: (session: Session) => Promise<Destination>;
  /** A new token for the same user (active company switch): the user's data follows it. */
  replace: (session: Session) => void;
  logout: () => Promise<void>;
};

/** Whether a restored or new session belongs in the portal at all. */
export const isPortalSession = (user: Me): boolean => destinationOf(user).kind === 'portal';

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const client = useApi();
  const leave = useLeave();
  const { showError } = useFeedback();
  const [state, setState] = useState<SessionState>({ status: 'restoring' });

  // A page load has no access token: the refresh cookie restores the session. A session that does not belong
  // here (a staff session) is left alone, not logged out, so another tab keeps working.
  useEffect(() => {
    let live = true;
    client
      .refresh()
      .catch(() => null)
      .then((session) => {
        if (!live) return;
        if (session && isPortalSession(session.user)) setState({ status: 'authenticated', user: session.user });
        else {
          client.forget();
          setState({ status: 'anonymous' });
        }
      });
    return () => {
      live = false;
    };
  }, [client]);

  // Spec 000 §4 "Session": a 401 ends the session; the guarded routes then send the user to the login page.
  useEffect(
    () =>
      client.onSessionExpired(() => {
        setState({ status: 'anonymous' });
        showError(errorTexts.sessionTimedOut);
      }),
    [client, showError],
  );

  const signIn = useCallback(
    async (session: Session): Promise<Destination> => {
      const destination = destinationOf(session.user);
      switch (destination.kind) {
        case 'portal':
          setState({ status: 'authenticated', user: session.user });
          return destination;
        case 'console':
          // Staff work in the console: its own page load restores the session there.
          client.forget();
          leave(CONSOLE_URL);
          return destination;
        case 'refused':
          // Spec 000 §8 code 101: "data cleared" — the refresh cookie too, or a reload would try again.
          await client.logout();
          setState({ status: 'anonymous' });
          throw new ApiError(403, destination.message, {}, destination.code);
        default: {
          const never: never = destination;
          return never;
        }
      }
    },
    [client, leave],
  );

  const replace = useCallback((session: Session) => {
    setState({ status: 'authenticated', user: session.user });
  }, []);

  const logout = useCallback(async () => {
    await client.logout();
    setState({ status: 'anonymous' });
  }, [client]);

  const value = useMemo<SessionApi>(
    () => ({ state, user: state.status === 'authenticated' ? state.user : null, signIn, replace, logout }),
    [state, signIn, replace, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** For screens that only render inside the guards: the signed-in user. */
export function useUser(): Me {
  const { user } = useSession();
  if (!user) throw new Error('useUser must be used inside <RequireSession>');
  return user;
}
