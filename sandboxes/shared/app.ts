import { timingSafeEqual } from 'node:crypto';
import express from 'express';
import type { z } from 'zod';

/** A zod error as one line: "path: message; …" (sandboxes answer `{message}`). */
export const problem = (e: z.ZodError): string => e.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');

export type FaultControls<S> = {
  schema: z.ZodType<S>;
  /** The faults as shown (GET, and the answer of PUT and DELETE). */
  describe: () => unknown;
  set: (settings: S) => void;
  reset: () => void;
};

/**
 * The shell every sandbox shares: `GET /health` open, every other route behind `Authorization: Bearer <apiKey>`
 * (compared in constant time), and the fault controls `GET|PUT|DELETE /_sandbox/faults`, which the faults
 * themselves never touch. The sandbox mounts its own contract on the returned app.
 */
export function sandboxApp<S>(options: { apiKey: string; jsonLimit: string; faults: FaultControls<S>; log?: (line: string) => void }): express.Express {
  const { faults } = options;
  const log = options.log ?? (() => undefined);
  const expected = Buffer.from(`Bearer ${options.apiKey}`);
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: options.jsonLimit }));

  app.get('/health', (_req, res) => void res.json({ status: 'ok' }));

  app.use((req, res, next) => {
    const given = Buffer.from(req.get('authorization') ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    res.status(401).set('WWW-Authenticate', 'Bearer').json({ message: 'A valid API key is required (Authorization: Bearer …)' });
  });

  app.get('/_sandbox/faults', (_req, res) => void res.json(faults.describe()));
  app.put('/_sandbox/faults', (req, res) => {
    const parsed = faults.schema.safeParse(req.body ?? {});
    if (!parsed.success) return void res.status(400).json({ message: problem(parsed.error) });
    faults.set(parsed.data);
    log(`faults: ${JSON.stringify(faults.describe())}`);
    res.json(faults.describe());
  });
  app.delete('/_sandbox/faults', (_req, res) => {
    faults.reset();
    res.json(faults.describe());
  });
  return app;
}
