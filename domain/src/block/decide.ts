import { z } from 'zod';
import { BLOCK_APPROVERS, BLOCK_REQUESTERS } from '../identity/roles';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { Actor } from '../shared/events';
import { indiaDateAt } from '../shared/india-date';
import type { StoredFile } from '../shared/files';
import { fieldErrors, fields, safeText } from '../validation/fields';
import type { BlockCommand, RequestBlock, VendorBlockCommand } from './commands';
import type { BlockAction, BlockErpOperation, BlockEvent, BlockScope, VendorBlockEvent } from './events';

/** Spec 000 §8 and the contract's texts. */
export const blockMessages = {
  requested: 'Block request sent successfully',
  blocked: 'Successfully Blocked',
  unblocked: 'Successfully Unblocked',
  waitingForErp: 'Approved; waiting for ERP',
  rejected: 'Block request rejected successfully',
  notFound: 'Block request not found',
  noVendorCode: 'No vendor code to block',
  alreadyPending: (vendorCode: string) => `A block or unblock request for vendor code ${vendorCode} is already pending`,
  notBlocked: 'The vendor is not blocked',
  alreadyBlocked: 'The vendor is already blocked',
  notPending: 'This request is no longer pending',
  notRequester: 'You may not request a block or unblock',
  notApprover: 'You may not approve or reject block requests',
  selfApproval: 'The request must be approved by someone other than the person who requested it',
  reason: 'Please select a reason',
  comments: 'Please enter comments',
  file: 'Please choose a file',
  remarks: 'Please enter remarks',
  endDateFuture: 'The end date must be in the future',
  endDateUnblock: 'Only a block takes an end date',
  invalid: 'Please correct the highlighted fields',
} as const;

export const appliedMessage = (action: BlockAction): string => (action === 'block' ? blockMessages.blocked : blockMessages.unblocked);

/**
 * 'pending' asked, waiting for a second person; 'approved' going to the ERP; 'applied' done in the ERP;
 * 'rejected' by the approver; 'refused' by the ERP; 'ending' a block whose end date came, being unblocked in the
 * ERP; 'ended' its unblock done (or nothing left to unblock).
 */
export type BlockStatus = 'none' | 'pending' | 'approved' | 'applied' | 'rejected' | 'refused' | 'ending' | 'ended';

export type BlockState = {
  status: BlockStatus;
  requestId: string | null;
  action: BlockAction | null;
  baId: string | null;
  pan: string | null;
  scope: BlockScope | null;
  reasonId: string | null;
  reason: string | null;
  comments: string | null;
  file: StoredFile | null;
  endDate: string | null;
  requestedBy: Actor | null;
  decidedBy: Actor | null;
  remarks: string | null;
  /** The ERP request in flight (its idempotency key and id), the failed calls so far and the last error. */
  erpRequestKey: string | null;
  erpRequestId: string | null;
  erpAttempts: number;
  lastErpError: string | null;
  erpRefusal: string | null;
};

export const initialBlockState: BlockState = {
  status: 'none',
  requestId: null,
  action: null,
  baId: null,
  pan: null,
  scope: null,
  reasonId: null,
  reason: null,
  comments: null,
  file: null,
  endDate: null,
  requestedBy: null,
  decidedBy: null,
  remarks: null,
  erpRequestKey: null,
  erpRequestId: null,
  erpAttempts: 0,
  lastErpError: null,
  erpRefusal: null,
};

/** The ERP operation the request is at: its own action, or the end date's unblock. */
export const erpOperationOf = (s: BlockState): BlockErpOperation => (s.status === 'ending' ? 'unblock' : (s.action ?? 'block'));

/** The ERP idempotency key of an operation of a request: deterministic, so a retry never applies twice. */
export const erpRequestKey = (requestId: string, operation: BlockErpOperation, ending: boolean): string =>
  ending ? `block-${requestId}-end-unblock` : `block-${requestId}-${operation}`;

/** Whether the request has nothing more to do (no approval, no ERP call, no timer). */
export const isBlockClosed = (s: BlockState): boolean =>
  s.status === 'rejected' || s.status === 'refused' || s.status === 'ended' || (s.status === 'applied' && !(s.action === 'block' && s.endDate));

/** The instant a block with this end date ends: the start of that day in India (+05:30, no DST). */
export const blockEndsAt = (endDate: string): string => new Date(`${endDate}T00:00:00+05:30`).toISOString();

