import path from 'node:path';
import { testGoldenHistories } from '../testing/replay';

/**
 * Golden histories (recorded by `npm run histories:record`) replayed against today's workflow code: a change
 * that would break onboarding lifecycles already running in production fails here. Needs no server, only
 * the bundle global setup built.
 */
jest.setTimeout(60_000);

testGoldenHistories({
  dir: path.join(__dirname, 'histories'),
  workflowIdPrefix: 'onboarding-golden',
  title: 'the recorded happy-path, reject-resubmit and verified-changes histories replay without nondeterminism',
  files: ['happy-path.json', 'reject-resubmit.json', 'verified-changes.json'],
  tamper: { file: 'happy-path.json', by: 'renameActivity' },
});
