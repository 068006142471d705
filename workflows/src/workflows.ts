/**
 * The workflow bundle's entry: every workflow type the worker runs. Only workflow code may be reached from
 * here (no activities, pg, Node built-ins): it is bundled and run in Temporal's deterministic sandbox.
 */
export { blockWorkflow } from './block/workflow';
export { contactChangeWorkflow } from './contact-change/workflow';
export { documentExpiryWorkflow } from './document-expiry/workflow';
export { invoiceWorkflow } from './invoices/workflow';
export { massUploadWorkflow } from './mass-upload/workflow';
export { memoWorkflow } from './memos/workflow';
export { onboardingWorkflow } from './onboarding/workflow';
export { registrationWorkflow } from './registration/workflow';
export { rfpWorkflow } from './rfp/workflow';
export { vendorCodeWorkbookWorkflow } from './vendor-code-workbook/workflow';
export { vendorCodeWorkflow } from './vendor-code/workflow';
