import type { Identifier, RaRecord } from 'react-admin';
import type { MasterStatus } from '../../../domain/src/masters/definitions';

/** A master item as the API answers it: `{ id, ...values, status, updatedAt }`. */
export type MasterItem = RaRecord & { status: MasterStatus; updatedAt?: string } & Record<string, unknown>;

/** GET /api/masters/counts, one row per master. */
export type MasterCount = { master: string; active: number; inactive: number };

/** One change of an item, oldest first (GET /api/<resource>/:id/events, as the history table shows it). */
export type MasterChange = {
  id: string;
  type: 'MasterItemCreated' | 'MasterItemChanged' | 'MasterItemStatusChanged' | string;
  at: string;
  who: string;
  role: string | null;
  /** Field name → value before the change (empty for a creation). */
  before: Record<string, unknown>;
  /** Field name → value after the change. */
  after: Record<string, unknown>;
};

/** What an import that passed answers. */
export type MasterImportResult = { created: number; updated: number; unchanged: number; message: string | null };

export type MasterImportOutcome =
  | { ok: true; result: MasterImportResult }
  /** 422: some rows failed; nothing was written and the workbook with a column of messages came back. */
  | { ok: false; errorWorkbook: { blob: Blob; fileName: string } };

export type MasterId = Identifier;
