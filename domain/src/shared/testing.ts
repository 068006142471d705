import type { CommandMetadata, Decider } from './decider';
import { fold } from './decider';
import { DomainError, type DomainErrorCode } from './errors';
import type { Actor, DomainEvent } from './events';

/**
 * Given/when/then for deciders, for unit tests only (it uses jest's global `expect`):
 *
 *   given([created, saved]).when(submit, asBa).then([submitted]);
 *   given([created]).when(submit, asBa).thenError('rule', { errors: { companyName: '…' } });
 *
 * The state comes from folding the given events through the decider's own `evolve`, so a test cannot set up
 * a state the events could never produce.
 */
export const TEST_AT = '2026-01-15T10:00:00.000Z';

export const metaFor = (actor: Actor, overrides: Partial<CommandMetadata> = {}): CommandMetadata => ({
  actor,
  at: TEST_AT,
  companyCode: '1000',
  correlationId: 'correlation-1',
  causationId: null,
  workflowId: null,
  requestId: null,
  ...overrides,
});

export type ErrorExpectation = { message?: string | RegExp; errors?: Record<string, string> };

export type Outcome<Event> = {
  /** What `decide` returned, for assertions the helpers below do not cover. */
  result: Event[] | DomainError;
  then(expected: Event[]): void;
  /** The command is accepted and changes nothing. */
  thenNothing(): void;
  thenError(code: DomainErrorCode, expected?: ErrorExpectation): DomainError;
};

export const givenWhenThen =
  <Command, Event extends DomainEvent, State>(decider: Decider<Command, Event, State>) =>
  (given: readonly Event[]) => ({
    state: fold(decider, given),
    when(command: Command, meta: CommandMetadata): Outcome<Event> {
      const result = decider.decide(command, fold(decider, given), meta);
      return {
        result,
        then(expected) {
          expect(result).toEqual(expected);
        },
        thenNothing() {
          expect(result).toEqual([]);
        },
        thenError(code, expected = {}) {
          expect(result).toBeInstanceOf(DomainError);
          const error = result as DomainError;
          expect({ code: error.code }).toEqual({ code });
          if (typeof expected.message === 'string') expect(error.message).toBe(expected.message);
          if (expected.message instanceof RegExp) expect(error.message).toMatch(expected.message);
          if (expected.errors !== undefined) expect(error.errors).toEqual(expected.errors);
          return error;
        },
      };
    },
  });
