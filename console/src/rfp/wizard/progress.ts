import { useEffect, useRef, useState } from 'react';
import type { RfpStepNumber } from '../../../../domain/src/rfp/model';
import { stepEnablement, wizardDelayMs, type EnablementFlags, type WizardProgress } from '../../../../domain/src/rfp/wizard';
import type { RfpStaffView } from '../types';

/** The wizard's paths (spec 001 §2 /rfp/MLL/createRfp/:step); the RFP being edited travels as `?code=`. */
export const RFP_WIZARD_PATH = '/rfp/MLL/createRfp/:step';
export const rfpWizardPath = (step: RfpStepNumber, code?: string | null) =>
  `/rfp/MLL/createRfp/${step}${code ? `?code=${encodeURIComponent(code)}` : ''}`;

export const WIZARD_STEPS: { step: RfpStepNumber; label: string }[] = [
  { step: 1, label: 'Opportunity' },
  { step: 2, label: 'Properties' },
  { step: 3, label: 'Lanes' },
  { step: 4, label: 'BA selection' },
  { step: 5, label: 'Float' },
];

/** Why a step cannot be opened yet (the spec shows disabled steps without a text: ours). */
export const STEP_DISABLED_REASONS: Record<2 | 3 | 4 | 5, string> = {
  2: 'Save the opportunity (step 1) first',
  3: 'Save the vehicle hire type, RFP type and properties (step 2) first',
  4: 'Upload the lanes (step 3) first',
  5: 'Save the BA selection (step 4) first',
};
const NON_STANDARD_STEP_5 = 'Upload the lanes (step 3) first';

export const NO_STEPS: EnablementFlags = { 2: false, 3: false, 4: false, 5: false };

/** What the saved RFP holds, as the domain's enablement reads it; no RFP yet: nothing saved. */
export function progressOf(rfp: RfpStaffView | null): WizardProgress {
  if (!rfp) return { rfpType: null, step1: false, step2: false, step3: false, laneCount: 0, step4: false, step5: false };
  return {
    rfpType: rfp.rfpType,
    step1: true,
    step2: rfp.steps[2] !== null,
    step3: rfp.steps[3] !== null,
    laneCount: rfp.laneCount,
    step4: rfp.steps[4] !== null,
    step5: rfp.steps[5] !== null,
  };
}

/** Why `step` is disabled under `flags`, or null when it may be opened (step 1 always may). */
export function disabledReason(step: RfpStepNumber, flags: EnablementFlags, rfpType: RfpStaffView['rfpType'] | null): string | null {
  if (step === 1 || flags[step]) return null;
  if (step === 5 && rfpType === 'non-standard') return NON_STANDARD_STEP_5;
  return STEP_DISABLED_REASONS[step];
}

/**
 * The enablement the stepper shows: `stepEnablement` of the saved data, applied after the domain's delay
 * (`wizardDelayMs`: 2000 ms when a non-standard RFP's upload enables step 4, else at once). Step 1 is always open.
 */
export function useStepEnablement(progress: WizardProgress): EnablementFlags {
  const target = stepEnablement(progress);
  // Opening an RFP whose flags enable step 4 of a non-standard RFP waits too (stepForExistingRfp's delayMs).
  const [applied, setApplied] = useState<EnablementFlags>(() => (wizardDelayMs(progress.rfpType, NO_STEPS, target) > 0 ? NO_STEPS : target));
  const appliedRef = useRef(applied);
  appliedRef.current = applied;
  const key = JSON.stringify(target);
  useEffect(() => {
    const next = JSON.parse(key) as EnablementFlags;
    const delay = wizardDelayMs(progress.rfpType, appliedRef.current, next);
    if (delay === 0) {
      setApplied(next);
      return undefined;
    }
    const timer = setTimeout(() => setApplied(next), delay);
    return () => clearTimeout(timer);
  }, [key, progress.rfpType]);
  return applied;
}
