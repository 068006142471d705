import type { ReactNode } from 'react';
import { Loading, Navigate, useAuthState, useGetIdentity, useLocation } from 'react-admin';
import type { ConsoleIdentity } from '../providers/authProvider';

/** The forced (and the voluntary) password change: a page of its own, outside the layout. */
export const CHANGE_PASSWORD_PATH = '/change-password';
export const LOGIN_PATH = '/login';

type SessionGateProps = {
  children: ReactNode;
  /**
   * 'app': the console proper, for a complete session; a session that must change its password first is sent
   * to the change-password page. 'password': the change-password page, for any signed-in user.
   */
  mode?: 'app' | 'password';
};

/**
 * Decides, once per mount, whether there is a session, and sends a visitor without one to the sign-in page
 * with ONE history replacement, remembering where they were going.
 *
 * Why not react-admin's `requireAuth`: for a visitor without a session it mounts `LogoutOnMount`, whose
 * logout navigates to /login and clears the query cache. The clear re-runs the auth check (our answer is
 * immediate once the single refresh call has failed) before the router's navigation commits — React Router
 * 7 commits navigations as transitions, which the cache's re-renders keep interrupting — so `LogoutOnMount`
 * mounts again and logs out again: thousands of pushes of #/login and a page frozen for ~14 s. A visitor who
 * simply has no session needs no logout at all: a plain redirect clears nothing, so nothing loops.
 */
export const SessionGate = ({ children, mode = 'app' }: SessionGateProps) => {
  const location = useLocation();
  const { authenticated, isPending } = useAuthState(undefined, false);
  const signedIn = !isPending && authenticated === true;
  const { identity, isPending: identityPending } = useGetIdentity({ enabled: signedIn, retry: false });

  if (isPending) return <Loading />;
  if (!signedIn) {
    // nextSearch must be a string: react-admin's useLogin concatenates it to nextPathname.
    const next = { nextPathname: location.pathname, nextSearch: location.search ?? '' };
    return <Navigate to={LOGIN_PATH} replace state={next} />;
  }
  if (identityPending) return <Loading />;
  const mustChange = (identity as ConsoleIdentity | undefined)?.mustChangePassword === true;
  if (mode === 'app' && mustChange) return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  return <>{children}</>;
};
