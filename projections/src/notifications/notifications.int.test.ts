import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { handleCommand } from '../../../domain/src/event-store/handle-command';
import type { EventStore } from '../../../domain/src/event-store/port';
import { userDecider, userIdForUsername, userStreamId, type UserCommand } from '../../../domain/src/identity/users';
import type { Role } from '../../../domain/src/identity/roles';
import { WELCOME_MESSAGE } from '../../../domain/src/onboarding/decide';
import { createPostgresEventStore } from '../../../platform/src/event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { rebuildProjections } from '../rebuild';
import { createRfpDriver, rate } from '../rfps/test-driver';
import { createProjector } from '../runner';
import { actors, applyDirectly, createOnboardingDriver, foreignEvent, type Onboarding } from '../test-support';
import { NOTIFICATIONS_CHANNEL, notificationsProjection } from './notifications.projection';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationsAfter,
  unreadCount,
} from './notifications.queries';

let db: TestDatabase;
let store: EventStore;
let ba: Onboarding;

const meta = (actorId = 'setup') => ({
  actor: { userId: actorId, role: 'system' },
  at: new Date().toISOString(),
  companyCode: null,
  correlationId: randomUUID(),
  causationId: null,
  workflowId: null,
  requestId: null,
  commandId: randomUUID(),
});

/** Test users are named; their ids derive from their e-mail ids, as the user decider requires. */
const uid = (name: string): string => userIdForUsername(`${name}@notify.test`);

const userCommand = (name: string, command: UserCommand) =>
  handleCommand(store, userStreamId(uid(name)), userDecider, command, meta());

async function addUser(name: string, roles: Role[], companyCodes: string[] = ['1000'], baId: string | null = null) {
  await userCommand(name, {
    type: 'RegisterUser',
    userId: uid(name),
    username: `${name}@notify.test`,
    name,
    roles,
    companyCodes,
    baId,
  });
}

async function project(): Promise<void> {
  const head = await store.headPosition();
  // The runner's way: pages in order, each exactly once (small pages, so users and BAs cross page ends).
  for (let from = 0; from < head; ) {
    const page = await store.readAll(from, 3);
    if (page.length === 0) break;
    await applyDirectly(db.pool, notificationsProjection, page);
    from = page[page.length - 1]!.globalPosition;
  }
}

/** Appends an issue-8 event to a BA's stream as `actorId` (the item commands have their own tests). */
async function appendToBa(baId: string, type: string, data: Record<string, unknown>, actorId = 'u-procurement') {
  await store.appendToStream(
    `ba-${baId}`,
    [{ eventId: randomUUID(), type, data: { baId, ...data }, metadata: { ...meta(actorId), companyCode: '1000' } }],
    { expectedVersion: 'stream_exists' },
  );
}

/** Each user's kinds, newest first. */
async function inbox(name: string): Promise<string[]> {
  const { rows } = await listNotifications(db.pool, uid(name), { offset: 0, limit: 50 });
  return rows.map((r) => r.kind);
}

beforeEach(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  store = createPostgresEventStore(db.pool);
  ba = createOnboardingDriver(store);
});

afterEach(async () => {
  await db.drop();
});

