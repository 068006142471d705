import { z } from 'zod';

/**
 * Fault injection shared by the sandboxes (ERP, CRM): what makes one behave like a bad day at the real service.
 * Set at start (<NAME>_SANDBOX_* in the environment), changed at run time with `PUT /_sandbox/faults` (a partial
 * update), reset with DELETE (sandboxes/shared/app.ts). A sandbox may add faults of its own on top (the ERP's
 * rejected PANs).
 */
export type Faults = {
  /** Every call waits this long before it is handled. */
  latencyMs: number;
  /** Share (0..1) of calls answered 500 before anything is done. */
  errorRate: number;
  /**
   * Share (0..1) of calls never answered: the client's timeout ends them. (The ERP handles such a call first —
   * a submission is accepted — so a retry with the same key must find the request the lost answer named.)
   */
  timeoutRate: number;
  /** Until this instant (epoch ms) every call is answered 503. Set through `downFor` (ms from now). */
  downUntil: number;
};

export const NO_FAULTS: Faults = { latencyMs: 0, errorRate: 0, timeoutRate: 0, downUntil: 0 };

/** What a caller sets: every member optional; `downFor` in ms from now (0 ends a downtime). */
export type FaultSettings = { latencyMs?: number; errorRate?: number; timeoutRate?: number; downFor?: number };

const rate = z.number().min(0).max(1);
/** The settings' fields, for a sandbox's strict schema (extended with its own). */
export const faultSettingsShape = {
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  errorRate: rate.optional(),
  timeoutRate: rate.optional(),
  downFor: z.number().int().min(0).max(86_400_000).optional(),
};
export const faultSettingsSchema = z.strictObject(faultSettingsShape);

export function applyFaultSettings(current: Faults, settings: FaultSettings, now = Date.now()): Faults {
  return {
    latencyMs: settings.latencyMs ?? current.latencyMs,
    errorRate: settings.errorRate ?? current.errorRate,
    timeoutRate: settings.timeoutRate ?? current.timeoutRate,
    downUntil: settings.downFor === undefined ? current.downUntil : settings.downFor > 0 ? now + settings.downFor : 0,
  };
}

/** The faults as `GET /_sandbox/faults` shows them: the remaining downtime instead of an instant. */
export function describeFaults(f: Faults, now = Date.now()) {
  return {
    latencyMs: f.latencyMs,
    errorRate: f.errorRate,
    timeoutRate: f.timeoutRate,
    downFor: Math.max(0, f.downUntil - now),
    downUntil: f.downUntil > now ? new Date(f.downUntil).toISOString() : null,
  };
}

/** What happens to one call. */
export type FaultVerdict = { kind: 'down' } | { kind: 'error' } | { kind: 'hang' } | { kind: 'pass' };

export function faultFor(f: Faults, now = Date.now(), random = Math.random): FaultVerdict {
  if (f.downUntil > now) return { kind: 'down' };
  if (f.errorRate > 0 && random() < f.errorRate) return { kind: 'error' };
  if (f.timeoutRate > 0 && random() < f.timeoutRate) return { kind: 'hang' };
  return { kind: 'pass' };
}
