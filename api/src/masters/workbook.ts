import type { Readable, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Pool } from 'pg';
import {
  duplicateMessage,
  masterDefinition,
  masterSchema,
  presentValues,
  uniqueKeysOf,
  uniqueKeyValue,
  displayOf,
  invalidRefMessage,
  type MasterDefinition,
  type MasterField,
  type MasterStatus,
  type MasterValues,
} from '../../../domain/src/masters/definitions';
import { fieldErrors } from '../../../domain/src/validation/fields';
import { safeCell } from '../../../platform/src/workbooks/safe-cell';
import { allMasterItems, getMasterItems, type MasterItem } from '../../../projections/src/masters/masters.queries';

/**
 * Masters as workbooks (exceljs, streamed both ways). One sheet: a header row of labels, one row per item.
 *
 *   Id | <field label>… | Status
 *
 * A reference is two columns: "<label> Id" (the referenced item's id, what the import reads) and "<label>"
 * (its display value, for people; the import ignores it). A list of references is "<label> Ids" with the ids
 * separated by commas, and "<label>" with the names. Yes/No for booleans. Unknown columns are ignored on
 * import, so the error workbook (the uploaded rows plus "Messages") can be corrected and uploaded again.
 */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MESSAGES_HEADER = 'Messages';
export const ID_HEADER = 'Id';
export const STATUS_HEADER = 'Status';
/** More rows than this is not a master: refused before any is validated. */
export const MAX_IMPORT_ROWS = 50_000;

export const workbookMessages = {
  // Spec 000 §5 "Mass upload".
  noRows: 'Please upload valid excel file or download template by clicking on download button',
  missingColumn: 'Column Not Found in the Excel check the template and upload again',
  emptyHeader: 'Upload the excel with proper template',
  tooManyRows: `A workbook may hold at most ${MAX_IMPORT_ROWS} rows`,
  unknownId: (def: MasterDefinition) => `No ${def.singular} with this Id`,
  duplicateInFile: (row: number) => `Same as row ${row} of this file`,
  badStatus: "Status must be 'active' or 'inactive'",
} as const;

type Column =
  | { header: string; kind: 'id' }
  | { header: string; kind: 'status' }
  | { header: string; kind: 'value'; field: MasterField }
  | { header: string; kind: 'names'; field: MasterField };

export function columnsOf(def: MasterDefinition): Column[] {
  const cols: Column[] = [{ header: ID_HEADER, kind: 'id' }];
  for (const field of def.fields) {
    if (field.kind === 'ref') {
      cols.push({ header: `${field.label} Id`, kind: 'value', field }, { header: field.label, kind: 'names', field });
    } else if (field.kind === 'refs') {
      cols.push({ header: `${field.label} Ids`, kind: 'value', field }, { header: field.label, kind: 'names', field });
    } else {
      cols.push({ header: field.label, kind: 'value', field });
    }
  }
  cols.push({ header: STATUS_HEADER, kind: 'status' });
  return cols;
}

const headerKey = (h: unknown) => String(h ?? '').trim().toLowerCase();

/** A cell as a plain value; a formula becomes its text with the leading "=", so the text rules refuse it. */
export function cellValue(v: ExcelJS.CellValue | undefined): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) return `=${(v as { formula?: string; sharedFormula?: string }).formula ?? (v as { sharedFormula?: string }).sharedFormula ?? ''}`;
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return String((v as { text: unknown }).text);
    if ('error' in v) return String((v as { error: unknown }).error);
  }
  return String(v);
}

function exportCell(field: MasterField, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (field.kind === 'bool') return value === true ? 'Yes' : 'No';
  if (field.kind === 'refs') return (value as number[]).join(',');
  return value as string | number;
}

/** Display values of the items a page references, per referenced master. */
async function referencedNames(pool: Pool, def: MasterDefinition, items: readonly MasterItem[]) {
  const names = new Map<string, Map<number, string>>();
  for (const field of def.fields) {
    if ((field.kind !== 'ref' && field.kind !== 'refs') || !field.ref) continue;
    const ids = new Set<number>();
    for (const item of items) {
      const v = item[field.name];
      for (const id of Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]) ids.add(Number(id));
    }
    const refDef = masterDefinition(field.ref);
    const found = await getMasterItems(pool, field.ref, [...ids]);
    names.set(field.name, new Map(found.map((i) => [Number(i.id), displayOf(refDef, i)])));
  }
  return names;
}

