import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ErpRetryPolicy, VendorCodeCommand } from '../../../domain/src/vendor-code/commands';
import type { VendorCodeState } from '../../../domain/src/vendor-code/state';
import type { Actor } from '../../../domain/src/shared/events';

/**
 * The vendor-code lifecycle's wire contract (one workflow per BA and company code). Names are wire contracts:
 * add new ones, never rename.
 */
export const vendorCodeWorkflowId = (baId: string, companyCode: string): string => `vendor-code-${baId}-${companyCode}`;

/** The ERP's asynchrony: a pending request is polled after `initialMs`, doubling up to `maxMs`. */
export type ErpPollPolicy = { initialMs: number; maxMs: number };
export const DEFAULT_ERP_POLL: ErpPollPolicy = { initialMs: 1_000, maxMs: 60_000 };

export type VendorCodeInput = {
  baId: string;
  companyCode: string;
  correlationId: string;
  /** Outage retries (default 2 s doubling to 10 min); tests shorten them. */
  erpRetry?: ErpRetryPolicy;
  /** Polling of accepted requests (default 1 s doubling to 60 s); tests shorten it. */
  erpPoll?: ErpPollPolicy;
  /** Set only by continue-as-new. */
  carry?: VendorCodeCarry;
};

export type VendorCodeUpdateResult = { state: VendorCodeState; lastGlobalPosition: number };

export type VendorCodeCarry = {
  state: VendorCodeState;
  lastGlobalPosition: number;
  recent?: [requestId: string, result: VendorCodeUpdateResult][];
};

/** A person's command (never RecordErpOutcome, which is the workflow's own). `deadline`: see shared/deadline.ts. */
export type VendorCodeCommandArgs = {
  actor: Actor;
  requestId: string;
  correlationId: string;
  deadline?: number;
  command: VendorCodeCommand;
};

export const vendorCodeCommandUpdate = defineUpdate<VendorCodeUpdateResult, [VendorCodeCommandArgs]>('command');
export const vendorCodeStateQuery = defineQuery<VendorCodeState>('state');
