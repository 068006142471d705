import { randomInt, randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { userIdForUsername, userStreamId } from '../../../domain/src/identity/users';
import { baStreamId } from '../../../domain/src/onboarding/events';
import { BA_ADMIN_APPLICATIONS, registrationMessages } from '../../../domain/src/registration/decide';
import { registrationStreamId } from '../../../domain/src/registration/events';
import { messages } from '../../../domain/src/validation/fields';
import { findUserByUsername } from '../../../projections/src/identity/users.queries';
import { waitFor } from '../../../tests/support/wait';
import { createApp } from '../app';
import type { Me, SessionResponse } from '../contract';
import { generateAuthKeys, refreshCookieName } from '../http/auth';
import { otpMessages } from '../identity/store/otp';
import { historyText, SCRYPT_HASH, testCredential } from '../identity/testing';
import { registrationWorkflowId } from '../../../workflows/src/registration/messages';
import { runUserCommand } from '../identity/user-commands';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { changeMasters, deactivate } from '../../../tests/support/masters';

/**
 * Self-registration over HTTP against the real database, Temporal and projector: the register tab's call, the
 * codes from the outbox, the verification that signs the new BA Admin in, and every way it can be refused.
 */
jest.setTimeout(120_000);

let h: ApiHarness;
/** The same back end with short lifetimes: codes valid 1 s, registrations 4 s. */
let shortLived: Express;
const PASSWORD = 'Regist3r@2026';

beforeAll(async () => {
  h = await startApiHarness('registration');
  shortLived = createApp({
    pool: h.db.pool,
    store: h.store,
    temporal: h.temporal,
    taskQueue: h.taskQueue,
    auth: { config: h.authConfig, keys: await generateAuthKeys() },
    identity: { otpTtlMs: 1000 },
    registration: { ttlMs: 4000 },
    log: () => undefined,
  });
});

afterAll(async () => {
  await h?.stop();
});

const newMobile = () => `9${String(randomInt(0, 1e9)).padStart(9, '0')}`;
const newEmail = () => `ba-${randomUUID().slice(0, 8)}@acme.test`;

type Started = { id: string; expiresInSeconds: number; resendAfterSeconds: number };

async function register(
  app: Express = h.app,
  form: { mobileNo?: string; email?: string; companyCode?: string } = {},
): Promise<Started & { mobileNo: string; email: string }> {
  const body = { mobileNo: newMobile(), email: newEmail(), companyCode: '1000', ...form };
  const res = await request(app).post('/api/registrations').send(body);
  if (res.status !== 201) throw new Error(`registration refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...(res.body as Started), mobileNo: body.mobileNo, email: body.email };
}

/** The codes as the registrant reads them: one from the SMS, one from the e-mail. */
async function codesOf(r: { mobileNo: string; email: string }) {
  return {
    smsOtp: await h.codeSentTo(r.mobileNo, 'registration-otp'),
    emailOtp: await h.codeSentTo(r.email, 'registration-otp'),
  };
}

const verify = (id: string, body: Record<string, unknown>, app: Express = h.app) =>
  request(app).post(`/api/registrations/${id}/verify`).send(body);

const withPassword = (codes: { smsOtp: string; emailOtp: string }, password = PASSWORD) => ({
  ...codes,
  newPassword: password,
  confirmPassword: password,
});

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const typesOf = async (stream: string) => (await h.store.readStream(stream)).map((e) => e.type);

describe('registration', () => {
  test('the company list is public: the register tab shows it before anyone signs in', async () => {
    const res = await request(h.app).get('/api/companies');
    expect(res.status).toBe(200);
    expect((res.body as { companyCode: string }[]).map((c) => c.companyCode)).toEqual(
      expect.arrayContaining(['1000', '2000']),
    );
  });

  test('register → codes by SMS and e-mail → verify: the new BA Admin is signed in to the portal with a pending BA', async () => {
    const started = await register(h.app, { companyCode: '2000', email: `Owner.${randomUUID().slice(0, 6)}@Acme.Test` });
    expect(started).toMatchObject({ expiresInSeconds: 600, resendAfterSeconds: 30 });
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
    const email = started.email.toLowerCase();

    const codes = await codesOf({ mobileNo: started.mobileNo, email });
    expect(codes.smsOtp).toMatch(/^\d{6}$/);
    expect(codes.emailOtp).toMatch(/^\d{6}$/);
    expect(await typesOf(registrationStreamId(started.id))).toEqual(['RegistrationStarted']);

    const res = await verify(started.id, withPassword(codes));
    expect(res.status).toBe(200);
    const session = res.body as SessionResponse;
    const me: Me = session.user;
    expect(session.accessToken).toEqual(expect.any(String));
    expect(me).toMatchObject({
      id: userIdForUsername(email),
      username: email,
      emailId: email,
      name: email.split('@')[0],
      mobileNo: started.mobileNo,
      roles: ['BA Admin'],
      applications: BA_ADMIN_APPLICATIONS,
      companyCodes: ['2000'],
      baStatus: 'pending',
      application: 'portal',
      firstLogin: false,
      passwordExpired: false,
      status: 'active',
      home: '/onboard/status',
    });
    expect(me.baId).toMatch(/^[0-9a-f-]{36}$/);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.some((c) => c.startsWith(`${refreshCookieName('portal')}=`) && /HttpOnly/i.test(c))).toBe(true);

    // The session works, and the BA is there with status pending for the chosen company code.
    const auth = { Authorization: `Bearer ${session.accessToken}` };
    const ba = await request(h.app).get(`/api/business-associates/${me.baId}`).set(auth);
    expect(ba.status).toBe(200);
    expect(ba.body).toMatchObject({ id: me.baId, status: 'pending', companyCode: '2000' });
    expect((await request(h.app).get('/api/me').set(auth)).body).toMatchObject({ id: me.id, baId: me.baId });

    expect(await typesOf(registrationStreamId(started.id))).toEqual(['RegistrationStarted', 'RegistrationCompleted']);
    expect(await typesOf(userStreamId(me.id))).toEqual(['UserRegistered']);
    expect(await typesOf(baStreamId(me.baId ?? ''))).toEqual(['BusinessAssociateCreated']);

    // The chosen password is the account's: the usual sign-in works with it.
    const signedIn = await h.signIn(email, PASSWORD);
    expect(signedIn.user.id).toBe(me.id);
    // Its hash is in the credentials table only: not in the user's events, not in the workflow's history.
    const [registered] = await h.store.readStream(userStreamId(me.id));
    expect(registered?.data).toMatchObject({ credentialId: expect.any(String) });
    expect(JSON.stringify(registered?.data)).not.toMatch(SCRYPT_HASH);
    const { rows: stored } = await h.db.pool.query<{ hash: string }>('SELECT hash FROM credentials WHERE credential_id = $1', [
      (registered?.data as { credentialId: string }).credentialId,
    ]);
    expect(stored[0]?.hash).toMatch(SCRYPT_HASH);
    const recorded = historyText(await h.temporal.workflow.getHandle(registrationWorkflowId(started.id)).fetchHistory());
    expect(recorded).toContain((registered?.data as { credentialId: string }).credentialId);
    expect(recorded).not.toMatch(SCRYPT_HASH);

    // The codes are spent: the registration answers 410 from now on.
    const again = await verify(started.id, withPassword({ smsOtp: wrong(codes.smsOtp), emailOtp: codes.emailOtp }));
    expect(again.status).toBe(410);
    expect(again.body.message).toBe(registrationMessages.completed);
    const resend = await request(h.app).post(`/api/registrations/${started.id}/resend`);
    expect(resend.status).toBe(410);
  });

  test('takes the company codes the Companies master holds active: a new one, not a retired one', async () => {
    // Codes of this test's own, so the other tests keep 1000 and 2000 as they are.
    await changeMasters({ store: h.store, pool: h.db.pool }, [
      { type: 'CreateMasterItem', master: 'companies', id: '3000', values: { companyCode: '3000', name: 'MLL Express' } },
      { type: 'CreateMasterItem', master: 'companies', id: '4000', values: { companyCode: '4000', name: 'MLL Rail' } },
      deactivate('companies', '4000'),
    ]);
    expect((await register(h.app, { companyCode: '3000' })).id).toBeTruthy();
    const retired = await request(h.app).post('/api/registrations').send({ mobileNo: newMobile(), email: newEmail(), companyCode: '4000' });
    expect(retired.status).toBe(400);
    expect(retired.body.errors).toEqual({ companyCode: registrationMessages.unknownCompany });
  });

  test('the form is checked with the spec messages; a company not in the list is refused', async () => {
    const res = await request(h.app)
      .post('/api/registrations')
      .send({ mobileNo: '12345', email: 'not-an-email', companyCode: '9999' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      mobileNo: messages.mobile,
      email: messages.email,
      companyCode: registrationMessages.unknownCompany,
    });
    const missing = await request(h.app).post('/api/registrations').send({ mobileNo: newMobile(), email: newEmail() });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      message: registrationMessages.unknownCompany,
      errors: { companyCode: registrationMessages.unknownCompany },
    });
  });

  test('a mobile number or e-mail id that already has an account is refused with 409, without saying which', async () => {
    const email = newEmail();
    const mobileNo = newMobile();
    const userId = userIdForUsername(email);
    await runUserCommand(
      { pool: h.db.pool, store: h.store },
      userId,
      {
        type: 'RegisterUser',
        userId,
        username: email,
        name: 'Existing User',
        credentialId: await testCredential(h.db.pool, userId, PASSWORD),
        roles: ['MLL Procurement'],
        companyCodes: ['1000'],
        baId: null,
        mobileNo,
      },
      { actor: { userId: 'test', role: 'system' } },
    );
    const sameEmail = await request(h.app)
      .post('/api/registrations')
      .send({ mobileNo: newMobile(), email: email.toUpperCase(), companyCode: '1000' });
    const sameMobile = await request(h.app)
      .post('/api/registrations')
      .send({ mobileNo, email: newEmail(), companyCode: '1000' });
    for (const res of [sameEmail, sameMobile]) {
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(registrationMessages.alreadyRegistered);
    }
    // Nothing was sent.
    await expect(h.codeSentTo(mobileNo, 'registration-otp')).rejects.toThrow(/no registration-otp message/);
  });

  test('an address registered by someone else while the codes were on their way is refused at verification', async () => {
    const started = await register();
    const codes = await codesOf(started);
    const userId = userIdForUsername(started.email);
    await runUserCommand(
      { pool: h.db.pool, store: h.store },
      userId,
      {
        type: 'RegisterUser',
        userId,
        username: started.email,
        name: 'Quicker User',
        credentialId: await testCredential(h.db.pool, userId, PASSWORD),
        roles: ['MLL Procurement'],
        companyCodes: ['1000'],
        baId: null,
      },
      { actor: { userId: 'test', role: 'system' } },
    );
    const res = await verify(started.id, withPassword(codes, 'Mine@2026x'));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(registrationMessages.alreadyRegistered);
    expect(await typesOf(registrationStreamId(started.id))).toEqual(['RegistrationStarted']);
    // The registrant's password was stored (under this user id) before the completion was refused: that row is
    // nobody's password, because no event names it. The account keeps its own.
    const { rows } = await h.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM credentials WHERE user_id = $1', [userId]);
    expect(rows[0]?.n).toBe(2);
    const signIn = (password: string) => request(h.app).post('/api/auth/login').send({ username: started.email, password });
    expect((await signIn('Mine@2026x')).status).toBe(401);
    expect((await signIn(PASSWORD)).status).toBe(200);
  });

  test('bad input costs no try; wrong codes answer 400 with the tries left, the fifth locks the codes (410)', async () => {
    const started = await register();
    const codes = await codesOf(started);

    const badPassword = await verify(started.id, withPassword(codes, 'short'));
    expect(badPassword.status).toBe(400);
    expect(badPassword.body.errors).toEqual({ newPassword: messages.password });
    const mismatch = await verify(started.id, { ...codes, newPassword: PASSWORD, confirmPassword: `${PASSWORD}x` });
    expect(mismatch.body.errors).toEqual({ confirmPassword: messages.confirmPassword });
    const badCode = await verify(started.id, withPassword({ smsOtp: '12ab', emailOtp: codes.emailOtp }));
    expect(badCode.status).toBe(400);
    expect(badCode.body.errors).toEqual({ smsOtp: messages.otp });

    // Each code must match its own channel: the right SMS code with a wrong e-mail code is wrong.
    const tries = [
      { smsOtp: wrong(codes.smsOtp), emailOtp: codes.emailOtp },
      { smsOtp: codes.smsOtp, emailOtp: wrong(codes.emailOtp) },
      { smsOtp: codes.emailOtp, emailOtp: codes.smsOtp },
      { smsOtp: wrong(codes.smsOtp), emailOtp: wrong(codes.emailOtp) },
    ];
    // (Swapped codes are wrong unless both happen to be equal: one chance in a million.)
    let left = 4;
    for (const attempt of tries) {
      const res = await verify(started.id, withPassword(attempt));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: otpMessages.wrong, attemptsLeft: left });
      left--;
    }
    const fifth = await verify(started.id, withPassword({ smsOtp: wrong(codes.smsOtp), emailOtp: codes.emailOtp }));
    expect(fifth.status).toBe(410);
    expect(fifth.body.message).toBe(otpMessages.locked);
    const right = await verify(started.id, withPassword(codes));
    expect(right.status).toBe(410);
    expect(await typesOf(registrationStreamId(started.id))).toEqual(['RegistrationStarted']);
    expect(await findUserByUsername(h.db.pool, started.email)).toBeNull();
  });

  test('a resend inside 30 seconds is refused with 429 and Retry-After', async () => {
    const started = await register();
    const res = await request(h.app).post(`/api/registrations/${started.id}/resend`);
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // The codes sent first still work.
    expect((await verify(started.id, withPassword(await codesOf(started)))).status).toBe(200);
  });

  test('a resend after 30 seconds sends new codes (the old ones stop working), at most 5 times', async () => {
    const started = await register();
    const first = await codesOf(started);
    // Half a minute passes (the challenge's last sending moved back rather than the test waiting).
    const later = () =>
      h.db.pool.query(
        `UPDATE otp_challenges SET last_sent_at = last_sent_at - interval '31 seconds'
          WHERE purpose = 'registration' AND subject = $1`,
        [started.id],
      );
    await later();
    const resent = await request(h.app).post(`/api/registrations/${started.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ expiresInSeconds: 600, resendAfterSeconds: 30 });
    expect(await codesOf(started)).not.toEqual(first);
    for (let i = 2; i <= 5; i++) {
      await later();
      expect((await request(h.app).post(`/api/registrations/${started.id}/resend`)).status).toBe(200);
    }
    await later();
    const sixth = await request(h.app).post(`/api/registrations/${started.id}/resend`);
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toBe(otpMessages.resendLimit);

    const newest = await codesOf(started);
    const stale = await verify(started.id, withPassword(first));
    expect(stale.status).toBe(400);
    expect((await verify(started.id, withPassword(newest))).status).toBe(200);
  });

  test('starts are limited per mobile number (each sends an SMS): the sixth within 15 minutes gets 429', async () => {
    const mobileNo = newMobile();
    for (let i = 0; i < 5; i++) await register(h.app, { mobileNo });
    const sixth = await request(h.app).post('/api/registrations').send({ mobileNo, email: newEmail(), companyCode: '1000' });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('unknown registrations are not found', async () => {
    expect((await verify(randomUUID(), withPassword({ smsOtp: '123456', emailOtp: '123456' }))).status).toBe(404);
    expect((await verify('not-a-uuid', withPassword({ smsOtp: '123456', emailOtp: '123456' }))).status).toBe(404);
    expect((await request(h.app).post(`/api/registrations/${randomUUID()}/resend`)).status).toBe(404);
  });

  test('expired codes answer 410; an expired registration answers 410 and leaves no user and no BA', async () => {
    const started = await register(shortLived);
    expect(started.expiresInSeconds).toBe(1);
    const codes = await codesOf(started);
    await new Promise((r) => setTimeout(r, 1300));
    const late = await verify(started.id, withPassword(codes), shortLived);
    expect(late.status).toBe(410);
    expect(late.body.message).toBe(otpMessages.expired);

    await waitFor(async () => {
      const types = await typesOf(registrationStreamId(started.id));
      return types.includes('RegistrationExpired') ? types : undefined;
    }, 15_000);
    expect(await typesOf(registrationStreamId(started.id))).toEqual(['RegistrationStarted', 'RegistrationExpired']);
    const gone = await verify(started.id, withPassword(codes), shortLived);
    expect(gone.status).toBe(410);
    expect(gone.body.message).toBe(registrationMessages.expired);
    expect((await request(shortLived).post(`/api/registrations/${started.id}/resend`)).status).toBe(410);
    expect(await findUserByUsername(h.db.pool, started.email)).toBeNull();
    expect(await h.store.readStream(userStreamId(userIdForUsername(started.email)))).toEqual([]);

    // Nothing is left behind: the same mobile and e-mail may register again.
    const again = await request(h.app)
      .post('/api/registrations')
      .send({ mobileNo: started.mobileNo, email: started.email, companyCode: '1000' });
    expect(again.status).toBe(201);
  });

  test('a double click on verify creates one user and one BA, and both clicks are signed in', async () => {
    const started = await register();
    const body = withPassword(await codesOf(started));
    const [first, second] = await Promise.all([verify(started.id, body), verify(started.id, body)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const a = first.body as SessionResponse;
    const b = second.body as SessionResponse;
    expect(b.user.id).toBe(a.user.id);
    expect(b.user.baId).toBe(a.user.baId);

    // A retried request a moment later (same codes, same password) too; other passwords are not let in.
    const retried = await verify(started.id, body);
    expect(retried.status).toBe(200);
    expect((retried.body as SessionResponse).user.id).toBe(a.user.id);
    const otherPassword = await verify(started.id, { ...body, newPassword: 'Other@2026x', confirmPassword: 'Other@2026x' });
    expect(otherPassword.status).toBe(410);

    expect(await typesOf(registrationStreamId(started.id))).toEqual(['RegistrationStarted', 'RegistrationCompleted']);
    expect(await typesOf(userStreamId(a.user.id))).toEqual(['UserRegistered']);
    expect(await typesOf(baStreamId(a.user.baId ?? ''))).toEqual(['BusinessAssociateCreated']);
  });
});
