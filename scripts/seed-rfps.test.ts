import { optionListOf } from '../domain/src/masters/option-list';
import { RFP_PROPERTIES } from '../domain/src/masters/reference-data/rfp-properties';
import { RFP_REQUIRED_FLAGS } from '../domain/src/masters/reference-data/rfp-required-flags';
import { VEHICLE_TYPES } from '../domain/src/masters/reference-data/vehicle-types';
import type { RfpCommand } from '../domain/src/rfp/commands';
import { decideRfp } from '../domain/src/rfp/decide';
import { RFP_STATUSES, type LaneColumn, type RfpStep2 } from '../domain/src/rfp/model';
import { parseRfpHeader } from '../domain/src/rfp/rules';
import { evolveRfp, initialRfpState, type RfpState } from '../domain/src/rfp/state';
import { DomainError } from '../domain/src/shared/errors';
import type { Actor } from '../domain/src/shared/events';
import { indiaDateAt } from '../domain/src/shared/india-date';
import { addDays } from '../workflows/src/document-expiry/schedule';
import { DEMO_BAS, SEED_BA_ADMIN, SEED_RFP_ACTOR } from './seed';
import { DEMO_RFPS, demoOpportunity, nextRfpStep, sendOf, step2Of, type DemoRfp, type RfpBa } from './seed-rfps';

/**
 * The demo RFPs' stories, planned by the seed and decided by the real RFP decider (no Temporal, no database):
 * each reaches its status without a refusal, and planning again at the end sends nothing.
 */
const bas: ReadonlyMap<string, RfpBa> = new Map(DEMO_BAS.map((b) => [b.key, { key: b.key, baId: b.baId, companyName: b.details.companyName }]));
const baId = (key: string) => bas.get(key)?.baId ?? '';

/** Step 3's columns as the api makes them from the rfp-properties and required-flags masters (api/src/rfp/columns.ts). */
async function columnsFor(step2: RfpStep2): Promise<LaneColumn[]> {
  const flags = RFP_REQUIRED_FLAGS.find((f) => f.hireTypeId === step2.vehicleHireType && f.rfpTypeId === step2.typeId);
  const chosen = new Set([...step2.mllProperties, ...step2.baProperties]);
  return (['mll', 'ba'] as const).flatMap((owner) =>
    RFP_PROPERTIES.filter((p) => p.owner === owner && chosen.has(p.key) && p.rfpTypeIds.includes(step2.typeId))
      .sort((a, b) => a.columnOrder - b.columnOrder)
      .map((p): LaneColumn => ({
        key: p.key,
        label: p.label,
        owner,
        type: p.valueType,
        ...(p.valueType === 'select' ? { options: optionListOf(p.options) } : {}),
        required: p.isRequired && (owner === 'ba' || flags?.isRequiredByMll !== false),
      })),
  );
}

type Drive = { state: RfpState; steps: string[]; actors: Actor[] };

async function drive(rfp: DemoRfp, from: RfpState = initialRfpState): Promise<Drive> {
  let state = from;
  const steps: string[] = [];
  const actors: Actor[] = [];
  for (let i = 0; i < 40; i++) {
    const step = nextRfpStep(rfp, state, bas);
    if (!step) return { state, steps, actors };
    const send = await sendOf(rfp, state, step, bas, columnsFor);
    const actor = send.kind === 'command' && send.by === 'ba' ? SEED_BA_ADMIN : SEED_RFP_ACTOR;
    const command: RfpCommand =
      send.kind === 'create'
        ? { type: 'CreateRfpDraft', header: send.header }
        : send.command.type === 'SubmitLaneResponses'
          ? { ...send.command, baBlocked: false }
          : send.command;
    const events = decideRfp(command, state, { actor, at: new Date().toISOString() });
    if (events instanceof DomainError) throw new Error(`${rfp.rfpCode}: ${step.name} refused: ${events.message} ${JSON.stringify(events.errors ?? {})}`);
    if (events.length === 0) throw new Error(`${rfp.rfpCode}: ${step.name} changed nothing, the seed would loop`);
    state = events.reduce(evolveRfp, state);
    steps.push(step.name);
    actors.push(actor);
  }
  throw new Error(`${rfp.rfpCode} does not settle`);
}

