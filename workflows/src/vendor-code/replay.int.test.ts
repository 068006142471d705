import path from 'node:path';
import { testGoldenHistories } from '../testing/replay';

/**
 * Golden histories (recorded by `npm run histories:record -- vendor-code`, against the sandbox ERP) replayed
 * against today's workflow code: a change that would break vendor-code lifecycles already running in
 * production fails here. Needs no server and no ERP, only the bundle global setup built. The workflow id is
 * vendor-code-<baId>-<companyCode>: recorded for BA golden-parent-category-child, company code 1000.
 */
jest.setTimeout(60_000);

testGoldenHistories({
  dir: path.join(__dirname, 'histories'),
  workflowIdPrefix: 'vendor-code-golden',
  title: 'the recorded parent code, vendor category and child code replay without nondeterminism',
  files: ['parent-category-child-1000.json'],
  tamper: { file: 'parent-category-child-1000.json', by: 'renameActivity' },
});
