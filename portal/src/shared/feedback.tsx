import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ErrorDialog } from '../../../ui/src/ErrorDialog';
import { LoadingOverlay } from './LoadingOverlay';
import { Snackbar, type SnackbarVariant } from './Snackbar';

export type Feedback = {
  /** Opens the modal error dialog; `onClose` runs when the user closes it. */
  showError: (message: string, onClose?: () => void) => void;
  /** The top-centre snackbar. */
  notify: (message: string, variant?: SnackbarVariant) => void;
  /** Shows the full-screen overlay while `task` runs; the overlay always goes before any error is shown. */
  withLoading: <T>(task: () => Promise<T>, message?: string) => Promise<T>;
};

const FeedbackContext = createContext<Feedback | null>(null);

// The last message stays in state while closing, so the closing animation does not show an empty box.
type DialogState = { open: boolean; message: string; onClose?: () => void };
type SnackState = { open: boolean; message: string; variant: SnackbarVariant; key: number };

/** One dialog, one snackbar and one overlay for the whole app (spec 000 §2, "Shared interface behaviour"). */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [dialog, setDialog] = useState<DialogState>({ open: false, message: '' });
  const [snack, setSnack] = useState<SnackState>({ open: false, message: '', variant: 'success', key: 0 });
  const [loading, setLoading] = useState<{ count: number; message: string | undefined }>({
    count: 0,
    message: undefined,
  });
  const snackKey = useRef(0);

  const showError = useCallback(
    (message: string, onClose?: () => void) => setDialog({ open: true, message, onClose }),
    [],
  );
  const notify = useCallback((message: string, variant: SnackbarVariant = 'success') => {
    snackKey.current += 1;
    setSnack({ open: true, message, variant, key: snackKey.current });
  }, []);
  const withLoading = useCallback(async <T,>(task: () => Promise<T>, message?: string): Promise<T> => {
    setLoading((l) => ({ count: l.count + 1, message }));
    try {
      return await task();
    } finally {
      setLoading((l) => ({ count: l.count - 1, message: l.count - 1 > 0 ? l.message : undefined }));
    }
  }, []);

  const value = useMemo(() => ({ showError, notify, withLoading }), [showError, notify, withLoading]);

  /*
   * A snackbar closes only itself. Its auto-hide timer can fire after a newer message was set but before React
   * rendered it (a busy machine delays the timer past its 2.5 s): closing "whatever is shown" then closed the new
   * message before anyone saw it ("Successfully Unblocked" lost after a quick block and unblock).
   */
  const closeSnack = (key: number) => setSnack((s) => (s.key === key ? { ...s, open: false } : s));

  const closeDialog = () => {
    const onClose = dialog.onClose;
    setDialog((d) => ({ open: false, message: d.message }));
    onClose?.();
  };

  return (
    <FeedbackContext.Provider value={value}>
      {children}
      <LoadingOverlay open={loading.count > 0} message={loading.message} />
      <ErrorDialog open={dialog.open} message={dialog.message} onClose={closeDialog} />
      <Snackbar
        key={snack.key}
        open={snack.open}
        message={snack.message}
        variant={snack.variant}
        onClose={() => closeSnack(snack.key)}
      />
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback must be used inside <FeedbackProvider>');
  return feedback;
}