describe('the demo RFPs', () => {
  it.each(DEMO_RFPS.map((r) => [r.rfpCode, r] as const))('%s reaches its status through the real decider, and a rerun sends nothing', async (_code, rfp) => {
    const { state, steps } = await drive(rfp);
    expect(state.status).toBe(rfp.outcome);
    expect(state.round).toBe(Math.max(rfp.rounds.length, rfp.outcome === 'draft' ? 0 : 1));
    expect(state.lanes.length).toBe(rfp.lanes.length);
    expect(Object.keys(state.invited).sort()).toEqual(rfp.outcome === 'draft' ? [] : rfp.invited.map(baId).sort());
    expect(new Set(steps).size).toBe(steps.length);
    expect((await drive(rfp, state)).steps).toEqual([]);
  });

  it('tells the story every RFP screen needs', async () => {
    const outcomes = new Map(await Promise.all(DEMO_RFPS.map(async (r) => [r.rfpCode, await drive(r)] as const)));
    const states = [...outcomes.values()].map((d) => d.state);
    expect(new Set(states.map((s) => s.status))).toEqual(new Set(RFP_STATUSES));
    expect(new Set(DEMO_RFPS.map((r) => r.rfpType))).toEqual(new Set(['standard', 'non-standard']));
    const verified = baId('chamundi');
    const coromandel = baId('coromandel');
    // Floated in round 1: Coromandel quoted every lane, ba.verified not yet (its to-do).
    const open = states.find((s) => s.status === 'floated' && s.round === 1);
    expect(Object.keys(open?.responses['1']?.[coromandel] ?? {})).toHaveLength(open?.lanes.length ?? -1);
    expect(open?.responses['1']?.[verified]).toBeUndefined();
    // Evaluation with three BAs' quotes.
    expect(Object.keys(states.find((s) => s.status === 'evaluation')?.responses['1'] ?? {})).toHaveLength(3);
    // Awarded: a lane shared by two BAs, ba.verified among the winners, invited for backhaul.
    const awarded = states.find((s) => s.status === 'awarded');
    const lanes = Object.values(awarded?.awards[0]?.lanes ?? {});
    expect(lanes.some((shares) => shares.length === 2)).toBe(true);
    expect(lanes.flat().some((share) => share.baId === verified)).toBe(true);
    expect(awarded?.backhaul[verified]).toBe(true);
    // Closed after its award, with T&C; a reopened RFP in round 2 where Coromandel revised its quotes.
    const closed = states.find((s) => s.status === 'closed');
    expect([closed?.awards.length, closed?.terms?.type]).toEqual([1, 'application/pdf']);
    const reopened = states.find((s) => s.round === 2);
    const rate = (round: string) => reopened?.responses[round]?.[coromandel]?.['L0001']?.['ratePerTrip'];
    expect(rate('2')).toBeDefined();
    expect(rate('2')).not.toBe(rate('1'));
  });

  it('has 10 to 20 lanes each, on vehicles of the vehicle-types master, from sandbox-CRM opportunities due ahead', () => {
    const vehicles = new Set(VEHICLE_TYPES.map((v) => v.name));
    const today = indiaDateAt(Date.now());
    for (const rfp of DEMO_RFPS) {
      expect([rfp.rfpCode, rfp.lanes.length >= 10 && rfp.lanes.length <= 20]).toEqual([rfp.rfpCode, true]);
      expect(rfp.lanes.map(([, , vehicle]) => vehicle).filter((v) => !vehicles.has(v))).toEqual([]);
      const header = parseRfpHeader({ ...demoOpportunity(rfp.opportunityId), rfpCode: rfp.rfpCode });
      expect('data' in header).toBe(true);
      if ('data' in header) expect(header.data.dueDate > addDays(today, 7)).toBe(true);
    }
    expect(new Set(DEMO_RFPS.map((r) => r.opportunityId)).size).toBe(DEMO_RFPS.length);
    expect(new Set(DEMO_RFPS.map((r) => step2Of(r).vehicleHireType)).size).toBeGreaterThan(2);
  });
});
