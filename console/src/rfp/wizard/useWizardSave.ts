import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { statusOf } from '../../onboarding/items/useItemAction';
import { errorText } from '../../providers/httpClient';

/**
 * One save of a wizard step, with the console's conventions (useRfpCommand): one Idempotency-Key per user action,
 * kept while no answer came (a retry after a lost answer is the same action); the API's refusal in the error
 * snackbar. What happens after a success is the step's (it moves the wizard on).
 */
export function useWizardSave<V, R>(send: (vars: V, idempotencyKey: string) => Promise<R>, onSaved: (answer: R, vars: V) => void) {
  const notify = useNotify();
  const key = useRef<string | null>(null);
  const mutation = useMutation({
    mutationFn: (vars: V) => {
      key.current ??= uuidv4();
      return send(vars, key.current);
    },
    onSuccess: (answer, vars) => {
      key.current = null;
      onSaved(answer, vars);
    },
    onError: (error: unknown) => {
      const status = statusOf(error);
      if (status !== undefined && status !== 0) key.current = null;
      notify(errorText(error), { type: 'error' });
    },
  });
  return { run: (vars: V) => mutation.mutate(vars), isPending: mutation.isPending, error: mutation.error };
}
