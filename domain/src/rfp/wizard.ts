import type { RfpStepNumber, RfpType } from './model';

/**
 * Spec 001 §4 "Wizard enablement" and "When an existing RFP is opened", as pure functions the console wizard
 * runs and the decider checks (a step the wizard would not enable cannot be saved either).
 *
 * Two decisions where the spec is silent:
 * - "Step 4 becomes enabled once steps 2 and 3 are done, except for one type (not shown which)": the
 *   excepted type is non-standard. Its lanes are free-form, so its successful upload is what enables the
 *   next steps: steps 4 and 5 together, after the spec's 2000 ms delay ("a 2000 ms delay precedes the wizard
 *   state update when step 4 is enabled for a non-standard RFP").
 * - "Step 3 present in a standard RFP: if its result is 0 go to step 2": the result is the number of lanes
 *   the upload gave. Step 3 is present once the template's columns are saved (on download); 0 lanes means
 *   nothing was uploaded yet. Single RFPs follow the standard rules.
 */

/** Spec 001 §9 "Wizard delay: 2000 ms". */
export const WIZARD_DELAY_MS = 2000;

export type EnablementFlags = Record<2 | 3 | 4 | 5, boolean>;

/** What the wizard knows about an RFP's saved steps. `laneCount` is step 3's result: the lanes uploaded. */
export type WizardProgress = {
  rfpType: RfpType | null;
  step1: boolean;
  step2: boolean;
  step3: boolean;
  laneCount: number;
  step4: boolean;
  step5: boolean;
};

const NONE: EnablementFlags = { 2: false, 3: false, 4: false, 5: false };
const ALL: EnablementFlags = { 2: true, 3: true, 4: true, 5: true };

export const isNonStandard = (rfpType: RfpType | null): boolean => rfpType === 'non-standard';

/** Which of steps 2–5 may be opened. Each needs the one before; step 3 is done when it has lanes. */
export function stepEnablement(p: WizardProgress): EnablementFlags {
  const uploaded = p.step3 && p.laneCount > 0;
  if (isNonStandard(p.rfpType)) return { 2: p.step1, 3: p.step2, 4: p.step2 && uploaded, 5: p.step2 && uploaded };
  return { 2: p.step1, 3: p.step2, 4: p.step2 && uploaded, 5: p.step2 && uploaded && p.step4 };
}

/** Step 1 is always open; the others as `stepEnablement` says. */
export const isStepEnabled = (p: WizardProgress, step: RfpStepNumber): boolean => step === 1 || stepEnablement(p)[step];

/**
 * How long the wizard waits before applying new flags: the spec's 2000 ms when the change enables step 4 of a
 * non-standard RFP, otherwise at once.
 */
export function wizardDelayMs(rfpType: RfpType | null, before: EnablementFlags, after: EnablementFlags): number {
  return isNonStandard(rfpType) && !before[4] && after[4] ? WIZARD_DELAY_MS : 0;
}

export type StepRestore = { restore: RfpStepNumber[]; clear: RfpStepNumber[] };

/**
 * "Opening at step 3 restores steps 1 to 5; opening at step 2 clears step 5; step 1 or 0 clears steps 3 to 5."
 * Opening at 4 or 5 (not in the spec) restores everything, as at 3: nothing saved is ahead of the user's data.
 */
export function restoreOnOpen(stepOpened: number): StepRestore {
  if (stepOpened >= 3) return { restore: [1, 2, 3, 4, 5], clear: [] };
  if (stepOpened === 2) return { restore: [1, 2, 3, 4], clear: [5] };
  return { restore: [1, 2], clear: [3, 4, 5] };
}

/** What an existing RFP holds, as far as choosing the wizard's step goes. */
export type SavedWizardData = {
  rfpType: RfpType | null;
  step1: boolean;
  step2: boolean;
  /** Step 3's saved columns and the number of lanes uploaded, or null when step 3 was never saved. */
  step3: { laneCount: number } | null;
  step4: boolean;
};

export type OpenedWizard = {
  step: RfpStepNumber;
  enabled: EnablementFlags;
  /** Step 4 data is put back into the BA selection. */
  restoreBaSelection: boolean;
  /** Wait before applying `enabled` (WIZARD_DELAY_MS when it enables step 4 of a non-standard RFP). */
  delayMs: number;
};

/** Spec 001 §4 "When an existing RFP is opened, the step is chosen from the data it holds". */
export function stepForExistingRfp(saved: SavedWizardData): OpenedWizard {
  const delayFor = (enabled: EnablementFlags) => wizardDelayMs(saved.rfpType, NONE, enabled);
  const open = (step: RfpStepNumber, enabled: EnablementFlags, restoreBaSelection = false): OpenedWizard => ({
    step,
    enabled,
    restoreBaSelection,
    delayMs: delayFor(enabled),
  });
  // "Step 4 data present: open step 3 with BA selection restored and all steps enabled."
  if (saved.step4) return open(3, ALL, true);
  if (saved.step3) {
    const hasLanes = saved.step3.laneCount > 0;
    if (isNonStandard(saved.rfpType))
      // "…non-standard RFP with rows: step 3 with step 5 enabled. With no rows: step 2 and step 5 disabled."
      return hasLanes ? open(3, ALL) : open(2, { 2: true, 3: true, 4: false, 5: false });
    // "…standard RFP: if its result is 0 go to step 2, otherwise step 3."
    return hasLanes ? open(3, { 2: true, 3: true, 4: true, 5: false }) : open(2, { 2: true, 3: true, 4: false, 5: false });
  }
  // "Only step 2 present: step 2, steps up to 4 enabled."
  if (saved.step2) return open(2, { 2: true, 3: true, 4: true, 5: false });
  // "Only step 1 present: step 1." Its next step may be opened, as on the first visit.
  if (saved.step1) return open(1, { ...NONE, 2: true });
  return open(1, NONE);
}

/** "After a successful submit the wizard goes to step 1 if the RFP is non-standard, otherwise step 2." */
export const stepAfterSubmit = (rfpType: RfpType | null): RfpStepNumber => (isNonStandard(rfpType) ? 1 : 2);
