import { randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { z } from 'zod';
import {
  contactChangeRefusals,
  contactEditMessages,
  contactEditSchema,
  contactIdentitySchema,
  contactOtpSchema,
  decideContactChange,
  identityMatches,
  MAX_IDENTITY_ATTEMPTS,
  type ContactChangeCommand,
  type ContactChangeState,
} from '../../../domain/src/contact-change';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { Role } from '../../../domain/src/identity/roles';
import { userRefusals } from '../../../domain/src/identity/users';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { enqueueMessages } from '../../../platform/src/notifications/outbox';
import { findUserById, type UserRecord } from '../../../projections/src/identity/users.queries';
import { waitForProjections } from '../../../projections/src/runner';
import { sendContactChangeStep, startContactChange, type ContactChangeStep } from '../../../workflows/src/contact-change/client';
import { DEFAULT_CONTACT_CHANGE_TTL_MS } from '../../../workflows/src/contact-change/messages';
import { CommandTimeoutError, DEFAULT_COMMAND_TIMEOUT_MS } from '../../../workflows/src/shared/command-deadline';
import type { ContactChangeIdentity, ContactChangeLink, ContactChangeStarted } from '../contract';
import { principalOf, publicRoute, requireAuth, type Principal } from '../http/auth';
import { bindIdempotencyKey } from '../http/idempotency';
import { HttpError } from '../http/problem';
import { DEFAULT_OTP_TTL_MS } from '../identity/deps';
import { checkNewPassword } from '../identity/passwords';
import { pruneCredentials } from '../identity/store/credentials';
import { issueOtp, otpFailure, resendOtp, verifyOtp } from '../identity/store/otp';
import { isBaCaller, loadVisibleBa, requestIds } from '../onboarding/access';
import { assertContactFree, mobileLock, withLocks } from '../users/accounts';
import { linkGone, newLinkToken, openLink, type OpenLink } from './link';

/**
 * Contact change over HTTP (spec 000 §4 "Contact change", issue 5). Staff or the BA Admin start it for a BA
 * user; the link's holder then proves the registered e-mail id and mobile number, chooses new ones, and
 * confirms both with the codes sent to them and a new password. Every step is a workflow update
 * (`contact-change-<id>`), so refusals are synchronous and each accepted step is an event.
 *
 * The checks that need the outside world (the token, the identity, the OTP codes, the password rule, the new
 * addresses being nobody else's) run here; the workflow receives their validated outcome.
 */
export type ContactChangeRoutesDeps = {
  pool: Pool;
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  /** PUBLIC_URL: the e-mailed link points here. */
  publicUrl: string;
  /** CONTACT_CHANGE_TTL: how long the link works (default 24 h). */
  ttlMs?: number;
  /** OTP_TTL (default 10 min). */
  otpTtlMs?: number;
  projectionWaitMs?: number;
  /** COMMAND_TIMEOUT: past it a step answers 503 (default 10 s). */
  commandTimeoutMs?: number;
};

/** Who may start a change (issue 5); which user each may start it for is checked per request. */
export const CONTACT_CHANGE_STARTERS: readonly Role[] = ['MLL-ADMIN', 'BA Engagement Manager', 'BA Admin'];

export const contactChangeMessages = {
  userNotFound: 'User not found',
  userBlocked: 'This user is blocked. Unblock the user before changing the e-mail id and mobile number',
  noMobile: 'This user has no registered mobile number to confirm the identity with',
  completionTimedOut:
    'The system could not complete the change in time. Nothing was changed; please ask for a new link to change the e-mail id and mobile number.',
} as const;

const CORRECT_FIELDS = 'Please correct the highlighted fields';
const userNotFound = () => new DomainError('not_found', contactChangeMessages.userNotFound);

/** Zod's first message per field as a 400, with the first field's message on top (what a client shows). */
function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const errors = fieldErrors(parsed.error);
  throw new DomainError('validation', Object.values(errors)[0] ?? CORRECT_FIELDS, errors);
}

