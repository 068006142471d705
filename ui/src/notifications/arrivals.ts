import type { NotificationItem } from '../../../api/src/contract';

/**
 * Live notifications for screens other than the bell: the bell's stream announces each new item here, and an
 * open page (a BA under review) listens to read its record again when an item is about it. One stream per
 * tab serves both; a listener that throws does not stop the others.
 */
type Listener = (item: NotificationItem) => void;

const listeners = new Set<Listener>();

/** Starts listening; answers the function that stops. */
export function onNotificationArrived(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Called by the bell for each item the stream delivers. */
export function announceNotification(item: NotificationItem): void {
  for (const listener of [...listeners]) {
    try {
      listener(item);
    } catch {
      // A screen's refresh failing must not break the bell or the other screens.
    }
  }
}