/** Streams every item of the master as an .xlsx into `out` (the response). */
export async function writeMasterWorkbook(pool: Pool, def: MasterDefinition, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(def.label.slice(0, 31));
  const cols = columnsOf(def);
  ws.columns = cols.map((c) => ({ header: c.header, key: c.header, width: Math.max(12, c.header.length + 4) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for await (const page of allMasterItems(pool, def.resource)) {
    const names = await referencedNames(pool, def, page);
    for (const item of page) {
      const row = cols.map((c) => {
        switch (c.kind) {
          case 'id':
            return item.id;
          case 'status':
            return item.status;
          case 'value':
            return exportCell(c.field, item[c.field.name]);
          case 'names': {
            const v = item[c.field.name];
            const ids = Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
            return ids.map((id) => names.get(c.field.name)?.get(Number(id)) ?? '').join(', ');
          }
        }
      });
      ws.addRow(row.map(safeCell)).commit();
    }
  }
  ws.commit();
  await wb.commit();
}

export type SheetRow = { number: number; cells: (string | number | boolean | null)[] };
export type Sheet = { headers: string[]; rows: SheetRow[] };

/** The first sheet of an .xlsx stream: its header row and its non-empty rows (never more than the cap). */
export async function readSheet(input: Readable): Promise<Sheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let headers: string[] | null = null;
  const rows: SheetRow[] = [];
  let first = true;
  for await (const worksheet of reader) {
    for await (const row of worksheet) {
      if (!first) continue; // later sheets are read to the end (the zip is one stream) but not used
      const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellValue);
      if (headers === null) {
        headers = values.map((v) => String(v ?? '').trim());
        continue;
      }
      if (values.every((v) => v === null || (typeof v === 'string' && v.trim() === ''))) continue;
      if (rows.length >= MAX_IMPORT_ROWS) throw new TooManyRowsError();
      rows.push({ number: row.number, cells: values });
    }
    first = false;
  }
  return { headers: headers ?? [], rows };
}

export class TooManyRowsError extends Error {
  constructor() {
    super(workbookMessages.tooManyRows);
  }
}

/** One row of an import, validated: what to write, or why not. */
export type ImportRow = {
  number: number;
  cells: SheetRow['cells'];
  /** The item the row updates (its Id), or null for a new item. */
  id: number | string | null;
  values: MasterValues;
  status: MasterStatus | undefined;
  messages: string[];
};

export type ImportPlan = { rows: ImportRow[]; sheetError: string | null };

const asText = (v: unknown): unknown => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);

/**
 * Validates every row with the master's zod rule, its references, and uniqueness within the file and against
 * the items already there (as they will stand once the file is applied). Writes nothing.
 * `ownIds` maps a row number to the item a previous upload of the same file created from it.
 */
export async function planImport(
  pool: Pool,
  def: MasterDefinition,
  sheet: Sheet,
  ownIds: ReadonlyMap<number, number | string>,
): Promise<ImportPlan> {
  if (sheet.rows.length === 0) return { rows: [], sheetError: workbookMessages.noRows };
  if (sheet.headers.some((h, i) => h === '' && sheet.rows.some((r) => r.cells[i] !== null && r.cells[i] !== undefined)))
    return { rows: [], sheetError: workbookMessages.emptyHeader };
  const index = new Map(sheet.headers.map((h, i) => [headerKey(h), i]));
  const cols = columnsOf(def).filter((c) => c.kind === 'value' || c.kind === 'id' || c.kind === 'status');
  const missing = cols.filter((c) => c.kind === 'value' && !index.has(headerKey(c.header)));
  if (missing.length > 0) return { rows: [], sheetError: `${workbookMessages.missingColumn}: ${missing.map((c) => c.header).join(', ')}` };

  const at = (row: SheetRow, header: string) => {
    const i = index.get(headerKey(header));
    return i === undefined ? null : (row.cells[i] ?? null);
  };

  // Everything there is now, by id: the base the file's rows are applied to.
  const existing = new Map<string, MasterItem>();
  for await (const page of allMasterItems(pool, def.resource)) for (const item of page) existing.set(String(item.id), item);

  const rows: ImportRow[] = sheet.rows.map((row) => {
    const messages: string[] = [];
    const rawId = at(row, ID_HEADER);
    let id: number | string | null = null;
    if (rawId !== null && String(rawId).trim() !== '') {
      const text = String(rawId).trim();
      id = def.idKind === 'int' && /^\d+$/.test(text) ? Number(text) : def.idKind === 'code' ? text.toUpperCase() : text;
      if (!existing.has(String(id))) messages.push(`${ID_HEADER}: ${workbookMessages.unknownId(def)}`);
    } else if (ownIds.has(row.number)) {
      id = ownIds.get(row.number)!;
    }
    const input: Record<string, unknown> = {};
    for (const field of def.fields) {
      const col = columnsOf(def).find((c) => c.kind === 'value' && c.field.name === field.name)!;
      const v = at(row, col.header);
      const textual = ['text', 'name', 'code', 'longtext', 'email', 'enum'].includes(field.kind);
      input[field.name] = field.kind === 'enum' && v === null ? '' : textual ? asText(v) : v;
    }
    const rawStatus = at(row, STATUS_HEADER);
    let status: MasterStatus | undefined;
    if (rawStatus !== null && String(rawStatus).trim() !== '') {
      const s = String(rawStatus).trim().toLowerCase();
      if (s === 'active' || s === 'inactive') status = s;
      else messages.push(`${STATUS_HEADER}: ${workbookMessages.badStatus}`);
    }
    const parsed = masterSchema(def, 'create').safeParse(input);
    let values: MasterValues = {};
    if (parsed.success) values = presentValues(def, parsed.data as Record<string, unknown>);
    else for (const [name, message] of Object.entries(fieldErrors(parsed.error))) messages.push(`${labelOf(def, name)}: ${message}`);
    return { number: row.number, cells: row.cells, id, values, status, messages };
  });

  await checkImportReferences(pool, def, rows, existing);
  checkImportUniqueness(def, rows, existing);
  return { rows, sheetError: null };
}

