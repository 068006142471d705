import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { EventStore } from '../../../domain/src/event-store/port';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { contactChangeWorkflowId } from '../contact-change/messages';
import * as contactChange from '../contact-change/scenarios';
import { onboardingWorkflowId } from '../onboarding/messages';
import * as onboarding from '../onboarding/scenarios';
import { registrationWorkflowId } from '../registration/messages';
import * as registration from '../registration/scenarios';
import { bundleWithChangedRules } from '../testing/changed-rules/bundle';
import { testGoldenHistories } from '../testing/replay';
import { startTestWorker } from '../testing/worker';

/**
 * Replay of a running lifecycle must not depend on rules or reference data edited after it ran (issue 6):
 * each lifecycle is run on the dev server with today's code, then its history is replayed by a worker whose
 * catalogue lost the scenario's city, service and company code and whose PAN, mobile and e-mail rules now
 * refuse the scenario's values (testing/changed-rules). The same journeys recorded before the
 * `decide-in-activity` patch (decide in workflow code; ./pre-patch-histories) show that the change does break
 * a replay that re-runs the decider.
 */
jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('decide-in-activity');
let client: Client;
let store: EventStore;
let stop: (() => Promise<void>) | undefined;
let changed: { code: string };

beforeAll(async () => {
  const [worker, bundle] = await Promise.all([startTestWorker(taskQueue, { withPool: true }), bundleWithChangedRules()]);
  ({ client, store, stop } = worker);
  changed = bundle;
});

afterAll(async () => {
  await stop?.();
});

/** The error replaying `history` with `bundle` ends in, or undefined for a clean replay. */
const replayError = (bundle: { code: string }, workflowId: string, history: unknown): Promise<unknown> =>
  Worker.runReplayHistory({ workflowBundle: bundle }, history, workflowId).then(
    () => undefined,
    (error: unknown) => error,
  );

type HistoryLike = { events?: { markerRecordedEventAttributes?: { markerName?: string | null } | null }[] | null };
/** Patch markers in a history: the new path records one, a history from before the patch has none. */
const patchMarkers = (history: HistoryLike): number =>
  (history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').length;

/**
 * The golden histories as recorded before the patch, frozen here: the lifecycles' own golden histories are
 * re-recorded (with patch markers) when the workflows change, these stay as runs opened before the patch.
 */
const PRE_PATCH_DIR = path.join(__dirname, 'pre-patch-histories');
const prePatch = (file: string): { workflowId: string; history: HistoryLike } => ({
  workflowId: `pre-patch-${file.replace(/\.json$/, '')}`,
  history: JSON.parse(readFileSync(path.join(PRE_PATCH_DIR, file), 'utf8')) as HistoryLike,
});

// Until `deprecatePatch`, runs opened before the patch must keep replaying through the old branch.
testGoldenHistories({
  dir: PRE_PATCH_DIR,
  workflowIdPrefix: 'pre-patch',
  title: 'runs recorded before the patch still replay with today\'s code (the old branch)',
  files: [
    'contact-change-completed.json',
    'contact-change-expired.json',
    'onboarding-happy-path.json',
    'onboarding-reject-resubmit.json',
    'registration-completed.json',
    'registration-expired.json',
  ],
  tamper: { file: 'onboarding-happy-path.json', by: 'renameActivity' },
});

const lifecycles = [
  {
    name: 'onboarding (saved details, submitted, both stages approved)',
    async record() {
      const input = onboarding.onboardingInput();
      await onboarding.happyPath(client, taskQueue, input);
      const handle = client.workflow.getHandle(onboardingWorkflowId(input.baId));
      await handle.result();
      return { workflowId: handle.workflowId, history: await handle.fetchHistory() };
    },
    prePatch: prePatch('onboarding-happy-path.json'),
  },
  {
    name: 'registration (started, completed)',
    async record() {
      const input = registration.registrationInput();
      await registration.completedJourney(client, taskQueue, input);
      const handle = client.workflow.getHandle(registrationWorkflowId(input.registrationId));
      return { workflowId: handle.workflowId, history: await handle.fetchHistory() };
    },
    prePatch: prePatch('registration-completed.json'),
  },
  {
    name: 'contact change (identity, codes to new addresses, completed)',
    async record() {
      const user = await contactChange.registerBaUser(store);
      const input = contactChange.contactChangeInput(user.userId);
      await contactChange.completedJourney(client, taskQueue, input, user);
      const handle = client.workflow.getHandle(contactChangeWorkflowId(input.changeId));
      return { workflowId: handle.workflowId, history: await handle.fetchHistory() };
    },
    prePatch: prePatch('contact-change-completed.json'),
  },
];

test('the changed catalogue and rules are what the replaying bundle runs', () => {
  expect(changed.code).toContain('Road Transportation');
  expect(changed.code).toContain('[ABCFGHJLPT]');
});

describe.each(lifecycles)('$name', ({ record, prePatch: before }) => {
  test('a history recorded today replays clean after a rule and a reference row changed', async () => {
    const { workflowId, history } = await record();
    expect(patchMarkers(history)).toBeGreaterThan(0);
    expect(await replayError(changed, workflowId, history)).toBeUndefined();
  });

  test('a history recorded before the patch (decide in workflow code) does not: the change reaches the decider', async () => {
    expect(patchMarkers(before.history)).toBe(0);
    const error = await replayError(changed, before.workflowId, before.history);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/nondetermin/i);
  });
});
