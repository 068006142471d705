import type { Client } from '@temporalio/client';
import { startOnboarding } from '../onboarding/client';
import { act, actors, fillEveryTab, MANDATORY_DOCUMENTS, onboardingInput, validDetails } from '../onboarding/scenarios';
import { DOCUMENT_EXPIRY_WORKFLOW_TYPE, type DocumentExpiryInput, type DocumentExpirySchedule } from './messages';
import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { addDays } from './schedule';

/**
 * The document-expiry journeys the golden history is recorded from (and tests may drive), kept next to the
 * workflow so the recording is exactly what they prove.
 */

/** A length of "day" so long that the lifecycle's own expiry children never act while a test or a recording runs. */
const NEVER_DAY_MS = 10 * 365 * 86_400_000;

/**
 * A BA in review with one document (the first mandatory type that needs a validity date) approved till
 * `validTill`. The lifecycle's own expiry child gets days of years, so only a timer the caller starts acts.
 */
export async function baWithApprovedDocument(
  client: Client,
  taskQueue: string,
  validTill: string,
  baId?: string,
): Promise<{ baId: string; docId: string }> {
  const input = onboardingInput({ ...(baId === undefined ? {} : { baId }), documentExpiry: { dayMs: NEVER_DAY_MS } });
  await startOnboarding(client, taskQueue, input);
  await act(client, input.baId, { kind: 'saveDetails', details: validDetails }, actors.ba(input.baId));
  const tabs = await fillEveryTab(client, input.baId);
  await act(client, input.baId, { kind: 'submit' }, actors.ba(input.baId));
  const docId = tabs.docIds[MANDATORY_DOCUMENTS.findIndex((d) => d.validity)] ?? '';
  const review = { type: 'ReviewDocument' as const, docId, decision: 'approved' as const, approvedTill: validTill };
  await act(client, input.baId, { kind: 'command', command: review }, actors.procurement);
  return { baId: input.baId, docId };
}

/**
 * One timer run, under `workflowId`, for a document valid two more (Indian) days: the reminder one day before
 * is recorded, then the expiry at the end of the validity day. A "day" is 500 ms, so the run ends within about
 * 1.5 s of its start. Answers the timer's final schedule.
 */
export async function remindedThenExpired(
  client: Client,
  taskQueue: string,
  workflowId: string,
  baId?: string,
): Promise<DocumentExpirySchedule> {
  const validTill = addDays(indiaDateAt(Date.now()), 2);
  const { docId, baId: id } = await baWithApprovedDocument(client, taskQueue, validTill, baId);
  const input: DocumentExpiryInput = {
    baId: id,
    docId,
    validTill,
    documentTypeName: 'Insurance',
    reminderDaysBefore: [1],
    dayMs: 500,
    correlationId: `golden-${workflowId}`,
  };
  const timer = await client.workflow.start(DOCUMENT_EXPIRY_WORKFLOW_TYPE, { taskQueue, workflowId, args: [input] });
  return (await timer.result()) as DocumentExpirySchedule;
}
