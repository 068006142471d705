import { useNavigate } from 'react-router-dom';
import { NotificationCentre } from '../../../ui/src/notifications/NotificationCentre';
import type { NotificationsApi } from '../../../ui/src/notifications/useNotifications';
import { consoleNotificationsApi } from './api';

/**
 * The bell in the console's app bar. Links are console routes (`/business-associates/<id>/show`), followed
 * with react-admin's router.
 */
export function NotificationBell({ api = consoleNotificationsApi }: { api?: NotificationsApi }) {
  const navigate = useNavigate();
  return <NotificationCentre api={api} onNavigate={(link) => navigate(link)} />;
}
