import { ActivityFailure, log, proxyActivities, setHandler, sleep, uuid4, workflowInfo } from '@temporalio/workflow';
import type { ErpOperation, ErpOperationName, ErpVendorData } from '../../../domain/src/erp/port';
import type { NewEvent } from '../../../domain/src/shared/events';
import {
  vendorCodeWorkbookStreamId,
  workbookRequestKey,
  type VendorCodeWorkbookEvent,
} from '../../../domain/src/vendor-code-workbook/events';
import {
  CHILD_SHEET,
  PARENT_SHEET,
  resultMessages,
  type SheetName,
  type WorkbookResultRow,
  type WorkbookVendorRow,
} from '../../../domain/src/vendor-code-workbook/rules';
import type { VendorCodeWorkbookActivities } from './activities';
import {
  DEFAULT_WORKBOOK_TIMING,
  vendorCodeWorkbookProgressQuery,
  type VendorCodeWorkbookInput,
  type VendorCodeWorkbookResult,
} from './messages';

// Types only: the activity code never enters the workflow bundle.
const { workbookOpenStream, workbookAppend, workbookErpSubmit, workbookErpFindParent } = proxyActivities<VendorCodeWorkbookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

const vendorData = (row: WorkbookVendorRow): ErpVendorData => ({
  name: row.name,
  pan: row.pan,
  companyCode: row.companyCode,
  street: row.street,
  postalCode: row.postalCode,
  city: row.city,
  region: row.region,
  country: row.country,
  mobileNo: row.mobileNo,
  email: row.email,
  bankAccount: row.bankAccount,
  bankKey: row.bankKey,
  bankName: row.bankName,
  gstin: row.gstin,
  paymentTermsCode: row.paymentTermsCode,
  reconAccount: row.reconAccount,
  accountGroup: row.accountGroup,
  purchaseOrganisation: row.purchaseOrganisation,
  extra: row.extra,
});

/** What one row came to: a code, a refusal, or nothing sent. */
type RowOutcome = { msgType: 'S' | 'E' | ''; message: string; vendorCode: string };

/**
 * One vendor-code workbook (utility/government or other-company), identified by its file's sha256: creates
 * each parent, then that parent's children (same PAN and company code; a child whose parent is not in the file
 * gets the parent code the ERP holds for the PAN), each through ErpPort with the idempotency key
 * `vendor-code-workbook-<sha256>-<sheet>-<row>`, waits for the ERP's answers, and records every step on
 * `vendor-code-workbook-<sha256>`. An outage is retried with backoff (ErpCallFailed each time) for up to
 * `giveUpMs` per row. The same file again reaches the same keys: never a second vendor.
 */
