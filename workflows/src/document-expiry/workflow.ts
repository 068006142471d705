import { condition, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { createDocumentExpiryActivities, RecordDocumentExpiryArgs } from './activities';
import {
  DAY_MS,
  DEFAULT_REMINDER_DAYS_BEFORE,
  expiryScheduleQuery,
  validTillChangedSignal,
  type DocumentExpiryInput,
  type DocumentExpirySchedule,
} from './messages';
import { planExpiry } from './schedule';

// Types only: the activity code (the Temporal client) never enters the workflow bundle.
const { recordDocumentExpiry } = proxyActivities<ReturnType<typeof createDocumentExpiryActivities>>({
  // One update round trip; a lifecycle busy with other commands may keep it waiting a little.
  startToCloseTimeout: '30 seconds',
  // A timer must outlive an outage of the onboarding worker or the database: retry without a bound, slowly.
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    nonRetryableErrorTypes: ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'],
  },
});

/** How long to wait before asking again after the onboarding workflow gave up on the command (rare). */
const RETRY_FAILED_COMMAND_MS = 60_000;

/**
 * One approved document's expiry timers: sleeps until each reminder day (default 30 and 7 days before and on
 * the day; days already over when it starts are skipped) and asks the BA's onboarding lifecycle to record it,
 * then at the end of the validity day asks it to record the expiry. The lifecycle's decider is the judge: once
 * the document is replaced, deleted, rejected or approved with another date, the answer says so and the timer
 * ends. A `validTillChanged` signal (the same document re-dated while the timer runs) plans again.
 */
export async function documentExpiryWorkflow(input: DocumentExpiryInput): Promise<DocumentExpirySchedule> {
  const dayMs = input.dayMs ?? DAY_MS;
  const daysBefore = input.reminderDaysBefore ?? DEFAULT_REMINDER_DAYS_BEFORE;
  const correlationId = input.correlationId ?? `document-expiry-${input.docId}`;
  let validTill = input.validTill;
  let redated = false;
  const schedule: DocumentExpirySchedule = {
    validTill,
    pending: [],
    recorded: [],
    skipped: [],
    expired: false,
    endedBecause: null,
  };

  setHandler(validTillChangedSignal, ({ validTill: next }) => {
    if (typeof next !== 'string' || next === validTill) return;
    validTill = next;
    redated = true;
  });
  setHandler(expiryScheduleQuery, () => schedule);

  /** Sleeps until `at` (epoch ms); true when a re-dating interrupted the sleep. */
  const sleepUntil = async (at: number): Promise<boolean> => {
    const remaining = at - Date.now();
    if (remaining <= 0) return redated;
    return await condition(() => redated, remaining);
  };

  /** Records one step, asking again later if the lifecycle failed it; the answer says whether to go on. */
  const record = async (step: number | null): Promise<'recorded' | 'gone' | 'redated'> => {
    for (let round = 0; ; round++) {
      const { baId, docId } = input;
      const args: RecordDocumentExpiryArgs = { baId, docId, validTill, daysBefore: step, round, correlationId };
      const result = await recordDocumentExpiry(args);
      // The lifecycle answered for the old date: the signal that re-dated it may have arrived meanwhile.
      if (redated) return 'redated';
      if (result.outcome !== 'failed') {
        if (result.outcome === 'gone') schedule.endedBecause = result.reason;
        return result.outcome;
      }
      log.warn('The onboarding workflow failed an expiry command; asking again later', { ...args, reason: result.reason });
      if (await sleepUntil(Date.now() + RETRY_FAILED_COMMAND_MS)) return 'redated';
    }
  };

  for (;;) {
    redated = false;
    const plan = planExpiry({ validTill, reminderDaysBefore: daysBefore, dayMs, now: Date.now() });
    Object.assign(schedule, {
      validTill,
      pending: plan.reminders.map((r) => r.daysBefore),
      recorded: [],
      skipped: plan.skipped,
      expired: false,
      endedBecause: null,
    });
    const steps: { step: number | null; at: number }[] = [
      ...plan.reminders.map((r) => ({ step: r.daysBefore, at: r.at })),
      { step: null, at: plan.expiresAt },
    ];
    let outcome: 'done' | 'gone' | 'redated' = 'done';
    for (const { step, at } of steps) {
      if (await sleepUntil(at)) {
        outcome = 'redated';
        break;
      }
      const answer = await record(step);
      if (answer !== 'recorded') {
        outcome = answer;
        break;
      }
      if (step === null) schedule.expired = true;
      else {
        schedule.pending = schedule.pending.filter((n) => n !== step);
        schedule.recorded.push(step);
      }
    }
    if (outcome !== 'redated') return schedule;
  }
}