const startBody = z.object({ userId: z.string({ error: 'Please choose a user' }).trim().min(1).max(100) });
/** Every link step names its link; the values are checked by `openLink` (any flaw reads as an expired link). */
const linkBody = z.object({ baId: z.unknown(), token: z.unknown() });

/** A refusal that means "the link is dead" leaves as 410 with the spec's text; the rest as they are. */
function asLinkError(error: unknown): unknown {
  return error instanceof DomainError && error.message === contactEditMessages.linkExpired ? linkGone() : error;
}

/** The pure decider asked in advance, for checks that must pass before anything is sent (codes, texts). */
function precheck(command: ContactChangeCommand, state: ContactChangeState): void {
  const decided = decideContactChange(command, state, { at: new Date().toISOString() });
  if (decided instanceof DomainError) throw asLinkError(decided);
}

export function contactChangeRoutes(deps: ContactChangeRoutesDeps): Router {
  const { pool, store, temporal } = deps;
  const ttlMs = deps.ttlMs ?? DEFAULT_CONTACT_CHANGE_TTL_MS;
  const otpTtlMs = deps.otpTtlMs ?? DEFAULT_OTP_TTL_MS;
  const waitMs = deps.projectionWaitMs ?? 2000;
  const timeoutMs = deps.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const baseUrl = deps.publicUrl.replace(/\/$/, '');
  const router = Router();

  /**
   * The BA user a caller may start a change for: a BA Admin only users of its own BA; staff only BA users of
   * BAs in their company codes. Anything else is 404, as for a user that does not exist.
   */
  async function startableUser(p: Principal, userId: string): Promise<{ user: UserRecord; companyCode: string | null }> {
    const user = await findUserById(pool, userId);
    if (!user || user.kind !== 'ba' || !user.baId) throw userNotFound();
    if (isBaCaller(p) && p.baId !== user.baId) throw userNotFound();
    try {
      const ba = await loadVisibleBa(store, p, user.baId);
      return { user, companyCode: ba.companyCode };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') throw userNotFound();
      throw error;
    }
  }

  /** The link holder acts as the user the link is for. */
  async function holderOf(link: OpenLink): Promise<{ user: UserRecord; actor: Actor }> {
    const user = link.state.userId ? await findUserById(pool, link.state.userId) : null;
    if (!user) throw linkGone();
    return { user, actor: { userId: user.id, role: user.roles[0] ?? 'BA User', name: user.name } };
  }

  /**
   * Only the newest link of a user works: the change started before this one (if any) is cancelled
   * (ContactChangeCancelled). One that closed meanwhile (completed, expired, locked, its run over) stays as it
   * closed. Any other failure fails the start, so the earlier link is never left open unnoticed.
   */
  async function cancelEarlier(previous: string, changeId: string, actor: Actor, correlationId: string): Promise<void> {
    try {
      await sendContactChangeStep(temporal, previous, { kind: 'cancel', supersededBy: changeId }, {
        actor,
        // One cancel per (earlier, newer) pair: a retried start does not cancel twice.
        requestId: `${previous}:superseded-by:${changeId}`,
        correlationId,
        timeoutMs,
      });
    } catch (error) {
      if (error instanceof DomainError && error.message === contactEditMessages.linkExpired) return;
      // The new change is already recorded: whatever became of the cancel, something did change.
      if (error instanceof CommandTimeoutError) throw new CommandTimeoutError('pending');
      throw error;
    }
  }

  async function step(req: Request, link: OpenLink, actor: Actor, s: ContactChangeStep) {
    const ids = requestIds(req);
    // Scoped to the change, so a key reused on another link is another request.
    const requestId = `${link.changeId}:${ids.requestId}`;
    // The key is the update id: bound to this request, so another request under it is refused, not answered.
    if (ids.key !== null && ids.fingerprint !== null)
      await bindIdempotencyKey(pool, `contact-change:${link.changeId}`, ids.key, ids.fingerprint);
    try {
      return await sendContactChangeStep(temporal, link.changeId, s, {
        actor,
        requestId,
        correlationId: ids.correlationId,
        timeoutMs,
      });
    } catch (error) {
      throw asLinkError(error);
    }
  }

  router.post('/contact-changes', requireAuth({ roles: CONTACT_CHANGE_STARTERS }), async (req, res) => {
    const p = principalOf(res);
    const { userId } = parse(startBody, req.body);
    const { user, companyCode } = await startableUser(p, userId);
    if (user.status === 'blocked') throw new DomainError('rule', contactChangeMessages.userBlocked);
    if (!user.mobileNo) throw new DomainError('rule', contactChangeMessages.noMobile);
    const role = p.roles.find((r) => CONTACT_CHANGE_STARTERS.includes(r)) ?? p.roles[0] ?? 'system';
    const changeId = randomUUID();
    const link = newLinkToken(changeId);
    const ids = requestIds(req);
    const requestedBy: Actor = { userId: p.userId, role, name: p.name };
    // One start per user at a time, so of two concurrent starts exactly one link (the one recorded last) works.
    const started = await withLocks(pool, [`contact-change-user:${user.id}`], async (client) => {
      const latest = await client.query<{ change_id: string }>('SELECT change_id FROM contact_change_latest WHERE user_id = $1', [user.id]);
      const result = await startContactChange(temporal, deps.taskQueue, {
        changeId,
        baId: user.baId ?? '',
        companyCode,
        userId: user.id,
        tokenHash: link.tokenHash,
        requestedBy,
        correlationId: ids.correlationId,
        requestId: `${p.userId}:${ids.requestId}`,
        ttlMs,
      }, { timeoutMs });
      const previous = latest.rows[0]?.change_id;
      if (previous && previous !== changeId) await cancelEarlier(previous, changeId, requestedBy, ids.correlationId);
      await client.query(
        `INSERT INTO contact_change_latest (user_id, change_id) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET change_id = EXCLUDED.change_id, started_at = now()`,
        [user.id, changeId],
      );
      // With the record of the newest link: if this rolls back, the earlier record stays and the next start cancels it.
      const url = `${baseUrl}/email-mobile-change/${encodeURIComponent(user.baId ?? '')}/${link.token}`;
      await enqueueMessages(client, [
        {
          channel: 'email',
          to: user.username,
          template: 'contact-change-link',
          params: { name: user.name, link: url, hours: String(Math.max(1, Math.round(ttlMs / 3_600_000))) },
        },
      ]);
      return result;
    });
    res.status(201).json({ id: changeId, expiresAt: started.state.expiresAt ?? '' } satisfies ContactChangeStarted);
  });

  router.get('/contact-changes/by-token/:baId/:token', publicRoute(), async (req, res) => {
    const link = await openLink(store, req.params['baId'], req.params['token']);
    res.json({ step: link.step, expiresAt: link.state.expiresAt ?? '' } satisfies ContactChangeLink);
  });

  router.post('/contact-changes/verify-identity', publicRoute(), async (req, res) => {
    const { baId, token } = parse(linkBody, req.body);
    const link = await openLink(store, baId, token);
    const given = parse(contactIdentitySchema, req.body);
    const { user, actor } = await holderOf(link);
    const matched = identityMatches({ email: user.username, mobile: user.mobileNo }, given);
    const result = await step(req, link, actor, { kind: 'checkIdentity', matched });
    if (matched) {
      res.json({ emailId: user.username, mobileNo: user.mobileNo, baUserId: user.id } satisfies ContactChangeIdentity);
      return;
    }
    // The 5th failure locked the link (ContactChangeLocked): from now on it is as dead as an expired one.
    if (result.state.status === 'locked') throw linkGone();
    throw new HttpError(400, contactEditMessages.identityMismatch, undefined, undefined, {
      attemptsLeft: Math.max(0, MAX_IDENTITY_ATTEMPTS - result.state.failedAttempts),
    });
  });

  router.post('/contact-changes/send-otp', publicRoute(), async (req, res) => {
    const { baId, token } = parse(linkBody, req.body);
    const link = await openLink(store, baId, token);
    const { newEmailId: newEmail, newMobileNo: newMobile } = parse(contactEditSchema, req.body);
    precheck({ type: 'RecordContactOtpSent', newEmail, newMobile, challengeId: 'precheck', resend: false }, link.state);
    const { user, actor } = await holderOf(link);
    if (newEmail === user.username && newMobile === user.mobileNo)
      throw new DomainError('rule', contactEditMessages.sameAsRegistered);
    // 409 without saying whose: the addresses must be nobody else's.
    await assertContactFree(pool, { emailId: newEmail, mobileNo: newMobile }, user.id);
    const issued = await issueOtp(pool, {
      purpose: 'contact-change',
      subject: link.changeId,
      channels: { sms: newMobile, email: newEmail },
      digits: 4,
      ttlMs: otpTtlMs,
      template: 'contact-change-otp',
    });
    await step(req, link, actor, { kind: 'otpSent', newEmail, newMobile, challengeId: issued.challengeId, resend: false });
    res.json({ expiresInSeconds: issued.expiresInSeconds, resendAfterSeconds: issued.resendAfterSeconds });
  });

  router.post('/contact-changes/resend-otp', publicRoute(), async (req, res) => {
    const { baId, token } = parse(linkBody, req.body);
    const link = await openLink(store, baId, token);
    const { newEmail, newMobile, challengeId } = link.state;
    if (link.step !== 'otp' || !newEmail || !newMobile || !challengeId)
      throw new DomainError('rule', contactChangeRefusals.otpFirst);
    const { actor } = await holderOf(link);
    const issued = await resendOtp(pool, challengeId, 'contact-change');
    await step(req, link, actor, { kind: 'otpSent', newEmail, newMobile, challengeId, resend: true });
    res.json({ expiresInSeconds: issued.expiresInSeconds, resendAfterSeconds: issued.resendAfterSeconds });
  });

  router.post('/contact-changes/verify-otp', publicRoute(), async (req, res) => {
    const { baId, token } = parse(linkBody, req.body);
    const link = await openLink(store, baId, token);
    const codes = parse(contactOtpSchema, req.body);
    const { newEmail, newMobile, challengeId } = link.state;
    if (!newEmail || !newMobile || !challengeId) throw new DomainError('rule', contactChangeRefusals.otpFirst);
    precheck({ type: 'CompleteContactChange', challengeId }, link.state);
    const { user, actor } = await holderOf(link);
    // A user blocked since the link was sent cannot take a new password: refused before the codes are used.
    if (user.status === 'blocked') throw new DomainError('rule', userRefusals.blocked);
    // The password rule first: a refused password must not use up the codes. The new password is stored as a
    // credential now; only its id goes to the workflow (no hash in Temporal's history or the user's events).
    const credentialId = await checkNewPassword(pool, user, req.body);

    // Under the same locks account creation takes, so nobody registers the new addresses meanwhile.
    await withLocks(pool, [mobileLock(newMobile), `user-email:${newEmail}`], async (client) => {
      await assertContactFree(client, { emailId: newEmail, mobileNo: newMobile }, user.id);
      // On the pool, not in this transaction: a wrong code must count as a try even though we roll back.
      const check = await verifyOtp(pool, challengeId, 'contact-change', { sms: codes.smsOtp, email: codes.emailOtp });
      if (!check.ok) throw otpFailure(check);
      // The workflow's activity also ends every session of the user and tells the old addresses, durably: once
      // the update is accepted, a crash of this process loses neither (the activity is retried, within its bound).
      const complete: ContactChangeStep = { kind: 'complete', challengeId, credentialId };
      const result = await step(req, link, actor, complete).catch((error: unknown) => {
        // The codes are spent: "try again" would not work with them, a new link does.
        if (error instanceof CommandTimeoutError && error.outcome === 'not-applied')
          throw new HttpError(503, contactChangeMessages.completionTimedOut);
        throw error;
      });
      // Read-your-writes: the next request (a sign-in with the new e-mail id) must find the user under it.
      if (result.lastGlobalPosition > 0)
        await waitForProjections(pool, result.lastGlobalPosition, { timeoutMs: waitMs, names: ['users'] });
    });
    await pruneCredentials(pool, user.id);
    res.json({ message: contactEditMessages.success });
  });

  return router;
}
