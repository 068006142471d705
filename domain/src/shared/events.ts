/**
 * The envelope every domain event travels in. Event ids are chosen by the caller (deterministically in
 * workflows) so a retried append can be recognised as the same append.
 */
export type Actor = {
  userId: string;
  /** The spec's role name the actor acted in, e.g. 'MLL Procurement', or 'system' for timers and seeds. */
  role: string;
  /** Display name for activity logs; optional because system actors have none. */
  name?: string;
};

export type EventMetadata = {
  actor: Actor;
  companyCode: string | null;
  correlationId: string;
  causationId: string | null;
  workflowId: string | null;
  requestId: string | null;
  /** ISO-8601 time the decision was made (from the command, never from a clock inside the domain). */
  at: string;
};

export type NewEvent<Type extends string = string, Data = unknown> = {
  eventId: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
};

export type StoredEvent<Type extends string = string, Data = unknown> = NewEvent<Type, Data> & {
  streamId: string;
  /** 0-based position of the event inside its stream. */
  version: number;
  /** Gapless, commit-ordered position over all streams, starting at 1. */
  globalPosition: number;
  recordedAt: string;
  prevHash: string;
  hash: string;
};

/** A domain event before it is wrapped: what `decide` returns. */
export type DomainEvent<Type extends string = string, Data = unknown> = { type: Type; data: Data };
