import { createHash, randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userIdForUsername, userRefusals } from '../../../domain/src/identity/users';
import { adminNameFromEmail, registrationForm, registrationMessages } from '../../../domain/src/registration/decide';
import { registrationStreamId, type RegistrationEvent } from '../../../domain/src/registration/events';
import { baIdForRegistration } from '../../../domain/src/registration/ids';
import { evolve, initialState, type RegistrationState } from '../../../domain/src/registration/state';
import { DomainError } from '../../../domain/src/shared/errors';
import type { Actor } from '../../../domain/src/shared/events';
import { fieldErrors, fields, newPasswordWithConfirm } from '../../../domain/src/validation/fields';
import { getBusinessAssociate } from '../../../projections/src/business-associates/business-associates.queries';
import { findUserById, findUserByUsername, findUsersByMobile } from '../../../projections/src/identity/users.queries';
import { waitForProjections } from '../../../projections/src/runner';
import {
  completeRegistration,
  findCompletion,
  startRegistration,
  type CompleteResult,
} from '../../../workflows/src/registration/client';
import { CommandTimeoutError, DEFAULT_COMMAND_TIMEOUT_MS } from '../../../workflows/src/shared/command-deadline';
import { masterLookup, resolveCompany } from '../../../workflows/src/shared/master-references';
import { companyRefusal } from '../../../domain/src/masters/references';
import { DEFAULT_REGISTRATION_TTL_MS } from '../../../workflows/src/registration/messages';
import type { OtpResent, RegistrationStarted } from '../contract';
import { publicRoute } from '../http/auth';
import { HttpError } from '../http/problem';
import { createRateLimiter, type RateLimiter } from '../http/rate-limit';
import { DEFAULT_OTP_TTL_MS, invalid } from '../identity/deps';
import { passwordMatches, storeNewCredential } from '../identity/passwords';
import { startSession, type SessionDeps } from '../identity/sessions';
import { issueOtp, otpFailure, otpMessages, resendOtp, verifyOtp } from '../identity/store/otp';
import { requestIds } from '../onboarding/access';

/**
 * Self-registration of a BA (spec 000 §2 register tab, §4 "Registration"): mobile, e-mail and company code;
 * one 6-digit code by SMS and another by e-mail; then both codes and a password. The registration's lifecycle
 * (`registration-<id>`, workflows/src/registration) records the start, the completion or the expiry; on
 * completion it registers the BA Admin and starts the BA's onboarding lifecycle, and this route signs the new
 * BA Admin in to the portal.
 */
export type RegistrationRoutesDeps = SessionDeps & {
  store: EventStore;
  temporal: Client;
  taskQueue: string;
  /** OTP_TTL: how long the two codes are valid (default 10 min; a resend restarts it). */
  otpTtlMs?: number;
  /** REGISTRATION_TTL: how long a registration waits for its codes (default 30 min). */
  registrationTtlMs?: number;
  /** Bound on each wait for the read models to show the new user and BA (default 2 s). */
  projectionWaitMs?: number;
  /**
   * Registrations started per mobile number, per e-mail address (each start sends an SMS and an e-mail) and,
   * more loosely, per client address (each answer also tells whether an address is registered).
   */
  startLimiter?: RateLimiter;
  clientLimiter?: RateLimiter;
  /** COMMAND_TIMEOUT: past it a start or a completion answers 503 (default 10 s). */
  commandTimeoutMs?: number;
};

/** A completion that timed out, never to be applied: its codes are spent, so only a new registration helps. */
export const REGISTRATION_TIMED_OUT =
  'The system could not complete your registration in time. Nothing was registered; please register again.';

/** A verify repeated with the same codes and password (double click, retried request) signs in again only this soon after. */
export const REJOIN_WINDOW_MS = 2 * 60_000;
/** Bound on the wait for the new BA's row before the session is issued without its status. */
const BA_WAIT_MS = 5_000;
/** How long a repeated verify waits for the first one's completion to show up (it may still be on its way). */
const REJOIN_WAIT_MS = 5_000;

const otpField = z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), fields.otp);
const codesSchema = z.object({ smsOtp: otpField, emailOtp: otpField });

const idSchema = z.uuid();
function registrationIdParam(req: Request): string {
  const parsed = idSchema.safeParse(req.params['id']);
  if (!parsed.success) throw new DomainError('not_found', registrationMessages.notFound);
  return parsed.data;
}

/** The registration as its stream says now, and when it was completed (for the repeated-verify window). */
async function loadRegistration(
  store: EventStore,
  id: string,
): Promise<{ state: RegistrationState; completedAt: number | null }> {
  const events = await store.readStream(registrationStreamId(id));
  const state = events.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as RegistrationEvent), initialState);
  const completed = events.find((e) => e.type === 'RegistrationCompleted');
  return { state, completedAt: completed ? Date.parse(completed.metadata.at) : null };
}

