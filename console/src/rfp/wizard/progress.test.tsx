import { act, renderHook } from '@testing-library/react';
import { WIZARD_DELAY_MS, type WizardProgress } from '../../../../domain/src/rfp/wizard';
import { disabledReason, NO_STEPS, progressOf, STEP_DISABLED_REASONS, useStepEnablement } from './progress';
import { rfpView } from '../testing';

const saved = (over: Partial<WizardProgress> = {}): WizardProgress => ({
  rfpType: 'standard',
  step1: true,
  step2: true,
  step3: true,
  laneCount: 0,
  step4: false,
  step5: false,
  ...over,
});

describe('wizard progress', () => {
  afterEach(() => jest.useRealTimers());

  it('reads an RFP’s saved steps and lanes as the domain’s progress; no RFP is nothing saved', () => {
    expect(progressOf(null)).toMatchObject({ step1: false, step2: false, laneCount: 0 });
    expect(progressOf(rfpView({ laneCount: 2 }))).toEqual({
      rfpType: 'standard',
      step1: true,
      step2: true,
      step3: true,
      laneCount: 2,
      step4: false,
      step5: false,
    });
  });

  it('gives the reason of a disabled step; step 1 never has one', () => {
    expect(disabledReason(1, NO_STEPS, null)).toBeNull();
    expect(disabledReason(3, NO_STEPS, null)).toBe(STEP_DISABLED_REASONS[3]);
    expect(disabledReason(5, NO_STEPS, 'standard')).toBe(STEP_DISABLED_REASONS[5]);
    // A non-standard RFP's step 5 waits for the lanes, not for step 4.
    expect(disabledReason(5, NO_STEPS, 'non-standard')).toBe(STEP_DISABLED_REASONS[4]);
    expect(disabledReason(4, { ...NO_STEPS, 4: true }, 'standard')).toBeNull();
  });

  it('applies a non-standard upload’s step 4 and 5 only after the domain’s delay', () => {
    jest.useFakeTimers();
    const { result, rerender } = renderHook((p: WizardProgress) => useStepEnablement(p), { initialProps: saved({ rfpType: 'non-standard' }) });
    expect(result.current[4]).toBe(false);
    rerender(saved({ rfpType: 'non-standard', laneCount: 3 }));
    expect(result.current).toMatchObject({ 4: false, 5: false });
    act(() => jest.advanceTimersByTime(WIZARD_DELAY_MS - 1));
    expect(result.current[4]).toBe(false);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current).toMatchObject({ 4: true, 5: true });
  });

  it('applies a standard RFP’s new steps at once', () => {
    const { result, rerender } = renderHook((p: WizardProgress) => useStepEnablement(p), { initialProps: saved() });
    rerender(saved({ laneCount: 3 }));
    expect(result.current).toMatchObject({ 4: true, 5: false });
  });
});
