import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { onboardingDecider } from '../../../domain/src/onboarding/decide';
import { baStreamId, type OnboardingEvent } from '../../../domain/src/onboarding/events';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalsAsFailures } from './refusal';

export type HandleOnboardingCommandArgs = {
  baId: string;
  command: OnboardingCommand;
  actor: Actor;
  /** Chosen by the workflow (deterministically): event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  requestId: string | null;
  workflowId: string;
  companyCode: string | null;
  /** Decision time (ISO), taken in workflow code so every attempt writes the same event. */
  at: string;
};

export type HandleOnboardingCommandResult = { events: OnboardingEvent[]; lastGlobalPosition: number };

export function createOnboardingActivities({ store }: { store: EventStore }) {
  return {
    /**
     * Runs one onboarding command through the decider against the BA's stream. A ConcurrencyError (or any
     * infrastructure error) is thrown as is and retried; a refusal means the stream moved under the workflow
     * and retrying cannot help.
     */
    async handleOnboardingCommand(args: HandleOnboardingCommandArgs): Promise<HandleOnboardingCommandResult> {
      return refusalsAsFailures(async () => {
        const result = await handleCommand(store, baStreamId(args.baId), onboardingDecider, args.command, {
          actor: args.actor,
          at: args.at,
          companyCode: args.companyCode,
          correlationId: args.correlationId,
          causationId: null,
          workflowId: args.workflowId,
          requestId: args.requestId,
          commandId: args.commandId,
        });
        return { events: result.events, lastGlobalPosition: result.lastGlobalPosition };
      });
    },
  };
}

export type OnboardingActivities = ReturnType<typeof createOnboardingActivities>;
