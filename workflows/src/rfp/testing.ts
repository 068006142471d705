import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { baUser, columns, headerInput, lanes, mllAdmin, operations, procurement, step2 } from '../../../domain/src/rfp/testing';
import type { Actor } from '../../../domain/src/shared/events';
import { createRfpDraft, floatRfp, saveRfpStep, uploadRfpLanes, type RfpCommandContext, type RfpUpdateResult } from './client';

/** Test helpers for the RFP lifecycle (integration tests only); the RFP itself is domain/src/rfp/testing's. */
export const rfpActors = { procurement, admin: mllAdmin, operations, ba: baUser };

let codes = 0;
/** An RFP code no other test of the run uses (the workflow id and the stream id carry it). */
export function uniqueRfpCode(): string {
  codes += 1;
  return `RFP-T${process.pid.toString(36)}${Date.now().toString(36)}-${codes}`.toUpperCase();
}

/** An ISO instant `ms` from now: a due date a test can wait for. */
export const fromNow = (ms: number): string => new Date(Date.now() + ms).toISOString();

/** A fresh request id per call, as the API gives every HTTP request. */
export const as = (actor: Actor, over: Partial<RfpCommandContext> = {}): RfpCommandContext => ({ actor, requestId: randomUUID(), ...over });

/** A BA's quote for the two lanes of the fixture RFP (L0001, L0002). */
export const twoLaneQuote = (rate1: string, rate2: string) => ({
  L0001: { ratePerTrip: rate1, transitDays: '1' },
  L0002: { ratePerTrip: rate2, transitDays: '2' },
});

/** A created draft made ready to float: step 2, the two fixture lanes and step 4 saved. */
export async function completeWizard(client: Client, rfpCode: string): Promise<RfpUpdateResult> {
  await saveRfpStep(client, rfpCode, 2, step2, as(procurement));
  await uploadRfpLanes(client, rfpCode, { headerData: columns, lanes, file: null }, as(procurement));
  return saveRfpStep(client, rfpCode, 4, { cityBasedBa: [], baList: [], comment: 'Please quote every lane' }, as(procurement));
}

/** A draft ready to float: created from the fixture header, then `completeWizard`. */
export async function draftReady(client: Client, taskQueue: string, rfpCode: string): Promise<RfpUpdateResult> {
  await createRfpDraft(client, taskQueue, headerInput({ rfpCode }), as(procurement));
  return completeWizard(client, rfpCode);
}

/** A draft floated to `baIds` with bidding open until `dueAt`. */
export async function floatedTo(client: Client, taskQueue: string, rfpCode: string, baIds: string[], dueAt: string): Promise<RfpUpdateResult> {
  await draftReady(client, taskQueue, rfpCode);
  return floatRfp(client, rfpCode, { baIds, comments: 'Quote by the due date', floatToAll: false, rfpType: 'standard' }, { ...as(procurement), dueAt });
}

/**
 * Marks a BA blocked in the block read model (vendor_blocks) as the blocks projection would after an applied
 * block: written with the owner's pool, as the projector's role does.
 */
export async function markBaBlocked(ownerPool: Pool, baId: string): Promise<void> {
  await ownerPool.query(
    `INSERT INTO vendor_blocks (vendor_code, ba_id, pan, company_code, level, blocked, since, updated_at, stream_version)
     VALUES ($1, $2, 'AAAPB1234C', '1000', 'parent', true, now(), now(), 1)`,
    [`V${baId}`.slice(0, 20), baId],
  );
}
