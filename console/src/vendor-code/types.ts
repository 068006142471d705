/**
 * The SAP area's API shapes: the rows are the API's own (api/src/contract.ts); the request and progress
 * shapes the routes answer without a read-model row are declared here. Every console and portal screen of the
 * area imports from this file.
 */
import type { NucleusVendorRow, VendorCodeRow, WorkbookResultRow } from '../../../api/src/contract';

export type {
  BlockRow,
  BlockRowStatus as BlockStatus,
  NucleusVendorRow,
  VendorCodeCounts,
  VendorCodeRow,
  VendorCodeStatus,
  WorkbookKind,
  WorkbookResultRow,
} from '../../../api/src/contract';
export type ChildCode = VendorCodeRow['childCodes'][number];
export type ChildCodeStatus = ChildCode['status'];


/** GET /api/vendor-codes/:id/history (newest first). */
export type VendorCodeHistoryEntry = {
  id?: string | number;
  time: string;
  actor: string | null;
  what: string;
  detail: string | null;
};

/** GET /api/nucleus-vendors/:pan: the row and its stream as history. */
export type NucleusVendorDetail = NucleusVendorRow & { history?: VendorCodeHistoryEntry[] };

export type MassUploadKind = 'nucleus' | 'sap-verified';

/** POST /api/mass-uploads → 200. */
export type MassUploadSummary = {
  message: string;
  uploadId: string;
  rows: number;
  created: number;
  unchanged: number;
};

/** GET /api/mass-uploads/:uploadId while a long upload runs. */
export type MassUploadProgress = {
  /** 'recording' while rows are appended, then 'recorded' (or the stored upload's state); 'failed'. */
  state: 'recording' | 'recorded' | 'failed' | string;
  processed: number;
  total: number;
  message?: string;
} & Partial<Pick<MassUploadSummary, 'created' | 'unchanged' | 'rows'>>;

/** One line of POST /api/vendor-code-workbooks/validate → 400 `errors`. */
export type WorkbookValidationError = {
  sheet: string;
  row: number;
  column: string;
  value: string | null;
  message: string;
};

/** One previewed row (200 of the validate call). */
export type WorkbookPreviewRow = { sheet: string; values: Record<string, unknown> };

export type WorkbookResult = {
  status: 'success' | 'fail';
  message: string;
  data: WorkbookResultRow[];
};
