import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { workflowBundle } from '../../../tests/support/temporal';

/**
 * Golden histories (recorded by `npm run histories:record -- contact-change`) replayed against today's
 * workflow code: a change that would break contact changes already running in production fails here. Needs
 * no server, only the bundle global setup built.
 */
jest.setTimeout(60_000);

const HISTORIES_DIR = path.join(__dirname, 'histories');

type HistoryEventJson = {
  eventType?: string;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
};
type HistoryJson = { events: HistoryEventJson[] };

const load = (file: string): { workflowId: string; history: HistoryJson } => ({
  workflowId: `contact-change-golden-${file.replace(/\.json$/, '')}`,
  history: JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')) as HistoryJson,
});

async function replay(histories: { workflowId: string; history: unknown }[]): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  const replayed = Worker.runReplayHistories({ workflowBundle: workflowBundle() }, histories);
  for await (const result of replayed) results.push(result);
  return results;
}

test('the recorded completed and expired contact changes replay without nondeterminism', async () => {
  const files = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort();
  expect(files).toEqual(['completed.json', 'expired.json']);
  const results = await replay(files.map(load));
  expect(results.map((r) => ({ workflowId: r.workflowId, error: r.error?.message }))).toEqual(
    files.map((f) => ({ workflowId: load(f).workflowId, error: undefined })),
  );
});

test('the replayer does notice a history the code no longer produces', async () => {
  // Guards the test above against passing vacuously.
  const tampered = structuredClone(load('completed.json'));
  const scheduled = tampered.history.events.find((e) => e.activityTaskScheduledEventAttributes?.activityType);
  const activityType = scheduled?.activityTaskScheduledEventAttributes?.activityType;
  if (!activityType) throw new Error('no activity in the history');
  activityType.name = 'someRenamedActivity';
  const [result] = await replay([tampered]);
  expect(result?.error).toBeDefined();
});
