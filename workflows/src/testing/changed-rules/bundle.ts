import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import type { Compiler } from 'webpack';
import { workflowsPath } from '../../bundle';

const domain = path.resolve(__dirname, '../../../../domain/src');

/** Today's module (absolute, without extension, as webpack joins a relative request) → the edited stand-in. */
const STAND_INS: Record<string, string> = {
  [path.join(domain, 'validation/fields')]: path.join(__dirname, 'fields.ts'),
};

/**
 * Sends every import of a replaced module to its stand-in, except the stand-in's own import of today's module
 * (which it builds on). Webpack's NormalModuleReplacementPlugin, with that one exception.
 */
const standIns = {
  apply(compiler: Compiler): void {
    compiler.hooks.normalModuleFactory.tap('changed-rules', (factory) => {
      factory.hooks.beforeResolve.tap('changed-rules', (data) => {
        if (!data.request.startsWith('.')) return;
        const standIn = STAND_INS[path.resolve(data.context, data.request)];
        if (standIn && data.contextInfo.issuer !== standIn) data.request = standIn;
      });
    });
  },
};

/**
 * Today's workflow code bundled as it would be after the field rules were tightened (./fields.ts): what a
 * worker deployed after such a change replays running lifecycles with. Reference data needs no stand-in: it
 * lives in the masters (the database), which an administrator edits while lifecycles run, and which workflow
 * code never reads (decide-in-activity.int.test.ts changes it there).
 */
export async function bundleWithChangedRules(): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    logger: new DefaultLogger('WARN'),
    webpackConfigHook: (config) => ({ ...config, plugins: [...(config.plugins ?? []), standIns] }),
  });
  return { code };
}
