import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { isBaRole } from '../../../domain/src/identity/roles';
import {
  baStreamId,
  evolve,
  initialState,
  type OnboardingEvent,
  type OnboardingState,
} from '../../../domain/src/onboarding';
import { DomainError } from '../../../domain/src/shared/errors';
import { ALL_COMPANIES } from '../contract';
import type { Principal } from '../http/auth';
import { requestFingerprint } from '../http/idempotency';

/**
 * Who sees which BA: a BA user only its own, staff and auditors only BAs of their company codes. Anything
 * else is answered 404, exactly as for a BA that does not exist, so ids of other BAs reveal nothing.
 */
export const notFound = () => new DomainError('not_found', 'Business associate not found');

/** BA ids are opaque text; anything implausible is simply not found (and never reaches SQL as junk). */
const baIdSchema = z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/);

export function baIdParam(req: Request): string {
  const parsed = baIdSchema.safeParse(req.params['id']);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

export const isBaCaller = (p: Principal): boolean => p.roles.some((r) => isBaRole(r));

export function mayAccessBa(p: Principal, ba: { id: string; companyCode: string | null }): boolean {
  if (isBaCaller(p)) return p.baId !== null && p.baId === ba.id;
  return ba.companyCode !== null && p.companyCodes.includes(ba.companyCode);
}

/**
 * The list scope handed to the read-model queries. Staff lists follow the chosen company code (spec 000 §6:
 * "a specific code is used if chosen (not 'All'), otherwise all the user's codes"); BAs are scoped by BA.
 */
export function listScope(p: Principal): { companyCodes: readonly string[]; baId?: string } {
  // A BA user with no BA sees nothing: an id no BA can have keeps the query honest.
  if (isBaCaller(p)) return { companyCodes: p.companyCodes, baId: p.baId ?? '\u0000' };
  if (p.activeCompanyCode !== ALL_COMPANIES && p.companyCodes.includes(p.activeCompanyCode))
    return { companyCodes: [p.activeCompanyCode] };
  return { companyCodes: p.companyCodes };
}

/**
 * The BA as its event stream says now. Commands check visibility against the stream, not the read model, so
 * a BA created a moment ago is already reachable and a lagging projector cannot widen what anyone sees.
 */
export async function loadVisibleBa(store: EventStore, p: Principal, baId: string): Promise<OnboardingState> {
  const events = await store.readStream(baStreamId(baId));
  const state = events.reduce(
    (s, e) => evolve(s, { type: e.type, data: e.data } as OnboardingEvent),
    initialState,
  );
  if (state.status === 'none' || !mayAccessBa(p, { id: baId, companyCode: state.companyCode })) throw notFound();
  return state;
}

const idempotencyKey = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'Idempotency-Key may hold letters, digits and _ . : - only' });

/**
 * The request id the workflow dedupes on: the client's Idempotency-Key when it sends one (a retried click
 * then changes nothing twice), else a fresh one. With a key comes `fingerprint`, the request it is bound to:
 * routes where the key is the workflow's update id bind it (bindIdempotencyKey) before sending the command.
 */
export function requestIds(req: Request): {
  requestId: string;
  correlationId: string;
  key: string | null;
  fingerprint: string | null;
} {
  const raw = req.get('idempotency-key');
  let requestId: string = randomUUID();
  let key: string | null = null;
  if (raw !== undefined) {
    const parsed = idempotencyKey.safeParse(raw);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'invalid';
      throw new DomainError('validation', 'Invalid Idempotency-Key header', { 'Idempotency-Key': message });
    }
    requestId = parsed.data;
    key = parsed.data;
  }
  const correlation = req.get('x-correlation-id');
  const correlationId = correlation && idempotencyKey.safeParse(correlation).success ? correlation : requestId;
  return { requestId, correlationId, key, fingerprint: key === null ? null : requestFingerprint(req) };
}
