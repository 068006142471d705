import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { workflowBundle } from '../../../tests/support/temporal';

/** The parts of a recorded history (JSON) that the tampering check edits. */
type HistoryEventJson = {
  eventType?: string;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  startChildWorkflowExecutionInitiatedEventAttributes?: { workflowType?: { name?: string } };
};
type HistoryJson = { events: HistoryEventJson[] };
type GoldenHistory = { workflowId: string; history: HistoryJson };

/**
 * How a copy of a golden history is changed into one today's code would not produce: the first scheduled
 * activity renamed, or the type of the first child workflow it starts renamed.
 */
export type Tampering = 'renameActivity' | 'renameChildWorkflow';

export type GoldenHistoriesOptions = {
  /** The folder of the recorded `*.json` histories. */
  dir: string;
  /** The workflow id a history is replayed under is `<workflowIdPrefix>-<file name without .json>`. */
  workflowIdPrefix: string;
  /** Title of the test that replays them all. */
  title: string;
  /** Every history the folder must hold, sorted: a missing or an extra recording fails the test. */
  files: string[];
  /** The history the tampering check starts from, and what it changes. */
  tamper: { file: string; by: Tampering };
};

async function replay(histories: { workflowId: string; history: unknown }[]): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  const replayed = Worker.runReplayHistories({ workflowBundle: workflowBundle() }, histories);
  for await (const result of replayed) results.push(result);
  return results;
}

function tamper(history: HistoryJson, by: Tampering): void {
  if (by === 'renameChildWorkflow') {
    const initiated = history.events.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    const workflowType = initiated?.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType;
    if (!workflowType) throw new Error('no child workflow in the history');
    workflowType.name = 'someRenamedWorkflow';
    return;
  }
  const scheduled = history.events.find((e) => e.activityTaskScheduledEventAttributes?.activityType);
  const activityType = scheduled?.activityTaskScheduledEventAttributes?.activityType;
  if (!activityType) throw new Error('no activity in the history');
  activityType.name = 'someRenamedActivity';
}

/**
 * The two replay tests of a lifecycle (call it at the top level of a `*.int.test.ts`): every golden history
 * of `dir` (recorded by `npm run histories:record`) replayed against today's workflow code with
 * `Worker.runReplayHistories`, so a change that would break runs already in production fails; and a tampered
 * copy of one of them that must fail, which guards the first test against passing vacuously. Needs no
 * server, only the bundle global setup built.
 */
export function testGoldenHistories({ dir, workflowIdPrefix, title, files: expected, tamper: tampering }: GoldenHistoriesOptions): void {
  const load = (file: string): GoldenHistory => ({
    workflowId: `${workflowIdPrefix}-${file.replace(/\.json$/, '')}`,
    history: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as HistoryJson,
  });

  test(title, async () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual(expected);
    const results = await replay(files.map(load));
    expect(results.map((r) => ({ workflowId: r.workflowId, error: r.error?.message }))).toEqual(
      files.map((f) => ({ workflowId: load(f).workflowId, error: undefined })),
    );
  });

  test('the replayer does notice a history the code no longer produces', async () => {
    const tampered = structuredClone(load(tampering.file));
    tamper(tampered.history, tampering.by);
    const [result] = await replay([tampered]);
    expect(result?.error).toBeDefined();
  });
}
