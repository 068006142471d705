import { evolve, initialState, type OnboardingEvent, type OnboardingState } from '../../../domain/src/onboarding';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { getMasterItems } from '../../../projections/src/masters/masters.queries';
import type { Db } from '../../../projections/src/sql';

/** GET /api/business-associates/:id/as-of?at=ISO: the BA's onboarding state rebuilt from its events up to `at`. */
export type BaAsOf = {
  id: string;
  /** The instant asked for (ISO, UTC). */
  at: string;
  /** False when the BA had not been registered yet at that instant. */
  existed: boolean;
  status: OnboardingState['status'];
  stage: OnboardingState['stage'];
  submission: number;
  companyCode: string | null;
  details: OnboardingState['details'];
  remarks: string | null;
  welcomeMessage: string | null;
  overdueStages: OnboardingState['overdueStages'];
  /** Names of the ids in the details, as the masters name them today (ids in events never change). */
  companyName: string | null;
  serviceName: string | null;
  cityName: string | null;
  stateName: string | null;
  /** How many of the stream's events were folded. */
  eventCount: number;
  /** The newest event included: where in the global chain this state stands. */
  lastEvent: { globalPosition: number; version: number; type: string; recordedAt: string; at: string } | null;
};

/** The state with the names of its service, city and state filled in from the masters (master_items). */
export async function withMasterNames(db: Db, asOf: BaAsOf): Promise<BaAsOf> {
  const d = asOf.details;
  const name = async (resource: string, id: number | null | undefined): Promise<string | null> => {
    if (id === null || id === undefined) return null;
    const [item] = await getMasterItems(db, resource, [id]);
    return typeof item?.['name'] === 'string' ? item['name'] : null;
  };
  const [serviceName, cityName, stateName] = await Promise.all([
    name('services', d?.serviceId),
    name('cities', d?.cityId),
    name('states', d?.stateId),
  ]);
  return { ...asOf, serviceName, cityName, stateName };
}

/**
 * The state as of `at` (names of master items left null: see withMasterNames): the longest prefix of the stream recorded by then, folded with the domain's own
 * `evolve` (the function the workflows decide with), so the view cannot drift from the rules. The store's
 * `recordedAt` decides, not the command's time: it is assigned under the append lock, grows with the global
 * position and is part of the hashed record. A prefix rather than a filter keeps the fold a real past state.
 */
export function stateAsOf(baId: string, events: readonly StoredEvent[], at: Date): BaAsOf {
  const limit = at.getTime();
  let state = initialState;
  let last: StoredEvent | null = null;
  let count = 0;
  for (const e of events) {
    if (Date.parse(e.recordedAt) > limit) break;
    state = evolve(state, { type: e.type, data: e.data } as OnboardingEvent);
    last = e;
    count += 1;
  }
  const d = state.details;
  return {
    id: baId,
    at: at.toISOString(),
    existed: state.status !== 'none',
    status: state.status,
    stage: state.stage,
    submission: state.submission,
    companyCode: state.companyCode,
    details: d,
    remarks: state.remarks,
    welcomeMessage: state.welcomeMessage,
    overdueStages: state.overdueStages,
    companyName: d?.companyName ?? null,
    serviceName: null,
    cityName: null,
    stateName: null,
    eventCount: count,
    lastEvent: last && {
      globalPosition: last.globalPosition,
      version: last.version,
      type: last.type,
      recordedAt: last.recordedAt,
      at: last.metadata.at,
    },
  };
}
