import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildFrontEnd, FRONT_ENDS } from '../platform/src/build/front-ends';

/**
 * `npm test`: builds the front ends (the browser journeys load the real bundles), then runs every jest
 * project — unit, ui, integration (real PostgreSQL + Temporal) and e2e (headless Chromium) — and closes with
 * one plain 'N passed, N failed' line. Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
 */
const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);

const wantsBrowser = args.length === 0 || args.join(' ').includes('e2e');
if (wantsBrowser) {
  for (const app of FRONT_ENDS) buildFrontEnd(app, { quiet: true });
}

const out = mkdtempSync(path.join(os.tmpdir(), 'ba-portal-jest-'));
const resultsFile = path.join(out, 'results.json');
const jest = spawnSync(
  process.execPath,
  [require.resolve('jest/bin/jest'), '--json', `--outputFile=${resultsFile}`, ...args],
  { cwd: root, stdio: 'inherit', env: process.env },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numRuntimeErrorTestSuites: number;
  };
  passed = results.numPassedTests;
  failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
  skipped = results.numPendingTests + results.numTodoTests;
}
rmSync(out, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(jest.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
