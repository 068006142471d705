import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  columnsOf,
  massUploadMessages,
  MASS_UPLOAD_SHEETS,
  type MassUploadField,
  type MassUploadKind,
  type MassUploadSheet,
  type MassUploadValues,
} from '../../../domain/src/mass-upload/columns';
import { acrossRows, checkHeaders, checkRow, childKey, parentKey, type HeaderCheck, type RawRow } from '../../../domain/src/mass-upload/rules';
import { readMassUploadWorkbook, type Cell, type FailedRow } from './workbook';

/**
 * A valid row, kept small (100,000 of them are held until the append): its values packed in one string in the
 * sheet's column order (`packValues`). Its key and values hash derive from those and are computed when its event
 * is built (`rowIdentity`), not held.
 */
export type GoodRow = {
  sheet: MassUploadSheet;
  number: number;
  pan: string;
  packed: string;
};

/** The row's key (one vendor per PAN and company code; one child per GST state) and the hash of its values. */
export function rowIdentity(kind: MassUploadKind, row: GoodRow, values: MassUploadValues): { rowKey: string; valuesHash: string } {
  return {
    rowKey: row.sheet === 'Parent' ? parentKey(values) : childKey(values),
    valuesHash: createHash('sha256').update(`${kind}|${row.sheet}|${row.packed}`).digest('hex'),
  };
}

const SEP = '\u001f';

/** The row's values in the sheet's column order, one string ('' for a value not given). */
export function packValues(kind: MassUploadKind, sheet: MassUploadSheet, values: MassUploadValues): string {
  return columnsOf(kind, sheet)
    .map((c) => values[c.field] ?? '')
    .join(SEP);
}

export function unpackValues(kind: MassUploadKind, sheet: MassUploadSheet, packed: string): MassUploadValues {
  const parts = packed.split(SEP);
  const values: MassUploadValues = {};
  columnsOf(kind, sheet).forEach((c, i) => {
    const v = parts[i];
    if (v) values[c.field as MassUploadField] = v;
  });
  return values;
}

export type Validation =
  | { ok: false; sheetError: string }
  | { ok: false; sheetError: null; failed: { sheet: MassUploadSheet; headers: Cell[]; rows: FailedRow[] }[]; failedRows: number }
  | { ok: true; rows: GoodRow[]; parents: number; children: number };

type SheetState = {
  headers: Cell[];
  provisional: HeaderCheck;
  /** The provisional header's [field, column index] pairs, taken once rather than per row. */
  fields: [keyof RawRow, number][];
  rows: number;
  dataColumns: Set<number>;
  failed: FailedRow[];
};

/** Failures are few; once this many rows failed, valid rows are no longer kept (the upload is refused anyway). */
const compact = (cells: Cell[]): Cell[] => Array.from(cells, (c) => c ?? null);

/**
 * Streams the workbook once and checks every rule of spec 000 §5: each row as it arrives (its own rules, then
 * the rules across rows so far), then the sheet rules (a missing Parent sheet or a sheet without rows, an empty
 * header, a missing mandatory column). Only failed rows keep their cells (for the error workbook); valid rows
 * keep their packed values. A nucleus child read before its parent row keeps its cells until the end decides.
 */
export async function validateWorkbook(kind: MassUploadKind, input: Readable | Buffer): Promise<Validation> {
  const sheets = new Map<MassUploadSheet, SheetState>();
  const good: GoodRow[] = [];
  const across = acrossRows(kind);
  const waiting = new Map<number, { cells: Cell[]; row: GoodRow }>();
  let failures = 0;
  let parents = 0;
  let children = 0;

  await readMassUploadWorkbook(input, {
    header(sheet, headers) {
      const provisional = checkHeaders(kind, sheet, headers, { rows: 1 });
      const fields = provisional.ok ? (Object.entries(provisional.index) as [keyof RawRow, number][]) : [];
      sheets.set(sheet, { headers, provisional, fields, rows: 0, dataColumns: new Set(), failed: [] });
    },
    row(sheet, number, cells) {
      const s = sheets.get(sheet)!;
      s.rows += 1;
      for (let i = 0; i < cells.length; i += 1) if (cells[i] !== null && (s.headers[i] ?? null) === null) s.dataColumns.add(i);
      if (!s.provisional.ok) return;
      const raw: RawRow = {};
      for (const [field, i] of s.fields) raw[field] = cells[i] ?? null;
      const check = checkRow(kind, sheet, raw);
      if (sheet === 'Parent') across.parentSeen(check.values);
      let error: string | null | 'waiting' = null;
      if (check.errors.length === 0) error = sheet === 'Parent' ? across.parent(number, check.values) : across.child(number, check.values);
      if (check.errors.length > 0 || (error !== null && error !== 'waiting')) {
        failures += 1;
        s.failed.push({ number, cells: compact(cells), errors: error && error !== 'waiting' ? [error] : check.errors });
        return;
      }
      if (failures > 0) return; // refused anyway: valid rows are not needed any more
      const packed = packValues(kind, sheet, check.values);
      const row: GoodRow = { sheet, number, pan: check.values.pan!, packed };
      if (error === 'waiting') waiting.set(number, { cells: compact(cells), row });
      good.push(row);
      if (sheet === 'Parent') parents += 1;
      else children += 1;
    },
  });

  // Sheet rules, in the spec's order, over every sheet the workbook has (the Parent sheet must be there).
  if (!sheets.has('Parent')) return { ok: false, sheetError: massUploadMessages.noRows };
  for (const sheet of MASS_UPLOAD_SHEETS) {
    const s = sheets.get(sheet);
    if (!s) continue;
    const final = checkHeaders(kind, sheet, s.headers, { rows: s.rows, dataColumns: [...s.dataColumns] });
    if (!final.ok) return { ok: false, sheetError: final.message };
  }
  // Nucleus children whose parent row never came.
  const child = sheets.get('Child');
  for (const number of across.unresolved()) {
    const w = waiting.get(number);
    if (!w || !child) continue;
    child.failed.push({ number, cells: w.cells, errors: [massUploadMessages.noParent] });
    failures += 1;
  }
  if (failures > 0) {
    const failed = MASS_UPLOAD_SHEETS.filter((sheet) => sheets.has(sheet)).map((sheet) => ({
      sheet,
      headers: sheets.get(sheet)!.headers,
      rows: sheets.get(sheet)!.failed.sort((a, b) => a.number - b.number),
    }));
    return { ok: false, sheetError: null, failed, failedRows: failures };
  }
  return { ok: true, rows: good, parents, children };
}