describe('notifications projection', () => {
  it('tells the stage reviewers of the BA’s company code, then the BA’s users, and nobody else', async () => {
    await addUser('proc-1000', ['MLL Procurement']);
    await addUser('admin-both', ['MLL-ADMIN'], ['1000', '2000']);
    await addUser('proc-2000', ['MLL Procurement'], ['2000']);
    await addUser('comm-1000', ['MLL Commercial']);
    await addUser('ops-1000', ['MLL Operations']);
    await ba.create('b1', '1000');
    await addUser('b1-admin', ['BA Admin'], ['1000'], 'b1');
    await ba.save('b1', { companyName: 'Sharma Roadways' });
    await ba.submit('b1');
    await project();

    expect(await inbox('proc-1000')).toEqual(['onboarding.submitted']);
    expect(await inbox('admin-both')).toEqual(['onboarding.submitted']);
    expect(await inbox('proc-2000')).toEqual([]);
    expect(await inbox('comm-1000')).toEqual([]);
    expect(await inbox('ops-1000')).toEqual([]);
    expect(await inbox('b1-admin')).toEqual([]);
    const [item] = (await listNotifications(db.pool, uid('proc-1000'), { offset: 0, limit: 10 })).rows;
    expect(item).toMatchObject({
      title: 'New BA submitted for review',
      body: 'Sharma Roadways submitted its details for verification.',
      link: '/business-associates/b1/show',
      read: false,
    });

    // Stage 1 approved by the admin: stage 2 goes to the commercial reviewer, not to the approver.
    await ba.approve('b1', 1, { userId: uid('admin-both'), role: 'MLL-ADMIN', name: 'Admin' });
    await project();
    expect(await inbox('comm-1000')).toEqual(['onboarding.stage-2']);
    expect(await inbox('admin-both')).toEqual(['onboarding.submitted']);
    expect(await inbox('b1-admin')).toEqual(['onboarding.stage-1-approved']);

    await ba.approve('b1', 2, actors.commercial);
    await project();
    expect(await inbox('b1-admin')).toEqual(['onboarding.verified', 'onboarding.stage-1-approved']);
    const verified = (await listNotifications(db.pool, uid('b1-admin'), { offset: 0, limit: 1 })).rows[0];
    expect(verified).toMatchObject({ body: WELCOME_MESSAGE, link: '/home' });
  });

  it('tells the BA’s users of a rejection and the reviewers of the resubmission', async () => {
    await addUser('proc', ['MLL Procurement']);
    await ba.create('b2', '1000');
    await addUser('b2-admin', ['BA Admin'], ['1000'], 'b2');
    await addUser('colleague', ['BA User'], ['1000'], 'b2');
    await addUser('other-ba', ['BA Admin'], ['1000'], 'b3');
    await ba.save('b2');
    await ba.submit('b2');
    await ba.reject('b2', 1, actors.procurement, 'PAN card unreadable');
    await ba.save('b2');
    await ba.submit('b2');
    await project();
    expect(await inbox('b2-admin')).toEqual(['onboarding.rejected']);
    expect(await inbox('colleague')).toEqual(['onboarding.rejected']);
    expect(await inbox('other-ba')).toEqual([]);
    expect(await inbox('proc')).toEqual(['onboarding.resubmitted', 'onboarding.submitted']);
    const rejected = (await listNotifications(db.pool, uid('colleague'), { offset: 0, limit: 1 })).rows[0];
    expect(rejected?.body).toBe('The stage 1 review sent your details back: PAN card unreadable');
  });

  it('addresses users as they stood at the event: later users, blocked users and changed codes', async () => {
    await addUser('early', ['MLL Procurement']);
    await addUser('blocked', ['MLL Procurement']);
    await userCommand('blocked', { type: 'BlockUser', reason: 'Left the company' });
    await ba.create('b4', '1000');
    await ba.save('b4');
    await ba.submit('b4');
    await addUser('late', ['MLL Procurement']);
    // Moved to company 2000 after the first submission and before the second.
    await userCommand('early', {
      type: 'UpdateUser',
      name: 'early',
      mobileNo: null,
      department: null,
      applications: [{ appId: 'onboard', roleName: 'MLL Procurement' }],
      companyCodes: ['2000'],
    });
    await ba.reject('b4', 1, actors.procurement, 'Wrong city');
    await ba.submit('b4');
    await project();
    expect(await inbox('early')).toEqual(['onboarding.submitted']);
    expect(await inbox('blocked')).toEqual([]);
    expect(await inbox('late')).toEqual(['onboarding.resubmitted']);
  });

  it('names the BA’s items across pages: verdicts to the BA’s users, expiry to them and the stage-1 reviewers', async () => {
    await addUser('proc', ['MLL Procurement']);
    await addUser('comm', ['MLL Commercial']);
    await ba.create('b7', '1000');
    await addUser('b7-admin', ['BA Admin'], ['1000'], 'b7');
    await ba.save('b7', { companyName: 'Kaveri Freight' });
    const file = { name: 'policy.pdf', size: 10, type: 'application/pdf', sha256: 'a'.repeat(64) };
    const document = { kind: 'onboarding', documentTypeId: 6, documentTypeName: 'Insurance Policy', documentNumber: null, validTill: '2027-01-31', stateId: null, file };
    await appendToBa('b7', 'DocumentUploaded', { docId: 'd1', document, replaces: null, uploadedBy: uid('b7-admin'), role: 'BA Admin' }, uid('b7-admin'));
    // Filler so the upload and the review land in different pages: the name must come from the stored subject.
    await addUser('filler-1', ['MLL Operations']);
    await addUser('filler-2', ['MLL Operations']);
    await addUser('filler-3', ['MLL Operations']);
    const review = { reviewedBy: 'u-procurement', role: 'MLL Procurement', at: '2026-11-26T04:30:00.000Z' };
    await appendToBa('b7', 'DocumentReviewed', { docId: 'd1', decision: 'rejected', approvedTill: null, remarks: 'Policy number unreadable', ...review });
    await appendToBa('b7', 'DocumentExpiryReminded', { docId: 'd1', documentTypeName: 'Insurance Policy', validTill: '2027-01-31', daysBefore: 7 }, 'system');
    await project();

    expect(await inbox('b7-admin')).toEqual(['document.expiring', 'document.rejected']);
    expect(await inbox('proc')).toEqual(['document.expiring']);
    expect(await inbox('comm')).toEqual([]);
    const [expiring, rejected] = (await listNotifications(db.pool, uid('b7-admin'), { offset: 0, limit: 2 })).rows;
    expect(rejected?.body).toBe('Your Insurance Policy was rejected: Policy number unreadable');
    expect(expiring?.body).toContain('Your Insurance Policy expires on 31-Jan-2027');
  });

  it('tells the BA’s admins of a completed contact change', async () => {
    await ba.create('b5', '1000');
    await addUser('b5-admin', ['BA Admin'], ['1000'], 'b5');
    await addUser('b5-user', ['BA User'], ['1000'], 'b5');
    await addUser('b6-admin', ['BA Admin'], ['1000'], 'b6');
    const changeId = randomUUID();
    await store.appendToStream(
      `contact-change-${changeId}`,
      [
        {
          eventId: randomUUID(),
          type: 'ContactChangeCompleted',
          data: { changeId, userId: uid('b5-user'), newEmail: 'new@b5.test', newMobile: '9811122233' },
          metadata: { ...meta('b5-user'), actor: { userId: uid('b5-user'), role: 'BA User' }, companyCode: '1000' },
        },
      ],
      { expectedVersion: 'any' },
    );
    await project();
    expect(await inbox('b5-admin')).toEqual(['contact-change.completed']);
    expect(await inbox('b5-user')).toEqual([]);
    expect(await inbox('b6-admin')).toEqual([]);
    const [row] = (await db.pool.query('SELECT ba_id FROM notifications WHERE user_id = $1', [uid('b5-admin')])).rows;
    expect(row.ba_id).toBe('b5');
  });

  it('is idempotent, ignores unknown events, and keeps read state apart from the projected rows', async () => {
    await addUser('proc', ['MLL Procurement']);
    for (const id of ['c1', 'c2', 'c3']) {
      await ba.create(id, '1000');
      await ba.save(id);
      await ba.submit(id);
    }
    const events = await store.readAll(0, 1000);
    await applyDirectly(db.pool, notificationsProjection, events);
    await applyDirectly(db.pool, notificationsProjection, events);
    await applyDirectly(db.pool, notificationsProjection, [foreignEvent(events.length + 1)]);
    const { rows, total } = await listNotifications(db.pool, uid('proc'), { offset: 0, limit: 2 });
    expect(total).toBe(3);
    expect(rows).toHaveLength(2);
    expect(await unreadCount(db.pool, uid('proc'))).toBe(3);

    expect(await markNotificationRead(db.pool, uid('proc'), rows[1]!.id)).toBe(true);
    expect(await markNotificationRead(db.pool, uid('someone-else'), rows[0]!.id)).toBe(false);
    expect(await unreadCount(db.pool, uid('proc'))).toBe(2);
    expect((await listNotifications(db.pool, uid('proc'), { offset: 0, limit: 3 })).rows.map((r) => r.read)).toEqual([
      false,
      true,
      false,
    ]);
    await markAllNotificationsRead(db.pool, uid('proc'));
    expect(await unreadCount(db.pool, uid('proc'))).toBe(0);
    expect(Number((await db.pool.query('SELECT count(*) AS n FROM notification_reads')).rows[0].n)).toBe(0);

    // A new one after "all read" arrives unread; the stream's query finds exactly it.
    await ba.create('c4', '1000');
    await ba.save('c4');
    const before = await store.headPosition();
    await ba.submit('c4');
    await applyDirectly(db.pool, notificationsProjection, await store.readAll(events.length, 1000));
    expect(await unreadCount(db.pool, uid('proc'))).toBe(1);
    expect((await notificationsAfter(db.pool, uid('proc'), before)).map((n) => n.read)).toEqual([false]);
  });

  it('notifies each recipient on the channel once the runner commits, and not from a rebuild copy', async () => {
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    await listener.query(`LISTEN ${NOTIFICATIONS_CHANNEL}`);
    const heard: string[] = [];
    listener.on('notification', (m) => heard.push(m.payload ?? ''));
    await addUser('proc-a', ['MLL Procurement']);
    await addUser('proc-b', ['MLL-ADMIN']);
    await ba.create('d1', '1000');
    await ba.save('d1');
    await ba.submit('d1');
    await ba.create('d2', '1000');
    await ba.save('d2');
    await ba.submit('d2');
    await createProjector({ pool: db.appPool, store, projections: [notificationsProjection], log: () => undefined }).catchUp();
    await new Promise((r) => setTimeout(r, 200));
    // One notification per user per transaction (PostgreSQL folds equal payloads), whatever the row count.
    expect([...heard].sort()).toEqual([uid('proc-a'), uid('proc-b')].sort());

    // A rebuild writes the same rows into its copy without telling anyone again.
    heard.length = 0;
    await rebuildProjections({ pool: db.pool, store, projections: [notificationsProjection], swap: false });
    expect(Number((await db.pool.query('SELECT count(*) AS n FROM notifications__rebuild')).rows[0].n)).toBe(4);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual([]);
    await listener.end();
  });

  describe('RFPs (issue 10)', () => {
    /** The outbox's RFP e-mails, oldest first: [recipient, subject]. */
    async function rfpMails(): Promise<[string, string][]> {
      const { rows } = await db.pool.query<{ recipient: string; subject: string }>(
        "SELECT recipient, subject FROM outbox WHERE template = 'rfp-notice' ORDER BY seq",
      );
      return rows.map((r) => [r.recipient, r.subject]);
    }

    it('tells and e-mails the invited BAs’ users, each BA only its own award, and sends nothing again on a re-apply or a rebuild', async () => {
      const rfp = createRfpDriver(store);
      await addUser('proc', ['MLL Procurement']);
      await addUser('r1-admin', ['BA Admin'], ['1000'], 'r1');
      await addUser('r1-user', ['BA User'], ['1000'], 'r1');
      await addUser('r2-admin', ['BA Admin'], ['1000'], 'r2');
      await addUser('r3-admin', ['BA Admin'], ['1000'], 'r3');
      await rfp.draft('RFP-N1');
      await rfp.float('RFP-N1', ['r1', 'r2']);
      await project();

      expect(await inbox('r1-admin')).toEqual(['rfp.floated']);
      expect(await inbox('r1-user')).toEqual(['rfp.floated']);
      expect(await inbox('r2-admin')).toEqual(['rfp.floated']);
      expect(await inbox('r3-admin')).toEqual([]);
      expect(await inbox('proc')).toEqual([]);
      const [floated] = (await listNotifications(db.pool, uid('r1-admin'), { offset: 0, limit: 1 })).rows;
      expect(floated).toMatchObject({ title: 'New RFP RFP-N1', link: '/rfp/BA/view/RFP-N1/standard' });
      expect(floated?.body).toMatch(/^New RFP RFP-N1 from Sahyadri Foods Pvt Ltd: please quote by \d{2}-[A-Z][a-z]{2}-\d{4}\.$/);
      expect((await rfpMails()).sort()).toEqual(
        [
          ['r1-admin@notify.test', 'BA Portal: New RFP RFP-N1'],
          ['r1-user@notify.test', 'BA Portal: New RFP RFP-N1'],
          ['r2-admin@notify.test', 'BA Portal: New RFP RFP-N1'],
        ].sort(),
      );

      // r2's admin changes e-mail id: the award goes to the new address.
      await userCommand('r2-admin', { type: 'ChangeContact', newEmail: 'r2.new@notify.test', newMobile: '9811122233' });
      await rfp.quote('RFP-N1', 'r1', 1, { L0001: rate(45000) });
      await rfp.quote('RFP-N1', 'r2', 1, { L0001: rate(47000) });
      await rfp.closeBidding('RFP-N1');
      await rfp.award('RFP-N1', {
        L0001: [
          { baId: 'r1', sharePercent: 70 },
          { baId: 'r2', sharePercent: 30 },
        ],
      });
      await project();
      expect(await inbox('r1-admin')).toEqual(['rfp.awarded', 'rfp.floated']);
      expect(await inbox('r2-admin')).toEqual(['rfp.awarded', 'rfp.floated']);
      const [r1Award] = (await listNotifications(db.pool, uid('r1-admin'), { offset: 0, limit: 1 })).rows;
      const [r2Award] = (await listNotifications(db.pool, uid('r2-admin'), { offset: 0, limit: 1 })).rows;
      expect(r1Award?.body).toBe('RFP RFP-N1 from Sahyadri Foods Pvt Ltd: you were awarded 1 lane: L0001 (70%).');
      expect(r2Award?.body).toBe('RFP RFP-N1 from Sahyadri Foods Pvt Ltd: you were awarded 1 lane: L0001 (30%).');
      const awardMails = (await rfpMails()).filter(([, subject]) => subject.includes('awarded'));
      expect(awardMails.map(([to]) => to).sort()).toEqual(['r1-admin@notify.test', 'r1-user@notify.test', 'r2.new@notify.test']);
      const { rows: bodies } = await db.pool.query<{ recipient: string; body: string }>(
        "SELECT recipient, body FROM outbox WHERE template = 'rfp-notice' AND subject LIKE '%awarded%'",
      );
      // Never another BA's share in a BA's e-mail.
      for (const { recipient, body } of bodies) expect(body).toContain(recipient.startsWith('r1') ? '(70%)' : '(30%)');
      for (const { recipient, body } of bodies) expect(body).not.toContain(recipient.startsWith('r1') ? '(30%)' : '(70%)');

      const sent = (await rfpMails()).length;
      const all = await store.readAll(0, 1000);
      await applyDirectly(db.pool, notificationsProjection, all);
      await rebuildProjections({ pool: db.pool, store, projections: [notificationsProjection], swap: false });
      expect((await rfpMails()).length).toBe(sent);
      expect(Number((await db.pool.query("SELECT count(*) AS n FROM notifications__rebuild WHERE kind LIKE 'rfp.%'")).rows[0].n)).toBe(
        Number((await db.pool.query("SELECT count(*) AS n FROM notifications WHERE kind LIKE 'rfp.%'")).rows[0].n),
      );
    });

    it('tells every invited BA, across floats and pages, of a close and a reopen', async () => {
      const rfp = createRfpDriver(store);
      await addUser('s1-admin', ['BA Admin'], ['1000'], 's1');
      await addUser('s2-admin', ['BA Admin'], ['1000'], 's2');
      await rfp.draft('RFP-N2');
      await rfp.float('RFP-N2', ['s1']);
      await project();
      await rfp.float('RFP-N2', ['s2']);
      await project();
      await rfp.closeBidding('RFP-N2');
      await rfp.close('RFP-N2', 'No award this season');
      await rfp.reopen('RFP-N2');
      await project();
      expect(await inbox('s1-admin')).toEqual(['rfp.reopened', 'rfp.closed', 'rfp.floated']);
      expect(await inbox('s2-admin')).toEqual(['rfp.reopened', 'rfp.closed', 'rfp.floated']);
      const [reopened] = (await listNotifications(db.pool, uid('s2-admin'), { offset: 0, limit: 1 })).rows;
      expect(reopened?.body).toBe('RFP RFP-N2 from Sahyadri Foods Pvt Ltd is open again for round 2: please review your quote by 20-Feb-2026.');
    });
  });
});
