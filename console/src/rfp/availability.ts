import { isAcceptedIn } from '../../../domain/src/rfp/lifecycle';
import type { RfpStatus } from '../../../domain/src/rfp/model';
import type { RfpCommand } from '../../../domain/src/rfp/commands';
import { RFP_STATUS_LABELS } from './labels';

/**
 * Why a command cannot be given now, or null when it can: the RFP's status against the domain's transition
 * table (domain/src/rfp/lifecycle.ts), so a button is never offered for what the decider would refuse.
 */
export function notNowReason(command: RfpCommand['type'], status: RfpStatus): string | null {
  return isAcceptedIn(command, status) ? null : `Not possible while the RFP is ${RFP_STATUS_LABELS[status].toLowerCase()}`;
}
