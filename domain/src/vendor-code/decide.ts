import type { ErpOperationName } from '../erp/port';
import { SAP_APPROVERS, SAP_REQUESTERS } from '../identity/roles';
import type { CommandMetadata, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { BaFacts, ErpRetryPolicy, VendorCodeCommand } from './commands';
import type { VendorCodeEvent } from './events';
import { evolveVendorCode, initialVendorCodeState, type ErpJob, type VendorCodeState } from './state';

export const SAP_CODE_REQUESTED = 'SAP Code requested successfully.';

export const vendorCodeMessages = {
  notVerified: (companyCode: string) => `The BA is not verified for company code ${companyCode}`,
  parentRequested: 'A SAP code has already been requested for this BA',
  parentExists: 'This BA already has a SAP code',
  parentFirst: 'The parent SAP code is not assigned yet',
  noGstRow: 'The BA has no GST registration in this state',
  childRequested: 'A child code has already been requested for this state',
  childExists: 'This state already has a child code',
  childFirst: 'The child code for this state is not created yet',
  paymentTerms: 'Please select a valid Payment Term',
  vendorCategory: 'Please select a valid Vendor Category',
  reconAccount: 'Please select a valid Vendor Reconciliation Account',
  taxCode: 'Please select a valid Withholding Tax Code',
  reason: 'Please select a valid Reject Reason',
  remarksRequired: 'Remarks are required to reject',
  remarksTooLong: 'Maximum 260 characters allowed',
  noCategoryPending: 'There is no vendor category waiting for approval',
  categoryBySomeoneElse: 'The vendor category must be approved by someone other than the person who set it',
  nothingToReject: 'There is no open SAP code request to reject',
  forbidden: 'You are not allowed to do this',
} as const;

/** Production retry of an ERP outage: 2 s, doubling, at most 10 minutes between tries. */
export const DEFAULT_ERP_RETRY: ErpRetryPolicy = { initialMs: 2_000, maxMs: 10 * 60_000 };

/** The wait before try `attempt + 1` after `attempt` outages in a row. */
export const erpRetryDelayMs = (attempt: number, policy: ErpRetryPolicy = DEFAULT_ERP_RETRY): number =>
  Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, Math.min(30, attempt - 1)));

/** The ERP idempotency keys: derived from the stream alone (see events.ts). */
export const requestKeys = {
  parent: (baId: string, cc: string, refusals: number) => `vendor-code:${baId}:${cc}:parent:${refusals + 1}`,
  child: (baId: string, cc: string, stateId: number, refusals: number) => `vendor-code:${baId}:${cc}:child:${stateId}:${refusals + 1}`,
  change: (baId: string, cc: string, op: ErpOperationName, n: number) => `vendor-code:${baId}:${cc}:${op}:${n}`,
};

const rule = (message: string) => new DomainError('rule', message);
const invalid = (field: string, message: string) => new DomainError('validation', message, { [field]: message });
const usable = (ref: { id: number | string; status: string } | null | undefined, id: number): boolean =>
  ref !== null && ref !== undefined && String(ref.id) === String(id) && ref.status === 'active';

/** The job a request key names, if it is still open. */
export const openJob = (state: VendorCodeState, requestKey: string): ErpJob | undefined => state.jobs[requestKey];

