import path from 'node:path';
import { testGoldenHistories } from '../testing/replay';

/**
 * Golden histories (recorded by `npm run histories:record -- block`, against the sandbox ERP) replayed against
 * today's workflow code: a change that would break block requests already running in production (an approved
 * block waiting for its end date) fails here. Needs no server and no ERP, only the bundle global setup built.
 */
jest.setTimeout(60_000);

testGoldenHistories({
  dir: path.join(__dirname, 'histories'),
  workflowIdPrefix: 'block-golden',
  title: 'the recorded block (approved, applied in the ERP, ended by its end date) replays without nondeterminism',
  files: ['ended.json'],
  tamper: { file: 'ended.json', by: 'renameActivity' },
});
