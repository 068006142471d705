import type { SapTabType } from './labels';

/** The SAP area's console routes (spec 000 §2 "ERP (SAP) routes"), plus the queues issue 9 adds. */
export const SAP_DASHBOARD_PATH = '/sap/dashboard';
export const sapDashboardPath = (type: SapTabType = 'all') => `${SAP_DASHBOARD_PATH}/${type}`;
export const SAP_VIEW_PATH = '/sap/view/:baId';
export const sapViewPath = (baId: string, companyCode?: string) =>
  `/sap/view/${encodeURIComponent(baId)}${companyCode ? `?companyCode=${encodeURIComponent(companyCode)}` : ''}`;
/** The spec's separate parent/child pages are sections of the one ERP page here: both lead to it. */
export const SAP_PARENT_CODE_PATH = '/sap/parent-code/:baId';
export const SAP_CHILD_CODE_PATH = '/sap/child-code/:baId';
export const NUCLEUS_VIEW_PATH = '/sap/nucleus/view/:panNo';
export const ONBOARD_NUCLEUS_LIST_PATH = '/onboard/nucleus/view';
export const ONBOARD_NUCLEUS_VIEW_PATH = '/onboard/nucleus/view/:panNo';
export const nucleusViewPath = (pan: string) => `/sap/nucleus/view/${encodeURIComponent(pan)}`;
export const CREATE_UTILITY_PATH = '/sap/create-utility-vendor-code';
export const CREATE_OTHER_COMPANY_PATH = '/sap/create-other-company-vendor-code';
export const BLOCKS_PATH = '/sap/blocks';
export const MASS_UPLOAD_PATH = '/sap/mass-upload';
/** The BA list's "Blocked Users" view (spec 000 §4 list filter "blocked"). */
export const BLOCKED_USERS_SEARCH = `?${new URLSearchParams({ filter: JSON.stringify({ status: 'blocked' }), page: '1' })}`;
