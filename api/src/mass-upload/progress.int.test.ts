import { createTestDatabase, type TestDatabase } from '../../../tests/support/postgres';
import { claimRecording, finishRecording, readProgress, RECORDING_FAILED, reportProcessed, STALE_AFTER_SECONDS } from './progress';

/**
 * A mass upload's recording progress lives in PostgreSQL, so every api process of the cluster answers the same
 * and a double click reaching another process joins the running recording instead of starting a second one.
 * Run as the application role, as the api does.
 */
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

const upload = (uploadId: string, total = 100) => ({ uploadId, kind: 'nucleus' as const, total });

it('the first claim records; a second claim while it runs joins it and sees how far it got', async () => {
  const first = await claimRecording(db.appPool, upload('u-join'));
  expect(first).toMatchObject({ claimed: true, progress: { uploadId: 'u-join', state: 'recording', processed: 0, total: 100 } });
  await reportProcessed(db.appPool, 'u-join', 40);
  const second = await claimRecording(db.appPool, upload('u-join'));
  expect(second).toMatchObject({ claimed: false, progress: { state: 'recording', processed: 40, total: 100 } });
});

it('two claims racing for the same file: exactly one records', async () => {
  const claims = await Promise.all(Array.from({ length: 8 }, () => claimRecording(db.appPool, upload('u-race'))));
  expect(claims.filter((c) => c.claimed)).toHaveLength(1);
});

it('progress never moves backwards (reports may overtake each other)', async () => {
  await claimRecording(db.appPool, upload('u-order'));
  await reportProcessed(db.appPool, 'u-order', 60);
  await reportProcessed(db.appPool, 'u-order', 30);
  expect((await readProgress(db.appPool, 'u-order'))?.processed).toBe(60);
});

it('a finished recording says how it ended; a late progress report does not reopen it', async () => {
  await claimRecording(db.appPool, upload('u-done', 10));
  await finishRecording(db.appPool, 'u-done', { state: 'recorded', processed: 10, created: 7, unchanged: 3 });
  await reportProcessed(db.appPool, 'u-done', 5);
  expect(await readProgress(db.appPool, 'u-done')).toEqual({
    uploadId: 'u-done',
    kind: 'nucleus',
    state: 'recorded',
    processed: 10,
    total: 10,
    created: 7,
    unchanged: 3,
    message: null,
  });
});

it('the same file after a finished or failed recording is claimed again, from zero', async () => {
  await claimRecording(db.appPool, upload('u-again', 10));
  await finishRecording(db.appPool, 'u-again', { state: 'failed', message: 'The upload could not be recorded.' });
  expect(await readProgress(db.appPool, 'u-again')).toMatchObject({ state: 'failed', message: 'The upload could not be recorded.' });
  const retry = await claimRecording(db.appPool, upload('u-again', 10));
  expect(retry).toMatchObject({ claimed: true, progress: { state: 'recording', processed: 0, message: null } });
});

it('a recording that stopped moving (its process died) reads as failed, and is claimed again, after the stale limit', async () => {
  await claimRecording(db.appPool, upload('u-dead'));
  await reportProcessed(db.appPool, 'u-dead', 20);
  expect((await claimRecording(db.appPool, upload('u-dead'))).claimed).toBe(false);
  expect(await readProgress(db.appPool, 'u-dead')).toMatchObject({ state: 'recording', processed: 20 });
  await db.pool.query(`UPDATE mass_upload_progress SET updated_at = now() - make_interval(secs => $1) WHERE upload_id = 'u-dead'`, [
    STALE_AFTER_SECONDS + 1,
  ]);
  expect(await readProgress(db.appPool, 'u-dead')).toMatchObject({ state: 'failed', processed: 20, message: RECORDING_FAILED });
  expect(await claimRecording(db.appPool, upload('u-dead'))).toMatchObject({ claimed: true, progress: { processed: 0 } });
});

it('an unknown upload has no progress', async () => {
  expect(await readProgress(db.appPool, 'u-unknown')).toBeNull();
});
