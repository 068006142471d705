import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { EventStore } from '../../../domain/src/event-store/port';
import type { MasterCommand } from '../../../domain/src/masters/events';
import { withReferences } from '../../../domain/src/onboarding/details';
import { registrationMessages } from '../../../domain/src/registration/decide';
import { allProjections } from '../../../projections/src/registry';
import { createProjector } from '../../../projections/src/runner';
import { changeMasters, deactivate } from '../../../tests/support/masters';
import type { TestDatabase } from '../../../tests/support/postgres';
import { uniqueTaskQueue } from '../../../tests/support/temporal';
import { contactChangeWorkflowId } from '../contact-change/messages';
import * as contactChange from '../contact-change/scenarios';
import { startOnboarding } from '../onboarding/client';
import { onboardingWorkflowId } from '../onboarding/messages';
import * as onboarding from '../onboarding/scenarios';
import { startRegistration } from '../registration/client';
import { registrationWorkflowId } from '../registration/messages';
import * as registration from '../registration/scenarios';
import { bundleWithChangedRules } from '../testing/changed-rules/bundle';
import { refusal } from '../testing/refusal';
import { testGoldenHistories } from '../testing/replay';
import { startTestWorker } from '../testing/worker';
import { masterLookup, resolveCompanyDetailReferences } from './master-references';

/**
 * Replay of a running lifecycle must not depend on rules or reference data edited after it ran (issues 6 and
 * 7): each lifecycle is run on the dev server with today's code and today's masters; then an administrator
 * changes the masters in the database (Mumbai, the scenarios' city, deactivated; Transportation, their
 * service, replaced by a new item; company code 1000 retired and 3000 added), and each history is replayed
 * by a worker whose PAN, mobile and e-mail rules now refuse the scenarios' values (testing/changed-rules).
 * The histories replay clean, while new commands are decided against the new masters. The same journeys
 * recorded before the `decide-in-activity` patch (decide in workflow code; ./pre-patch-histories) show that the
 * rule change does break a replay that re-runs the decider; those runs check master ids against the frozen
 * catalogue they were decided with (domain/src/masters/legacy-catalog.ts), never against the masters.
 */
jest.setTimeout(120_000);
const taskQueue = uniqueTaskQueue('decide-in-activity');
let client: Client;
let store: EventStore;
let db: TestDatabase;
let stop: (() => Promise<void>) | undefined;
let changed: { code: string };

