import type { BaCounts, BaStatus, ReviewStage } from '../shared/types';

/**
 * The spec's BA list filters (spec 000 §4 "BA list filters", §2 "Sidebars"), each a status/stage filter on
 * the one business-associates list with the badge count that belongs to it. The tabs and the sidebar share
 * this table, so a sidebar entry and its tab always show the same rows and the same number.
 */
export type BaViewKey =
  | 'all'
  | 'registered'
  | 'pendingOnboarding'
  | 'firstStage'
  | 'secondStage'
  | 'verified'
  | 'rejected'
  | 'documentsExpired';

/** `status` is a BA status or one of the API's list filters ('documents_expired'). */
export type BaViewFilter = { status?: BaStatus | 'documents_expired'; stage?: ReviewStage };

export type BaView = { key: BaViewKey; label: string; filter: BaViewFilter; countKey: keyof BaCounts };

/** In lifecycle order, as the list's tabs show them. */
export const BA_VIEWS: readonly BaView[] = [
  { key: 'all', label: 'All Request', filter: {}, countKey: 'all' },
  { key: 'registered', label: 'Registered Users', filter: { status: 'pending' }, countKey: 'registered' },
  {
    key: 'pendingOnboarding',
    label: 'Pending Onboarding Request',
    filter: { status: 'inprogress' },
    countKey: 'pendingOnboarding',
  },
  {
    key: 'firstStage',
    label: 'First Stage Request',
    filter: { status: 'inprogress', stage: 1 },
    countKey: 'firstStage',
  },
  {
    key: 'secondStage',
    label: 'Second Stage Request',
    filter: { status: 'inprogress', stage: 2 },
    countKey: 'secondStage',
  },
  { key: 'verified', label: 'Verified Users', filter: { status: 'verified' }, countKey: 'verified' },
  { key: 'rejected', label: 'Rejected', filter: { status: 'rejected' }, countKey: 'rejected' },
  {
    key: 'documentsExpired',
    label: 'Documents expired',
    filter: { status: 'documents_expired' },
    countKey: 'documentsExpired',
  },
];

/**
 * The spec's Onboard sidebar order (spec 000 §2 "Sidebars"; "My Pending Task" comes first, from the tasks
 * resource; Nucleus Vendor Codes and Blocked Users come with the vendor-code issue). Rejected BAs stay a tab
 * of the list: the spec's sidebar has no such entry.
 */
export const SIDEBAR_VIEW_ORDER: readonly BaViewKey[] = [
  'all',
  'verified',
  'pendingOnboarding',
  'firstStage',
  'secondStage',
  'registered',
];

/** Beyond the spec's list, the issue-8 queues: after the Additional Documents entry, the expired documents. */
export const SIDEBAR_EXTRA_VIEWS: readonly BaViewKey[] = ['documentsExpired'];

export const viewByKey = (key: BaViewKey): BaView => BA_VIEWS.find((v) => v.key === key) ?? BA_VIEWS[0]!;

/** Which view a set of list filter values is showing (stage may arrive as "1" from a URL). */
export function viewOfFilter(filter: Record<string, unknown> | undefined): BaViewKey {
  const status = filter?.['status'];
  const rawStage = filter?.['stage'];
  const stage = rawStage === undefined || rawStage === '' ? undefined : Number(rawStage);
  const match = BA_VIEWS.find((v) => v.filter.status === status && v.filter.stage === stage);
  return match?.key ?? 'all';
}

/** The list filter for a view, keeping the user's other filters (search, PAN, city, company code). */
export function filterForView(
  key: BaViewKey,
  current: Record<string, unknown> = {},
): Record<string, unknown> {
  const { status: _status, stage: _stage, ...others } = current;
  return { ...others, ...viewByKey(key).filter };
}

/** The list's URL for a view, as the sidebar links to it. */
export function viewSearch(key: BaViewKey): string {
  const params = new URLSearchParams({ filter: JSON.stringify(viewByKey(key).filter), page: '1' });
  return `?${params}`;
}

export const STATUS_LABELS: Record<BaStatus, string> = {
  pending: 'Registered',
  inprogress: 'In progress',
  verified: 'Verified',
  rejected: 'Rejected',
};
