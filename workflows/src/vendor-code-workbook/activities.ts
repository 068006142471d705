import { Context } from '@temporalio/activity';
import { ErpUnavailableError, type ErpOperation, type ErpPort } from '../../../domain/src/erp/port';
import type { EventStore, ExpectedVersion } from '../../../domain/src/event-store/port';
import type { NewEvent } from '../../../domain/src/shared/events';

/**
 * The vendor-code workbook run's activities: the ERP calls (through ErpPort: the HTTP adapter in production,
 * the sandbox in tests) and the appends to the run's stream. An ERP outage is an answer here
 * (`unavailable`), not a thrown error: the workflow records it (ErpCallFailed) and retries with backoff.
 */
export type ErpSubmitAnswer =
  | { kind: 'submitted'; requestId: string }
  | { kind: 'unavailable'; error: string }
  /** The ERP refused the call itself (4xx): bad data, retrying cannot help. */
  | { kind: 'refused'; message: string };

export type ErpAwaitAnswer =
  | { kind: 'done'; vendorCode: string; message: string }
  | { kind: 'rejected'; message: string }
  /** Still pending at the end of the window; `lastError` when the ERP could not be reached meanwhile. */
  | { kind: 'pending'; lastError: string | null };

export type ErpParentAnswer = { kind: 'found'; vendorCode: string } | { kind: 'none' } | { kind: 'unavailable'; error: string };

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function createVendorCodeWorkbookActivities({ store, erp }: { store: EventStore; erp?: ErpPort }) {
  const port = (): ErpPort => {
    // Retried by Temporal: a worker started without an ERP adapter is a configuration fault an operator fixes.
    if (!erp) throw new Error('No ERP adapter is configured for this worker');
    return erp;
  };

  return {
    /** The stream's current version (-1: no stream yet), so a later run of the same file appends after it. */
    async workbookOpenStream({ streamId }: { streamId: string }): Promise<{ version: number }> {
      const events = await store.readStream(streamId);
      return { version: events.length === 0 ? -1 : (events[events.length - 1]?.version ?? -1) };
    },

    /** Appends with the workflow's own event ids: a retried append is recognised and answers the original. */
    async workbookAppend({
      streamId,
      expectedVersion,
      events,
    }: {
      streamId: string;
      expectedVersion: number;
      events: NewEvent[];
    }): Promise<{ nextExpectedVersion: number; lastGlobalPosition: number }> {
      const expected: ExpectedVersion = expectedVersion < 0 ? 'no_stream' : expectedVersion;
      return store.appendToStream(streamId, events, { expectedVersion: expected });
    },

    async workbookErpSubmit({ key, operation }: { key: string; operation: ErpOperation }): Promise<ErpSubmitAnswer> {
      try {
        const { requestId } = await port().submit(key, operation);
        return { kind: 'submitted', requestId };
      } catch (e) {
        if (e instanceof ErpUnavailableError) return { kind: 'unavailable', error: e.message };
        if (e instanceof Error && e.message === 'No ERP adapter is configured for this worker') throw e;
        return { kind: 'refused', message: errorText(e) };
      }
    },

    /**
     * Polls the request's status with backoff (`pollInitialMs` ×2 up to `pollMaxMs`) for at most `windowMs`,
     * heartbeating; outages in between are remembered, not thrown.
     */
    async workbookErpAwait({
      requestId,
      pollInitialMs,
      pollMaxMs,
      windowMs,
    }: {
      requestId: string;
      pollInitialMs: number;
      pollMaxMs: number;
      windowMs: number;
    }): Promise<ErpAwaitAnswer> {
      const ctx = Context.current();
      const end = Date.now() + windowMs;
      let wait = pollInitialMs;
      let lastError: string | null = null;
      for (;;) {
        try {
          const status = await port().status(requestId);
          if (status.state === 'done') return { kind: 'done', vendorCode: status.vendorCode, message: status.message };
          if (status.state === 'rejected') return { kind: 'rejected', message: status.message };
          lastError = null;
        } catch (e) {
          if (!(e instanceof ErpUnavailableError)) throw e;
          lastError = e.message;
        }
        ctx.heartbeat();
        if (Date.now() + wait > end) return { kind: 'pending', lastError };
        await ctx.sleep(wait);
        wait = Math.min(wait * 2, pollMaxMs);
      }
    },

    /** The parent vendor code the ERP holds for a PAN in a company code (a child row whose parent is not in the file). */
    async workbookErpFindParent({ pan, companyCode }: { pan: string; companyCode: string }): Promise<ErpParentAnswer> {
      try {
        const parent = (await port().vendorsByPan(pan)).find((v) => v.kind === 'parent' && v.companyCode === companyCode);
        return parent ? { kind: 'found', vendorCode: parent.vendorCode } : { kind: 'none' };
      } catch (e) {
        if (e instanceof ErpUnavailableError) return { kind: 'unavailable', error: e.message };
        throw e;
      }
    },
  };
}

export type VendorCodeWorkbookActivities = ReturnType<typeof createVendorCodeWorkbookActivities>;
