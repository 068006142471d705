import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { contactChangeRefusals, contactEditMessages, MAX_IDENTITY_ATTEMPTS } from '../../../domain/src/contact-change';
import { contactChangeStreamId } from '../../../domain/src/contact-change/events';
import { messages as fieldMessages } from '../../../domain/src/validation/fields';
import { findUserById, findUserByUsername, type UserRecord } from '../../../projections/src/identity/users.queries';
import { startContactChange } from '../../../workflows/src/contact-change/client';
import { contactChangeWorkflowId } from '../../../workflows/src/contact-change/messages';
import { otpMessages } from '../identity/store/otp';
import { passwordMessages } from '../identity/passwords';
import { historyText, SCRYPT_HASH } from '../identity/testing';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { accountMessages } from '../users/accounts';
import { addBa, addUser, lastMessage, nextMobile, sessionOf, TEST_PASSWORD, type TestBa } from '../users/testing';
import { runUserCommand } from '../identity/user-commands';
import { newLinkToken } from './link';
import { contactChangeMessages } from './routes';

/**
 * Contact change over HTTP against the real stack (PostgreSQL, Temporal dev server, worker, projector): who
 * may start one, the link's life (expiry, identity lock), the codes, and the change itself.
 */
// Workflow round trips on a 2-core machine: generous bounds, set here as well as in jest.config.
jest.setTimeout(120_000);

let h: ApiHarness;
let ba: TestBa;
let otherBa: TestBa;
let staffAdmin: UserRecord;
let manager1000: UserRecord;
let manager2000: UserRecord;
let colleague: UserRecord;
const NEW_PASSWORD = 'N3w@passwd';

beforeAll(async () => {
  h = await startApiHarness('api-contact-change');
  [ba, otherBa] = await Promise.all([addBa(h, 'cc'), addBa(h, 'other')]);
  [staffAdmin, manager1000, manager2000, colleague] = await Promise.all([
    addUser(h, { email: 'mll.admin@cc.test', roles: ['MLL-ADMIN'], companyCodes: ['1000'] }),
    addUser(h, { email: 'manager.1000@cc.test', roles: ['BA Engagement Manager'], companyCodes: ['1000'] }),
    addUser(h, { email: 'manager.2000@cc.test', roles: ['BA Engagement Manager'], companyCodes: ['2000'] }),
    addUser(h, { email: `colleague@${ba.baId}.test`, roles: ['BA User'], companyCodes: ['1000'], baId: ba.baId }),
  ]);
});

afterAll(async () => {
  await h?.stop();
});

const as = async (user: UserRecord) => (await sessionOf(h, user)).auth;

/** A fresh BA user of `ba`, so each journey starts from a clean account. */
const newBaUser = (): Promise<UserRecord> =>
  addUser(h, { email: `user-${randomUUID().slice(0, 8)}@${ba.baId}.test`, name: 'Ravi Kumar', roles: ['BA User'], companyCodes: ['1000'], baId: ba.baId });

/** Starts a change as `by` for `user` and reads the link from the e-mail it sent. */
async function startLink(by: UserRecord, user: UserRecord): Promise<{ id: string; baId: string; token: string }> {
  const res = await request(h.app).post('/api/contact-changes').set(await as(by)).send({ userId: user.id });
  expect(res.status).toBe(201);
  const mail = await lastMessage(h, user.username, 'contact-change-link');
  const match = /\/email-mobile-change\/([^/\s]+)\/([^\s]+)/.exec(mail?.body ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`no link in ${JSON.stringify(mail)}`);
  return { id: (res.body as { id: string }).id, baId: decodeURIComponent(match[1]), token: match[2] };
}

type Link = { baId: string; token: string };
const post = (path: string, link: Link, body: object = {}) =>
  request(h.app).post(`/api/contact-changes/${path}`).send({ baId: link.baId, token: link.token, ...body });
