/** The Bill-Hub routes (spec 001 §2; contract "Front ends"). */
export const BILL_HUB_PATH = '/bill-hub';
export const BILL_HUB_HOME_PATH = '/bill-hub/home';
export const NEW_INVOICE_PATH = '/bill-hub/invoice/new';
export const INVOICE_PATH = '/bill-hub/invoice/:id';
export const CREATE_MEMO_PATH = '/bill-hub/creatememo';
export const VIEW_MEMO_PATH = '/bill-hub/viewMemo/:id';
export const PRINT_MEMO_PATH = '/bill-hub/printMemo/:id';

export const invoicePath = (id: string) => `/bill-hub/invoice/${encodeURIComponent(id)}`;
export const viewMemoPath = (id: string) => `/bill-hub/viewMemo/${encodeURIComponent(id)}`;
export const printMemoPath = (id: string) => `/bill-hub/printMemo/${encodeURIComponent(id)}`;
export const createMemoPath = (fromState?: number | null, toState?: number | null) => {
  const q = new URLSearchParams();
  if (fromState) q.set('fromState', String(fromState));
  if (toState) q.set('toState', String(toState));
  const s = q.toString();
  return s ? `${CREATE_MEMO_PATH}?${s}` : CREATE_MEMO_PATH;
};
