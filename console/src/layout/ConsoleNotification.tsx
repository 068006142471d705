import { useEffect, useState } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { useNotificationContext, useTranslate, type NotificationPayload } from 'react-admin';
import { ErrorDialog } from '../../../ui/src/ErrorDialog';

/** Spec 000 §9: the snackbar hides itself after 2500 ms. */
export const SNACKBAR_AUTO_HIDE_MS = 2500;
export const SNACKBAR_ANCHOR = { vertical: 'top', horizontal: 'center' } as const;

const SEVERITY: Record<string, 'success' | 'info' | 'warning' | 'error'> = {
  success: 'success',
  info: 'info',
  warning: 'warning',
  error: 'error',
};

/**
 * react-admin's "the form is not valid" after a refused submit: the fields already say what is wrong, so a
 * modal would only stand between the user and them. It shows as the spec's error-variant snackbar instead.
 */
const INLINE_ERRORS = new Set(['ra.message.invalid_form']);

/**
 * Replaces react-admin's <Notification>: every `notify(..., { type: 'error' })` — ours and react-admin's
 * own, e.g. a list that failed to load — opens the spec's modal error dialog (but for INLINE_ERRORS);
 * everything else is a top-centre snackbar that hides after 2500 ms. Notifications are taken from the queue
 * one at a time.
 */
export const ConsoleNotification = () => {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  const [current, setCurrent] = useState<NotificationPayload | undefined>();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (notifications.length > 0 && !current) {
      const next = takeNotification();
      if (next) {
        setCurrent(next);
        setOpen(true);
      }
    }
  }, [notifications, current, takeNotification]);

  if (!current) return null;
  const { message, type, notificationOptions = {} } = current;
  const args = { _: message, ...notificationOptions.messageArgs };
  const text = typeof message === 'string' ? translate(message, args) : message;
  const close = () => setOpen(false);
  const clear = () => setCurrent(undefined);

  const modal = type === 'error' && !(typeof message === 'string' && INLINE_ERRORS.has(message));
  if (modal) return <ErrorDialog open={open} message={text} onClose={close} onExited={clear} />;

  return (
    <Snackbar
      open={open}
      anchorOrigin={SNACKBAR_ANCHOR}
      autoHideDuration={notificationOptions.autoHideDuration ?? SNACKBAR_AUTO_HIDE_MS}
      onClose={(_event, reason) => reason !== 'clickaway' && close()}
      slotProps={{ transition: { onExited: clear } }}
    >
      <Alert severity={SEVERITY[type ?? 'info'] ?? 'info'} variant="filled" onClose={close}>
        {text}
      </Alert>
    </Snackbar>
  );
};
