import type { Actor } from '../shared/events';
import type { StoredFile } from '../shared/files';
import type { BlockAction, BlockErpOperation, BlockLevel, BlockScope } from './events';

/** A person asks for a block or unblock; the vendor code and the reason's name were resolved before. */
export type RequestBlock = {
  type: 'RequestBlock';
  requestId: string;
  action: BlockAction;
  baId: string | null;
  pan: string;
  scope: BlockScope;
  reasonId: string;
  /** The block-reasons master item's name; null when the id names no active item. */
  reason: string | null;
  comments: string;
  file: StoredFile | null;
  endDate: string | null;
};
export type ApproveBlock = { type: 'ApproveBlock' };
export type RejectBlock = { type: 'RejectBlock'; remarks: string };
/** The workflow's records of its conversation with the ERP. */
export type RecordErpSubmitted = { type: 'RecordErpSubmitted'; requestKey: string; operation: BlockErpOperation; erpRequestId: string };
export type RecordErpCallFailed = {
  type: 'RecordErpCallFailed';
  requestKey: string;
  operation: BlockErpOperation;
  error: string;
  attempt: number;
  retryAt: string;
};
export type RecordErpRefused = { type: 'RecordErpRefused'; requestKey: string; operation: BlockErpOperation; message: string };
export type RecordBlockApplied = { type: 'RecordBlockApplied'; operation: BlockErpOperation; vendorCode: string };
/** The end date's timer (system actor); `stillBlockedByThis` from the vendor stream. */
export type EndBlock = { type: 'EndBlock'; stillBlockedByThis: boolean };

export type BlockCommand =
  | RequestBlock
  | ApproveBlock
  | RejectBlock
  | RecordErpSubmitted
  | RecordErpCallFailed
  | RecordErpRefused
  | RecordBlockApplied
  | EndBlock;

/** Commands on the vendor code's stream (`vendor-block-<vendorCode>`). */
type VendorRefCommand = { vendorCode: string; baId: string | null; pan: string; companyCode: string; level: BlockLevel; requestId: string; action: BlockAction };
export type OpenVendorBlockRequest = VendorRefCommand & { type: 'OpenVendorBlockRequest' };
/**
 * `auto`: the unblock of a block whose end date came; it holds no open slot, and applies only while the vendor is
 * still blocked by that request.
 */
export type CloseVendorBlockRequest = VendorRefCommand & {
  type: 'CloseVendorBlockRequest';
  outcome: 'applied' | 'rejected' | 'refused';
  auto?: boolean;
};
export type VendorBlockCommand = OpenVendorBlockRequest | CloseVendorBlockRequest;

export type { Actor };
