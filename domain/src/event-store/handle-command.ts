import { v5 as uuidv5 } from 'uuid';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { DomainEvent, EventMetadata, NewEvent } from '../shared/events';
import type { EventStore } from './port';

/** Namespace for event ids derived from a command id (uuid v5), so a retried command yields the same ids. */
export const EVENT_ID_NAMESPACE = '6f1c2b52-4a57-4f0e-9a55-0c7e1d0f5a11';

export const eventIdFor = (commandId: string, index: number): string =>
  uuidv5(`${commandId}:${index}`, EVENT_ID_NAMESPACE);

export type HandleResult<State, Event extends DomainEvent> = {
  events: Event[];
  state: State;
  /** Version of the stream after the command (-1 if the stream is still empty). */
  version: number;
  /** Global position of the last appended event; 0 if nothing was appended. */
  lastGlobalPosition: number;
  /** True when the command had already been applied (a retry) and nothing new was appended. */
  replayed: boolean;
};

/**
 * Reads the stream, decides, appends with the read version as expected version. `commandId` makes the call
 * idempotent: event ids derive from it, and a command whose first event already stands in the stream
 * returns what it appended the first time.
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  streamId: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  meta: CommandMetadata & { commandId: string },
): Promise<HandleResult<State, Event>> {
  const stored = await store.readStream(streamId);
  const firstId = eventIdFor(meta.commandId, 0);
  const already = stored.findIndex((e) => e.eventId === firstId);
  if (already >= 0) {
    const before = stored.slice(0, already).map(toDomain<Event>);
    const mine = stored.slice(already).filter((e, i) => e.eventId === eventIdFor(meta.commandId, i));
    const state = [...before, ...mine.map(toDomain<Event>)].reduce(decider.evolve, decider.initialState);
    const last = mine[mine.length - 1];
    return {
      events: mine.map(toDomain<Event>),
      state,
      version: last?.version ?? already - 1,
      lastGlobalPosition: last?.globalPosition ?? 0,
      replayed: true,
    };
  }

  const current = stored.map(toDomain<Event>).reduce(decider.evolve, decider.initialState);
  const decided = decider.decide(command, current, meta);
  if (decided instanceof DomainError) throw decided;

  const metadata: EventMetadata = {
    actor: meta.actor,
    companyCode: meta.companyCode,
    correlationId: meta.correlationId,
    causationId: meta.causationId ?? meta.commandId,
    workflowId: meta.workflowId,
    requestId: meta.requestId,
    at: meta.at,
  };
  const toAppend: NewEvent[] = decided.map((e, i) => ({
    eventId: eventIdFor(meta.commandId, i),
    type: e.type,
    data: e.data,
    metadata,
  }));
  const state = decided.reduce(decider.evolve, current);
  if (toAppend.length === 0) {
    return { events: [], state, version: stored.length - 1, lastGlobalPosition: 0, replayed: false };
  }
  const expectedVersion = stored.length === 0 ? 'no_stream' : stored.length - 1;
  const result = await store.appendToStream(streamId, toAppend, { expectedVersion });
  return {
    events: decided,
    state,
    version: result.nextExpectedVersion,
    lastGlobalPosition: result.lastGlobalPosition,
    replayed: false,
  };
}

const toDomain = <Event extends DomainEvent>(e: { type: string; data: unknown }): Event =>
  ({ type: e.type, data: e.data }) as Event;
