import type { NewEvent, StoredEvent } from '../shared/events';

/**
 * `number` = the 0-based version of the stream's last event; 'no_stream' = the stream must not exist;
 * 'stream_exists' = it must exist; 'any' = no check.
 */
export type ExpectedVersion = number | 'no_stream' | 'stream_exists' | 'any';

export type AppendResult = {
  /** Version of the last event now in the stream (what to pass as expectedVersion next time). */
  nextExpectedVersion: number;
  /** Global position of the last event of this append. */
  lastGlobalPosition: number;
};

export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId} is at ${String(actual)}, expected ${String(expected)}`);
    this.name = 'ConcurrencyError';
  }
}

/** The same event id already stands in another stream: event ids are unique across the whole store. */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly eventId: string,
    readonly streamId: string,
    readonly existingStreamId: string | null,
  ) {
    super(
      `Event id ${eventId} cannot be appended to ${streamId}: it already stands in ` +
        (existingStreamId ? `stream ${existingStreamId}` : 'another stream'),
    );
    this.name = 'DuplicateEventIdError';
  }
}

export type ReadStreamOptions = { fromVersion?: number };

/** The port every event-store adapter implements; the contract suite in platform/src/event-store proves it. */
export type EventStore = {
  /**
   * Appends atomically. Retrying an append whose event ids already stand at the expected positions of the
   * stream returns the original result instead of failing (Temporal activities retry).
   */
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedVersion: ExpectedVersion },
  ): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /** Events with globalPosition > `after`, in global order, at most `limit`. */
  readAll(after: number, limit: number): Promise<StoredEvent[]>;
  /** Global position of the newest committed event (0 when empty). */
  headPosition(): Promise<number>;
  close(): Promise<void>;
};
