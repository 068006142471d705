import type { RfpType } from './model';
import {
  restoreOnOpen,
  stepAfterSubmit,
  stepEnablement,
  stepForExistingRfp,
  WIZARD_DELAY_MS,
  wizardDelayMs,
  type EnablementFlags,
  type OpenedWizard,
  type SavedWizardData,
  type WizardProgress,
} from './wizard';

const flags = (...enabled: (2 | 3 | 4 | 5)[]): EnablementFlags => ({ 2: enabled.includes(2), 3: enabled.includes(3), 4: enabled.includes(4), 5: enabled.includes(5) });
const progress = (rfpType: RfpType | null, over: Partial<WizardProgress> = {}): WizardProgress => ({
  rfpType,
  step1: true,
  step2: true,
  step3: true,
  laneCount: 0,
  step4: false,
  step5: false,
  ...over,
});

describe('spec 001 §4 "Wizard enablement", one row per bullet', () => {
  const rows: [string, () => void][] = [
    [
      'Step 4 becomes enabled once steps 2 and 3 are done (standard and single)',
      () => {
        for (const type of ['standard', 'single'] as const) {
          expect(stepEnablement(progress(type, { laneCount: 0 }))[4]).toBe(false);
          expect(stepEnablement(progress(type, { laneCount: 50 }))[4]).toBe(true);
          expect(stepEnablement(progress(type, { step2: false, laneCount: 50 }))[4]).toBe(false);
          // …and step 5 only after step 4.
          expect(stepEnablement(progress(type, { laneCount: 50 }))[5]).toBe(false);
          expect(stepEnablement(progress(type, { laneCount: 50, step4: true }))[5]).toBe(true);
        }
      },
    ],
    [
      '…except for one type (decided: non-standard, whose steps follow its upload, not step 4)',
      () => {
        expect(stepEnablement(progress('non-standard', { laneCount: 3, step4: false }))).toEqual(flags(2, 3, 4, 5));
      },
    ],
    [
      'A non-standard RFP enables step 5 after its upload succeeds',
      () => {
        expect(stepEnablement(progress('non-standard', { laneCount: 0 }))[5]).toBe(false);
        expect(stepEnablement(progress('non-standard', { laneCount: 1 }))[5]).toBe(true);
      },
    ],
    [
      'Opening at step 3 restores steps 1 to 5; opening at step 2 clears step 5; step 1 or 0 clears steps 3 to 5',
      () => {
        expect(restoreOnOpen(3)).toEqual({ restore: [1, 2, 3, 4, 5], clear: [] });
        expect(restoreOnOpen(2)).toEqual({ restore: [1, 2, 3, 4], clear: [5] });
        expect(restoreOnOpen(1)).toEqual({ restore: [1, 2], clear: [3, 4, 5] });
        expect(restoreOnOpen(0)).toEqual({ restore: [1, 2], clear: [3, 4, 5] });
      },
    ],
    [
      'After a successful submit the wizard goes to step 1 if the RFP is non-standard, otherwise step 2',
      () => {
        expect(stepAfterSubmit('non-standard')).toBe(1);
        expect(stepAfterSubmit('standard')).toBe(2);
        expect(stepAfterSubmit('single')).toBe(2);
      },
    ],
  ];
  test.each(rows)('%s', (_bullet, check) => check());

  it('each step needs the one before it', () => {
    expect(stepEnablement(progress(null, { step1: false, step2: false, step3: false }))).toEqual(flags());
    expect(stepEnablement(progress(null, { step2: false, step3: false }))).toEqual(flags(2));
    expect(stepEnablement(progress('standard', { step3: false }))).toEqual(flags(2, 3));
  });
});

describe('spec 001 §4 "When an existing RFP is opened", one row per bullet', () => {
  const saved = (rfpType: RfpType | null, over: Partial<SavedWizardData> = {}): SavedWizardData => ({
    rfpType,
    step1: true,
    step2: true,
    step3: { laneCount: 10 },
    step4: false,
    ...over,
  });
  const opened = (step: OpenedWizard['step'], enabled: EnablementFlags, restoreBaSelection = false, delayMs = 0): OpenedWizard => ({
    step,
    enabled,
    restoreBaSelection,
    delayMs,
  });
  const rows: [string, SavedWizardData, OpenedWizard][] = [
    ['Step 4 data present: step 3 with BA selection restored and all steps enabled', saved('standard', { step4: true }), opened(3, flags(2, 3, 4, 5), true)],
    ['Step 3 present in a standard RFP, result 0 (no lanes uploaded): step 2', saved('standard', { step3: { laneCount: 0 } }), opened(2, flags(2, 3))],
    ['Step 3 present in a standard RFP, result not 0: step 3', saved('standard'), opened(3, flags(2, 3, 4))],
    ['Step 3 present in a single RFP follows the standard rule', saved('single', { step3: { laneCount: 0 } }), opened(2, flags(2, 3))],
    ['Step 3 present in a non-standard RFP with rows: step 3 with step 5 enabled', saved('non-standard'), opened(3, flags(2, 3, 4, 5), false, WIZARD_DELAY_MS)],
    ['Step 3 present in a non-standard RFP with no rows: step 2, step 5 disabled', saved('non-standard', { step3: { laneCount: 0 } }), opened(2, flags(2, 3))],
    ['Only step 2 present: step 2, steps up to 4 enabled', saved('standard', { step3: null }), opened(2, flags(2, 3, 4))],
    ['Only step 1 present: step 1', saved(null, { step2: false, step3: null }), opened(1, flags(2))],
    ['Nothing saved: step 1, nothing else enabled', saved(null, { step1: false, step2: false, step3: null }), opened(1, flags())],
    [
      'A 2000 ms delay precedes the update when step 4 is enabled for a non-standard RFP',
      saved('non-standard', { step4: true }),
      opened(3, flags(2, 3, 4, 5), true, 2000),
    ],
  ];
  test.each(rows)('%s', (_bullet, data, expected) => {
    expect(stepForExistingRfp(data)).toEqual(expected);
  });
});

describe('the 2000 ms delay', () => {
  it('applies only when step 4 becomes enabled for a non-standard RFP', () => {
    expect(WIZARD_DELAY_MS).toBe(2000);
    expect(wizardDelayMs('non-standard', flags(2, 3), flags(2, 3, 4, 5))).toBe(2000);
    expect(wizardDelayMs('non-standard', flags(2, 3, 4), flags(2, 3, 4, 5))).toBe(0);
    expect(wizardDelayMs('standard', flags(2, 3), flags(2, 3, 4))).toBe(0);
  });
});
