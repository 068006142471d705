import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The two Vite apps the api process serves: the staff console at /console and the BA portal at /. */
export const FRONT_ENDS = ['console', 'portal'] as const;
export type FrontEnd = (typeof FRONT_ENDS)[number];

const root = path.resolve(__dirname, '..', '..', '..');
// vite's package exports do not include its bin script; its package.json is exported, so resolve beside it.
const viteBin = () => path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');

export function buildFrontEnd(app: FrontEnd, options: { quiet?: boolean } = {}): void {
  const args = [viteBin(), 'build', '--config', `${app}/vite.config.mts`];
  if (options.quiet) args.push('--logLevel', 'warn');
  execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
}

export const frontEndDist = (app: FrontEnd): string => path.join(root, 'dist', app);

/** The app's build folder when it has been built, else undefined. */
export const builtFrontEnd = (app: FrontEnd): string | undefined =>
  existsSync(path.join(frontEndDist(app), 'index.html')) ? frontEndDist(app) : undefined;
