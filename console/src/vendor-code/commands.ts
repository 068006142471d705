import { SAP_CODE_REQUESTED } from './api';
import { codeAndDescription } from './MasterSelect';
import type { CommandSpec } from './SapCommandDialog';
import type { VendorCodeRow } from './types';

const num = (v: string | boolean) => Number(v);

/** The texts shown when the API's answer carries no message of its own. */
export const SAP_MESSAGES = {
  parentRequested: SAP_CODE_REQUESTED,
  childRequested: 'Child code requested successfully.',
  paymentTermsSet: 'Payment terms updated successfully.',
  categorySet: 'Vendor category sent for approval.',
  categoryApproved: 'Vendor category approved.',
  categoryRejected: 'Vendor category rejected.',
  reconChanged: 'Reconciliation account changed successfully.',
  withholdingUpdated: 'Withholding tax updated successfully.',
  requestRejected: 'Request rejected successfully.',
} as const;

export const requestParentSpec = (row: VendorCodeRow): CommandSpec => ({
  title: 'Request SAP Code',
  verb: 'request-parent',
  text: `Request the parent vendor code of ${row.companyName ?? row.panNumber ?? row.baId} for company code ${row.companyCode} in the ERP?`,
  fields: [],
  body: () => ({}),
  success: SAP_MESSAGES.parentRequested,
  submitLabel: 'Request SAP Code',
});

/** The GST states that have no child code and no open request (a refused one may be asked for again). */
export const requestableStates = (row: VendorCodeRow) =>
  row.childCodes.filter((c) => c.status === 'not-requested' || c.status === 'refused');

export const requestChildSpec = (row: VendorCodeRow): CommandSpec => ({
  title: 'Request child code',
  verb: 'request-child',
  text: `Parent code ${row.parentCode ?? ''}: one child code per GST state.`,
  fields: [
    {
      kind: 'select',
      name: 'stateId',
      label: 'GST state',
      required: true,
      choices: requestableStates(row).map((c) => ({
        id: String(c.stateId),
        name: [c.stateName ?? `State ${c.stateId}`, c.gstNo].filter(Boolean).join(' – '),
      })),
    },
    { kind: 'master', name: 'paymentTermsId', label: 'Payment term', resource: 'payment-terms', optionText: codeAndDescription('paymentTermCode'), required: true },
  ],
  body: (v) => ({ stateId: num(v['stateId']!), paymentTermsId: num(v['paymentTermsId']!) }),
  success: SAP_MESSAGES.childRequested,
  submitLabel: 'Request child code',
});

export const paymentTermsSpec = (stateId: number, stateName: string | null): CommandSpec => ({
  title: `Payment term — ${stateName ?? `State ${stateId}`}`,
  verb: 'payment-terms',
  fields: [
    { kind: 'master', name: 'paymentTermsId', label: 'Payment term', resource: 'payment-terms', optionText: codeAndDescription('paymentTermCode'), required: true },
  ],
  body: (v) => ({ stateId, paymentTermsId: num(v['paymentTermsId']!) }),
  success: SAP_MESSAGES.paymentTermsSet,
  submitLabel: 'Save',
});

export const setCategorySpec: CommandSpec = {
  title: 'Set vendor category',
  verb: 'vendor-category',
  text: 'A second person (MLL Accounts_HEAD or MLL-ADMIN) approves the category.',
  fields: [
    { kind: 'master', name: 'vendorCategoryId', label: 'Vendor category', resource: 'vendor-types', optionText: (i) => String(i['type'] ?? i.id), required: true },
  ],
  body: (v) => ({ action: 'set', vendorCategoryId: num(v['vendorCategoryId']!) }),
  success: SAP_MESSAGES.categorySet,
  submitLabel: 'Set category',
};

export const approveCategorySpec = (row: VendorCodeRow): CommandSpec => ({
  title: 'Approve vendor category',
  verb: 'vendor-category',
  text: `Approve the vendor category "${row.vendorCategory ?? ''}"?`,
  fields: [],
  body: () => ({ action: 'approve' }),
  success: SAP_MESSAGES.categoryApproved,
  submitLabel: 'Approve',
});

export const rejectCategorySpec: CommandSpec = {
  title: 'Reject vendor category',
  verb: 'vendor-category',
  fields: [{ kind: 'text', name: 'remarks', label: 'Remarks', required: true }],
  body: (v) => ({ action: 'reject', remarks: String(v['remarks']).trim() }),
  success: SAP_MESSAGES.categoryRejected,
  submitLabel: 'Reject',
  danger: true,
};

export const reconAccountSpec: CommandSpec = {
  title: 'Change reconciliation account',
  verb: 'recon-account',
  fields: [
    { kind: 'master', name: 'reconAccountId', label: 'Reconciliation account', resource: 'vendor-recon-accounts', optionText: codeAndDescription('accountCode'), required: true },
  ],
  body: (v) => ({ reconAccountId: num(v['reconAccountId']!) }),
  success: SAP_MESSAGES.reconChanged,
  submitLabel: 'Change',
};

export const withholdingTaxSpec: CommandSpec = {
  title: 'Withholding tax',
  verb: 'withholding-tax',
  fields: [
    {
      kind: 'master',
      name: 'taxCodeId',
      label: 'Withholding tax type and code',
      resource: 'tax-types',
      optionText: (i) => [i['taxType'], i['taxCode'], i['taxName']].filter(Boolean).join(' – '),
      required: true,
    },
  ],
  body: (v) => ({ taxCodeId: num(v['taxCodeId']!) }),
  success: SAP_MESSAGES.withholdingUpdated,
  submitLabel: 'Update',
};

export const rejectRequestSpec: CommandSpec = {
  title: 'Reject request',
  verb: 'reject',
  text: 'With "Send to BA", the BA sees the reason in the portal and corrects its profile; a later SAP code request reopens it.',
  fields: [
    { kind: 'master', name: 'reasonId', label: 'Reason', resource: 'erp-reject-reasons', optionText: (i) => String(i['reason'] ?? i.id), required: true },
    { kind: 'text', name: 'remarks', label: 'Remarks' },
    { kind: 'checkbox', name: 'sendToBa', label: 'Send to BA' },
  ],
  body: (v) => ({ reasonId: num(v['reasonId']!), remarks: String(v['remarks']).trim() || null, sendToBa: Boolean(v['sendToBa']) }),
  success: SAP_MESSAGES.requestRejected,
  submitLabel: 'Reject request',
  danger: true,
};
