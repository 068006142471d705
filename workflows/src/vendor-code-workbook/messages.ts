import { defineQuery } from '@temporalio/workflow';
import type { Actor } from '../../../domain/src/shared/events';
import type { WorkbookKind, WorkbookResultRow, WorkbookVendorRow } from '../../../domain/src/vendor-code-workbook/rules';

/**
 * The vendor-code workbook run's wire contract (names are wire contracts: add, never rename). One run per file
 * content: workflow id and stream `vendor-code-workbook-<sha256>`.
 */
export const vendorCodeWorkbookWorkflowId = (sha256: string): string => `vendor-code-workbook-${sha256}`;

/** How the run waits for the ERP; tests pass milliseconds. */
export type WorkbookTiming = {
  /** First pause after an outage (ERP 5xx, timeout, refused connection); doubles each time… */
  retryInitialMs: number;
  /** …up to this. */
  retryMaxMs: number;
  /** An outage longer than this (for one row) ends the row with the outage's message (retryable by uploading again). */
  giveUpMs: number;
  /** First status poll after a submission; grows ×2 up to `pollMaxMs`. */
  pollInitialMs: number;
  pollMaxMs: number;
  /** One status-polling activity call lasts at most this long before reporting back to the workflow. */
  pollWindowMs: number;
  /** Parents (with their children) worked on at once. */
  concurrency: number;
};

/** Spec'd in the issue-9 contract: backoff from 2 s doubling, for up to 10 minutes. */
export const DEFAULT_WORKBOOK_TIMING: WorkbookTiming = {
  retryInitialMs: 2000,
  retryMaxMs: 60_000,
  giveUpMs: 10 * 60_000,
  pollInitialMs: 1000,
  pollMaxMs: 10_000,
  pollWindowMs: 60_000,
  concurrency: 5,
};

export type VendorCodeWorkbookInput = {
  sha256: string;
  kind: WorkbookKind;
  fileName: string;
  parents: WorkbookVendorRow[];
  children: WorkbookVendorRow[];
  actor: Actor;
  correlationId: string;
  /** The uploader's active company code, for the events' metadata. */
  companyCode: string | null;
  timing?: Partial<WorkbookTiming>;
};

/** What the submit answers (spec 000 §4 "Vendor-code upload": status, message, data rows). */
export type VendorCodeWorkbookResult = {
  status: 'success' | 'fail';
  message: string;
  data: WorkbookResultRow[];
};

export type VendorCodeWorkbookProgress = { total: number; done: number; results: WorkbookResultRow[] };

export const vendorCodeWorkbookProgressQuery = defineQuery<VendorCodeWorkbookProgress>('progress');
