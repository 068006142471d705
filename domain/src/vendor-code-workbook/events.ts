import type { ErpOperationName } from '../erp/port';
import type { SheetName, WorkbookKind, WorkbookResultRow } from './rules';

/**
 * Events of one vendor-code workbook run, on stream `vendor-code-workbook-<sha256>` (one per file content:
 * the same file uploaded again is the same run). Written by workflows/src/vendor-code-workbook only.
 */
export const vendorCodeWorkbookStreamId = (sha256: string): string => `vendor-code-workbook-${sha256}`;

/** The ERP idempotency key of one row: the same file, sheet and row always ask for the same vendor. */
export const workbookRequestKey = (sha256: string, sheet: 'parent' | 'child', row: number): string =>
  `vendor-code-workbook-${sha256}-${sheet}-${row}`;

type RowRef = { requestKey: string; sheet: SheetName; row: number; pan: string };

export type VendorCodeWorkbookEvent =
  | {
      type: 'VendorCodeWorkbookSubmitted';
      data: { sha256: string; kind: WorkbookKind; fileName: string; parents: number; children: number };
    }
  | { type: 'ErpRequestSubmitted'; data: RowRef & { operation: ErpOperationName; erpRequestId: string } }
  /** An outage (5xx, timeout, refused connection): the same request is tried again at `retryAt`. */
  | { type: 'ErpCallFailed'; data: RowRef & { operation: ErpOperationName; error: string; attempt: number; retryAt: string } }
  | { type: 'WorkbookVendorCodeAssigned'; data: RowRef & { vendorCode: string; message: string } }
  /** The ERP refused the row (bad data): retrying the same request cannot help. */
  | { type: 'ErpRequestRefused'; data: RowRef & { operation: ErpOperationName; message: string } }
  /** The row was not sent (a child without a parent code) or its answer never came within the bound. */
  | { type: 'WorkbookRowNotCreated'; data: RowRef & { message: string } }
  | { type: 'VendorCodeWorkbookCompleted'; data: { status: 'success' | 'fail'; results: WorkbookResultRow[] } };

export type VendorCodeWorkbookEventType = VendorCodeWorkbookEvent['type'];
