import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { workflowBundle } from '../../../tests/support/temporal';

/**
 * Golden histories (recorded by `npm run histories:record -- registration`) replayed against today's workflow
 * code: a change that would break registrations already running in production fails here. Needs no server,
 * only the bundle global setup built.
 */
jest.setTimeout(60_000);

const HISTORIES_DIR = path.join(__dirname, 'histories');

type HistoryEventJson = {
  eventType?: string;
  startChildWorkflowExecutionInitiatedEventAttributes?: { workflowType?: { name?: string } };
};
type HistoryJson = { events: HistoryEventJson[] };

const load = (file: string): { workflowId: string; history: HistoryJson } => ({
  workflowId: `registration-golden-${file.replace(/\.json$/, '')}`,
  history: JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')) as HistoryJson,
});

async function replay(histories: { workflowId: string; history: unknown }[]): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  const replayed = Worker.runReplayHistories({ workflowBundle: workflowBundle() }, histories);
  for await (const result of replayed) results.push(result);
  return results;
}

test('the recorded completed and expired registrations replay without nondeterminism', async () => {
  const files = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort();
  expect(files).toEqual(['completed.json', 'expired.json']);
  const results = await replay(files.map(load));
  expect(results.map((r) => ({ workflowId: r.workflowId, error: r.error?.message }))).toEqual(
    files.map((f) => ({ workflowId: load(f).workflowId, error: undefined })),
  );
});

test('the replayer does notice a history the code no longer produces', async () => {
  // Guards the test above against passing vacuously: the completion starts the BA's lifecycle as a child; a
  // history that started some other workflow type must fail.
  const golden = load('completed.json');
  const tampered = structuredClone(golden);
  const initiated = tampered.history.events.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
  const workflowType = initiated?.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType;
  if (!workflowType) throw new Error('no child workflow in the history');
  workflowType.name = 'someRenamedWorkflow';
  const [result] = await replay([tampered]);
  expect(result?.error).toBeDefined();
});
