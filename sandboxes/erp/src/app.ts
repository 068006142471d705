import express, { type NextFunction, type Request, type Response } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import { faultGate, problem, sandboxApp } from '../../shared/app';
import type { ErpOperation } from '../../../domain/src/erp/port';
import { applyFaultSettings, describeFaults, faultSettingsSchema, NO_FAULTS, type Faults, type FaultSettings } from './faults';
import { createErpSandboxStore, type ErpSandboxStore } from './store';

/**
 * The sandbox ERP's HTTP face: the ERP contract (ARCHITECTURE.md "The ERP contract") under /erp/v1, its fault
 * controls under /_sandbox, `GET /health`. Every route but /health wants `Authorization: Bearer <apiKey>`.
 */
export type ErpSandboxOptions = {
  pool: pg.Pool;
  apiKey: string;
  /** How long a request stays pending (default 1500 ms). */
  processingMs?: number;
  faults?: FaultSettings;
  log?: (line: string) => void;
};

export type ErpSandbox = {
  app: express.Express;
  store: ErpSandboxStore;
  faults: () => Faults;
  setFaults: (settings: FaultSettings) => Faults;
  resetFaults: () => void;
  /** Changes how long requests accepted from now on stay pending. */
  setProcessingMs: (ms: number) => void;
  /** Starts processing due requests in the background (status reads also process the request they ask for). */
  start: () => void;
  stop: () => Promise<void>;
};

const text = z.string().trim().min(1);
const maybe = z.string().nullish().transform((v) => v ?? null);
const vendorData = z.looseObject({
  name: text,
  pan: text,
  companyCode: text,
  street: maybe,
  postalCode: maybe,
  city: maybe,
  region: maybe,
  country: z.string().default('IN'),
  mobileNo: maybe,
  email: maybe,
  bankAccount: maybe,
  bankKey: maybe,
  bankName: maybe,
  gstin: maybe,
  paymentTermsCode: maybe,
  reconAccount: maybe,
});
const scope = z.enum(['parent', 'child']);
const operationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('create-parent'), vendor: vendorData }),
  z.object({ op: z.literal('create-child'), parentCode: text, stateCode: text, vendor: vendorData }),
  z.object({ op: z.literal('set-payment-terms'), vendorCode: text, paymentTermsCode: text }),
  z.object({ op: z.literal('set-vendor-category'), vendorCode: text, vendorCategory: text }),
  z.object({ op: z.literal('change-recon-account'), vendorCode: text, reconAccount: text }),
  z.object({ op: z.literal('update-withholding-tax'), vendorCode: text, taxType: text, taxCode: text }),
  z.object({ op: z.literal('block'), vendorCode: text, companyCode: text, scope }),
  z.object({ op: z.literal('unblock'), vendorCode: text, companyCode: text, scope }),
  z.object({
    op: z.literal('post-invoice'),
    vendorCode: text,
    companyCode: text,
    invoiceNumber: text,
    invoiceDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    financialYear: text,
    amount: z.string().regex(/^\d+(\.\d{1,2})?$/),
  }),
]);
const submission = z.object({ idempotencyKey: z.string().trim().min(1).max(200), operation: operationSchema });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createErpSandbox(options: ErpSandboxOptions): ErpSandbox {
  let processingMs = options.processingMs ?? 1500;
  // The store reads the rejected PANs when a request is decided: the faults as they are then.
  let current = (): Faults => NO_FAULTS;
  const store = createErpSandboxStore(options.pool, { processingMs: () => processingMs, rejectPans: () => current().rejectPans });
  const log = options.log ?? (() => undefined);
  const shell = sandboxApp({
    apiKey: options.apiKey,
    jsonLimit: '1mb',
    log,
    faults: { schema: faultSettingsSchema, none: NO_FAULTS, apply: (f, s) => applyFaultSettings(f, s), describe: (f) => describeFaults(f) },
    initial: options.faults ?? {},
  });
  const { app } = shell;
  current = shell.faults;

  const erp = express.Router();
  erp.use(
    faultGate(current, {
      down: { message: 'The ERP is down for maintenance' },
      error: { message: 'The ERP failed to handle the request' },
      hang: 'lose-answer',
    }),
  );
  const reply = (res: Response, status: number, body: unknown) => {
    if (res.locals.hang) return; // the client's timeout ends it; closing the server ends the socket
    res.status(status).json(body);
  };

  erp.post('/requests', async (req, res) => {
    const parsed = submission.safeParse(req.body);
    if (!parsed.success) return reply(res, 400, { message: problem(parsed.error) });
    const { idempotencyKey, operation } = parsed.data;
    const { requestId, created } = await store.accept(idempotencyKey, operation as ErpOperation);
    reply(res, created ? 202 : 200, { requestId, state: 'pending' as const, ...(created ? {} : await replayed(requestId)) });
  });
  /** A repeated key answers the request's current state (the operation sent with it again is not compared). */
  const replayed = async (requestId: string) => {
    const status = await store.status(requestId);
    return status ?? {};
  };

  erp.get('/requests/:requestId', async (req, res) => {
    const status = await store.status(String(req.params.requestId));
    if (!status) return reply(res, 404, { message: `No request ${req.params.requestId}` });
    reply(res, 200, status);
  });

  erp.get('/vendors', async (req, res) => {
    const pan = typeof req.query.pan === 'string' ? req.query.pan.trim() : '';
    if (pan) return reply(res, 200, { vendors: await store.vendorsByPan(pan) });
    const source = req.query.source;
    if (source !== undefined && source !== 'nucleus' && source !== 'portal') {
      return reply(res, 400, { message: 'source: nucleus or portal' });
    }
    const page = Math.max(1, Number(req.query.page ?? 1) || 1);
    const perPage = Math.min(1000, Math.max(1, Number(req.query.perPage ?? 100) || 100));
    const { vendors, total } = await store.list({ source, page, perPage });
    reply(res, 200, { vendors, total, page, perPage });
  });

  erp.get('/vendors/:code', async (req, res) => {
    const vendor = await store.vendor(String(req.params.code));
    if (!vendor) return reply(res, 404, { message: `No vendor ${req.params.code}` });
    reply(res, 200, vendor);
  });

  app.use('/erp/v1', erp);
  app.use((_req, res) => void res.status(404).json({ message: 'Not found' }));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status && status >= 400 && status < 500) return void res.status(status).json({ message: (error as Error).message });
    log(`error: ${error instanceof Error ? error.stack : String(error)}`);
    if (res.locals.hang) return;
    res.status(500).json({ message: 'Internal ERP error' });
  });

  // Background processing, so codes appear without anyone asking (listings, vendorsByPan).
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const tickMs = Math.min(500, Math.max(25, Math.floor(processingMs / 4)));
  const start = () => {
    if (timer) return;
    timer = setInterval(() => {
      running = running.then(() =>
        store.processDue().catch((e: unknown) => log(`processing failed: ${e instanceof Error ? e.message : String(e)}`)),
      );
    }, tickMs);
    timer.unref();
  };
  const stop = async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  };

  return {
    app,
    store,
    faults: shell.faults,
    setFaults: shell.set,
    resetFaults: shell.reset,
    setProcessingMs: (ms) => void (processingMs = ms),
    start,
    stop,
  };
}