const identityOf = (u: UserRecord) => ({ emailId: u.username, mobileNo: u.mobileNo });
const typesOf = async (changeId: string) => (await h.store.readStream(contactChangeStreamId(changeId))).map((e) => e.type);

async function expectGone(res: request.Response) {
  expect(res.status).toBe(410);
  expect(res.body.message).toBe(contactEditMessages.linkExpired);
}

describe('POST /api/contact-changes: who may start a change', () => {
  it('the BA Admin for a user of its own BA: 201, and the user gets the link by e-mail (24 h)', async () => {
    const user = await newBaUser();
    const res = await request(h.app).post('/api/contact-changes').set(await as(ba.admin)).send({ userId: user.id });
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const mail = await lastMessage(h, user.username, 'contact-change-link');
    expect(mail?.body).toContain(`http://localhost:3000/email-mobile-change/${ba.baId}/${res.body.id}.`);
    expect(mail?.body).toContain('within 24 hours');
    expect(await typesOf(res.body.id)).toEqual(['ContactChangeRequested']);
    const [requested] = await h.store.readStream(contactChangeStreamId(res.body.id));
    // Only the hash of the link's secret is recorded.
    const secret = /\.([A-Za-z0-9_-]{43})/.exec(mail?.body ?? '')?.[1] ?? '';
    expect(JSON.stringify(requested)).not.toContain(secret);
    expect(requested?.data).toMatchObject({ baId: ba.baId, userId: user.id, requestedBy: { userId: ba.admin.id, role: 'BA Admin' } });
  });

  it('MLL-ADMIN and a BA Engagement Manager of the BA’s company code: 201', async () => {
    const user = await newBaUser();
    for (const by of [staffAdmin, manager1000])
      expect((await request(h.app).post('/api/contact-changes').set(await as(by)).send({ userId: user.id })).status).toBe(201);
  });

  it('refuses the BA Admin of another BA and staff of another company code with 404, as for no such user', async () => {
    const user = await newBaUser();
    for (const by of [otherBa.admin, manager2000]) {
      const res = await request(h.app).post('/api/contact-changes').set(await as(by)).send({ userId: user.id });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('User not found');
    }
    const none = await request(h.app).post('/api/contact-changes').set(await as(staffAdmin)).send({ userId: 'no-such-user' });
    expect(none.status).toBe(404);
    // Staff accounts have no BA: they are not changed through this link.
    const staff = await request(h.app).post('/api/contact-changes').set(await as(staffAdmin)).send({ userId: manager1000.id });
    expect(staff.status).toBe(404);
    expect(await lastMessage(h, user.username, 'contact-change-link')).toBeNull();
  });

  it('refuses a blocked user with 422: a blocked account takes no new contact or password', async () => {
    const user = await newBaUser();
    await runUserCommand({ pool: h.db.pool, store: h.store }, user.id, { type: 'BlockUser', reason: 'Left the company' }, {
      actor: { userId: staffAdmin.id, role: 'MLL-ADMIN' },
    });
    const res = await request(h.app).post('/api/contact-changes').set(await as(ba.admin)).send({ userId: user.id });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(contactChangeMessages.userBlocked);
  });

  it('refuses a BA User and other roles with 403, and anonymous callers with 401', async () => {
    const user = await newBaUser();
    const procurement = await addUser(h, { email: `procurement-${randomUUID().slice(0, 6)}@cc.test`, roles: ['MLL Procurement'] });
    for (const by of [colleague, procurement])
      expect((await request(h.app).post('/api/contact-changes').set(await as(by)).send({ userId: user.id })).status).toBe(403);
    expect((await request(h.app).post('/api/contact-changes').send({ userId: user.id })).status).toBe(401);
  });
});

