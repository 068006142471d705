import type { ActivityOptions } from '@temporalio/common';

/**
 * The activity options every lifecycle's command activities share (workflow-safe: types and constants only).
 *
 * An append takes milliseconds; a worker killed mid-append is noticed after `startToCloseTimeout`, and a retry
 * is idempotent (same command id, same event ids). Retries are bounded (issue 6): a database restart or a
 * concurrent append is retried for up to ~16 s (8 attempts, 200 ms doubling to 5 s) and never past a minute,
 * then the command fails and its update reports it (CommandFailed) instead of holding the lifecycle's queue
 * for ever. Programming faults cannot succeed on a retry and fail at once.
 */
export const COMMAND_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '200 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '5 seconds',
    maximumAttempts: 8,
    nonRetryableErrorTypes: ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'],
  },
};

/**
 * ERP calls (block, invoice) answer outages themselves: the workflow records the failed call and backs off.
 * Their own retries only cover a lost worker; the adapter's timeout (ERP_TIMEOUT, 10 s) bounds one call.
 */
export const ERP_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'] },
};
