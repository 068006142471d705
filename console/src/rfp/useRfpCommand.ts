import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useRefresh } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { isStaleRefusal, statusOf } from '../onboarding/items/useItemAction';
import { errorText } from '../providers/httpClient';

/**
 * One RFP command of a user action (a dialog, a toggle), with the console's conventions (useItemAction): one
 * Idempotency-Key per action, kept only while no answer came; success closes, tells the API's message (or
 * `success`) and reads the page again; a 409/422 (the RFP moved on, or its rules refuse) shows the API's message,
 * closes and refreshes, so the page offers only what is possible now; other errors leave the dialog open.
 */
export function useRfpCommand<V>(send: (vars: V, idempotencyKey: string) => Promise<unknown>, close: () => void = () => undefined) {
  const notify = useNotify();
  const refresh = useRefresh();
  const key = useRef<string | null>(null);
  const closeRef = useRef(close);
  closeRef.current = close;

  const mutation = useMutation({
    mutationFn: ({ success: _success, ...vars }: V & { success: string }) => {
      key.current ??= uuidv4();
      // `success` is the snackbar's, never part of the command.
      return send(vars as unknown as V, key.current);
    },
    onSuccess: (json, { success }) => {
      key.current = null;
      closeRef.current();
      const message = (json as { message?: unknown } | null)?.message;
      notify(typeof message === 'string' && message ? message : success, { type: 'success' });
      refresh();
    },
    onError: (error: unknown) => {
      const status = statusOf(error);
      if (status !== undefined && status !== 0) key.current = null;
      notify(errorText(error), { type: 'error' });
      if (isStaleRefusal(status)) {
        closeRef.current();
        refresh();
      }
    },
  });

  return {
    run: (vars: V & { success: string }) => mutation.mutate(vars),
    isPending: mutation.isPending,
    /** A fresh dialog is a fresh action. */
    reset: () => {
      key.current = null;
      mutation.reset();
    },
  };
}