export async function vendorCodeWorkbookWorkflow(input: VendorCodeWorkbookInput): Promise<VendorCodeWorkbookResult> {
  const timing = { ...DEFAULT_WORKBOOK_TIMING, ...input.timing };
  const { workflowId } = workflowInfo();
  const streamId = vendorCodeWorkbookStreamId(input.sha256);
  const { workbookErpAwait } = proxyActivities<VendorCodeWorkbookActivities>({
    startToCloseTimeout: timing.pollWindowMs + 30_000,
    heartbeatTimeout: Math.max(timing.pollMaxMs * 2, 10_000),
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
  });

  const results: (WorkbookResultRow | undefined)[] = [...input.parents, ...input.children].map(() => undefined);
  const total = results.length;
  setHandler(vendorCodeWorkbookProgressQuery, () => ({
    total,
    done: results.filter((r) => r !== undefined).length,
    results: results.filter((r): r is WorkbookResultRow => r !== undefined),
  }));

  // Appends one at a time (the rows run concurrently; the stream has one writer: this run).
  let version = (await workbookOpenStream({ streamId })).version;
  let tail: Promise<unknown> = Promise.resolve();
  const record = (...events: VendorCodeWorkbookEvent[]): Promise<void> => {
    const run = tail.then(async () => {
      const at = new Date(Date.now()).toISOString();
      const stamped: NewEvent[] = events.map((e) => ({
        eventId: uuid4(),
        type: e.type,
        data: e.data,
        metadata: {
          actor: input.actor,
          companyCode: input.companyCode,
          correlationId: input.correlationId,
          causationId: null,
          workflowId,
          requestId: null,
          at,
        },
      }));
      version = (await workbookAppend({ streamId, expectedVersion: version, events: stamped })).nextExpectedVersion;
    });
    tail = run.catch(() => undefined);
    return run;
  };

  const activityError = (e: unknown): string => {
    if (e instanceof ActivityFailure) return e.cause?.message ?? e.message;
    throw e;
  };

  await record({
    type: 'VendorCodeWorkbookSubmitted',
    data: {
      sha256: input.sha256,
      kind: input.kind,
      fileName: input.fileName,
      parents: input.parents.length,
      children: input.children.length,
    },
  });

  /** Submit (retrying outages), then wait for the answer (polling; outages while waiting are recorded too). */
  async function createInErp(row: WorkbookVendorRow, operation: ErpOperation): Promise<RowOutcome> {
    const sheet: SheetName = row.sheet === 'parent' ? PARENT_SHEET : CHILD_SHEET;
    const requestKey = workbookRequestKey(input.sha256, row.sheet, row.row);
    const ref = { requestKey, sheet, row: row.row, pan: row.pan };
    const op: ErpOperationName = operation.op;
    const started = Date.now();
    let attempt = 0;
    const outage = async (error: string): Promise<RowOutcome | null> => {
      attempt += 1;
      if (Date.now() - started >= timing.giveUpMs) {
        const message = resultMessages.unavailable(error);
        await record({ type: 'WorkbookRowNotCreated', data: { ...ref, message } });
        return { msgType: 'E', message, vendorCode: '' };
      }
      const delay = Math.min(timing.retryInitialMs * 2 ** (attempt - 1), timing.retryMaxMs);
      const retryAt = new Date(Date.now() + delay).toISOString();
      await record({ type: 'ErpCallFailed', data: { ...ref, operation: op, error, attempt, retryAt } });
      await sleep(delay);
      return null;
    };

    let requestId: string | null = null;
    while (requestId === null) {
      let answer;
      try {
        answer = await workbookErpSubmit({ key: requestKey, operation });
      } catch (e) {
        answer = { kind: 'unavailable' as const, error: activityError(e) };
      }
      if (answer.kind === 'submitted') requestId = answer.requestId;
      else if (answer.kind === 'refused') {
        await record({ type: 'ErpRequestRefused', data: { ...ref, operation: op, message: answer.message } });
        return { msgType: 'E', message: answer.message, vendorCode: '' };
      } else {
        const gaveUp = await outage(answer.error);
        if (gaveUp) return gaveUp;
      }
    }
    await record({ type: 'ErpRequestSubmitted', data: { ...ref, operation: op, erpRequestId: requestId } });

    const waitingSince = Date.now();
    for (;;) {
      let answer;
      try {
        answer = await workbookErpAwait({
          requestId,
          pollInitialMs: timing.pollInitialMs,
          pollMaxMs: timing.pollMaxMs,
          windowMs: timing.pollWindowMs,
        });
      } catch (e) {
        answer = { kind: 'pending' as const, lastError: activityError(e) };
      }
      if (answer.kind === 'done') {
        await record({ type: 'WorkbookVendorCodeAssigned', data: { ...ref, vendorCode: answer.vendorCode, message: answer.message } });
        return { msgType: 'S', message: answer.message, vendorCode: answer.vendorCode };
      }
      if (answer.kind === 'rejected') {
        await record({ type: 'ErpRequestRefused', data: { ...ref, operation: op, message: answer.message } });
        return { msgType: 'E', message: answer.message, vendorCode: '' };
      }
      if (answer.lastError !== null) {
        const gaveUp = await outage(answer.lastError);
        if (gaveUp) return gaveUp;
      } else if (Date.now() - waitingSince >= timing.giveUpMs) {
        await record({ type: 'WorkbookRowNotCreated', data: { ...ref, message: resultMessages.noAnswer } });
        return { msgType: 'E', message: resultMessages.noAnswer, vendorCode: '' };
      }
    }
  }

  const rowResult = (row: WorkbookVendorRow, outcome: RowOutcome): WorkbookResultRow => ({
    Type: row.sheet === 'parent' ? 'Parent' : 'Child',
    PAN: row.pan,
    MSG: outcome.message,
    MSGTYPE: outcome.msgType,
    VEN_CODE: outcome.vendorCode,
    sheet: row.sheet === 'parent' ? PARENT_SHEET : CHILD_SHEET,
    row: row.row,
  });

  /** The ERP's parent code for a PAN in a company code (outages retried like a submission). */
  async function parentFromErp(row: WorkbookVendorRow): Promise<string | null> {
    const started = Date.now();
    let attempt = 0;
    for (;;) {
      let answer;
      try {
        answer = await workbookErpFindParent({ pan: row.pan, companyCode: row.companyCode });
      } catch (e) {
        answer = { kind: 'unavailable' as const, error: activityError(e) };
      }
      if (answer.kind === 'found') return answer.vendorCode;
      if (answer.kind === 'none' || Date.now() - started >= timing.giveUpMs) return null;
      attempt += 1;
      await sleep(Math.min(timing.retryInitialMs * 2 ** (attempt - 1), timing.retryMaxMs));
    }
  }

  // Groups: each parent row with its children; then the children whose parent is not in the file, per PAN.
  const groupKey = (r: WorkbookVendorRow) => `${r.companyCode}|${r.pan}`;
  type Group = { parent: { row: WorkbookVendorRow; index: number } | null; children: { row: WorkbookVendorRow; index: number }[] };
  const groups = new Map<string, Group>();
  input.parents.forEach((row, index) => groups.set(groupKey(row), { parent: { row, index }, children: [] }));
  input.children.forEach((row, i) => {
    const key = groupKey(row);
    const group = groups.get(key) ?? { parent: null, children: [] };
    group.children.push({ row, index: input.parents.length + i });
    groups.set(key, group);
  });

  async function runGroup(group: Group): Promise<void> {
    let parentCode: string | null = null;
    if (group.parent) {
      const { row, index } = group.parent;
      const outcome = await createInErp(row, { op: 'create-parent', vendor: vendorData(row) });
      results[index] = rowResult(row, outcome);
      if (outcome.msgType === 'S') parentCode = outcome.vendorCode;
    } else if (group.children[0]) {
      parentCode = await parentFromErp(group.children[0].row);
    }
    for (const { row, index } of group.children) {
      if (parentCode === null) {
        const message = resultMessages.noParent(row.pan, row.companyCode);
        const sheet: SheetName = CHILD_SHEET;
        const ref = { requestKey: workbookRequestKey(input.sha256, 'child', row.row), sheet, row: row.row, pan: row.pan };
        await record({ type: 'WorkbookRowNotCreated', data: { ...ref, message } });
        results[index] = rowResult(row, { msgType: '', message, vendorCode: '' });
        continue;
      }
      const outcome = await createInErp(row, { op: 'create-child', parentCode, stateCode: row.region, vendor: vendorData(row) });
      results[index] = rowResult(row, outcome);
    }
  }

  // At most `concurrency` groups in flight; each takes the next group when it finishes.
  const queue = [...groups.values()];
  const lanes = Array.from({ length: Math.max(1, Math.min(timing.concurrency, queue.length)) }, async () => {
    for (let group = queue.shift(); group; group = queue.shift()) await runGroup(group);
  });
  await Promise.all(lanes);

  const data = results.filter((r): r is WorkbookResultRow => r !== undefined);
  const status: 'success' | 'fail' = data.every((r) => r.MSGTYPE === 'S') ? 'success' : 'fail';
  await record({ type: 'VendorCodeWorkbookCompleted', data: { status, results: data } });
  log.info('vendor-code workbook done', { workflowId, status, rows: data.length });
  return { status, message: status === 'success' ? resultMessages.uploaded : resultMessages.someFailed, data };
}
