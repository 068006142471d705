import { v5 as uuidv5 } from 'uuid';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { DomainEvent, NewEvent, StoredEvent } from '../shared/events';
import { metaFor } from '../shared/testing';
import { EVENT_ID_NAMESPACE, eventIdFor, handleCommand } from './handle-command';
import { ConcurrencyError, type AppendResult, type EventStore, type ExpectedVersion } from './port';

/**
 * A test double of the port, small enough to trust by reading: expected-version checks and the idempotent
 * retry rule of the port's contract. It records every append call so tests can prove nothing was written.
 */
type AppendCall = { streamId: string; events: readonly NewEvent[]; expectedVersion: ExpectedVersion };

class InMemoryEventStore implements EventStore {
  readonly streams = new Map<string, StoredEvent[]>();
  readonly appendCalls: AppendCall[] = [];
  private position = 0;

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    { expectedVersion }: { expectedVersion: ExpectedVersion },
  ): Promise<AppendResult> {
    this.appendCalls.push({ streamId, events, expectedVersion });
    const stream = this.streams.get(streamId) ?? [];
    const first = typeof expectedVersion === 'number' ? expectedVersion + 1 : 0;
    const standing = stream.slice(first, first + events.length);
    if (standing.length === events.length && standing.every((e, i) => e.eventId === events[i]?.eventId)) {
      const last = standing[standing.length - 1]!;
      return { nextExpectedVersion: last.version, lastGlobalPosition: last.globalPosition };
    }
    const actual = stream.length === 0 ? 'no_stream' : stream.length - 1;
    const ok =
      expectedVersion === 'any' ||
      (expectedVersion === 'no_stream' && stream.length === 0) ||
      (expectedVersion === 'stream_exists' && stream.length > 0) ||
      expectedVersion === actual;
    if (!ok) throw new ConcurrencyError(streamId, expectedVersion, actual);
    for (const e of events) {
      stream.push({
        ...e,
        streamId,
        version: stream.length,
        globalPosition: ++this.position,
        recordedAt: e.metadata.at,
        prevHash: '',
        hash: '',
      });
    }
    this.streams.set(streamId, stream);
    const last = stream[stream.length - 1]!;
    return { nextExpectedVersion: last.version, lastGlobalPosition: last.globalPosition };
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    return [...(this.streams.get(streamId) ?? [])];
  }

  async readAll(after: number, limit: number): Promise<StoredEvent[]> {
    return [...this.streams.values()]
      .flat()
      .filter((e) => e.globalPosition > after)
      .sort((a, b) => a.globalPosition - b.globalPosition)
      .slice(0, limit);
  }

  async headPosition(): Promise<number> {
    return this.position;
  }

  async close(): Promise<void> {}
}

// A counter aggregate: small enough that the test is about handleCommand, not about a domain.
type Added = DomainEvent<'Added', { by: number }>;
type Command = { type: 'Add'; by: number[] } | { type: 'Fail' } | { type: 'Noop' };
type State = { total: number };
const counter: Decider<Command, Added, State> = {
  initialState: { total: 0 },
  evolve: (state, event) => ({ total: state.total + event.data.by }),
  decide: (command) => {
    switch (command.type) {
      case 'Add':
        return command.by.map((by) => ({ type: 'Added', data: { by } }));
      case 'Fail':
        return new DomainError('rule', 'Refused by the rule', { by: 'too much' });
      case 'Noop':
        return [];
    }
  },
};

const streamId = 'counter-1';
const meta = (commandId: string, overrides: Partial<CommandMetadata> = {}) => ({
  ...metaFor({ userId: 'u-1', role: 'MLL Procurement', name: 'Priya' }, overrides),
  commandId,
});

