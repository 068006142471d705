import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EventStore } from '../../../domain/src/event-store/port';
import {
  contactChangeDecider,
  contactEditMessages,
  stepOf,
  type ContactChangeState,
  type ContactChangeStep,
} from '../../../domain/src/contact-change';
import { contactChangeStreamId, type ContactChangeEvent } from '../../../domain/src/contact-change/events';
import { fold } from '../../../domain/src/shared/decider';
import { HttpError } from '../http/problem';

/**
 * The e-mailed link's token: `<changeId>.<secret>`, the secret 32 random bytes (base64url). The change id
 * finds the lifecycle; only sha256(secret) is recorded (in ContactChangeRequested), so neither the event
 * store nor Temporal's history holds anything that opens the link. Hashes are compared in constant time.
 */
export type LinkToken = { token: string; changeId: string; tokenHash: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function newLinkToken(changeId: string): LinkToken {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${changeId}.${secret}`, changeId, tokenHash: sha256(secret) };
}

export function parseLinkToken(token: unknown): { changeId: string; secret: string } | null {
  if (typeof token !== 'string' || token.length > 100) return null;
  const [changeId, secret, ...rest] = token.split('.');
  if (rest.length > 0 || !changeId || !secret || !UUID.test(changeId) || !SECRET.test(secret)) return null;
  return { changeId, secret };
}

function sameHash(secret: string, recorded: string | null): boolean {
  if (recorded === null || !/^[0-9a-f]{64}$/.test(recorded)) return false;
  return timingSafeEqual(Buffer.from(sha256(secret), 'hex'), Buffer.from(recorded, 'hex'));
}

/** Spec 000 §4 "Contact change": however the token check fails, the page reads the same text. */
export const linkGone = (): HttpError => new HttpError(410, contactEditMessages.linkExpired);

export type OpenLink = { changeId: string; state: ContactChangeState; step: ContactChangeStep };

/**
 * The change behind a link, read from its stream (so it answers after the workflow has closed, and a lagging
 * projector cannot matter), if the link is still good: its BA, its secret, open and within its time.
 * Anything else is 410 with the spec's text, whatever the reason, so a guess learns nothing.
 */
export async function openLink(store: EventStore, baId: unknown, token: unknown, now = new Date()): Promise<OpenLink> {
  const parsed = parseLinkToken(token);
  if (!parsed || typeof baId !== 'string') throw linkGone();
  const events = await store.readStream(contactChangeStreamId(parsed.changeId));
  const state = fold(
    contactChangeDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as ContactChangeEvent),
  );
  const step = stepOf(state, now.toISOString());
  if (!sameHash(parsed.secret, state.tokenHash) || state.baId !== baId || step === null) throw linkGone();
  return { changeId: parsed.changeId, state, step };
}
