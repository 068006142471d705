/**
 * The Bill-Hub rows as the API sends them (issue 11 contract, "Read models" and "HTTP API"). Written here from
 * the contract while the API is built in parallel; amounts are decimal strings ("12500.00").
 */
export const INVOICE_STATUSES = ['draft', 'S', 'A', 'V', 'B', 'P', 'C', 'R', 'discarded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export type InvoiceAttachment = { attachmentId: string; name: string; size: number; type: string };

export type InvoiceRow = {
  id: string;
  baId: string;
  baName: string | null;
  baCode: string | null;
  companyCode: string | null;
  status: InvoiceStatus;
  statusLabel: string;
  invoiceNumber: string;
  invoiceDate: string | null;
  financialYear: string | null;
  taxableAmount: string | null;
  cgst: string | null;
  sgst: string | null;
  igst: string | null;
  td: string | null;
  totalAmount: string | null;
  netPayable: string | null;
  hsnCode: string | null;
  comments: string | null;
  submitToUserId: string | null;
  submitToName: string | null;
  billingFromCode: string | null;
  fromStateId: number | null;
  fromStateName: string | null;
  billingToCode: string | null;
  billingToName: string | null;
  toStateId: number | null;
  toStateName: string | null;
  attachments: InvoiceAttachment[];
  memoId: string | null;
  memoNumber: string | null;
  remarks: string | null;
  erpDocumentNumber: string | null;
  booking: boolean;
  lastErpError: string | null;
  slaBreached: boolean;
  statusSince: string | null;
  submittedAt: string | null;
  releasedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type InvoiceHistoryEntry = {
  status: string;
  label: string;
  at: string;
  by: { userId: string; name: string | null; role: string | null } | null;
  remarks: string | null;
};

/** GET /api/invoices/:id: the row, its stream's history and what the caller may do now. */
export type InvoiceDetail = InvoiceRow & { history: InvoiceHistoryEntry[]; allowedActions: string[] };

export type MemoRow = {
  id: string;
  memoNumber: string;
  baId: string;
  baName: string | null;
  companyCode: string;
  financialYear: string;
  fromStateId: number | null;
  fromStateName: string | null;
  toStateId: number | null;
  toStateName: string | null;
  invoiceIds: string[];
  invoiceCount: number;
  taxableAmount: string;
  cgst: string;
  sgst: string;
  igst: string;
  td: string;
  totalAmount: string;
  netPayable: string;
  advanceAmount: string;
  balance: string;
  comments: string | null;
  submittedAt: string;
  submittedBy: { userId: string; name: string | null } | null;
};

export type MemoAdvance = {
  advanceId: string;
  amount: string;
  reference: string;
  paidOn: string;
  by: { userId: string; name?: string | null; role?: string | null } | null;
};

/** GET /api/memos/:id. */
export type MemoDetail = MemoRow & { invoices: InvoiceRow[]; advances: MemoAdvance[] };
