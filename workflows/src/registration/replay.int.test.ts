import path from 'node:path';
import { testGoldenHistories } from '../testing/replay';

/**
 * Golden histories (recorded by `npm run histories:record -- registration`) replayed against today's workflow
 * code: a change that would break registrations already running in production fails here. Needs no server,
 * only the bundle global setup built.
 */
jest.setTimeout(60_000);

testGoldenHistories({
  dir: path.join(__dirname, 'histories'),
  workflowIdPrefix: 'registration-golden',
  title: 'the recorded completed and expired registrations replay without nondeterminism',
  files: ['completed.json', 'expired.json'],
  // The completion starts the BA's lifecycle as a child; a history that started some other workflow type must fail.
  tamper: { file: 'completed.json', by: 'renameChildWorkflow' },
});
