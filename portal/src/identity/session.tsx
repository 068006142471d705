import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { isBaRole } from '../../../domain/src/identity/roles';
import { useApi } from '../api/ApiContext';
import { ApiError, errorTexts, type Me } from '../api/client';
import { useFeedback } from '../shared/feedback';

export type SessionState =
  | { status: 'restoring' }
  | { status: 'anonymous' }
  | { status: 'authenticated'; user: Me };

export type SessionApi = {
  state: SessionState;
  user: Me | null;
  /** Signs in a BA; a staff login is refused with spec 000 §8 code 101 and leaves no session here. */
  login: (username: string, password: string) => Promise<Me>;
  logout: () => Promise<void>;
};

/** The portal is for BA roles; staff belong in /console. */
export const isPortalUser = (user: Me): boolean => user.application === 'portal' || user.roles.some(isBaRole);

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const client = useApi();
  const { showError } = useFeedback();
  const [state, setState] = useState<SessionState>({ status: 'restoring' });

  // A page load has no access token: the refresh cookie restores the session. A staff session (the
  // cookie is shared with /console) is left alone, not logged out, so the console tab keeps working.
  useEffect(() => {
    let live = true;
    client
      .refresh()
      .catch(() => null)
      .then((session) => {
        if (!live) return;
        if (session && isPortalUser(session.user)) setState({ status: 'authenticated', user: session.user });
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

  const login = useCallback(
    async (username: string, password: string) => {
      const session = await client.login(username, password);
      if (!isPortalUser(session.user)) {
        client.forget();
        throw new ApiError(403, errorTexts.noAccess, {}, 101);
      }
      setState({ status: 'authenticated', user: session.user });
      return session.user;
    },
    [client],
  );

  const logout = useCallback(async () => {
    await client.logout();
    setState({ status: 'anonymous' });
  }, [client]);

  const value = useMemo<SessionApi>(
    () => ({ state, user: state.status === 'authenticated' ? state.user : null, login, logout }),
    [state, login, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
