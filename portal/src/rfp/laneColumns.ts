import type { ColDef, ValueGetterParams, ValueSetterParams } from 'ag-grid-community';
import type { LaneColumn } from '../../../domain/src/rfp/model';
import type { LaneQuote, LaneRow, QuotesByLane } from './api';

/**
 * The lane grid's columns and rows (spec 001 §2 "BA lane screen"): sortable, filterable, resizable, 160 px wide
 * by default, the lane id frozen on the left; MLL columns describe the lane and are read-only, BA columns are
 * the BA's quote and editable while bidding is open, a select column with its options as a dropdown.
 */

/** Spec 001 §2: "default width 160". */
export const DEFAULT_COLUMN_WIDTH = 160;

/** One grid row: the lane's MLL values and the BA's quote, which the grid edits in place. */
export type LaneGridRow = { laneId: string; values: Record<string, string | null>; quote: LaneQuote };

export const defaultLaneColDef: ColDef<LaneGridRow> = {
  sortable: true,
  filter: true,
  resizable: true,
  width: DEFAULT_COLUMN_WIDTH,
  editable: false,
};

export const rowsOf = (lanes: readonly LaneRow[]): LaneGridRow[] =>
  lanes.map((l) => ({ laneId: l.laneId, values: { ...l.values }, quote: { ...(l.quote ?? {}) } }));

const text = (v: unknown): string | null => (v === undefined || v === null || String(v).trim() === '' ? null : String(v));

/** Numbers sort and filter as numbers; anything else as text. */
const filterOf = (column: LaneColumn) => (column.type === 'number' ? 'agNumberColumnFilter' : 'agTextColumnFilter');
const numeric = (v: string | null) => (v === null || v.trim() === '' || Number.isNaN(Number(v)) ? null : Number(v));

function mllColumn(column: LaneColumn): ColDef<LaneGridRow> {
  return {
    colId: column.key,
    headerName: column.label,
    filter: filterOf(column),
    valueGetter: (p: ValueGetterParams<LaneGridRow>) => {
      const v = p.data?.values[column.key] ?? null;
      return column.type === 'number' ? numeric(v) : v;
    },
    editable: false,
  };
}

function baColumn(column: LaneColumn, editable: boolean): ColDef<LaneGridRow> {
  const def: ColDef<LaneGridRow> = {
    colId: column.key,
    headerName: column.required ? `${column.label} *` : column.label,
    filter: filterOf(column),
    editable,
    // The quote stays text, as the API keeps it; numbers are checked by the API on save.
    valueGetter: (p: ValueGetterParams<LaneGridRow>) => p.data?.quote[column.key] ?? null,
    valueSetter: (p: ValueSetterParams<LaneGridRow>) => {
      if (!p.data) return false;
      const next = text(p.newValue);
      if ((p.data.quote[column.key] ?? null) === next) return false;
      p.data.quote[column.key] = next;
      return true;
    },
    cellClass: editable ? 'rfp-ba-cell' : undefined,
  };
  if (column.type === 'select')
    return { ...def, cellEditor: 'agSelectCellEditor', cellEditorParams: { values: ['', ...(column.options ?? [])] } };
  if (column.type === 'number') return { ...def, cellEditor: 'agTextCellEditor' };
  return def;
}

/** The grid's columns: the lane id (frozen left), then the sheet's columns in their order. */
export function laneColumnDefs(columns: readonly LaneColumn[], { editable }: { editable: boolean }): ColDef<LaneGridRow>[] {
  const laneId: ColDef<LaneGridRow> = {
    colId: 'laneId',
    headerName: 'Lane ID',
    field: 'laneId',
    pinned: 'left',
    lockPinned: true,
    filter: 'agTextColumnFilter',
    editable: false,
  };
  return [laneId, ...columns.map((c) => (c.owner === 'ba' ? baColumn(c, editable) : mllColumn(c)))];
}

/**
 * The quotes to send for the lanes the BA changed: each changed lane's every BA column (the API keeps a lane's
 * quote whole), unchanged lanes left out.
 */
export function quotesToSave(
  rows: readonly LaneGridRow[],
  changed: ReadonlySet<string>,
  columns: readonly LaneColumn[],
): QuotesByLane {
  const baKeys = columns.filter((c) => c.owner === 'ba').map((c) => c.key);
  const out: QuotesByLane = {};
  for (const row of rows) {
    if (!changed.has(row.laneId)) continue;
    out[row.laneId] = Object.fromEntries(baKeys.map((k) => [k, row.quote[k] ?? null]));
  }
  return out;
}

/**
 * A reopened round starts without quotes: each lane the BA has not quoted in this round yet gets its quote of the
 * earlier round, in place, so revising is changing what differs. Answers the lanes filled (to be saved as changed).
 */
export function carryForward(rows: LaneGridRow[], earlier: readonly { laneId: string; values: LaneQuote }[]): Set<string> {
  const byLane = new Map(earlier.map((q) => [q.laneId, q.values]));
  const filled = new Set<string>();
  for (const row of rows) {
    const before = byLane.get(row.laneId);
    if (!before || Object.values(row.quote).some((v) => text(v) !== null)) continue;
    row.quote = { ...before };
    filled.add(row.laneId);
  }
  return filled;
}

/** How many lanes' problems a refusal lists before "and N more". */
const MAX_LANE_PROBLEMS = 10;

/**
 * A refused save's field errors ("L0001.transitDays": "Transit Time (days) is required") as one line per problem,
 * each naming its lane, so the BA can find the cell among thousands of lanes; null when the errors are not per lane.
 */
export function laneProblemsText(fieldErrors: Readonly<Record<string, string>>): string | null {
  const problems = Object.entries(fieldErrors)
    .filter(([key]) => /^L\d+(\.|$)/.test(key))
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([key, message]) => `Lane ${key.split('.')[0]}: ${message}`);
  if (problems.length === 0) return null;
  const shown = problems.slice(0, MAX_LANE_PROBLEMS);
  if (problems.length > shown.length) shown.push(`…and ${problems.length - shown.length} more`);
  return shown.join('\n');
}