export function evolveBlock(state: BlockState, event: BlockEvent): BlockState {
  switch (event.type) {
    case 'BlockRequested': {
      const d = event.data;
      return {
        ...initialBlockState,
        status: 'pending',
        requestId: d.requestId,
        action: d.action,
        baId: d.baId,
        pan: d.pan,
        scope: d.scope,
        reasonId: d.reasonId,
        reason: d.reason,
        comments: d.comments,
        file: d.file,
        endDate: d.endDate,
        requestedBy: d.requestedBy,
      };
    }
    case 'BlockApproved':
      return { ...state, status: 'approved', decidedBy: event.data.by };
    case 'BlockRejected':
      return { ...state, status: 'rejected', decidedBy: event.data.by, remarks: event.data.remarks };
    case 'ErpRequestSubmitted':
      return { ...state, erpRequestKey: event.data.requestKey, erpRequestId: event.data.erpRequestId };
    case 'ErpCallFailed':
      return { ...state, erpRequestKey: event.data.requestKey, erpAttempts: event.data.attempt, lastErpError: event.data.error };
    case 'ErpRequestRefused':
      return { ...state, status: 'refused', erpRefusal: event.data.message };
    case 'BlockApplied':
      return {
        ...state,
        status: state.status === 'ending' ? 'ended' : 'applied',
        erpRequestKey: null,
        erpRequestId: null,
        erpAttempts: 0,
        lastErpError: null,
      };
    case 'BlockEnded':
      return { ...state, status: event.data.unblock ? 'ending' : 'ended' };
    default: {
      const never: never = event;
      return never;
    }
  }
}

const requestSchema = z.object({
  requestId: z.string().trim().min(1).max(100),
  action: z.enum(['block', 'unblock']),
  baId: z.string().trim().min(1).max(100).nullable(),
  pan: z.string().trim().min(1, { error: 'Required' }).max(20),
  scope: z.object({
    level: z.enum(['parent', 'child']),
    companyCode: z.string().trim().min(1).max(20),
    vendorCode: z.string().trim().min(1, { error: blockMessages.noVendorCode }).max(40),
  }),
  reasonId: z.string({ error: blockMessages.reason }).trim().min(1, { error: blockMessages.reason }).max(40),
  reason: z.string({ error: blockMessages.reason }).min(1, { error: blockMessages.reason }),
  comments: z.string({ error: blockMessages.comments }).trim().min(1, { error: blockMessages.comments }).pipe(safeText(1000)),
  file: z.object({ name: z.string().min(1), size: z.number().int().positive(), type: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }, { error: blockMessages.file }),
  endDate: fields.date.nullable(),
});

const remarksSchema = z.string({ error: blockMessages.remarks }).trim().min(1, { error: blockMessages.remarks }).pipe(safeText(1000));

const holds = (roles: readonly string[], role: string) => roles.includes(role);
const isSystem = (a: Actor) => a.role === 'system';

function decideRequest(command: RequestBlock, state: BlockState, meta: Pick<CommandMetadata, 'at' | 'actor'>): BlockEvent[] | DomainError {
  if (state.status !== 'none') return state.requestId === command.requestId ? [] : new DomainError('conflict', 'This request already exists');
  if (!holds(BLOCK_REQUESTERS, meta.actor.role)) return new DomainError('forbidden', blockMessages.notRequester);
  const parsed = requestSchema.safeParse(command);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    if (errors['scope.vendorCode'] === blockMessages.noVendorCode) return new DomainError('rule', blockMessages.noVendorCode);
    return new DomainError('validation', Object.values(errors)[0] ?? blockMessages.invalid, errors);
  }
  const d = parsed.data;
  if (d.endDate !== null) {
    if (d.action !== 'block') return new DomainError('validation', blockMessages.endDateUnblock, { endDate: blockMessages.endDateUnblock });
    if (d.endDate <= indiaDateAt(meta.at)) return new DomainError('validation', blockMessages.endDateFuture, { endDate: blockMessages.endDateFuture });
  }
  return [
    {
      type: 'BlockRequested',
      data: {
        requestId: d.requestId,
        action: d.action,
        baId: d.baId,
        pan: d.pan.toUpperCase(),
        scope: d.scope,
        reasonId: d.reasonId,
        reason: d.reason,
        comments: d.comments,
        file: d.file,
        endDate: d.endDate,
        requestedBy: meta.actor,
      },
    },
  ];
}

/**
 * One block or unblock request (stream `block-<requestId>`). The rules across requests of a vendor code (one
 * open request; no unblock of an unblocked vendor) are the vendor decider's below; both are asked by the
 * activity that records a request, in that order.
 */
