import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import { isBaRole } from '../../../domain/src/identity/roles';
import { errorTexts, type AppId, type Me } from '../api/client';
import { BaGate } from '../onboarding/BaContext';
import { LoadingOverlay } from '../shared/LoadingOverlay';
import { PortalShell } from '../shared/PortalLayout';
import { billHubOnly, hasApp, isBaAdmin, mustChangePassword, paths } from './routing';
import { useSession, useUser } from './session';

/**
 * Route guards (spec 000 §2 "Access rule"): no session → login; a session lacking the application or role →
 * the unauthorised page. A session that must change its password reaches nothing but the change-password page.
 */
export function RequireSession() {
  const { state } = useSession();
  const { pathname } = useLocation();
  if (state.status === 'restoring') return <LoadingOverlay open />;
  if (state.status === 'anonymous') return <Navigate to={paths.login} replace />;
  if (mustChangePassword(state.user) && pathname !== paths.changePassword)
    return <Navigate to={paths.changePassword} replace />;
  return (
    <PortalShell>
      <Outlet />
    </PortalShell>
  );
}

const isBaUser = (user: Me) => user.roles.some(isBaRole);

/** The BA's own screens: a BA role with a BA (Bill-Hub-only users have only the Bill-Hub). */
export function RequireBa() {
  const user = useUser();
  if (!isBaUser(user) || billHubOnly(user)) return <Navigate to={paths.unauthorised} replace />;
  if (!user.baId) return <Alert severity="warning">{errorTexts.noAccess}</Alert>;
  return (
    <BaGate>
      <Outlet />
    </BaGate>
  );
}

/** Spec 000 §2: the add-user and add-child-bill-hub pages are for the BA admin role only. */
export function RequireBaAdmin() {
  const user = useUser();
  return isBaAdmin(user) ? <Outlet /> : <Navigate to={paths.unauthorised} replace />;
}

/** A page of one application (e.g. the Bill-Hub): users without access to it get the unauthorised page. */
export function RequireApp({ app, children }: { app: AppId; children: ReactNode }) {
  const user = useUser();
  return hasApp(user, app) ? <>{children}</> : <Navigate to={paths.unauthorised} replace />;
}
