import type { Writable } from 'node:stream';
import type { Lane, LaneColumn, LaneQuote } from '../../../domain/src/rfp/model';
import { safeCell } from '../../../platform/src/workbooks/safe-cell';
import {
  addDropdowns,
  columnWidth,
  GREY_FILL,
  LANE_ID_COLUMN,
  LANES_SHEET,
  newWorkbookWriter,
  selectColumns,
  templateRows,
  writeOptionsSheet,
} from './sheet-io';

/** The bid sheet's columns in order: the lane id, the lane's MLL columns, then the BA columns the BA fills. */
export const bidColumns = (columns: readonly LaneColumn[]) => ({
  mll: columns.filter((c) => c.owner === 'mll'),
  ba: columns.filter((c) => c.owner === 'ba'),
});

/**
 * The BA's bid template ('BABidTemplate1-{rfpCode}.xlsx'): one row per lane of the RFP, its lane id and MLL
 * columns greyed and locked, the BA columns editable (text format, dropdowns for select columns) and filled with
 * the BA's saved quotes. The sheet is protected without a password: the lock keeps a BA from overtyping a lane by
 * accident, not from unprotecting it on purpose — the upload checks the lane cells anyway (readBidUpload).
 */
export async function writeBidTemplate(
  columns: readonly LaneColumn[],
  lanes: readonly Lane[],
  quotes: Readonly<Record<string, LaneQuote | null>> | undefined,
  out: Writable,
): Promise<void> {
  const { mll, ba } = bidColumns(columns);
  const wb = newWorkbookWriter(out);
  const ws = wb.addWorksheet(LANES_SHEET, { views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }] });
  const locked = { fill: GREY_FILL, protection: { locked: true }, numFmt: '@' };
  const editable = { protection: { locked: false }, numFmt: '@' };
  ws.columns = [
    { header: LANE_ID_COLUMN, key: '#laneId', width: 12, style: locked },
    ...mll.map((c) => ({ header: safeCell(c.label), key: `mll.${c.key}`, width: columnWidth(c.label), style: locked })),
    ...ba.map((c) => ({ header: safeCell(c.label), key: `ba.${c.key}`, width: columnWidth(c.label), style: editable })),
  ];
  const header = ws.getRow(1);
  header.font = { bold: true };
  header.eachCell((cell) => {
    cell.protection = { locked: true };
  });
  header.commit();
  const selects = selectColumns(ba, 1 + mll.length);
  addDropdowns(ws, selects, templateRows(lanes.length, lanes.length));
  for (const lane of lanes) {
    const quote = quotes?.[lane.laneId] ?? null;
    ws.addRow([
      safeCell(lane.laneId),
      ...mll.map((c) => safeCell(lane.values[c.key] ?? null)),
      ...ba.map((c) => safeCell(quote?.[c.key] ?? null)),
    ]).commit();
  }
  // Sorting and filtering stay allowed so a BA can find its lanes; inserting or deleting rows and columns does not.
  await ws.protect('', { selectLockedCells: true, selectUnlockedCells: true, formatColumns: true, autoFilter: true, sort: true });
  ws.commit();
  writeOptionsSheet(wb, selects);
  await wb.commit();
}
