import type { Writable } from 'node:stream';
import { MAX_LANES } from '../../../domain/src/rfp/lanes';
import type { Lane, LaneColumn } from '../../../domain/src/rfp/model';
import { safeCell } from '../../../platform/src/workbooks/safe-cell';
import {
  addDropdowns,
  columnWidth,
  LANES_SHEET,
  newWorkbookWriter,
  selectColumns,
  templateRows,
  writeOptionsSheet,
} from './sheet-io';

/** The columns staff fill in step 3: the MLL properties, in the order chosen. BA columns are the BAs' to fill. */
export const laneTemplateColumns = (columns: readonly LaneColumn[]): LaneColumn[] => columns.filter((c) => c.owner === 'mll');

/**
 * The step-3 lane template ('RFP Template_-{customer}-{date}.xlsx'), or with `lanes` the "template with data"
 * ('TemplateWithData-{rfpCode}.xlsx'): a "Lanes" sheet with a bold header row of the MLL columns' labels, one row
 * per lane, and a dropdown on every select column (its options on an "Options" sheet). Every column is formatted
 * as text, so a typed "007" or "12.50" comes back as typed; every cell written goes through safeCell.
 */
export async function writeLaneTemplate(columns: readonly LaneColumn[], lanes: readonly Lane[] | undefined, out: Writable): Promise<void> {
  const mll = laneTemplateColumns(columns);
  const wb = newWorkbookWriter(out);
  const ws = wb.addWorksheet(LANES_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = mll.map((c) => ({ header: safeCell(c.label), key: c.key, width: columnWidth(c.label), style: { numFmt: '@' } }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  const selects = selectColumns(mll, 0);
  addDropdowns(ws, selects, templateRows(MAX_LANES, lanes?.length ?? 0));
  for (const lane of lanes ?? []) ws.addRow(mll.map((c) => safeCell(lane.values[c.key] ?? null))).commit();
  ws.commit();
  writeOptionsSheet(wb, selects);
  await wb.commit();
}
