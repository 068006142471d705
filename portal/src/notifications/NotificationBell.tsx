import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { NotificationCentre } from '../../../ui/src/notifications/NotificationCentre';
import { useApi } from '../api/ApiContext';
import { portalNotificationsApi } from './api';

/** The bell in the BA header. Links are portal routes (`/onboard/status`, `/home`, ...). */
export function NotificationBell() {
  const client = useApi();
  const navigate = useNavigate();
  const api = useMemo(() => portalNotificationsApi(client), [client]);
  return <NotificationCentre api={api} onNavigate={(link) => navigate(link)} />;
}
