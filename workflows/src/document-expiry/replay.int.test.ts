import path from 'node:path';
import { testGoldenHistories } from '../testing/replay';

/**
 * Golden histories (recorded by `npm run histories:record -- document-expiry`) replayed against today's
 * workflow code: a change that would break expiry timers already running in production fails here. Needs no
 * server, only the bundle global setup built.
 */
jest.setTimeout(60_000);

testGoldenHistories({
  dir: path.join(__dirname, 'histories'),
  workflowIdPrefix: 'document-expiry-golden',
  title: 'the recorded timer (a reminder, then the expiry) replays without nondeterminism',
  files: ['reminded-and-expired.json'],
  // The timer's one activity asks the onboarding lifecycle to record each step.
  tamper: { file: 'reminded-and-expired.json', by: 'renameActivity' },
});
