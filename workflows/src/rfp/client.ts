import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { AwardRfp, CloseRfp, FloatRfp, RfpCommand, SaveRfpStep, UploadLanes } from '../../../domain/src/rfp/commands';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import type { RfpStepNumber } from '../../../domain/src/rfp/model';
import { RFP_CODE_PATTERN, rfpRuleMessages } from '../../../domain/src/rfp/rules';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import type { StoredFile } from '../../../domain/src/shared/files';
import { withCommandDeadline, type CommandTimeout } from '../shared/command-deadline';
import { startLifecycle } from '../shared/start-lifecycle';
import { explainUpdateError } from '../shared/update-errors';
import {
  awaitCreatedUpdate,
  rfpCommandUpdate,
  rfpStateQuery,
  rfpWorkflowId,
  type RfpClientCommand,
  type RfpCommandArgs,
  type RfpCreatedResult,
  type RfpInput,
  type RfpStateView,
  type RfpUpdateResult,
} from './messages';

/*
 * What the API (and the seed) call for RFPs: one function per command, each answering with the RFP's summary,
 * stream version and last position after it, or throwing the decider's DomainError (403, 404, 409, 422, 400),
 * CommandTimeoutError or CommandFailedError as the other lifecycles' clients do. Client code only.
 */

/** Who acts and the ids of the HTTP request (its id is the update id: a retried request is the same update). */
export type RfpCommandContext = { actor: Actor; requestId: string; correlationId?: string } & CommandTimeout;

const notFound = () => new DomainError('not_found', rfpMessages.notFound);

/**
 * Creates the draft from wizard step 1 and starts its lifecycle (`rfp-<rfpCode>`) in one round trip
 * (update-with-start), answering once RfpDraftCreated is recorded. A retried request (same request id) gets the
 * same answer; another request for a code whose lifecycle runs is refused (409). A refused or abandoned start
 * leaves no run behind that would hold the code (ALLOW_DUPLICATE: a second creation meets the existing stream).
 */
