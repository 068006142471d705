import type { Writable } from 'node:stream';
import { checkQuotes, MAX_LANES, normaliseCell } from '../../../domain/src/rfp/lanes';
import { rfpMessages } from '../../../domain/src/rfp/messages';
import type { Lane, LaneColumn, LaneQuote } from '../../../domain/src/rfp/model';
import { bidColumns } from './bid-template';
import { dataRows, sheetFailure, writeUploadErrors, type UploadFailure } from './lane-upload';
import { workbookMessages } from './messages';
import {
  LANE_ID_COLUMN,
  matchHeaders,
  readUploadedSheet,
  UnreadableUploadError,
  withLabel,
  type Cell,
  type UploadedRowResult,
} from './sheet-io';

/**
 * Reading a BA's bid (the bid template, filled). The lane id says which lane a row quotes; the BA columns are
 * the quote, checked by the domain's rules (checkQuotes: a row left empty withdraws the BA's quote for that lane,
 * a row with any value must fill every required BA column). The MLL columns may be left out, but where they are
 * there they must still describe the lane: a changed lane cell is an error, not ignored, because it is the sign
 * of a row moved or overtyped, whose quote would otherwise land on a lane the BA did not mean.
 */
export type BidUploadResult = { ok: true; quotes: Record<string, LaneQuote> } | UploadFailure;

export type BidUploadOptions = {
  /** The RFP's required flag isRequiredByBa: every lane must be quoted (spec "not shown"; masters notes). */
  quoteEveryLane?: boolean;
};

/** Two cells say the same: equal text, or for a number column the same number ("1200" and "1200.00"). */
const sameValue = (column: LaneColumn, a: string | null, b: string | null): boolean => {
  if (a === b) return true;
  if (a === null || b === null || column.type !== 'number') return false;
  const x = Number(a);
  return Number.isFinite(x) && x === Number(b);
};

export async function readBidUpload(
  columns: readonly LaneColumn[],
  lanes: readonly Lane[],
  bytes: Buffer,
  options: BidUploadOptions = {},
): Promise<BidUploadResult> {
  const { mll, ba } = bidColumns(columns);
  let sheet;
  try {
    sheet = await readUploadedSheet(bytes, MAX_LANES);
  } catch (error) {
    if (error instanceof UnreadableUploadError) return sheetFailure(rfpMessages.invalidExcel);
    throw error;
  }
  const { headers } = sheet;
  const rows = dataRows(headers, sheet.rows);
  if (sheet.overflow) return sheetFailure(rfpMessages.tooManyLanes(MAX_LANES), headers);
  if (rows.length === 0) return sheetFailure(rfpMessages.noQuotes, headers);

  const { index, unknown, repeated } = matchHeaders(headers, [LANE_ID_COLUMN, ...mll.map((c) => c.label), ...ba.map((c) => c.label)]);
  const missing = [LANE_ID_COLUMN, ...ba.map((c) => c.label)].filter((label) => !index.has(label));
  if (missing.length > 0) return sheetFailure(workbookMessages.missingColumns(missing), headers, rows);
  if (repeated.length > 0) return sheetFailure(workbookMessages.repeatedColumn(headers[repeated[0]!] ?? ''), headers, rows);
  if (unknown.length > 0) return sheetFailure(workbookMessages.unknownColumns(unknown.map((i) => headers[i] ?? '')), headers, rows);

  const laneById = new Map(lanes.map((l) => [l.laneId, l]));
  const laneIdAt = index.get(LANE_ID_COLUMN)!;
  const quotes: Record<string, LaneQuote> = {};
  const rowOfLane = new Map<string, number>();
  const results: UploadedRowResult[] = rows.map((row, r) => {
    const errors: string[] = [];
    const badCells: number[] = [];
    const fail = (message: string, at: number | undefined) => {
      errors.push(message);
      if (at !== undefined) badCells.push(at);
    };
    const laneId = normaliseCell(row.cells[laneIdAt]);
    const lane = laneId === null ? undefined : laneById.get(laneId);
    if (laneId === null) fail(rfpMessages.requiredValue(LANE_ID_COLUMN), laneIdAt);
    else if (!lane) fail(rfpMessages.unknownLane(laneId), laneIdAt);
    else if (rowOfLane.has(laneId)) fail(workbookMessages.repeatedLane(laneId), laneIdAt);
    if (laneId === null || !lane || errors.length > 0) return { ...row, errors, badCells };
    rowOfLane.set(laneId, r);
    for (const c of mll) {
      const at = index.get(c.label);
      if (at !== undefined && !sameValue(c, normaliseCell(row.cells[at]), lane.values[c.key] ?? null))
        fail(workbookMessages.laneChanged(c.label, laneId), at);
    }
    const quote: LaneQuote = {};
    for (const c of ba) quote[c.key] = normaliseCell(row.cells[index.get(c.label)!]);
    quotes[laneId] = quote;
    return { ...row, errors, badCells };
  });

  // The BA cells, by the domain's rule for a quote, reported on the row of their lane.
  const checked = checkQuotes(ba, new Set(laneById.keys()), quotes);
  for (const [laneId, r] of rowOfLane) {
    for (const c of ba) {
      const problem = checked.errors[`${laneId}.${c.key}`];
      if (problem) {
        results[r]!.errors.push(withLabel(c.label, problem));
        results[r]!.badCells.push(index.get(c.label)!);
      }
    }
  }

  let sheetError: string | null = null;
  if (options.quoteEveryLane) {
    const unquoted = lanes.filter((l) => checked.value[l.laneId] === undefined || checked.value[l.laneId] === null).map((l) => l.laneId);
    if (unquoted.length > 0) {
      sheetError = workbookMessages.everyLane(unquoted);
      for (const laneId of unquoted) {
        const r = rowOfLane.get(laneId);
        const message = workbookMessages.everyLane([laneId]);
        if (r !== undefined) results[r]!.errors.push(message);
        else results.push(missingLaneRow(laneById.get(laneId)!, mll, index, headers.length, message));
      }
    }
  }

  const failedRows = results.filter((r) => r.errors.length > 0).length;
  if (failedRows > 0) return { ok: false, sheetError, headers, rows: results, failedRows };
  return { ok: true, quotes };
}

/** A lane the sheet left out, as a row of the error workbook (lane id and details filled), so it can be quoted there. */
function missingLaneRow(lane: Lane, mll: readonly LaneColumn[], index: Map<string, number>, width: number, message: string): UploadedRowResult {
  const cells: Cell[] = new Array<Cell>(width).fill(null);
  cells[index.get(LANE_ID_COLUMN)!] = lane.laneId;
  for (const c of mll) {
    const at = index.get(c.label);
    if (at !== undefined) cells[at] = lane.values[c.key] ?? null;
  }
  return { number: 0, cells, errors: [message], badCells: [] };
}

/** 'RFPTemplateErrorBA-{rfpCode}.xlsx': the uploaded bid again, each failed row's problems in an "Errors" column. */
export async function writeBidErrorWorkbook(failure: UploadFailure, out: Writable): Promise<void> {
  await writeUploadErrors(failure, out);
}