const labelOf = (def: MasterDefinition, name: string) => {
  const col = columnsOf(def).find((c) => c.kind === 'value' && c.field.name === name);
  return col?.header ?? name;
};

async function checkImportReferences(
  pool: Pool,
  def: MasterDefinition,
  rows: ImportRow[],
  existing: ReadonlyMap<string, MasterItem>,
): Promise<void> {
  for (const field of def.fields) {
    if ((field.kind !== 'ref' && field.kind !== 'refs') || !field.ref) continue;
    const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]).map(Number);
    const wanted = new Set<number>();
    for (const r of rows) for (const id of idsOf(r.values[field.name])) wanted.add(id);
    const found = await getMasterItems(pool, field.ref, [...wanted]);
    const active = new Set(found.filter((i) => i.status === 'active').map((i) => Number(i.id)));
    for (const r of rows) {
      if (r.messages.length > 0 && !(field.name in r.values)) continue;
      // As in the form: a reference the item already had may stay even if its target was deactivated since.
      const before = new Set(r.id === null ? [] : idsOf(existing.get(String(r.id))?.[field.name]));
      if (idsOf(r.values[field.name]).some((id) => !before.has(id) && !active.has(id)))
        r.messages.push(`${labelOf(def, field.name)}: ${invalidRefMessage(field)}`);
    }
  }
}

function checkImportUniqueness(def: MasterDefinition, rows: ImportRow[], existing: ReadonlyMap<string, MasterItem>): void {
  const inFile = new Set(rows.filter((r) => r.id !== null).map((r) => String(r.id)));
  for (const key of uniqueKeysOf(def)) {
    // The table as it stands minus the items the file rewrites, then the file's rows in order.
    const holders = new Map<string, { id: string; row: number | null }>();
    for (const [id, item] of existing) if (!inFile.has(id)) holders.set(uniqueKeyValue(key, item), { id, row: null });
    for (const r of rows) {
      if (r.messages.length > 0) continue;
      const k = uniqueKeyValue(key, r.values);
      const holder = holders.get(k);
      const self = r.id === null ? `row:${r.number}` : String(r.id);
      if (holder && holder.id !== self) {
        r.messages.push(holder.row === null ? duplicateMessage(def, key) : workbookMessages.duplicateInFile(holder.row));
        continue;
      }
      holders.set(k, { id: self, row: r.number });
    }
  }
}

/** The uploaded rows with a "Messages" column, streamed as an .xlsx. */
export async function writeErrorWorkbook(
  headers: readonly string[],
  rows: readonly { cells: SheetRow['cells']; messages: readonly string[] }[],
  out: Writable,
): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet('Errors');
  const all = [...headers.filter((h) => headerKey(h) !== headerKey(MESSAGES_HEADER)), MESSAGES_HEADER];
  const keep = headers.map((h, i) => [h, i] as const).filter(([h]) => headerKey(h) !== headerKey(MESSAGES_HEADER));
  ws.columns = all.map((h) => ({ header: safeCell(h), key: h, width: h === MESSAGES_HEADER ? 60 : Math.max(12, h.length + 4) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for (const r of rows) {
    // What was uploaded goes back as it was, made formula-safe: a cell of the user's "=…" stays text.
    ws.addRow([...keep.map(([, i]) => safeCell(r.cells[i] ?? null)), r.messages.join('; ')]).commit();
  }
  ws.commit();
  await wb.commit();
}
