import type { Actor, DomainEvent } from '../shared/events';
import type { StoredFile } from '../shared/files';

/**
 * Block and unblock of a vendor code in the ERP (issue 9). Two kinds of streams, names are wire contracts:
 *
 * - `block-<requestId>`: one request (block or unblock) from its asking to its outcome in the ERP, and for a
 *   block with an end date, the unblock its timer brings. Every event carries `requestId` and `baId` (null for
 *   a nucleus vendor), so the BA's activity log and notifications find them.
 * - `vendor-block-<vendorCode>`: the vendor code's own small stream, the consistency boundary of the rules that
 *   span requests: one open request per vendor code (409), no unblock of a vendor that is not blocked (422).
 *   Its events say which request opened and closed and whether the vendor is blocked after it.
 */
export type BlockAction = 'block' | 'unblock';
export type BlockLevel = 'parent' | 'child';

/** What is blocked: the vendor code (parent, or a child per GST state) in one company code. */
export type BlockScope = { level: BlockLevel; companyCode: string; vendorCode: string };

/** The ERP operation names this capability submits (domain/src/erp/port.ts). */
export type BlockErpOperation = 'block' | 'unblock';

export type BlockRequested = DomainEvent<
  'BlockRequested',
  {
    requestId: string;
    action: BlockAction;
    /** The onboarded BA, or null for a nucleus vendor (known by PAN only). */
    baId: string | null;
    pan: string;
    scope: BlockScope;
    /** The block-reasons master item and its name when asked. */
    reasonId: string;
    reason: string;
    comments: string;
    /** The attachment in the BlobStore (never the bytes). */
    file: StoredFile | null;
    /** YYYY-MM-DD (India): a block ends at the start of this day; null = until unblocked. */
    endDate: string | null;
    requestedBy: Actor;
  }
>;
export type BlockApproved = DomainEvent<'BlockApproved', { requestId: string; baId: string | null; by: Actor }>;
export type BlockRejected = DomainEvent<'BlockRejected', { requestId: string; baId: string | null; by: Actor; remarks: string }>;
/** The ERP accepted the request (`requestKey` is the idempotency key it was sent with). */
export type BlockErpRequestSubmitted = DomainEvent<
  'ErpRequestSubmitted',
  { requestId: string; baId: string | null; companyCode: string; requestKey: string; operation: BlockErpOperation; erpRequestId: string }
>;
/** The ERP could not be reached (5xx, timeout, refused connection): retried with the same key at `retryAt`. */
export type BlockErpCallFailed = DomainEvent<
  'ErpCallFailed',
  {
    requestId: string;
    baId: string | null;
    companyCode: string;
    requestKey: string;
    operation: BlockErpOperation;
    error: string;
    attempt: number;
    retryAt: string;
  }
>;
/** The ERP refused the operation for a business reason: retrying cannot help, the request ends. */
export type BlockErpRequestRefused = DomainEvent<
  'ErpRequestRefused',
  { requestId: string; baId: string | null; companyCode: string; requestKey: string; operation: BlockErpOperation; message: string }
>;
/** Done in the ERP: "Successfully Blocked" / "Successfully Unblocked". */
export type BlockApplied = DomainEvent<
  'BlockApplied',
  { requestId: string; baId: string | null; action: BlockAction; vendorCode: string; message: string }
>;
/**
 * The block's end date came (recorded by the system timer). `unblock`: the vendor is still blocked by this
 * request, so the same trail now unblocks it in the ERP (approved with the block's end date); false when it was
 * unblocked meanwhile by another request, and nothing more happens.
 */
export type BlockEnded = DomainEvent<'BlockEnded', { requestId: string; baId: string | null; endDate: string; unblock: boolean }>;

export type BlockEvent =
  | BlockRequested
  | BlockApproved
  | BlockRejected
  | BlockErpRequestSubmitted
  | BlockErpCallFailed
  | BlockErpRequestRefused
  | BlockApplied
  | BlockEnded;

export const BLOCK_EVENT_TYPES = [
  'BlockRequested',
  'BlockApproved',
  'BlockRejected',
  'ErpRequestSubmitted',
  'ErpCallFailed',
  'ErpRequestRefused',
  'BlockApplied',
  'BlockEnded',
] as const satisfies readonly BlockEvent['type'][];

/** What the vendor stream says about the vendor code; carried by both events so a projection needs nothing else. */
type VendorRef = { vendorCode: string; baId: string | null; pan: string; companyCode: string; level: BlockLevel };

export type VendorBlockRequestOpened = DomainEvent<'VendorBlockRequestOpened', VendorRef & { requestId: string; action: BlockAction }>;
export type VendorBlockRequestClosed = DomainEvent<
  'VendorBlockRequestClosed',
  VendorRef & {
    requestId: string;
    action: BlockAction;
    outcome: 'applied' | 'rejected' | 'refused';
    /** Whether the vendor code is blocked after this. */
    blocked: boolean;
  }
>;
export type VendorBlockEvent = VendorBlockRequestOpened | VendorBlockRequestClosed;

export const BLOCK_STREAM_PREFIX = 'block-';
export const VENDOR_BLOCK_STREAM_PREFIX = 'vendor-block-';
export const blockStreamId = (requestId: string): string => `${BLOCK_STREAM_PREFIX}${requestId}`;
export const vendorBlockStreamId = (vendorCode: string): string => `${VENDOR_BLOCK_STREAM_PREFIX}${vendorCode}`;