function decideFor(
  baId: string,
  companyCode: string,
  command: VendorCodeCommand,
  state: VendorCodeState,
  meta: CommandMetadata,
): VendorCodeEvent[] | DomainError {
  const of = { baId, companyCode };
  const actor = meta.actor;
  const system = actor.role === 'system';
  const may = (roles: readonly string[]) => system || roles.includes(actor.role);

  if (command.type === 'RecordErpOutcome') return recordOutcome(of, command, state, meta);

  const approving = command.type === 'ApproveVendorCategory' || command.type === 'RejectVendorCategory';
  if (!may(approving ? SAP_APPROVERS : SAP_REQUESTERS)) return new DomainError('forbidden', vendorCodeMessages.forbidden);
  const ba: BaFacts | undefined = command.ba;
  if (ba && !ba.verified) return rule(vendorCodeMessages.notVerified(companyCode));
  const parentCode = state.parent.parentCode;

  switch (command.type) {
    case 'RequestParentCode': {
      if (state.parent.status === 'assigned') return rule(vendorCodeMessages.parentExists);
      if (state.parent.status === 'requested') return rule(vendorCodeMessages.parentRequested);
      const requestKey = requestKeys.parent(baId, companyCode, state.parent.refusals);
      return [{ type: 'ParentCodeRequested', data: { ...of, requestKey } }];
    }
    case 'RequestChildCode': {
      if (!parentCode) return rule(vendorCodeMessages.parentFirst);
      const row = ba?.gstRows.find((r) => r.stateId === command.stateId);
      if (ba && !row) return rule(vendorCodeMessages.noGstRow);
      const child = state.children[String(command.stateId)];
      if (child?.status === 'assigned') return rule(vendorCodeMessages.childExists);
      if (child?.status === 'requested') return rule(vendorCodeMessages.childRequested);
      if (command.paymentTerms !== undefined && !usable(command.paymentTerms, command.paymentTermsId))
        return invalid('paymentTermsId', vendorCodeMessages.paymentTerms);
      const requestKey = requestKeys.child(baId, companyCode, command.stateId, child?.refusals ?? 0);
      return [
        {
          type: 'ChildCodeRequested',
          data: {
            ...of,
            requestKey,
            stateId: command.stateId,
            gstRowId: row?.gstId ?? null,
            gstNo: row?.gstNo ?? null,
            paymentTermsId: command.paymentTermsId,
            paymentTermsCode: command.paymentTerms?.code ?? '',
          },
        },
      ];
    }
    case 'SetPaymentTerms': {
      const child = state.children[String(command.stateId)];
      if (!child?.childCode) return rule(vendorCodeMessages.childFirst);
      if (command.paymentTerms !== undefined && !usable(command.paymentTerms, command.paymentTermsId))
        return invalid('paymentTermsId', vendorCodeMessages.paymentTerms);
      if (child.paymentTermsId === command.paymentTermsId) return [];
      const requestKey = requestKeys.change(baId, companyCode, 'set-payment-terms', state.changes + 1);
      return [
        {
          type: 'PaymentTermsSet',
          data: {
            ...of,
            requestKey,
            stateId: command.stateId,
            paymentTermsId: command.paymentTermsId,
            paymentTermsCode: command.paymentTerms?.code ?? '',
          },
        },
      ];
    }
    case 'SetVendorCategory': {
      if (!parentCode) return rule(vendorCodeMessages.parentFirst);
      if (command.vendorCategory !== undefined && !usable(command.vendorCategory, command.vendorCategoryId))
        return invalid('vendorCategoryId', vendorCodeMessages.vendorCategory);
      const current = state.vendorCategory;
      if (current.id === command.vendorCategoryId && (current.status === 'pending' || current.status === 'approved')) return [];
      return [
        {
          type: 'VendorCategorySet',
          data: {
            ...of,
            vendorCategoryId: command.vendorCategoryId,
            vendorCategory: command.vendorCategory?.name ?? '',
            setBy: actor.userId,
          },
        },
      ];
    }
    case 'ApproveVendorCategory':
    case 'RejectVendorCategory': {
      if (state.vendorCategory.status !== 'pending') return rule(vendorCodeMessages.noCategoryPending);
      if (state.vendorCategory.setBy === actor.userId) return rule(vendorCodeMessages.categoryBySomeoneElse);
      if (command.type === 'ApproveVendorCategory') {
        const requestKey = requestKeys.change(baId, companyCode, 'set-vendor-category', state.changes + 1);
        return [{ type: 'VendorCategoryApproved', data: { ...of, requestKey, approvedBy: actor.userId } }];
      }
      const remarks = typeof command.remarks === 'string' ? command.remarks.trim() : '';
      if (remarks === '') return invalid('remarks', vendorCodeMessages.remarksRequired);
      if (remarks.length > 260) return invalid('remarks', vendorCodeMessages.remarksTooLong);
      return [{ type: 'VendorCategoryRejected', data: { ...of, remarks, rejectedBy: actor.userId } }];
    }
    case 'ChangeReconAccount': {
      if (!parentCode) return rule(vendorCodeMessages.parentFirst);
      if (command.reconAccount !== undefined && !usable(command.reconAccount, command.reconAccountId))
        return invalid('reconAccountId', vendorCodeMessages.reconAccount);
      if (state.reconAccount?.id === command.reconAccountId) return [];
      const requestKey = requestKeys.change(baId, companyCode, 'change-recon-account', state.changes + 1);
      return [
        {
          type: 'ReconAccountChanged',
          data: { ...of, requestKey, reconAccountId: command.reconAccountId, reconAccount: command.reconAccount?.name ?? '' },
        },
      ];
    }
    case 'UpdateWithholdingTax': {
      if (!parentCode) return rule(vendorCodeMessages.parentFirst);
      if (command.taxCode !== undefined && !usable(command.taxCode, command.taxCodeId))
        return invalid('taxCodeId', vendorCodeMessages.taxCode);
      if (state.withholdingTax?.taxCodeId === command.taxCodeId) return [];
      const requestKey = requestKeys.change(baId, companyCode, 'update-withholding-tax', state.changes + 1);
      return [
        {
          type: 'WithholdingTaxUpdated',
          data: {
            ...of,
            requestKey,
            taxCodeId: command.taxCodeId,
            taxType: command.taxCode?.taxType ?? '',
            taxCode: command.taxCode?.taxCode ?? '',
          },
        },
      ];
    }
    case 'RejectVendorCodeRequest': {
      if (state.parent.status !== 'requested' && state.parent.status !== 'refused') return rule(vendorCodeMessages.nothingToReject);
      if (command.reason !== undefined && !usable(command.reason, command.reasonId)) return invalid('reasonId', vendorCodeMessages.reason);
      const remarks = typeof command.remarks === 'string' && command.remarks.trim() !== '' ? command.remarks.trim() : null;
      if (remarks !== null && remarks.length > 260) return invalid('remarks', vendorCodeMessages.remarksTooLong);
      return [
        {
          type: 'VendorCodeRequestRejected',
          data: {
            ...of,
            reasonId: command.reasonId,
            reason: command.reason?.name ?? '',
            remarks,
            sendToBa: command.sendToBa === true,
            rejectedBy: actor.userId,
          },
        },
      ];
    }
    default: {
      const unknown: never = command;
      return new DomainError('validation', `Unknown command ${String((unknown as { type: unknown }).type)}`);
    }
  }
}

