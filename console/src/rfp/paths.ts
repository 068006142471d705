/** The staff RFP routes (spec 001 §2): the dashboard, one RFP's view and the wizard (wizard/progress.ts). */
export const RFP_DASHBOARD_PATH = '/rfp/MLL/dashboard';
export const RFP_VIEW_PATH = '/rfp/MLL/view/:id/:rfpType';

/**
 * The view of one RFP. The spec's path carries the RFP type; a draft has none before step 2, so it travels as
 * 'draft' (the page reads the RFP by its code and ignores the segment).
 */
export const rfpViewPath = (rfpCode: string, rfpType: string | null | undefined) =>
  `/rfp/MLL/view/${encodeURIComponent(rfpCode)}/${encodeURIComponent(rfpType ?? 'draft')}`;

export { RFP_WIZARD_PATH, rfpWizardPath } from './wizard/progress';
