import path from 'node:path';
import { testGoldenHistories } from '../testing/replay';

/**
 * Golden histories (recorded by `npm run histories:record -- contact-change`) replayed against today's
 * workflow code: a change that would break contact changes already running in production fails here. Needs
 * no server, only the bundle global setup built.
 */
jest.setTimeout(60_000);

testGoldenHistories({
  dir: path.join(__dirname, 'histories'),
  workflowIdPrefix: 'contact-change-golden',
  title: 'the recorded completed and expired contact changes replay without nondeterminism',
  files: ['completed.json', 'expired.json'],
  tamper: { file: 'completed.json', by: 'renameActivity' },
});