/** What the ERP answered for a job becomes its event; a job no longer open (rejected meanwhile) records nothing. */
function recordOutcome(
  of: { baId: string; companyCode: string },
  command: Extract<VendorCodeCommand, { type: 'RecordErpOutcome' }>,
  state: VendorCodeState,
  meta: CommandMetadata,
): VendorCodeEvent[] | DomainError {
  if (meta.actor.role !== 'system') return new DomainError('forbidden', vendorCodeMessages.forbidden);
  const job = openJob(state, command.requestKey);
  if (!job) return [];
  const { requestKey, operation } = job;
  const outcome = command.outcome;
  switch (outcome.kind) {
    case 'submitted':
      if (job.erpRequestId === outcome.erpRequestId) return [];
      return [{ type: 'ErpRequestSubmitted', data: { ...of, requestKey, operation, erpRequestId: outcome.erpRequestId } }];
    case 'failed': {
      const attempt = job.failures + 1;
      const retryAt = new Date(Date.parse(meta.at) + erpRetryDelayMs(attempt, command.retry)).toISOString();
      return [{ type: 'ErpCallFailed', data: { ...of, requestKey, operation, error: outcome.error.slice(0, 500), attempt, retryAt } }];
    }
    case 'rejected':
      return [{ type: 'ErpRequestRefused', data: { ...of, requestKey, operation, message: outcome.message.slice(0, 500) } }];
    case 'done':
      if (operation === 'create-parent')
        return [{ type: 'ParentCodeAssigned', data: { ...of, requestKey, parentCode: outcome.vendorCode } }];
      if (operation === 'create-child' && job.stateId !== null)
        return [{ type: 'ChildCodeAssigned', data: { ...of, requestKey, stateId: job.stateId, childCode: outcome.vendorCode } }];
      return [
        { type: 'ErpRequestCompleted', data: { ...of, requestKey, operation, vendorCode: outcome.vendorCode, message: outcome.message } },
      ];
    default: {
      const unknown: never = outcome;
      return new DomainError('validation', `Unknown outcome ${String((unknown as { kind: unknown }).kind)}`);
    }
  }
}

/** The decider of one BA's lifecycle under one company code (the ids go into every event). */
export const vendorCodeDecider = (
  baId: string,
  companyCode: string,
): Decider<VendorCodeCommand, VendorCodeEvent, VendorCodeState> => ({
  initialState: initialVendorCodeState,
  evolve: (s, e) => evolveVendorCode(s, e),
  decide: (command, state, meta) => decideFor(baId, companyCode, command, state, meta),
});
