/**
 * The sandbox CRM's faults are the shared ones (latency, 5xx, timeouts, downtime): the wizard's lookup is
 * interactive, so these are what make "the CRM is down" testable.
 */
export {
  applyFaultSettings,
  describeFaults,
  faultFor,
  faultSettingsSchema,
  NO_FAULTS,
  type Faults,
  type FaultSettings,
  type FaultVerdict,
} from '../../shared/faults';
