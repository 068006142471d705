import { useEffect } from 'react';
import { useRefresh, type Identifier } from 'react-admin';
import { onNotificationArrived } from '../../../ui/src/notifications/arrivals';

/** Whether a notification is about this BA: its link points at the BA (console links name the BA's id). */
export const isAboutBa = (link: string | null | undefined, baId: Identifier): boolean => {
  if (!link) return false;
  const id = encodeURIComponent(String(baId));
  return link.split(/[/?#&=]/).some((part) => part === id || part === String(baId));
};

const dialogOpen = () => document.querySelector('[role="dialog"]') !== null;

/**
 * Keeps an open BA page fresh: when the notification stream brings an item about this BA (another reviewer
 * decided, the BA resubmitted or changed an item), the record and its items are read again. Not while the
 * reviewer has a dialog open: a re-render under a half-typed decision would lose it, so the refresh waits
 * until the dialog has closed (the decision itself refreshes the page anyway).
 */
export function useLiveRecord(baId: Identifier | undefined) {
  const refresh = useRefresh();
  useEffect(() => {
    if (baId === undefined) return;
    let waiting: ReturnType<typeof setInterval> | undefined;
    const refreshWhenNoDialog = () => {
      if (!dialogOpen()) return refresh();
      if (waiting !== undefined) return;
      waiting = setInterval(() => {
        if (dialogOpen()) return;
        clearInterval(waiting);
        waiting = undefined;
        refresh();
      }, 500);
    };
    const stop = onNotificationArrived((item) => {
      if (isAboutBa(item.link, baId)) refreshWhenNoDialog();
    });
    return () => {
      stop();
      if (waiting !== undefined) clearInterval(waiting);
    };
  }, [baId, refresh]);
}
