import type { VendorCodeEvent } from './events';

const OPERATION_LABELS: Record<string, string> = {
  'create-parent': 'parent code',
  'create-child': 'child code',
  'set-payment-terms': 'payment terms',
  'set-vendor-category': 'vendor category',
  'change-recon-account': 'reconciliation account',
  'update-withholding-tax': 'withholding tax',
};
const opLabel = (op: string) => OPERATION_LABELS[op] ?? op;

/**
 * One line per vendor-code event for people (the BA's ERP history, the activity log): what happened and a
 * detail. The request keys and ERP request ids stay out of `what`.
 */
export function describeVendorCodeEvent(event: VendorCodeEvent): { what: string; detail: string | null } {
  const d = event.data;
  switch (event.type) {
    case 'ParentCodeRequested':
      return { what: `SAP code requested (company code ${d.companyCode})`, detail: null };
    case 'ErpRequestSubmitted':
      return { what: `Request for the ${opLabel(event.data.operation)} accepted by the ERP`, detail: event.data.erpRequestId };
    case 'ErpCallFailed':
      return {
        what: `ERP not reachable (${opLabel(event.data.operation)}, attempt ${event.data.attempt}); retrying`,
        detail: event.data.error,
      };
    case 'ErpRequestRefused':
      return { what: `The ERP refused the ${opLabel(event.data.operation)} request`, detail: event.data.message };
    case 'ErpRequestCompleted':
      return { what: `The ${opLabel(event.data.operation)} was updated in the ERP`, detail: event.data.vendorCode };
    case 'ParentCodeAssigned':
      return { what: `Parent SAP code ${event.data.parentCode} created`, detail: null };
    case 'ChildCodeRequested':
      return { what: `Child code requested for state ${event.data.stateId}`, detail: event.data.gstNo };
    case 'ChildCodeAssigned':
      return { what: `Child code ${event.data.childCode} created for state ${event.data.stateId}`, detail: null };
    case 'PaymentTermsSet':
      return { what: `Payment terms ${event.data.paymentTermsCode} set for state ${event.data.stateId}`, detail: null };
    case 'VendorCategorySet':
      return { what: `Vendor category set to ${event.data.vendorCategory}`, detail: null };
    case 'VendorCategoryApproved':
      return { what: 'Vendor category approved', detail: null };
    case 'VendorCategoryRejected':
      return { what: 'Vendor category rejected', detail: event.data.remarks };
    case 'ReconAccountChanged':
      return { what: `Reconciliation account changed to ${event.data.reconAccount}`, detail: null };
    case 'WithholdingTaxUpdated':
      return { what: `Withholding tax set to ${event.data.taxType} / ${event.data.taxCode}`, detail: null };
    case 'VendorCodeRequestRejected':
      return {
        what: `SAP code request rejected${event.data.sendToBa ? ' and sent back to the BA' : ''}: ${event.data.reason}`,
        detail: event.data.remarks,
      };
    default: {
      const unknown: never = event;
      return { what: String((unknown as { type: unknown }).type), detail: null };
    }
  }
}
