import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useRefresh } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { errorText } from '../providers/httpClient';
import { invoiceCommand, type CommandAnswer } from './api';
import { ACTION_MESSAGES, BILL_HUB_TEXTS, type StaffAction } from './labels';

/**
 * One staff command on an invoice. The Idempotency-Key is kept until the API answers, so a retry after a lost
 * answer is the same decision. Book answers 202 while the ERP has not answered: that is not an error, the
 * page then shows the invoice waiting for the ERP. Refusals open the error dialog; a 409/422 (the invoice
 * moved on meanwhile) also closes the dialog and re-reads the invoice.
 */
export function useInvoiceCommand(invoiceId: string, verb: StaffAction, done: () => void) {
  const notify = useNotify();
  const refresh = useRefresh();
  const key = useRef<string | null>(null);
  return useMutation({
    mutationFn: (body: Record<string, unknown>): Promise<CommandAnswer> => {
      key.current ??= uuidv4();
      return invoiceCommand(invoiceId, verb, body, key.current);
    },
    onSuccess: (answer) => {
      key.current = null;
      if (verb === 'book' && answer.status === 202) {
        notify(answer.message || BILL_HUB_TEXTS.bookingRequested, { type: 'info' });
      } else {
        notify(answer.message || ACTION_MESSAGES[verb], { type: 'success' });
      }
      done();
      refresh();
    },
    onError: (error) => {
      const status = (error as { status?: number }).status;
      if (status) key.current = null;
      notify(errorText(error), { type: 'error' });
      if (status === 409 || status === 422) {
        done();
        refresh();
      }
    },
  });
}