beforeAll(async () => {
  const [worker, bundle] = await Promise.all([startTestWorker(taskQueue, { withPool: true }), bundleWithChangedRules()]);
  ({ client, store, db, stop } = worker);
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
      // Verified (the last step answered); since issue 8 the lifecycle keeps running, so no result to wait for.
      const handle = client.workflow.getHandle(onboardingWorkflowId(input.baId));
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

/** What an administrator does in the Masters application between the recordings and the replays. */
const ROAD_TRANSPORTATION = 100_001;
const MASTERS_CHANGE: MasterCommand[] = [
  deactivate('cities', 2701),
  deactivate('services', 1),
  {
    type: 'CreateMasterItem',
    master: 'services',
    id: ROAD_TRANSPORTATION,
    values: { name: 'Road Transportation', slug: 'road-transportation', serviceDesc: null },
  },
  deactivate('companies', '1000'),
  { type: 'CreateMasterItem', master: 'companies', id: '3000', values: { companyCode: '3000', name: 'MLL Express' } },
];

/** The test worker runs no projector: bring the read models (master_items) up to the change here. */
const project = () => createProjector({ pool: db.pool, store, projections: allProjections(), log: () => undefined }).catchUp();

/** Company details as the API sends them into the workflow: with the references it resolved from the masters. */
const asTheApiSends = async (details: object) =>
  withReferences(details, await resolveCompanyDetailReferences(masterLookup(db.pool), details));

test('the changed rules are what the replaying bundle runs', () => {
  expect(changed.code).toContain('[ABCFGHJLPT]');
});

describe('after the masters changed under running lifecycles', () => {
  let recorded: { name: string; workflowId: string; history: HistoryLike }[];
  /** A lifecycle left half-way before the change: details saved with Mumbai and Transportation, not submitted. */
  let running: ReturnType<typeof onboarding.onboardingInput>;

  beforeAll(async () => {
    recorded = [];
    for (const l of lifecycles) recorded.push({ name: l.name, ...(await l.record()) });
    running = onboarding.onboardingInput();
    await startOnboarding(client, taskQueue, running);
    await onboarding.act(client, running.baId, { kind: 'saveDetails', details: onboarding.validDetails }, onboarding.actors.ba(running.baId));
    await changeMasters({ store, pool: db.pool, project }, MASTERS_CHANGE);
  });

  test.each(lifecycles.map((l) => [l.name]))('%s: its history replays clean with the changed rules', async (name) => {
    const { workflowId, history } = recorded.find((r) => r.name === name)!;
    expect(patchMarkers(history)).toBeGreaterThan(0);
    expect(await replayError(changed, workflowId, history)).toBeUndefined();
  });

  test('a lifecycle still running replays clean, and its next decision uses the new masters', async () => {
    const { baId } = running;
    const ba = onboarding.actors.ba(baId);
    const handle = client.workflow.getHandle(onboardingWorkflowId(baId));
    expect(await replayError(changed, handle.workflowId, await handle.fetchHistory())).toBeUndefined();

    // Saved again as it stands: Mumbai is inactive and Transportation retired now.
    const stale = await refusal(onboarding.act(client, baId, { kind: 'saveDetails', details: onboarding.validDetails }, ba));
    expect(stale).toMatchObject({
      code: 'validation',
      errors: { serviceId: 'Please select a service', cityId: 'Please select a city' },
    });
    // The new service and another city of the state, sent as the API sends them, are taken.
    const current = await asTheApiSends({ ...onboarding.validDetails, serviceId: ROAD_TRANSPORTATION, cityId: 2702 });
    const saved = await onboarding.act(client, baId, { kind: 'saveDetails', details: current }, ba);
    expect(saved.state.details).toMatchObject({ serviceId: ROAD_TRANSPORTATION, cityId: 2702 });
    expect(saved.state.details).not.toHaveProperty('references');
    await onboarding.fillEveryTab(client, baId, ba, { gst: { cityId: 2702, pinCode: '411001' }, mapping: { subServiceIds: [] } });
    const submitted = await onboarding.act(client, baId, { kind: 'submit' }, ba);
    expect(submitted.state).toMatchObject({ status: 'inprogress', stage: 1 });
    expect(await replayError(changed, handle.workflowId, await handle.fetchHistory())).toBeUndefined();
  });

  test('a new BA or registration for the retired company code is refused; for the new one it goes through', async () => {
    const retired = await refusal(startOnboarding(client, taskQueue, onboarding.onboardingInput({ companyCode: '1000' })));
    expect(retired).toMatchObject({ code: 'validation', errors: { companyCode: 'Please select a company from the list' } });
    const created = await startOnboarding(client, taskQueue, onboarding.onboardingInput({ companyCode: '3000' }));
    expect(created.alreadyStarted).toBe(false);

    const refused = await refusal(startRegistration(client, taskQueue, registration.registrationInput({ companyCode: '1000' })));
    expect(refused).toMatchObject({ code: 'validation', errors: { companyCode: registrationMessages.unknownCompany } });
    const completed = await registration.completedJourney(client, taskQueue, registration.registrationInput({ companyCode: '3000' }));
    expect(completed.baId).toBeTruthy();
  });
});

describe.each(lifecycles)('$name', ({ prePatch: before }) => {
  test('a history recorded before the patch (decide in workflow code) does not replay: the rule change reaches the decider', async () => {
    expect(patchMarkers(before.history)).toBe(0);
    const error = await replayError(changed, before.workflowId, before.history);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/nondetermin/i);
  });
});
