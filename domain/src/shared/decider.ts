import type { Actor, DomainEvent } from './events';
import type { DomainError } from './errors';

/** What every command carries besides its own payload: time, ids and the actor arrive from outside. */
export type CommandMetadata = {
  actor: Actor;
  at: string;
  companyCode: string | null;
  correlationId: string;
  causationId: string | null;
  workflowId: string | null;
  requestId: string | null;
};

export type Decider<Command, Event extends DomainEvent, State> = {
  initialState: State;
  evolve: (state: State, event: Event) => State;
  /** Pure: returns the events the command produces, or the reason it is refused. */
  decide: (command: Command, state: State, meta: CommandMetadata) => Event[] | DomainError;
};

export const fold = <Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState);
