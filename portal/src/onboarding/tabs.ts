/**
 * The onboarding page's tabs, in the spec's order. The keys of the five a submission checks are the keys of
 * the API's 422 `errors` (issue 8 contract); concessions are optional and never block a submission.
 */
export const TABS = [
  'companyDetails',
  'bankDetails',
  'gstRegistrations',
  'documents',
  'concessions',
  'verticalMapping',
] as const;
export type TabKey = (typeof TABS)[number];

export const TAB_LABELS: Record<TabKey, string> = {
  companyDetails: 'Company Details',
  bankDetails: 'Bank Details',
  gstRegistrations: 'GST / Places of Business',
  documents: 'Documents',
  concessions: 'Concessions',
  verticalMapping: 'Vertical Mapping',
};

export const isTabKey = (v: string | null): v is TabKey => v !== null && (TABS as readonly string[]).includes(v);

export type PageMode = 'registration' | 'edit' | 'view';

/** /onboard/ba-details/:action?tab=… */
export const tabPath = (mode: PageMode, tab: TabKey = 'companyDetails') =>
  `/onboard/ba-details/${mode}${tab === 'companyDetails' ? '' : `?tab=${tab}`}`;
