import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userDecider, userStreamId, type RegisterUser } from '../../../domain/src/identity/users';
import type { RegistrationCommand } from '../../../domain/src/registration/commands';
import { registrationDecider } from '../../../domain/src/registration/decide';
import { registrationStreamId, type RegistrationEvent } from '../../../domain/src/registration/events';
import type { Actor } from '../../../domain/src/shared/events';
import { refusalsAsFailures } from '../onboarding/refusal';
import { resolveCompany, type MasterLookup } from '../shared/master-references';

/** What every registration activity needs to write its events with complete metadata. */
type CommandContext = {
  actor: Actor;
  /** Chosen by the workflow (deterministically): event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  requestId: string | null;
  workflowId: string;
  companyCode: string;
  /** Decision time (ISO), taken in workflow code so every attempt writes the same event. */
  at: string;
};

export type HandleRegistrationCommandArgs = CommandContext & { registrationId: string; command: RegistrationCommand };
export type HandleRegistrationCommandResult = { events: RegistrationEvent[]; lastGlobalPosition: number };

export type RegisterBaAdminArgs = CommandContext & { command: RegisterUser };
export type RegisterBaAdminResult = { lastGlobalPosition: number };

const metadataOf = (args: CommandContext) => ({
  actor: args.actor,
  at: args.at,
  companyCode: args.companyCode,
  correlationId: args.correlationId,
  causationId: null,
  workflowId: args.workflowId,
  requestId: args.requestId,
  commandId: args.commandId,
});

export function createRegistrationActivities({ store, masters }: { store: EventStore; masters: MasterLookup }) {
  return {
    /**
     * Runs one registration command through the decider against the registration's stream. A start names its
     * company as the Companies master holds it now (resolved here, never in workflow code).
     */
    async handleRegistrationCommand(args: HandleRegistrationCommandArgs): Promise<HandleRegistrationCommandResult> {
      return refusalsAsFailures(async () => {
        const stream = registrationStreamId(args.registrationId);
        const command =
          args.command.type === 'StartRegistration'
            ? { ...args.command, company: await resolveCompany(masters, args.command.companyCode) }
            : args.command;
        const result = await handleCommand(store, stream, registrationDecider, command, metadataOf(args));
        return { events: result.events, lastGlobalPosition: result.lastGlobalPosition };
      });
    },

    /**
     * Registers the BA Admin account on its own stream. The user id is derived from the e-mail, so the stream's
     * "must not exist" check is what keeps one account per address: an address taken since the API checked is
     * refused as a conflict. A retry (same command id) finds its own event and appends nothing.
     */
    async registerBaAdminUser(args: RegisterBaAdminArgs): Promise<RegisterBaAdminResult> {
      return refusalsAsFailures(async () => {
        const stream = userStreamId(args.command.userId);
        const result = await handleCommand(store, stream, userDecider, args.command, metadataOf(args));
        return { lastGlobalPosition: result.lastGlobalPosition };
      });
    },
  };
}

export type RegistrationActivities = ReturnType<typeof createRegistrationActivities>;
