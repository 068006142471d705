import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { RfpCommand } from '../../../domain/src/rfp/commands';
import { rfpDecider } from '../../../domain/src/rfp/decide';
import { rfpStreamId } from '../../../domain/src/rfp/events';
import { laneIdOf } from '../../../domain/src/rfp/lanes';
import type { Lane, LaneQuote } from '../../../domain/src/rfp/model';
import { baUser, columns, headerInput, mllAdmin, procurement, step2, termsFile } from '../../../domain/src/rfp/testing';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * Drives real RFP commands through the domain's decider into a real event store (test-only), so the projection
 * is fed exactly the events the lifecycle produces. The clock starts at the domain fixtures' time and moves a
 * minute per command, well before the fixtures' due date.
 */
export function createRfpDriver(store: EventStore, options: { start?: string } = {}) {
  let clock = Date.parse(options.start ?? '2026-01-15T10:00:00.000Z');

  async function run(code: string, actor: Actor, command: RfpCommand, companyCode: string | null = '1000'): Promise<number> {
    clock += 60_000;
    const result = await handleCommand(store, rfpStreamId(code), rfpDecider, command, {
      actor,
      at: new Date(clock).toISOString(),
      companyCode,
      correlationId: randomUUID(),
      causationId: null,
      workflowId: null,
      requestId: null,
      commandId: randomUUID(),
    });
    return result.lastGlobalPosition;
  }

  return {
    run,
    now: () => new Date(clock).toISOString(),
    /** A draft with step 2 saved and `lanes` uploaded (the fixtures' columns). */
    async draft(code: string, o: { lanes?: Lane[]; companyCode?: string | null; header?: Record<string, unknown> } = {}): Promise<void> {
      const cc = o.companyCode === undefined ? '1000' : o.companyCode;
      await run(code, procurement, { type: 'CreateRfpDraft', header: headerInput({ rfpCode: code, ...o.header }) }, cc);
      await run(code, procurement, { type: 'SaveRfpStep', step: 2, data: step2 }, cc);
      await run(code, procurement, { type: 'UploadLanes', headerData: columns, lanes: o.lanes ?? lanesOf(4), file: null }, cc);
    },
    float: (code: string, baIds: string[], comments = '') =>
      run(code, procurement, { type: 'FloatRfp', payload: { baIds, comments, floatToAll: false, rfpType: 'standard' } }),
    /** A lane whose cells are all empty withdraws its quote, as in the grid. */
    quote: (code: string, baId: string, round: number, quotes: Record<string, LaneQuote>) =>
      run(code, baUser(baId), { type: 'SubmitLaneResponses', baId, round, quotes, baBlocked: false }),
    closeBidding: (code: string) => run(code, mllAdmin, { type: 'CloseBidding' }),
    award: (code: string, lanes: Record<string, { baId: string; sharePercent: number }[]>) => run(code, mllAdmin, { type: 'AwardRfp', lanes }),
    close: (code: string, remarks = '') => run(code, mllAdmin, { type: 'CloseRfp', remarks }),
    reopen: (code: string, dueAt = '2026-02-20T12:30:00.000Z') => run(code, mllAdmin, { type: 'ReopenRfp', dueAt }),
    backhaul: (code: string, baId: string, isInvited: boolean) => run(code, procurement, { type: 'InviteBackhaul', baId, isInvited }),
    terms: (code: string) => run(code, procurement, { type: 'UploadTerms', file: termsFile }),
  };
}

const ROUTES: [string, string][] = [
  ['Mumbai', 'Pune'],
  ['Chennai', 'Bengaluru'],
  ['Delhi', 'Jaipur'],
  ['Kolkata', 'Patna'],
];
const VEHICLES = ['32 FT MXL', '20 FT SXL'];

/**
 * `n` standard lanes: lane i runs route ⌊i/2⌋ mod 4 with vehicle i mod 2, so the first four are Mumbai→Pune
 * (32 FT, 20 FT) and Chennai→Bengaluru (32 FT, 20 FT).
 */
export function lanesOf(n: number): Lane[] {
  return Array.from({ length: n }, (_, i) => {
    const [fromCity, toCity] = ROUTES[Math.floor(i / 2) % ROUTES.length]!;
    return { laneId: laneIdOf(i), values: { fromCity, toCity, vehicleType: VEHICLES[i % 2]! } };
  });
}

/** A quote of the fixtures' BA columns. */
export const rate = (ratePerTrip: number, transitDays: string | null = '2'): LaneQuote => ({ ratePerTrip: String(ratePerTrip), transitDays });
