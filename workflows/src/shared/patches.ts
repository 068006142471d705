import { patched } from '@temporalio/workflow';

/*
 * Temporal patch ids (`patched()` markers in history): wire contracts like update names, never renamed or
 * reused. Workflow code only.
 */

/**
 * Update handlers and timers no longer run the decider in workflow code: the activity decides against the
 * stream (with today's field rules and reference data) and the workflow evolves its state from the events it
 * returns, so replaying a run depends on its history only, not on rules or catalogue rows edited since.
 * Runs recorded before this patch replay through the old branch (decide in the workflow, an activity only
 * when the decider appends). Remove the old branch with `deprecatePatch` once no such run is open.
 */
export const DECIDE_IN_ACTIVITY = 'decide-in-activity';

/** True when this command runs the decision in the activity (every command recorded since the patch). */
export const decidesInActivity = (): boolean => patched(DECIDE_IN_ACTIVITY);
