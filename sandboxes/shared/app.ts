import { timingSafeEqual } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import type { z } from 'zod';
import { faultFor, type Faults } from './faults';

/** A zod error as one line: "path: message; …" (sandboxes answer `{message}`). */
export const problem = (e: z.ZodError): string => e.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');

/** A sandbox's faults: its settings schema, how settings apply, how they are shown, and "none". */
export type FaultKind<F extends Faults, S> = {
  schema: z.ZodType<S>;
  none: F;
  apply: (current: F, settings: S) => F;
  describe: (faults: F) => unknown;
};

/**
 * The shell every sandbox shares: `GET /health` open, every other route behind `Authorization: Bearer <apiKey>`
 * (compared in constant time), and the fault controls `GET|PUT|DELETE /_sandbox/faults`, which the faults
 * themselves never touch. The sandbox mounts its own contract on the returned app, behind `faultGate`.
 */
export function sandboxApp<F extends Faults, S>(options: {
  apiKey: string;
  jsonLimit: string;
  faults: FaultKind<F, S>;
  /** The faults at start. */
  initial: S;
  log?: (line: string) => void;
}): { app: express.Express; faults: () => F; set: (settings: S) => F; reset: () => void } {
  const kind = options.faults;
  let faults = kind.apply(kind.none, options.initial);
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

  app.get('/_sandbox/faults', (_req, res) => void res.json(kind.describe(faults)));
  app.put('/_sandbox/faults', (req, res) => {
    const parsed = kind.schema.safeParse(req.body ?? {});
    if (!parsed.success) return void res.status(400).json({ message: problem(parsed.error) });
    faults = kind.apply(faults, parsed.data);
    log(`faults: ${JSON.stringify(kind.describe(faults))}`);
    res.json(kind.describe(faults));
  });
  app.delete('/_sandbox/faults', (_req, res) => {
    faults = kind.none;
    res.json(kind.describe(faults));
  });
  return {
    app,
    faults: () => faults,
    // Tests set faults directly, through the same schema as the PUT.
    set: (settings) => (faults = kind.apply(faults, kind.schema.parse(settings))),
    reset: () => void (faults = kind.none),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The faults in front of a sandbox's contract: downtime (503) and 5xx answer before anything is done, latency
 * delays the rest, and a "hang" is never answered — either not handled at all (`hang: 'drop'`, a read-only
 * service) or handled and its answer lost (`hang: 'lose-answer'`: the handler sees `res.locals.hang` and does not
 * answer, like an answer lost on the way back; the client's retry must find what was done).
 */
export function faultGate(current: () => Faults, answers: { down: object; error: object; hang: 'drop' | 'lose-answer' }): RequestHandler {
  return async (_req, res, next) => {
    const faults = current();
    const verdict = faultFor(faults);
    if (verdict.kind === 'down') return void res.status(503).json(answers.down);
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (verdict.kind === 'error') return void res.status(500).json(answers.error);
    if (verdict.kind === 'hang') {
      // The client's timeout ends it; closing the server ends the socket.
      if (answers.hang === 'drop') return;
      res.locals['hang'] = true;
    }
    next();
  };
}
