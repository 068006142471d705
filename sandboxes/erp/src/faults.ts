import { z } from 'zod';
import * as shared from '../../shared/faults';

/**
 * The sandbox ERP's faults: the shared ones (sandboxes/shared/faults.ts: latency, 5xx, timeouts, downtime) and
 * PANs whose create requests the ERP rejects.
 */
export type Faults = shared.Faults & {
  /** Create requests (parent or child) for these PANs end `rejected`. */
  rejectPans: string[];
};

export const NO_FAULTS: Faults = { ...shared.NO_FAULTS, rejectPans: [] };

export type FaultSettings = shared.FaultSettings & { rejectPans?: string[] };

export const faultSettingsSchema = z.strictObject({
  ...shared.faultSettingsShape,
  rejectPans: z.array(z.string().min(1)).optional(),
});

export function applyFaultSettings(current: Faults, settings: FaultSettings, now = Date.now()): Faults {
  return {
    ...shared.applyFaultSettings(current, settings, now),
    rejectPans: settings.rejectPans?.map((p) => p.toUpperCase()) ?? current.rejectPans,
  };
}

export const describeFaults = (f: Faults, now = Date.now()) => ({ ...shared.describeFaults(f, now), rejectPans: f.rejectPans });

export const faultFor = shared.faultFor;
export type FaultVerdict = shared.FaultVerdict;
