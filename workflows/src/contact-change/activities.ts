import type { Pool } from 'pg';
// SQL only (no Express): the worker process ends the user's sessions itself.
import { revokeUserSessions } from '../../../api/src/identity/store/refresh-tokens';
import type { ContactChangeCommand } from '../../../domain/src/contact-change/commands';
import { contactChangeDecider } from '../../../domain/src/contact-change/decide';
import { contactChangeStreamId, type ContactChangeEvent } from '../../../domain/src/contact-change/events';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import {
  decideUser,
  evolveUser,
  userDecider,
  userStreamId,
  type UserContactChanged,
  type UserEvent,
  type UserState,
} from '../../../domain/src/identity/users';
import type { CommandMetadata, Decider } from '../../../domain/src/shared/decider';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { enqueueMessages, type OutboxMessage } from '../../../platform/src/notifications/outbox';
import { refusalsAsFailures } from '../onboarding/refusal';

/** What every activity call carries: decided in workflow code, so every attempt writes the same events. */
type Envelope = {
  changeId: string;
  actor: Actor;
  /** Chosen by the workflow (deterministically): event ids derive from it, so a retry appends nothing new. */
  commandId: string;
  correlationId: string;
  requestId: string | null;
  workflowId: string;
  companyCode: string | null;
  at: string;
};

export type HandleContactChangeCommandArgs = Envelope & { command: ContactChangeCommand };
export type CompleteContactChangeArgs = Envelope & {
  userId: string;
  challengeId: string;
  newEmail: string;
  newMobile: string;
  /** The new password's credential (stored by the API): the user's event names it. */
  credentialId: string;
};
export type ContactChangeActivityResult = { events: ContactChangeEvent[]; lastGlobalPosition: number };

type ContactAndPassword = { newEmail: string; newMobile: string; credentialId: string };

/**
 * The user's side of a completed change as ONE decision: the new contact and the new password are appended
 * together (one append, one version check), so nobody ever signs in with the new e-mail id and an old
 * password, or the reverse. Each half is the users decider's own ChangeContact / ChangePassword.
 */
const contactAndPasswordDecider: Decider<ContactAndPassword, UserEvent, UserState> = {
  initialState: userDecider.initialState,
  evolve: userDecider.evolve,
  decide: (c, state) => {
    const contact = decideUser({ type: 'ChangeContact', newEmail: c.newEmail, newMobile: c.newMobile }, state);
    if (contact instanceof DomainError) return contact;
    const after = contact.reduce(evolveUser, state);
    const password = decideUser({ type: 'ChangePassword', credentialId: c.credentialId, reason: 'contact-change' }, after);
    if (password instanceof DomainError) return password;
    return [...contact, ...password];
  },
};

const metaOf = (a: Envelope, commandId: string): CommandMetadata & { commandId: string } => ({
  actor: a.actor,
  at: a.at,
  companyCode: a.companyCode,
  correlationId: a.correlationId,
  causationId: null,
  workflowId: a.workflowId,
  requestId: a.requestId,
  commandId,
});

/** The outbox key of a change's 'contact-changed' messages: a retried activity writes them once. */
export const contactChangedDedupeKey = (changeId: string): string => `contact-changed:${changeId}`;

/**
 * What follows a completed change, in one transaction: every session of the user ends, and the OLD e-mail id
 * (and the old mobile, unless it stays) learns of the change, in case it was not the user. Both are
 * idempotent (revoking revoked tokens changes nothing; the outbox drops a message whose dedupe key it has),
 * so the activity can run this again on every retry.
 */
async function afterContactChanged(pool: Pool, changeId: string, name: string, changed: UserContactChanged['data']): Promise<void> {
  const { oldEmail, oldMobile, newEmail, newMobile } = changed;
  const params = { name, newEmail, newMobile };
  const messages: OutboxMessage[] = [
    { channel: 'email', to: oldEmail, template: 'contact-changed', params },
    ...(oldMobile && oldMobile !== newMobile ? [{ channel: 'sms' as const, to: oldMobile, template: 'contact-changed' as const, params }] : []),
  ];
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await revokeUserSessions(client, changed.userId);
    await enqueueMessages(client, messages, { dedupeKey: contactChangedDedupeKey(changeId) });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export type ContactChangeActivityDeps = {
  store: EventStore;
  /** PostgreSQL (refresh_tokens, outbox): completing a change ends the sessions and writes the notices. */
  pool?: Pool;
};

export function createContactChangeActivities({ store, pool }: ContactChangeActivityDeps) {
  return {
    /** Runs one contact-change command through the decider against the change's stream. */
    async handleContactChangeCommand(args: HandleContactChangeCommandArgs): Promise<ContactChangeActivityResult> {
      return refusalsAsFailures(async () => {
        const result = await handleCommand(
          store,
          contactChangeStreamId(args.changeId),
          contactChangeDecider,
          args.command,
          metaOf(args, args.commandId),
        );
        return { events: result.events, lastGlobalPosition: result.lastGlobalPosition };
      });
    },

    /**
     * The user's new e-mail id, mobile and password on the user's stream, then ContactChangeCompleted on the
     * change's, then the user's sessions ended and the old addresses told. Both command ids derive from the
     * workflow's, so a retry after a crash anywhere in between finds the events in place (appends nothing
     * twice, and answers the events the first attempt appended) and finishes what is left; the last step is
     * idempotent. Being part of the activity, it happens even if the API that sent the update dies meanwhile.
     */
    async completeContactChange(args: CompleteContactChangeArgs): Promise<ContactChangeActivityResult> {
      // Checked before anything is written: a worker without the database must not half-complete a change.
      // Thrown as a retryable fault, so a correctly configured worker finishes the change.
      if (!pool) throw new Error('completeContactChange needs the PostgreSQL pool (createActivities({ pool }))');
      return refusalsAsFailures(async () => {
        const user = await handleCommand(
          store,
          userStreamId(args.userId),
          contactAndPasswordDecider,
          { newEmail: args.newEmail, newMobile: args.newMobile, credentialId: args.credentialId },
          metaOf(args, `${args.commandId}:user`),
        );
        const change = await handleCommand(
          store,
          contactChangeStreamId(args.changeId),
          contactChangeDecider,
          { type: 'CompleteContactChange', challengeId: args.challengeId },
          metaOf(args, `${args.commandId}:change`),
        );
        const changed = user.events.find((e): e is UserContactChanged => e.type === 'UserContactChanged');
        if (!changed) throw new Error(`contact change ${args.changeId}: no UserContactChanged on ${userStreamId(args.userId)}`);
        await afterContactChanged(pool, args.changeId, user.state.name ?? '', changed.data);
        return {
          events: change.events,
          lastGlobalPosition: Math.max(user.lastGlobalPosition, change.lastGlobalPosition),
        };
      });
    },
  };
}

export type ContactChangeActivities = ReturnType<typeof createContactChangeActivities>;
