import { createHash } from 'node:crypto';
import request from 'supertest';
import { startApiHarness, type ApiHarness } from '../testing/harness';
import { addUser, sessionOf } from '../users/testing';
import { claimRecording, finishRecording, RECORDING_FAILED } from './progress';
import { uploadIdOf } from './record';
import { panOf, rowFor, workbook } from './testing';

/**
 * A mass upload under several api processes (API_PROCESSES > 1, issue 12): the POST that records lands on one
 * process and the console's progress polls on any. Uploads of more than two rows record in the background here
 * (production: 5,000), so a small file takes the 202 path.
 */
jest.setTimeout(120_000);

let h: ApiHarness;
let admin: { Authorization: string };

beforeAll(async () => {
  h = await startApiHarness('api-mass-upload-processes', { projectionWaitMs: 5000, massUploadAsyncFromRows: 2 });
  admin = (await sessionOf(h, await addUser(h, { email: 'admin@processes.test', roles: ['MLL-ADMIN'], companyCodes: ['1000', '2000'] }))).auth;
});

afterAll(async () => {
  await h?.stop();
});

const fileOf = (prefix: string) =>
  workbook('nucleus', [{ sheet: 'Parent', rows: Array.from({ length: 4 }, (_, i) => rowFor('nucleus', 'Parent', panOf(prefix, i))) }]);
const post = (app: ApiHarness['app'], file: Buffer) =>
  request(app).post('/api/mass-uploads?kind=nucleus').set(admin).attach('file', file, 'vendors.xlsx');
const recordedEvents = async () =>
  Number((await h.db.pool.query(`SELECT count(*) AS n FROM events WHERE type = 'NucleusVendorRecorded'`)).rows[0].n);

it('an upload recorded by one process: another process answers its progress at once, and its end', async () => {
  const other = h.anotherProcess();
  const accepted = await post(h.app, await fileOf('PRA'));
  expect(accepted.status).toBe(202);
  const { uploadId } = accepted.body as { uploadId: string };

  // Before, the progress lived in the recording process only: this answered 404 "No such upload".
  const first = await request(other).get(`/api/mass-uploads/${uploadId}`).set(admin);
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ uploadId, kind: 'nucleus', total: 4 });
  expect(['recording', 'recorded', 'done']).toContain(first.body.state);

  const deadline = Date.now() + 60_000;
  let last = first.body as { state: string; created?: number; processed: number };
  while (last.state === 'recording' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = (await request(other).get(`/api/mass-uploads/${uploadId}`).set(admin)).body;
  }
  expect(last).toMatchObject({ processed: 4, total: 4, created: 4 });
  expect(['recorded', 'done']).toContain(last.state);
});

it('the same file POSTed to another process while the first records it joins that recording and writes nothing', async () => {
  const file = await fileOf('PRB');
  const uploadId = uploadIdOf('nucleus', createHash('sha256').update(file).digest('hex'));
  // The first process, mid-recording: its claim and how far it got, as it writes them.
  expect((await claimRecording(h.db.appPool, { uploadId, kind: 'nucleus', total: 4 })).claimed).toBe(true);
  const before = await recordedEvents();

  const joined = await post(h.anotherProcess(), file);
  expect(joined.status).toBe(202);
  expect(joined.body).toMatchObject({ uploadId, state: 'recording', total: 4, message: 'The file is being uploaded' });
  expect(await recordedEvents()).toBe(before);

  // Once that recording failed (its process gave up), the same file is recorded by whoever is asked next.
  await finishRecording(h.db.appPool, uploadId, { state: 'failed', message: RECORDING_FAILED });
  const failed = await request(h.app).get(`/api/mass-uploads/${uploadId}`).set(admin);
  expect(failed.body).toMatchObject({ state: 'failed', message: RECORDING_FAILED });
  expect((await post(h.app, file)).status).toBe(202);
});