/** 404 for a registration that never existed; 410 for one that has run its course. */
function refuseUnlessStarted(state: RegistrationState): void {
  if (state.status === 'none') throw new DomainError('not_found', registrationMessages.notFound);
  if (state.status === 'expired') throw new HttpError(410, registrationMessages.expired);
  if (state.status === 'completed') throw new HttpError(410, registrationMessages.completed);
}

/**
 * Identifies one verification (these codes for this registration) as the workflow update id: the same
 * verification sent twice is one completion, and a repeat can find the first one's answer.
 */
const verificationKey = (id: string, smsOtp: string, emailOtp: string): string =>
  `verify-${createHash('sha256').update(`${id}:${smsOtp}:${emailOtp}`).digest('hex')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function registrationRoutes(deps: RegistrationRoutesDeps): Router {
  const { pool, store, temporal } = deps;
  const masters = masterLookup(pool);
  const waitMs = deps.projectionWaitMs ?? 2000;
  const bounded = { timeoutMs: deps.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS };
  const startLimiter = deps.startLimiter ?? createRateLimiter({ limit: 5, windowMs: 15 * 60_000 });
  const clientLimiter = deps.clientLimiter ?? createRateLimiter({ limit: 30, windowMs: 15 * 60_000 });
  const router = Router();

  /** Neither the mobile nor the e-mail may belong to a user already; the answer never says which. */
  async function assertFree(email: string, mobileNo: string): Promise<void> {
    const [byEmail, byMobile] = await Promise.all([findUserByUsername(pool, email), findUsersByMobile(pool, mobileNo)]);
    if (byEmail || byMobile.length > 0) throw new DomainError('conflict', registrationMessages.alreadyRegistered);
  }

  /** The new BA Admin's session, once the users read model shows them (and, bounded, the BA row). */
  async function signIn(res: Response, done: CompleteResult): Promise<void> {
    await waitForProjections(pool, done.userPosition, { timeoutMs: waitMs, names: ['users'] });
    const user = await findUserById(pool, done.userId);
    if (!user) throw new HttpError(503, 'Your account is being set up. Please sign in in a moment');
    // The BA is created by its own lifecycle a moment later: its status belongs in the session's Me, so wait
    // for its row a little longer than for a plain write (a one-time step; the session comes either way).
    const deadline = Date.now() + Math.max(waitMs, BA_WAIT_MS);
    while (!(await getBusinessAssociate(pool, done.baId)) && Date.now() < deadline) await sleep(50);
    await startSession(res, deps, user, 'portal');
  }

  /**
   * A verify that finds its codes already used or the registration already completed: if it is the same
   * verification as the one that completed it (same codes, found under the same update id) and carries the
   * password that was set, shortly after, it gets a session too; anything else is refused.
   */
  async function rejoin(
    res: Response,
    id: string,
    key: string,
    newPassword: string,
    refusal: HttpError,
  ): Promise<void> {
    const deadline = Date.now() + REJOIN_WAIT_MS;
    let done = await findCompletion(temporal, id, key, bounded);
    // The first request may still be between consuming the codes and sending its completion: wait for it
    // while the registration is still open (once closed, a completion that is not there never will be).
    while (!done && Date.now() < deadline) {
      const open = (await loadRegistration(store, id)).state.status === 'started';
      if (!open) {
        done = await findCompletion(temporal, id, key, bounded);
        break;
      }
      await sleep(100);
      done = await findCompletion(temporal, id, key, bounded);
    }
    if (!done) throw refusal;
    const { completedAt } = await loadRegistration(store, id);
    if (completedAt === null || Date.now() - completedAt > REJOIN_WINDOW_MS) throw refusal;
    await waitForProjections(pool, done.userPosition, { timeoutMs: waitMs, names: ['users'] });
    const user = await findUserById(pool, done.userId);
    if (!user || !(await passwordMatches(pool, user, newPassword))) throw refusal;
    await signIn(res, done);
  }

  router.post('/registrations', publicRoute(), async (req, res) => {
    const parsed = registrationForm.safeParse(req.body ?? {});
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    // The company must be an active item of the Companies master (the activity decides again): refused with
    // the other fields' messages, before any code is sent.
    const code = registrationForm.shape.companyCode.safeParse((req.body as { companyCode?: unknown } | undefined)?.companyCode);
    if (code.success && companyRefusal(code.data, await resolveCompany(masters, code.data)))
      errors.companyCode ??= registrationMessages.unknownCompany;
    if (!parsed.success || errors.companyCode) throw invalid(errors);
    const { mobileNo, email, companyCode } = parsed.data;
    const checks: [RateLimiter, string][] = [
      [clientLimiter, `client:${req.ip ?? ''}`],
      [startLimiter, `mobile:${mobileNo}`],
      [startLimiter, `email:${email}`],
    ];
    for (const [limiter, key] of checks) {
      const limit = limiter.hit(key);
      if (!limit.allowed) {
        const headers = { 'Retry-After': String(limit.retryAfterSeconds) };
        throw new HttpError(429, 'Too many registration attempts. Please try again later', undefined, headers);
      }
    }
    await assertFree(email, mobileNo);

    const registrationId = randomUUID();
    const otp = await issueOtp(pool, {
      purpose: 'registration',
      subject: registrationId,
      channels: { sms: mobileNo, email },
      digits: 6,
      ttlMs: deps.otpTtlMs ?? DEFAULT_OTP_TTL_MS,
      template: 'registration-otp',
    });
    const ids = requestIds(req);
    const registrant: Actor = { userId: `registration-${registrationId}`, role: 'Registrant' };
    await startRegistration(temporal, deps.taskQueue, {
      registrationId,
      challengeId: otp.challengeId,
      mobileNo,
      email,
      companyCode,
      baId: baIdForRegistration(registrationId),
      userId: userIdForUsername(email),
      ttlMs: deps.registrationTtlMs ?? DEFAULT_REGISTRATION_TTL_MS,
      actor: registrant,
      correlationId: ids.correlationId,
      requestId: ids.requestId,
    }, bounded);
    const body: RegistrationStarted = {
      id: registrationId,
      expiresInSeconds: otp.expiresInSeconds,
      resendAfterSeconds: otp.resendAfterSeconds,
    };
    res.status(201).json(body);
  });

  router.post('/registrations/:id/verify', publicRoute(), async (req, res) => {
    const id = registrationIdParam(req);
    const codes = codesSchema.safeParse(req.body ?? {});
    const password = newPasswordWithConfirm.safeParse(req.body ?? {});
    if (!codes.success || !password.success) {
      throw invalid({
        ...(codes.success ? {} : fieldErrors(codes.error)),
        ...(password.success ? {} : fieldErrors(password.error)),
      });
    }
    const { smsOtp, emailOtp } = codes.data;
    const { newPassword } = password.data;
    const key = verificationKey(id, smsOtp, emailOtp);

    const { state } = await loadRegistration(store, id);
    if (state.status === 'completed') {
      return rejoin(res, id, key, newPassword, new HttpError(410, registrationMessages.completed));
    }
    refuseUnlessStarted(state);
    const { challengeId, email, mobileNo } = state;
    if (!challengeId || !email || !mobileNo) throw new DomainError('not_found', registrationMessages.notFound);

    // Hashed and stored (as a credential no event names yet) before the codes are spent, so a double click's
    // second request finds the first one's completion already on its way (see rejoin) rather than waiting out
    // the hashing. Only the credential's id travels to the workflow: Temporal's history never holds a hash.
    // If the completion is refused (the e-mail id taken meanwhile), the row stays nobody's password.
    const credentialId = await storeNewCredential(pool, userIdForUsername(email), newPassword);
    const check = await verifyOtp(pool, challengeId, 'registration', { sms: smsOtp, email: emailOtp });
    if (!check.ok) {
      if (check.reason === 'used') return rejoin(res, id, key, newPassword, new HttpError(410, otpMessages.used));
      throw otpFailure(check);
    }
    // Someone may have got an account with this address or number while the codes were on their way.
    await assertFree(email, mobileNo);

    const userId = userIdForUsername(email);
    const ids = requestIds(req);
    let done: CompleteResult;
    try {
      done = await completeRegistration(
        temporal,
        id,
        {
          credentialId,
          actor: { userId, role: 'BA Admin', name: adminNameFromEmail(email) },
          requestId: ids.requestId,
          correlationId: ids.correlationId,
        },
        key,
        bounded,
      );
    } catch (error) {
      if (error instanceof CommandTimeoutError && error.outcome === 'not-applied')
        throw new HttpError(503, REGISTRATION_TIMED_OUT);
      if (error instanceof DomainError && error.code === 'rule') throw new HttpError(410, error.message);
      if (error instanceof DomainError && error.message === userRefusals.alreadyExists)
        throw new DomainError('conflict', registrationMessages.alreadyRegistered);
      throw error;
    }
    await signIn(res, done);
  });

  router.post('/registrations/:id/resend', publicRoute(), async (req, res) => {
    const id = registrationIdParam(req);
    const { state } = await loadRegistration(store, id);
    refuseUnlessStarted(state);
    if (!state.challengeId) throw new DomainError('not_found', registrationMessages.notFound);
    const resent = await resendOtp(pool, state.challengeId, 'registration');
    const body: OtpResent = { expiresInSeconds: resent.expiresInSeconds, resendAfterSeconds: resent.resendAfterSeconds };
    res.json(body);
  });

  return router;
}
