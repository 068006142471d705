import express, { type NextFunction, type Request, type Response } from 'express';
import type pg from 'pg';
import { faultGate, sandboxApp } from '../../shared/app';
import { MAX_OPPORTUNITY_SEARCH } from '../../../domain/src/crm/port';
import {
  applyFaultSettings,
  describeFaults,
  faultSettingsSchema,
  NO_FAULTS,
  type Faults,
  type FaultSettings,
} from './faults';
import { createCrmSandboxStore, type CrmSandboxStore } from './store';

/**
 * The sandbox CRM's HTTP face: the CRM contract (ARCHITECTURE.md "The CRM contract") under /crm/v1, its fault
 * controls under /_sandbox, `GET /health`. Every route but /health wants `Authorization: Bearer <apiKey>`.
 * Answers carry the envelope the old portal's services used (`status`, `message`, `data`), so a `fail` lookup
 * brings the CRM's own message to the wizard.
 */
export type CrmSandboxOptions = {
  pool: pg.Pool;
  apiKey: string;
  faults?: FaultSettings;
  log?: (line: string) => void;
};

export type CrmSandbox = {
  app: express.Express;
  store: CrmSandboxStore;
  faults: () => Faults;
  setFaults: (settings: FaultSettings) => Faults;
  resetFaults: () => void;
};

export const NOT_FOUND_MESSAGE = 'Opportunity not found';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function createCrmSandbox(options: CrmSandboxOptions): CrmSandbox {
  const store = createCrmSandboxStore(options.pool);
  const log = options.log ?? (() => undefined);
  const shell = sandboxApp({
    apiKey: options.apiKey,
    jsonLimit: '100kb',
    log,
    faults: { schema: faultSettingsSchema, none: NO_FAULTS, apply: (f, s) => applyFaultSettings(f, s), describe: (f) => describeFaults(f) },
    initial: options.faults ?? {},
  });
  const { app, faults } = shell;
  app.set('query parser', 'simple');

  const crm = express.Router();
  crm.use(
    faultGate(faults, {
      down: { status: 'fail', message: 'The CRM is down for maintenance' },
      error: { status: 'fail', message: 'The CRM failed to handle the request' },
      hang: 'drop',
    }),
  );

  crm.get('/opportunities', async (req, res) => {
    const q = one(req.query.q) ?? '';
    const limitText = one(req.query.limit) ?? '20';
    const limit = Number(limitText);
    if (q.length > 100) return void res.status(400).json({ status: 'fail', message: 'q: at most 100 characters' });
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_OPPORTUNITY_SEARCH) {
      return void res.status(400).json({ status: 'fail', message: `limit: a whole number from 1 to ${MAX_OPPORTUNITY_SEARCH}` });
    }
    const { opportunities, total } = await store.search(q, limit);
    res.json({ status: 'success', message: `${total} opportunities found`, data: opportunities, total });
  });

  crm.get('/opportunities/:id', async (req, res) => {
    const id = String(req.params.id);
    const sourceSystem = one(req.query.sourceSystem)?.trim();
    const found = id.length <= 50 ? await store.opportunity(id) : null;
    if (!found) return void res.status(404).json({ status: 'fail', message: NOT_FOUND_MESSAGE });
    if (sourceSystem && found.sourceSystem.toUpperCase() !== sourceSystem.toUpperCase()) {
      return void res.status(404).json({ status: 'fail', message: `Opportunity not found in source system ${sourceSystem}` });
    }
    res.json({ status: 'success', message: 'Opportunity found', data: found });
  });

  app.use('/crm/v1', crm);
  app.use((_req, res) => void res.status(404).json({ message: 'Not found' }));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    log(`error: ${error instanceof Error ? error.stack : String(error)}`);
    res.status(500).json({ status: 'fail', message: 'Internal CRM error' });
  });

  return {
    app,
    store,
    faults,
    setFaults: shell.set,
    resetFaults: shell.reset,
  };
}