export async function createRfpDraft(
  client: Client,
  taskQueue: string,
  header: unknown,
  ctx: RfpCommandContext & Pick<RfpInput, 'continueAsNewAfterHistoryLength' | 'companyCode'>,
): Promise<RfpUpdateResult> {
  const rfpCode = (header as { rfpCode?: unknown } | null)?.rfpCode;
  // The code names the workflow and the stream: checked before either exists.
  if (typeof rfpCode !== 'string' || !RFP_CODE_PATTERN.test(rfpCode.trim()))
    throw new DomainError('validation', rfpRuleMessages.rfpCode, { rfpCode: rfpRuleMessages.rfpCode });
  const code = rfpCode.trim();
  const input: RfpInput = {
    rfpCode: code,
    header,
    createdBy: ctx.actor,
    ...(ctx.companyCode ? { companyCode: ctx.companyCode } : {}),
    correlationId: ctx.correlationId ?? ctx.requestId,
    requestId: ctx.requestId,
    ...(ctx.continueAsNewAfterHistoryLength === undefined ? {} : { continueAsNewAfterHistoryLength: ctx.continueAsNewAfterHistoryLength }),
  };
  const created = await startLifecycle<RfpCreatedResult>(client, {
    workflowType: 'rfpWorkflow',
    workflowId: rfpWorkflowId(code),
    taskQueue,
    input,
    awaitStarted: awaitCreatedUpdate,
    updateId: `created:${ctx.requestId}`,
    timeoutMs: ctx.timeoutMs,
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
  if (created.startedBy !== ctx.requestId) throw new DomainError('conflict', rfpMessages.exists(code));
  const { startedBy: _startedBy, ...result } = created;
  return result;
}

/** Any RFP command but the creation, sent to the RFP's running lifecycle; 404 when it has none. */
export async function sendRfpCommand(client: Client, rfpCode: string, command: RfpClientCommand, ctx: RfpCommandContext): Promise<RfpUpdateResult> {
  const workflowId = rfpWorkflowId(rfpCode);
  const handle = client.workflow.getHandle(workflowId);
  try {
    return await withCommandDeadline(client, ctx.timeoutMs, { workflowId, updateId: ctx.requestId }, (deadline) => {
      const args: RfpCommandArgs = {
        actor: ctx.actor,
        requestId: ctx.requestId,
        correlationId: ctx.correlationId ?? ctx.requestId,
        command,
        ...(deadline === undefined ? {} : { deadline }),
      };
      return handle.executeUpdate(rfpCommandUpdate, { updateId: ctx.requestId, args: [args] });
    });
  } catch (error) {
    throw await explainUpdateError(error, notFound);
  }
}

/** Wizard steps 1–5 of a draft (`data` is the step's form). */
export const saveRfpStep = (client: Client, rfpCode: string, step: RfpStepNumber, data: unknown, ctx: RfpCommandContext) =>
  sendRfpCommand(client, rfpCode, { type: 'SaveRfpStep', step, data } satisfies SaveRfpStep, ctx);

/** The lane sheet as the importer parsed it. */
export const uploadRfpLanes = (client: Client, rfpCode: string, sheet: Omit<UploadLanes, 'type'>, ctx: RfpCommandContext) =>
  sendRfpCommand(client, rfpCode, { type: 'UploadLanes', ...sheet }, ctx);

/** Float (spec 001 §3 payload); `dueAt` only when bidding should close other than at the end of the due date. */
export const floatRfp = (client: Client, rfpCode: string, payload: unknown, ctx: RfpCommandContext & { dueAt?: string | null }) =>
  sendRfpCommand(client, rfpCode, { type: 'FloatRfp', payload, ...(ctx.dueAt === undefined ? {} : { dueAt: ctx.dueAt }) } satisfies FloatRfp, ctx);

/**
 * A BA's lane responses for the round it saw. `baId` is the BA the caller acts for (from its session); whether
 * it is blocked is read by the activity, never sent.
 */
export const submitLaneResponses = (
  client: Client,
  rfpCode: string,
  response: { baId: string; round: number; quotes: Record<string, Record<string, string | null>> },
  ctx: RfpCommandContext,
) => sendRfpCommand(client, rfpCode, { type: 'SubmitLaneResponses', ...response }, ctx);

/** Staff close bidding before the due date (the timer does it at the due date). */
export const closeRfpBidding = (client: Client, rfpCode: string, ctx: RfpCommandContext) => sendRfpCommand(client, rfpCode, { type: 'CloseBidding' }, ctx);

export const awardRfp = (client: Client, rfpCode: string, lanes: AwardRfp['lanes'], ctx: RfpCommandContext) =>
  sendRfpCommand(client, rfpCode, { type: 'AwardRfp', lanes }, ctx);

export const closeRfp = (client: Client, rfpCode: string, remarks: CloseRfp['remarks'], ctx: RfpCommandContext) =>
  sendRfpCommand(client, rfpCode, { type: 'CloseRfp', remarks }, ctx);

/** A new round until `dueAt` (ISO instant in the future). */
export const reopenRfp = (client: Client, rfpCode: string, dueAt: string, ctx: RfpCommandContext) =>
  sendRfpCommand(client, rfpCode, { type: 'ReopenRfp', dueAt }, ctx);

export const inviteBackhaul = (client: Client, rfpCode: string, invitation: { baId: string; isInvited: boolean }, ctx: RfpCommandContext) =>
  sendRfpCommand(client, rfpCode, { type: 'InviteBackhaul', ...invitation }, ctx);

/** The T&C PDF, already stored in the BlobStore. */
export const uploadRfpTerms = (client: Client, rfpCode: string, file: StoredFile, ctx: RfpCommandContext) =>
  sendRfpCommand(client, rfpCode, { type: 'UploadTerms', file }, ctx);

/** The RFP's summary as its workflow holds it, or null when it has none (never created, or its creation refused). */
export async function getRfpState(client: Client, rfpCode: string): Promise<RfpStateView | null> {
  try {
    const view = await client.workflow.getHandle(rfpWorkflowId(rfpCode)).query(rfpStateQuery);
    return view.summary.status === 'none' ? null : view;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

export type { RfpClientCommand, RfpCommand, RfpStateView, RfpUpdateResult };