describe('the link', () => {
  it('answers its step while it works, and the spec’s text for anything else', async () => {
    const user = await newBaUser();
    const link = await startLink(ba.admin, user);
    const ok = await request(h.app).get(`/api/contact-changes/by-token/${link.baId}/${link.token}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ step: 'identity', expiresAt: expect.any(String) });

    const [changeId] = link.token.split('.');
    const forged = `${changeId}.${'A'.repeat(43)}`;
    for (const path of [`${link.baId}/${forged}`, `${otherBa.baId}/${link.token}`, `${link.baId}/junk`, `${link.baId}/${randomUUID()}.${'B'.repeat(43)}`])
      await expectGone(await request(h.app).get(`/api/contact-changes/by-token/${path}`));
    await expectGone(await post('verify-identity', { baId: link.baId, token: forged }, identityOf(user)));
  });

  it('expires after CONTACT_CHANGE_TTL: ContactChangeExpired is recorded and the page reads the spec’s text', async () => {
    const user = await newBaUser();
    const changeId = randomUUID();
    const link = newLinkToken(changeId);
    // Started as the API does, with a lifetime of 2 s instead of 24 h.
    await startContactChange(h.temporal, h.taskQueue, {
      changeId,
      baId: ba.baId,
      companyCode: '1000',
      userId: user.id,
      tokenHash: link.tokenHash,
      requestedBy: { userId: ba.admin.id, role: 'BA Admin', name: ba.admin.name },
      correlationId: changeId,
      requestId: changeId,
      ttlMs: 2_000,
    });
    expect((await request(h.app).get(`/api/contact-changes/by-token/${ba.baId}/${link.token}`)).status).toBe(200);
    await h.temporal.workflow.getHandle(contactChangeWorkflowId(changeId)).result();
    expect(await typesOf(changeId)).toEqual(['ContactChangeRequested', 'ContactChangeExpired']);
    await expectGone(await request(h.app).get(`/api/contact-changes/by-token/${ba.baId}/${link.token}`));
    await expectGone(await post('verify-identity', { baId: ba.baId, token: link.token }, identityOf(user)));
  });
});

describe('a newer link for the same user', () => {
  it('cancels the earlier one (ContactChangeCancelled): only the newest link works', async () => {
    const user = await newBaUser();
    const first = await startLink(ba.admin, user);
    const firstId = first.token.split('.')[0] ?? '';
    expect((await post('verify-identity', first, identityOf(user))).status).toBe(200);

    const second = await startLink(staffAdmin, user);
    const secondId = second.token.split('.')[0] ?? '';
    expect(secondId).not.toBe(firstId);
    await expectGone(await request(h.app).get(`/api/contact-changes/by-token/${first.baId}/${first.token}`));
    await expectGone(await post('send-otp', first, { newEmailId: `x-${randomUUID().slice(0, 6)}@cc.test`, newMobileNo: nextMobile() }));
    expect(await typesOf(firstId)).toEqual(['ContactChangeRequested', 'ContactIdentityConfirmed', 'ContactChangeCancelled']);
    const [cancelled] = (await h.store.readStream(contactChangeStreamId(firstId))).slice(-1);
    expect(cancelled?.data).toEqual({ changeId: firstId, supersededBy: secondId });
    expect(cancelled?.metadata.actor).toMatchObject({ userId: staffAdmin.id, role: 'MLL-ADMIN' });
    expect((await h.temporal.workflow.getHandle(contactChangeWorkflowId(firstId)).result()).state.status).toBe('cancelled');

    // The newer link works; a third start cancels it in turn, and the long-closed first one stays as it was.
    expect((await request(h.app).get(`/api/contact-changes/by-token/${second.baId}/${second.token}`)).body.step).toBe('identity');
    const third = await startLink(ba.admin, user);
    await expectGone(await request(h.app).get(`/api/contact-changes/by-token/${second.baId}/${second.token}`));
    expect(await typesOf(secondId)).toEqual(['ContactChangeRequested', 'ContactChangeCancelled']);
    expect((await typesOf(firstId)).filter((t) => t === 'ContactChangeCancelled')).toHaveLength(1);
    expect((await request(h.app).get(`/api/contact-changes/by-token/${third.baId}/${third.token}`)).status).toBe(200);
  });

  it('leaves other users’ links alone', async () => {
    const [one, two] = await Promise.all([newBaUser(), newBaUser()]);
    const link = await startLink(ba.admin, one);
    await startLink(ba.admin, two);
    expect((await request(h.app).get(`/api/contact-changes/by-token/${link.baId}/${link.token}`)).status).toBe(200);
  });
});

describe('identity check', () => {
  it('takes the registered e-mail id in any case and the mobile exactly', async () => {
    const user = await newBaUser();
    const link = await startLink(ba.admin, user);
    const res = await post('verify-identity', link, { emailId: user.username.toUpperCase(), mobileNo: user.mobileNo });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ emailId: user.username, mobileNo: user.mobileNo, baUserId: user.id });
    const step = await request(h.app).get(`/api/contact-changes/by-token/${link.baId}/${link.token}`);
    expect(step.body.step).toBe('edit');
  });

  it(`says "${contactEditMessages.identityMismatch}" with the tries left, and locks the link after ${MAX_IDENTITY_ATTEMPTS}`, async () => {
    const user = await newBaUser();
    const link = await startLink(ba.admin, user);
    const wrongMobile = { emailId: user.username, mobileNo: nextMobile() };
    for (let left = MAX_IDENTITY_ATTEMPTS - 1; left >= 1; left--) {
      const res = await post('verify-identity', link, wrongMobile);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: contactEditMessages.identityMismatch, attemptsLeft: left });
    }
    await expectGone(await post('verify-identity', link, wrongMobile));
    // Locked for good: even the right answer, and the page on reload, meet the spec's text.
    await expectGone(await post('verify-identity', link, identityOf(user)));
    await expectGone(await request(h.app).get(`/api/contact-changes/by-token/${link.baId}/${link.token}`));
    const changeId = link.token.split('.')[0] ?? '';
    expect(await typesOf(changeId)).toEqual([
      'ContactChangeRequested',
      ...Array<string>(MAX_IDENTITY_ATTEMPTS).fill('ContactIdentityCheckFailed'),
      'ContactChangeLocked',
    ]);
  });
});

describe('new e-mail id and mobile number', () => {
  it('needs the identity first, and checks both fields with the spec’s contact-edit messages', async () => {
    const user = await newBaUser();
    const link = await startLink(ba.admin, user);
    const early = await post('send-otp', link, { newEmailId: 'new@cc.test', newMobileNo: nextMobile() });
    expect(early.status).toBe(422);
    expect(early.body.message).toBe(contactChangeRefusals.identityFirst);
    await post('verify-identity', link, identityOf(user));
    const bad = await post('send-otp', link, { newEmailId: 'not-an-email', newMobileNo: '12345' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ newEmailId: contactEditMessages.email, newMobileNo: contactEditMessages.mobile });
  });

  it('refuses addresses another user holds with 409, without saying whose; nothing is sent', async () => {
    const user = await newBaUser();
    const link = await startLink(ba.admin, user);
    await post('verify-identity', link, identityOf(user));
    for (const body of [
      { newEmailId: colleague.username.toUpperCase(), newMobileNo: nextMobile() },
      { newEmailId: `fresh-${randomUUID().slice(0, 6)}@cc.test`, newMobileNo: colleague.mobileNo },
    ]) {
      const res = await post('send-otp', link, body);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(accountMessages.contactInUse);
      expect(JSON.stringify(res.body)).not.toContain(colleague.id);
    }
    expect(await lastMessage(h, colleague.username, 'contact-change-otp')).toBeNull();
  });
});

describe('the change', () => {
  it('codes: wrong (tries left), expired, resend too soon; the password rule keeps the codes unused', async () => {
    const user = await newBaUser();
    const link = await startLink(ba.admin, user);
    await post('verify-identity', link, identityOf(user));
    const newEmail = `new-${randomUUID().slice(0, 8)}@cc.test`;
    const newMobile = nextMobile();
    const sent = await post('send-otp', link, { newEmailId: newEmail, newMobileNo: newMobile });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ expiresInSeconds: 600, resendAfterSeconds: 30 });
    const smsOtp = await h.codeSentTo(newMobile, 'contact-change-otp');
    const emailOtp = await h.codeSentTo(newEmail, 'contact-change-otp');
    expect([smsOtp, emailOtp]).toEqual([expect.stringMatching(/^\d{4}$/), expect.stringMatching(/^\d{4}$/)]);

    const wrongCode = smsOtp === '0000' ? '1111' : '0000';
    const wrong = await post('verify-otp', link, { smsOtp: wrongCode, emailOtp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: otpMessages.wrong, attemptsLeft: 4 });
    const short = await post('verify-otp', link, { smsOtp: '12', emailOtp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ smsOtp: contactEditMessages.otpRequired });
    const weak = await post('verify-otp', link, { smsOtp, emailOtp, newPassword: 'weak', confirmPassword: 'weak' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors).toMatchObject({ newPassword: fieldMessages.password });
    // The current password is one of the last five (read from the credentials table): refused the same way.
    const reused = await post('verify-otp', link, { smsOtp, emailOtp, newPassword: TEST_PASSWORD, confirmPassword: TEST_PASSWORD });
    expect(reused.status).toBe(400);
    expect(reused.body.errors).toEqual({ newPassword: passwordMessages.reused });
    // Neither the malformed codes nor the refused password cost a try.
    const again = await post('verify-otp', link, { smsOtp: wrongCode, emailOtp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(again.body).toMatchObject({ message: otpMessages.wrong, attemptsLeft: 3 });

    const tooSoon = await post('resend-otp', link);
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);

    // Ten minutes pass (the challenge's clock, moved instead of waited for).
    await h.db.pool.query(`UPDATE otp_challenges SET expires_at = now() - interval '1 second' WHERE subject = $1`, [link.token.split('.')[0]]);
    const expired = await post('verify-otp', link, { smsOtp, emailOtp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(expired.status).toBe(410);
    // 'expired', not 'used': the refused password did not spend the codes.
    expect(expired.body.message).toBe(otpMessages.expired);
    expect((await findUserById(h.db.pool, user.id))?.username).toBe(user.username);

    // Resend OTP (30 s later, the clock moved again): new codes, the old ones no longer work.
    await h.db.pool.query(`UPDATE otp_challenges SET last_sent_at = now() - interval '31 seconds' WHERE subject = $1`, [link.token.split('.')[0]]);
    const resent = await post('resend-otp', link);
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ expiresInSeconds: 600, resendAfterSeconds: 30 });
    const events = await h.store.readStream(contactChangeStreamId(link.token.split('.')[0] ?? ''));
    expect(events[events.length - 1]).toMatchObject({ type: 'ContactChangeOtpSent', data: { resend: true, newEmail, newMobile } });
    const newSms = await h.codeSentTo(newMobile, 'contact-change-otp');
    const newEmailOtp = await h.codeSentTo(newEmail, 'contact-change-otp');
    expect(`${newSms}${newEmailOtp}`).not.toBe(`${smsOtp}${emailOtp}`);
    const old = await post('verify-otp', link, { smsOtp, emailOtp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(old.body).toMatchObject({ message: otpMessages.wrong, attemptsLeft: 4 });
  });

  it('success: new e-mail id and mobile, new password, every old session ended, the old e-mail told', async () => {
    const user = await newBaUser();
    const oldSession = await sessionOf(h, user);
    const link = await startLink(staffAdmin, user);
    const changeId = link.token.split('.')[0] ?? '';
    expect((await post('verify-identity', link, identityOf(user))).status).toBe(200);

    // A first choice, then Back and other addresses: only the latest codes count.
    const first = { newEmailId: `first-${randomUUID().slice(0, 8)}@cc.test`, newMobileNo: nextMobile() };
    expect((await post('send-otp', link, first)).status).toBe(200);
    const firstSms = await h.codeSentTo(first.newMobileNo, 'contact-change-otp');
    const firstEmail = await h.codeSentTo(first.newEmailId, 'contact-change-otp');
    const newEmail = `Changed-${randomUUID().slice(0, 8)}@CC.test`;
    const newMobile = nextMobile();
    expect((await post('send-otp', link, { newEmailId: newEmail, newMobileNo: newMobile })).status).toBe(200);
    expect((await request(h.app).get(`/api/contact-changes/by-token/${link.baId}/${link.token}`)).body.step).toBe('otp');
    const stale = await post('verify-otp', link, { smsOtp: firstSms, emailOtp: firstEmail, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(stale.status).not.toBe(200);

    const smsOtp = await h.codeSentTo(newMobile, 'contact-change-otp');
    const emailOtp = await h.codeSentTo(newEmail, 'contact-change-otp');
    const done = await post('verify-otp', link, { smsOtp, emailOtp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Email Id & Mobile Number changed successfully' });

    // The users read model shows the change at once (read-your-writes).
    const changed = await findUserById(h.db.pool, user.id);
    expect(changed).toMatchObject({ username: newEmail.toLowerCase(), mobileNo: newMobile });
    expect(await findUserByUsername(h.db.pool, user.username)).toBeNull();
    expect(await typesOf(changeId)).toEqual([
      'ContactChangeRequested',
      'ContactIdentityConfirmed',
      'ContactChangeOtpSent',
      'ContactChangeOtpSent',
      'ContactChangeCompleted',
    ]);
    const userEvents = await h.store.readStream(`user-${user.id}`);
    expect(userEvents.slice(-2).map((e) => e.type)).toEqual(['UserContactChanged', 'UserPasswordChanged']);
    expect(userEvents[userEvents.length - 1]?.data).toMatchObject({ reason: 'contact-change', credentialId: expect.any(String) });
    // The new password's hash is in the credentials table only: not in the user's events, not in Temporal.
    for (const e of userEvents) expect(JSON.stringify(e.data)).not.toMatch(SCRYPT_HASH);
    expect(historyText(await h.temporal.workflow.getHandle(contactChangeWorkflowId(changeId)).fetchHistory())).not.toMatch(SCRYPT_HASH);

    // Every session ended: the refresh token from before no longer works.
    const refresh = await request(h.app).post('/api/auth/refresh?app=portal').set('Cookie', oldSession.cookie);
    expect(refresh.status).toBe(401);
    // The old e-mail id (and the old mobile) is told, once, with the new addresses: by the workflow's
    // activity, so it is in the outbox by the time the answer comes.
    const told = await lastMessage(h, user.username, 'contact-changed');
    expect(told?.body).toContain(newEmail.toLowerCase());
    expect(told?.body).toContain(newMobile);
    const { rows: notices } = await h.db.pool.query<{ recipient: string; channel: string }>(
      `SELECT recipient, channel FROM outbox WHERE template = 'contact-changed' AND recipient IN ($1, $2) ORDER BY channel`,
      [user.username, user.mobileNo],
    );
    expect(notices).toEqual([
      { recipient: user.username, channel: 'email' },
      { recipient: user.mobileNo, channel: 'sms' },
    ]);

    // Sign-in: the new e-mail id with the new password works; the old e-mail id and old password do not.
    const session = await h.signIn(newEmail, NEW_PASSWORD);
    expect(session.user).toMatchObject({ id: user.id, emailId: newEmail.toLowerCase(), mobileNo: newMobile });
    expect((await request(h.app).post('/api/auth/login').send({ username: user.username, password: TEST_PASSWORD })).status).toBe(401);
    expect((await request(h.app).post('/api/auth/login').send({ username: newEmail, password: TEST_PASSWORD })).status).toBe(401);

    // The link is used up.
    await expectGone(await request(h.app).get(`/api/contact-changes/by-token/${link.baId}/${link.token}`));
    await expectGone(await post('verify-otp', link, { smsOtp, emailOtp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }));
  });
});
