import { useEffect } from 'react';
import { useRefresh, type Identifier } from 'react-admin';
import { onNotificationArrived } from '../../../ui/src/notifications/arrivals';

/** Whether a notification is about this BA: its link points at the BA (console links name the BA's id). */
export const isAboutBa = (link: string | null | undefined, baId: Identifier): boolean => {
  if (!link) return false;
  const id = encodeURIComponent(String(baId));
  return link.split(/[/?#&=]/).some((part) => part === id || part === String(baId));
};

/**
 * Keeps an open BA page fresh: when the notification stream brings an item about this BA (another reviewer
 * decided, the BA resubmitted or changed an item), the record and its items are read again.
 */
export function useLiveRecord(baId: Identifier | undefined) {
  const refresh = useRefresh();
  useEffect(() => {
    if (baId === undefined) return;
    return onNotificationArrived((item) => {
      if (isAboutBa(item.link, baId)) refresh();
    });
  }, [baId, refresh]);
}
