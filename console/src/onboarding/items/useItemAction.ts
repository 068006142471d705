import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRefresh, type Identifier } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { errorText } from '../../providers/httpClient';

export type ItemActionVars = {
  /** Under /api/business-associates/:id, e.g. `documents/<docId>/approve`. */
  path: string;
  body?: unknown;
  /** Multipart instead of JSON (a concession with its certificate). */
  form?: FormData;
  /** The snackbar after success when the API's answer carries no message of its own. */
  success: string;
};

/**
 * A refusal that means the page is out of date: another reviewer was faster (409) or the item's state no
 * longer allows the action (422). The dialog then closes and the record is read again, so the page offers
 * only what is possible now.
 */
export const isStaleRefusal = (status: number | undefined) => status === 409 || status === 422;

export const statusOf = (error: unknown): number | undefined => (error as { status?: number } | null)?.status;

/**
 * Sends one item command (review, staff upload) for the BA. One Idempotency-Key per user action: kept only
 * while no answer has arrived (a lost answer may hide a decision the server took, so a retry resends it).
 * `close` runs after success and after a stale refusal; other errors leave the dialog open for another try. A
 * form (`closeOnRefusal: false`) stays open on a 422 too: there it lists the fields to correct.
 */
export function useItemAction(baId: Identifier, close: () => void, { closeOnRefusal = true } = {}) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const key = useRef<string | null>(null);
  const closeRef = useRef(close);
  closeRef.current = close;

  const mutation = useMutation({
    mutationFn: ({ path, body, form }: ItemActionVars) => {
      key.current ??= uuidv4();
      return form
        ? dataProvider.baUpload(baId, path, form, key.current)
        : dataProvider.baCommand(baId, path, body ?? {}, key.current);
    },
    onSuccess: (json, { success }) => {
      key.current = null;
      closeRef.current();
      const message = typeof json?.['message'] === 'string' && json['message'] ? json['message'] : success;
      notify(message, { type: 'success' });
      refresh();
    },
    onError: (error: unknown) => {
      const status = statusOf(error);
      if (status !== undefined && status !== 0) key.current = null;
      notify(errorText(error), { type: 'error' });
      if (status === 409 || (closeOnRefusal && isStaleRefusal(status))) {
        closeRef.current();
        refresh();
      }
    },
  });

  return {
    run: (vars: ItemActionVars) => mutation.mutate(vars),
    isPending: mutation.isPending,
    /** A fresh dialog is a fresh action. */
    reset: () => {
      key.current = null;
      mutation.reset();
    },
  };
}
