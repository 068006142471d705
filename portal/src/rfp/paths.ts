/** The BA's RFP routes (spec 001 §2). */
export const RFP_BA_DASHBOARD_PATH = '/rfp/BA/dashboard';
export const RFP_BA_VIEW_PATH = '/rfp/BA/view/:id/:rfpType';
/** Spec 001 §2: the RFP sidebar's Awarded, New and Closed RFP lead to the work-in-progress page. */
export const WORK_IN_PROGRESS_PATH = '/workInProgress';

export const rfpBaViewPath = (rfpCode: string, rfpType: string | null): string =>
  `/rfp/BA/view/${encodeURIComponent(rfpCode)}/${encodeURIComponent(rfpType ?? 'standard')}`;