describe('handleCommand', () => {
  let store: InMemoryEventStore;
  beforeEach(() => {
    store = new InMemoryEventStore();
  });
  const add = (...by: number[]): Command => ({ type: 'Add', by });
  const handle = (command: Command, commandId: string, overrides: Partial<CommandMetadata> = {}) =>
    handleCommand(store, streamId, counter, command, meta(commandId, overrides));

  describe('appending', () => {
    test('given an empty stream, when handled, then its events are appended expecting no stream', async () => {
      const result = await handle(add(2, 3), 'cmd-1');

      expect(store.appendCalls).toHaveLength(1);
      expect(store.appendCalls[0]?.expectedVersion).toBe('no_stream');
      expect(result).toEqual({
        events: [
          { type: 'Added', data: { by: 2 } },
          { type: 'Added', data: { by: 3 } },
        ],
        state: { total: 5 },
        version: 1,
        lastGlobalPosition: 2,
        replayed: false,
      });
    });

    test('given events, when handled, then it decides on the folded state and appends at the read version', async () => {
      await handle(add(1, 1, 1), 'cmd-1');
      const result = await handle(add(10), 'cmd-2');

      expect(store.appendCalls[1]?.expectedVersion).toBe(2);
      expect(result).toMatchObject({
        state: { total: 13 },
        version: 3,
        lastGlobalPosition: 4,
        replayed: false,
      });
    });

    test('given another writer appended after the read, when the append runs, then it is refused', async () => {
      await handle(add(1), 'cmd-1');
      const racing: EventStore = {
        readStream: (id) => store.readStream(id),
        readAll: (after, limit) => store.readAll(after, limit),
        headPosition: () => store.headPosition(),
        close: () => store.close(),
        appendToStream: async (id, events, options) => {
          // Another command lands between this command's read and its append.
          const other = { ...events[0]!, eventId: eventIdFor('other', 0) };
          await store.appendToStream(id, [other], { expectedVersion: 'any' });
          return store.appendToStream(id, events, options);
        },
      };
      const attempt = handleCommand(racing, streamId, counter, add(5), meta('cmd-2'));

      await expect(attempt).rejects.toBeInstanceOf(ConcurrencyError);
      const ids = (await store.readStream(streamId)).map((e) => e.eventId);
      expect(ids).toEqual([eventIdFor('cmd-1', 0), eventIdFor('other', 0)]);
    });

    test('event ids are uuid v5 of the command id and the event index', async () => {
      await handle(add(1, 2), 'cmd-7');
      const ids = (await store.readStream(streamId)).map((e) => e.eventId);

      expect(ids).toEqual([uuidv5('cmd-7:0', EVENT_ID_NAMESPACE), uuidv5('cmd-7:1', EVENT_ID_NAMESPACE)]);
      expect(ids).toEqual([eventIdFor('cmd-7', 0), eventIdFor('cmd-7', 1)]);
      const uuidV5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      expect(eventIdFor('cmd-7', 0)).toMatch(uuidV5);
      expect(eventIdFor('cmd-8', 0)).not.toBe(eventIdFor('cmd-7', 0));
    });
  });

  describe('retries', () => {
    test('given a command applied, when its id is retried, then the original events return and nothing is appended', async () => {
      const first = await handle(add(2, 3), 'cmd-1');
      const retry = await handle(add(2, 3), 'cmd-1');

      expect(store.appendCalls).toHaveLength(1);
      expect(await store.readStream(streamId)).toHaveLength(2);
      expect(retry).toEqual({ ...first, replayed: true });
    });

    test('given later commands, when an earlier one is retried, then its own events and the state after it', async () => {
      await handle(add(1), 'cmd-1');
      await handle(add(2, 3), 'cmd-2');
      await handle(add(100), 'cmd-3');

      const retry = await handle(add(2, 3), 'cmd-2');

      expect(retry).toEqual({
        events: [
          { type: 'Added', data: { by: 2 } },
          { type: 'Added', data: { by: 3 } },
        ],
        state: { total: 6 },
        version: 2,
        lastGlobalPosition: 3,
        replayed: true,
      });
      expect(store.appendCalls).toHaveLength(3);
    });

    test('given a retry whose decision would now differ, when retried, then the first outcome stands', async () => {
      await handle(add(1), 'cmd-1');
      const retry = await handle({ type: 'Fail' }, 'cmd-1');

      expect(retry.replayed).toBe(true);
      expect(retry.events).toEqual([{ type: 'Added', data: { by: 1 } }]);
    });
  });

  describe('refusals and no-ops', () => {
    test('given decide refuses, when handled, then the DomainError is thrown and nothing is appended', async () => {
      await handle(add(1), 'cmd-1');
      const attempt = handle({ type: 'Fail' }, 'cmd-2');

      await expect(attempt).rejects.toBeInstanceOf(DomainError);
      await expect(attempt).rejects.toMatchObject({
        code: 'rule',
        message: 'Refused by the rule',
        errors: { by: 'too much' },
      });
      expect(store.appendCalls).toHaveLength(1);
      expect(await store.readStream(streamId)).toHaveLength(1);
    });

    test('given decide returns no events, when handled, then nothing is appended and the version stays', async () => {
      await handle(add(4), 'cmd-1');
      const result = await handle({ type: 'Noop' }, 'cmd-2');

      expect(store.appendCalls).toHaveLength(1);
      expect(result).toEqual({
        events: [],
        state: { total: 4 },
        version: 0,
        lastGlobalPosition: 0,
        replayed: false,
      });
    });

    test('given an empty stream, when decide returns no events, then the stream stays absent', async () => {
      const result = await handle({ type: 'Noop' }, 'cmd-1');

      expect(result.version).toBe(-1);
      expect(store.appendCalls).toHaveLength(0);
      expect(store.streams.has(streamId)).toBe(false);
    });
  });

  describe('metadata', () => {
    test('the command metadata is carried onto every event', async () => {
      await handle(add(1, 2), 'cmd-1', {
        at: '2026-02-01T09:30:00.000Z',
        companyCode: '2000',
        correlationId: 'corr-9',
        causationId: 'cause-3',
        workflowId: 'onboarding-42',
        requestId: 'req-5',
      });

      const stored = await store.readStream(streamId);
      expect(stored.map((e) => e.type)).toEqual(['Added', 'Added']);
      for (const e of stored) {
        expect(e.metadata).toEqual({
          actor: { userId: 'u-1', role: 'MLL Procurement', name: 'Priya' },
          at: '2026-02-01T09:30:00.000Z',
          companyCode: '2000',
          correlationId: 'corr-9',
          causationId: 'cause-3',
          workflowId: 'onboarding-42',
          requestId: 'req-5',
        });
      }
    });

    test('given no causation id, when handled, then the command id is recorded as the cause', async () => {
      await handle(add(1), 'cmd-1', { causationId: null });

      expect((await store.readStream(streamId))[0]?.metadata.causationId).toBe('cmd-1');
    });

    test('the command metadata reaches decide', async () => {
      const seen: CommandMetadata[] = [];
      const spy: Decider<Command, Added, State> = {
        ...counter,
        decide: (command, state, m) => {
          seen.push(m);
          return counter.decide(command, state, m);
        },
      };
      await handleCommand(store, streamId, spy, add(1), meta('cmd-1', { requestId: 'req-1' }));

      expect(seen[0]).toMatchObject({
        actor: { userId: 'u-1', role: 'MLL Procurement' },
        requestId: 'req-1',
      });
    });
  });
});