export function decideBlock(command: BlockCommand, state: BlockState, meta: Pick<CommandMetadata, 'at' | 'actor'>): BlockEvent[] | DomainError {
  if (command.type === 'RequestBlock') return decideRequest(command, state, meta);
  if (state.status === 'none') return new DomainError('not_found', blockMessages.notFound);
  const requestId = state.requestId ?? '';
  const baId = state.baId;
  const companyCode = state.scope?.companyCode ?? '';
  const erpBusy = state.status === 'approved' || state.status === 'ending';
  switch (command.type) {
    case 'ApproveBlock':
    case 'RejectBlock': {
      if (!holds(BLOCK_APPROVERS, meta.actor.role)) return new DomainError('forbidden', blockMessages.notApprover);
      if (state.status !== 'pending') return new DomainError('rule', blockMessages.notPending);
      if (state.requestedBy?.userId === meta.actor.userId) return new DomainError('rule', blockMessages.selfApproval);
      if (command.type === 'ApproveBlock') return [{ type: 'BlockApproved', data: { requestId, baId, by: meta.actor } }];
      const remarks = remarksSchema.safeParse(command.remarks);
      if (!remarks.success) return new DomainError('validation', blockMessages.remarks, { remarks: blockMessages.remarks });
      return [{ type: 'BlockRejected', data: { requestId, baId, by: meta.actor, remarks: remarks.data } }];
    }
    case 'RecordErpSubmitted':
      if (!erpBusy) return new DomainError('rule', 'No ERP call is due for this request');
      if (state.erpRequestId === command.erpRequestId) return [];
      return [
        {
          type: 'ErpRequestSubmitted',
          data: { requestId, baId, companyCode, requestKey: command.requestKey, operation: command.operation, erpRequestId: command.erpRequestId },
        },
      ];
    case 'RecordErpCallFailed':
      if (!erpBusy) return new DomainError('rule', 'No ERP call is due for this request');
      return [
        {
          type: 'ErpCallFailed',
          data: {
            requestId,
            baId,
            companyCode,
            requestKey: command.requestKey,
            operation: command.operation,
            error: command.error.slice(0, 500),
            attempt: command.attempt,
            retryAt: command.retryAt,
          },
        },
      ];
    case 'RecordErpRefused':
      if (!erpBusy) return [];
      return [
        {
          type: 'ErpRequestRefused',
          data: { requestId, baId, companyCode, requestKey: command.requestKey, operation: command.operation, message: command.message.slice(0, 500) },
        },
      ];
    case 'RecordBlockApplied': {
      if (!erpBusy) return [];
      const action: BlockAction = state.status === 'ending' ? 'unblock' : (state.action ?? 'block');
      return [{ type: 'BlockApplied', data: { requestId, baId, action, vendorCode: command.vendorCode, message: appliedMessage(action) } }];
    }
    case 'EndBlock':
      if (!isSystem(meta.actor)) return new DomainError('forbidden', 'Only the end-date timer ends a block');
      if (state.status !== 'applied' || state.action !== 'block' || !state.endDate) return [];
      return [{ type: 'BlockEnded', data: { requestId, baId, endDate: state.endDate, unblock: command.stillBlockedByThis } }];
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const blockDecider: Decider<BlockCommand, BlockEvent, BlockState> = {
  initialState: initialBlockState,
  evolve: evolveBlock,
  decide: (command, state, meta) => decideBlock(command, state, meta),
};

/** A vendor code as its own stream knows it: blocked (and by which request), and the request open on it. */
export type VendorBlockState = { blocked: boolean; blockedBy: string | null; pending: string | null; pendingAction: BlockAction | null };
export const initialVendorBlockState: VendorBlockState = { blocked: false, blockedBy: null, pending: null, pendingAction: null };

export function evolveVendorBlock(state: VendorBlockState, event: VendorBlockEvent): VendorBlockState {
  switch (event.type) {
    case 'VendorBlockRequestOpened':
      return { ...state, pending: event.data.requestId, pendingAction: event.data.action };
    case 'VendorBlockRequestClosed': {
      const d = event.data;
      const wasPending = state.pending === d.requestId;
      const base = wasPending ? { ...state, pending: null, pendingAction: null } : state;
      if (d.outcome !== 'applied') return base;
      return { ...base, blocked: d.blocked, blockedBy: d.blocked ? d.requestId : null };
    }
    default: {
      const never: never = event;
      return never;
    }
  }
}

export function decideVendorBlock(command: VendorBlockCommand, state: VendorBlockState): VendorBlockEvent[] | DomainError {
  const { vendorCode, baId, pan, companyCode, level, requestId, action } = command;
  const ref = { vendorCode, baId, pan, companyCode, level, requestId, action };
  switch (command.type) {
    case 'OpenVendorBlockRequest':
      if (state.pending === requestId) return [];
      if (state.pending !== null) return new DomainError('conflict', blockMessages.alreadyPending(vendorCode));
      if (action === 'unblock' && !state.blocked) return new DomainError('rule', blockMessages.notBlocked);
      if (action === 'block' && state.blocked) return new DomainError('rule', blockMessages.alreadyBlocked);
      return [{ type: 'VendorBlockRequestOpened', data: ref }];
    case 'CloseVendorBlockRequest': {
      if (command.auto) {
        // The end date's unblock: only while this request's block is the one in force.
        if (state.blockedBy !== requestId) return [];
        return [{ type: 'VendorBlockRequestClosed', data: { ...ref, action: 'unblock', outcome: 'applied', blocked: false } }];
      }
      if (state.pending !== requestId) return [];
      const blocked = command.outcome === 'applied' ? action === 'block' : state.blocked;
      return [{ type: 'VendorBlockRequestClosed', data: { ...ref, outcome: command.outcome, blocked } }];
    }
    default: {
      const never: never = command;
      return never;
    }
  }
}

export const vendorBlockDecider: Decider<VendorBlockCommand, VendorBlockEvent, VendorBlockState> = {
  initialState: initialVendorBlockState,
  evolve: evolveVendorBlock,
  decide: (command, state) => decideVendorBlock(command, state),
};
