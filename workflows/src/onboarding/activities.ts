import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { OnboardingCommand } from '../../../domain/src/onboarding/commands';
import { onboardingDecider } from '../../../domain/src/onboarding/decide';
import { withReferences, type CompanyDetails } from '../../../domain/src/onboarding/details';
import { baStreamId, type OnboardingEvent } from '../../../domain/src/onboarding/events';
import { evolve, initialState, type OnboardingState } from '../../../domain/src/onboarding/state';
import type { Actor } from '../../../domain/src/shared/events';
import {
  resolveCompany,
  resolveCompanyDetailReferences,
  resolveDocumentType,
  resolveDocumentTypes,
  resolveExemptionReason,
  resolveGstReferences,
  resolveVerticalMappingReferences,
  type MasterLookup,
} from '../shared/master-references';
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

/**
 * The command with the master items it names resolved from the masters as they are now (the company of a new
 * BA; the service, state and city of company details; the document types, GST state and city, exemption reason,
 * vertical-mapping items and company of the item commands; the service, state and city of the profile a
 * company change request would make), so the pure decider can check them. Done here, never in workflow code: a
 * replay must not depend on what the masters say today. Whatever references the command arrived with (the
 * API's, for the workflow's validator) are replaced: a master item deactivated between the API's check and
 * this command's turn is refused.
 */
export async function withMasters(
  masters: MasterLookup,
  command: OnboardingCommand,
  currentDetails: () => Promise<CompanyDetails | null> = async () => null,
): Promise<OnboardingCommand> {
  switch (command.type) {
    case 'CreateBusinessAssociate':
      return { ...command, company: await resolveCompany(masters, command.companyCode) };
    case 'SaveCompanyDetails': {
      const { details } = command;
      if (typeof details !== 'object' || details === null) return command;
      // Replaces whatever references the details arrived with (the API's, for the workflow's validator).
      return { ...command, details: withReferences(details, await resolveCompanyDetailReferences(masters, details)) };
    }
    case 'SubmitOnboarding':
      return { ...command, documentTypes: await resolveDocumentTypes(masters) };
    case 'UploadDocument':
      return { ...command, documentType: await resolveDocumentType(masters, command.document) };
    case 'SaveGstRegistration':
      return { ...command, ...(await resolveGstReferences(masters, command.registration)) };
    case 'SaveConcession':
      return { ...command, exemptionReason: await resolveExemptionReason(masters, command.concession) };
    case 'SaveVerticalMapping':
      return { ...command, references: await resolveVerticalMappingReferences(masters, command.mapping) };
    case 'ApplyForCompanyCode':
      return { ...command, company: await resolveCompany(masters, command.companyCode) };
    case 'RaiseChangeRequest': {
      const { proposed } = command;
      if (command.section !== 'company' || typeof proposed !== 'object' || proposed === null) return command;
      // The references are of the profile the change would make: a new city is judged with the current state.
      const merged = { ...((await currentDetails()) ?? {}), ...proposed };
      return { ...command, proposed: withReferences(proposed, await resolveCompanyDetailReferences(masters, merged)) };
    }
    default:
      return command;
  }
}

/** The BA's state folded from its stream, and the position of its last event. */
export async function loadOnboardingStateFrom(
  store: EventStore,
  baId: string,
): Promise<{ state: OnboardingState; lastGlobalPosition: number }> {
  const events = await store.readStream(baStreamId(baId));
  const state = events.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as OnboardingEvent), initialState);
  return { state, lastGlobalPosition: events.at(-1)?.globalPosition ?? 0 };
}

export function createOnboardingActivities({ store, masters }: { store: EventStore; masters: MasterLookup }) {
  return {
    /**
     * A resumed lifecycle's starting point (OnboardingInput.resume): the BA as its stream says now. The result
     * is recorded in the run's history, so a replay starts from the same state.
     */
    async loadOnboardingState({ baId }: { baId: string }): Promise<{ state: OnboardingState; lastGlobalPosition: number }> {
      return loadOnboardingStateFrom(store, baId);
    },
    /**
     * Runs one onboarding command through the decider against the BA's stream, with the master items it names
     * resolved from the masters. A ConcurrencyError (or any infrastructure error) is thrown as is and retried;
     * a refusal means the stream moved under the workflow (or the masters changed) and retrying cannot help.
     */
    async handleOnboardingCommand(args: HandleOnboardingCommandArgs): Promise<HandleOnboardingCommandResult> {
      return refusalsAsFailures(async () => {
        const command = await withMasters(masters, args.command, async () => (await loadOnboardingStateFrom(store, args.baId)).state.details);
        const result = await handleCommand(store, baStreamId(args.baId), onboardingDecider, command, {
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
