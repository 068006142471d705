import { mkdirSync } from 'node:fs';
import request from 'supertest';
import { TEST_PASSWORD, addUser } from '../../api/src/users/testing';
import { demoBaId } from '../../scripts/seed';
import { answersFor, approveItemsByApi, completeOnboarding } from './onboarding-steps';
import { as as signedIn, baRecord, setUpJourneys, world } from './support';

/**
 * The notification bell, live: a reviewer keeps the console open while a BA of their company code submits in
 * the portal; the reviewer's badge goes from 0 to 1 without a reload and the list shows the submission.
 */
setUpJourneys('e2e-notifications');

const SHOTS = '/tmp/shots/notifications';

test('[NOTIFICATIONS][LIVE]: BA of 1000 submits → the 1000 reviewer’s bell goes 0 → 1 without a reload', async () => {
  mkdirSync(SHOTS, { recursive: true });
  // A reviewer who joins after the demo seed: nothing has happened to tell them about yet.
  await addUser(world().harness, {
    email: 'reviewer.live@demo.test',
    name: 'Rekha Reviewer',
    roles: ['MLL Procurement'],
    companyCodes: ['1000'],
  });
  const reviewer = await signedIn('reviewer.live@demo.test', 'console', { password: TEST_PASSWORD });
  const bell = reviewer.page.getByRole('button', { name: /^Notifications: \d+ unread$/ });
  await bell.waitFor();
  expect(await bell.getAttribute('aria-label')).toBe('Notifications: 0 unread');
  expect(await reviewer.page.getByTestId('notification-count').textContent()).toBe('0');

  const baId = demoBaId('konkan');
  const ba = await signedIn('ba.2@demo.test', 'portal', { landing: '**/onboard/status' });
  // Every tab, real files, then Submit (tests/e2e/onboarding-steps.ts): the draft saves tell nobody.
  await completeOnboarding(
    ba.page,
    answersFor('AABCK7310L', '50100123456789', { 'Company Name': 'Konkan Cargo Movers Private Limited' }),
    'notifications-ba',
  );
  await baRecord(baId, (r) => r.status === 'inprogress');

  // No reload: the count arrives over the event stream.
  await reviewer.page.getByRole('button', { name: 'Notifications: 1 unread' }).waitFor({ timeout: 15_000 });
  expect(await reviewer.page.getByTestId('notification-count').textContent()).toBe('1');
  await reviewer.page.getByRole('button', { name: 'Notifications: 1 unread' }).click();
  const list = reviewer.page.getByRole('list', { name: 'Notification list' });
  const item = list.getByRole('button', { name: 'Unread: New BA submitted for review' });
  await item.waitFor();
  expect(await list.textContent()).toContain('Konkan Cargo Movers Private Limited submitted its details for verification.');
  await reviewer.page.screenshot({ path: `${SHOTS}/console-bell-open.png` });

  // Opening it marks it read and shows the BA to review.
  await item.click();
  await reviewer.page.waitForURL(`**/console/#/business-associates/${baId}/show`);
  await reviewer.page.getByRole('button', { name: 'Notifications: 0 unread' }).waitFor();
  const { rows } = await world().harness.db.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM notification_reads r JOIN notifications n ON n.id = r.notification_id
     WHERE n.ba_id = $1 AND n.kind = 'onboarding.submitted'`,
    [baId],
  );
  expect(Number(rows[0]?.n)).toBe(1);

  // The BA's own bell: nothing yet (it submitted; the reviewers were told) until the first review passes.
  await ba.page.getByRole('button', { name: 'Notifications: 0 unread' }).waitFor();
  // Stage 1 needs every item approved first (through the API: the item reviews are not this journey's
  // subject); each verdict is told to the BA too, so the first review passed is one more on top of them.
  const verdicts = await approveItemsByApi(baId, 'procurement@demo.test');
  const token = await world().harness.login('procurement@demo.test');
  const approved = await request(world().harness.app)
    .post(`/api/business-associates/${baId}/approve`)
    .set('Authorization', `Bearer ${token}`)
    .send({ stage: 1 });
  expect(approved.status).toBe(200);
  const unread = `Notifications: ${verdicts + 1} unread`;
  await ba.page.getByRole('button', { name: unread }).waitFor({ timeout: 15_000 });
  await ba.page.getByRole('button', { name: unread }).click();
  await ba.page.getByRole('list', { name: 'Notification list' }).getByText('First review passed').waitFor();
  await ba.page.screenshot({ path: `${SHOTS}/portal-bell-open.png` });
  await Promise.all([reviewer.context.close(), ba.context.close()]);
});
