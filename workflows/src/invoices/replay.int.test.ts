import path from 'node:path';
import { testGoldenHistories } from '../testing/replay';

/**
 * Golden histories (recorded by `npm run histories:record -- invoice`, against the sandbox ERP: scenarios.ts)
 * replayed against today's workflow code: a change that would break invoices already running in production
 * (a command recorded in another order, a timer added or dropped, an activity renamed) fails here. Needs no
 * server and no ERP, only the bundle global setup built.
 *
 *   booked-released       draft → S → A → V → booking through an ERP outage (failed call, backoff timer, the same
 *                         key again) and a pending posting (poll timer) → B → released (P, the run completed)
 *   rejected-resubmitted  submitted, its SLA timer fires (breach recorded), rejected, resubmitted, the SLA fires
 *                         again, acknowledged (the run still open, waiting for its verification)
 */
jest.setTimeout(60_000);

testGoldenHistories({
  dir: path.join(__dirname, 'histories'),
  workflowIdPrefix: 'invoice-golden',
  title: 'the recorded invoices (booked through an ERP outage and released; rejected, resubmitted, SLA breached) replay without nondeterminism',
  files: ['booked-released.json', 'rejected-resubmitted.json'],
  tamper: { file: 'booked-released.json', by: 'renameActivity' },
});
