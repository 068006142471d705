import { Navigate, Outlet } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import { errorTexts } from '../api/client';
import { BaGate, BaProvider } from '../onboarding/BaContext';
import { PortalLayout } from '../shared/PortalLayout';
import { LoadingOverlay } from '../shared/LoadingOverlay';
import { isPortalUser, useSession } from './session';

/**
 * Guards the BA screens (spec 000 §2 "Access rule"): no session → login; a session without portal access →
 * the unauthorised page. Inside, every screen has the BA's record and the BA header.
 */
export function RequireBa() {
  const { state } = useSession();
  if (state.status === 'restoring') return <LoadingOverlay open />;
  if (state.status === 'anonymous') return <Navigate to="/" replace />;
  const { user } = state;
  if (!isPortalUser(user)) return <Navigate to="/401" replace />;
  if (!user.baId)
    return (
      <PortalLayout>
        <Alert severity="warning">{errorTexts.noAccess}</Alert>
      </PortalLayout>
    );
  return (
    <BaProvider baId={user.baId}>
      <PortalLayout>
        <BaGate>
          <Outlet />
        </BaGate>
      </PortalLayout>
    </BaProvider>
  );
}
