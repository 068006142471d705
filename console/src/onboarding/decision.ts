import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import { v4 as uuidv4 } from 'uuid';
import { mayReviewStage } from '../../../domain/src/identity/roles';
import { messages, safeText } from '../../../domain/src/validation/fields';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { errorText } from '../providers/httpClient';
import type { BusinessAssociate, ReviewStage } from '../shared/types';
import { baLabel } from './baName';
import { isStaleRefusal, statusOf } from './items/useItemAction';

/**
 * Whether the signed-in user may decide this BA now: it waits in a review stage and one of the user's roles
 * decides that stage (REVIEW_STAGE_ROLES). Auditors hold no reviewing role, so they never see the buttons.
 * The API checks the same rule (and "nobody approves both stages") again; this only hides useless buttons.
 */
export function decidableStage(
  record: BusinessAssociate | undefined,
  roles: readonly string[] | undefined,
): ReviewStage | null {
  if (!record || !roles || record.status !== 'inprogress') return null;
  const stage = record.stage;
  if (stage !== 1 && stage !== 2) return null;
  return mayReviewStage(roles, stage) ? stage : null;
}

/** The shared free-text rule (≤ 260 characters, no leading formula character) on what will be sent. */
export function remarksError(value: string, required: boolean): string | null {
  const remarks = value.trim();
  if (remarks === '') return required ? messages.required : null;
  const parsed = safeText().safeParse(remarks);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? messages.required);
}

export type Verb = 'approve' | 'reject';
type Vars = { stage: ReviewStage; remarks: string | null; companyCode?: string };

/**
 * Sends one staff decision. The Idempotency-Key is minted when a submit starts and kept only while no answer
 * has arrived (a network failure may hide a decision the server did take: resending the same key is then
 * safe); once the API has answered, the next submit is a new action with a new key.
 */
export function useDecision(record: BusinessAssociate, verb: Verb, onDone: () => void) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const key = useRef<string | null>(null);

  const mutation = useMutation({
    mutationFn: ({ stage, remarks, companyCode }: Vars) => {
      key.current ??= uuidv4();
      const params = { stage, idempotencyKey: key.current, ...(companyCode ? { companyCode } : {}) };
      return verb === 'approve'
        ? dataProvider.approve(record.id, { ...params, remarks })
        : dataProvider.reject(record.id, { ...params, remarks: remarks ?? '' });
    },
    onSuccess: (result, { stage, companyCode }) => {
      key.current = null;
      // After a 401 react-admin resolves with an empty result while it signs the user out.
      if (!result?.data?.id) return;
      onDone();
      const message = companyCode
        ? `Company code ${companyCode}: stage ${stage} ${verb === 'approve' ? 'approved' : 'rejected'}`
        : successMessage(verb, stage, result.data);
      notify(message, { type: 'success' });
      refresh();
    },
    onError: (error: unknown) => {
      const status = statusOf(error);
      if (status !== undefined && status !== 0) key.current = null;
      notify(errorText(error), { type: 'error' });
      // Refused because the page is out of date (another reviewer was faster, or an item blocks the stage):
      // close the dialog and read the record again, so only the actions possible now are offered.
      if (isStaleRefusal(status)) {
        onDone();
        refresh();
      }
    },
  });

  return {
    submit: (vars: Vars) => mutation.mutate(vars),
    isPending: mutation.isPending,
    /** A fresh dialog is a fresh action. */
    reset: () => {
      key.current = null;
      mutation.reset();
    },
  };
}

function successMessage(verb: Verb, stage: ReviewStage, ba: BusinessAssociate): string {
  const name = baLabel(ba, 'The business associate');
  if (verb === 'reject') return `${name}: onboarding rejected at stage ${stage}`;
  return ba.status === 'verified' ? `${name} is verified` : `Stage ${stage} approved for ${name}`;
}
