import type { Writable } from 'node:stream';
import { patterns } from '../../../domain/src/validation/fields';
import type { Lane, LaneColumn, LaneQuote } from '../../../domain/src/rfp/model';
import { safeCell } from '../../../platform/src/workbooks/safe-cell';
import { bidColumns } from './bid-template';
import { columnLetter, columnWidth, GREY_FILL, LANE_ID_COLUMN, newWorkbookWriter } from './sheet-io';

/**
 * Staff's downloads of the responses: the quote matrix ('BA Quote-Matrix format-{rfpCode}.xlsx') and the
 * vehicle availability sheet. Reports for people, not templates: numbers are written as numbers (Excel sums and
 * sorts them) and the lowest rate of each lane is marked.
 */
export type BaResponse = { baId: string; baName: string; quotes: Readonly<Record<string, LaneQuote | null>> };

/** "The rate" a lane is won on (spec: not shown): the first number BA column, e.g. ratePerTrip; null if there is none. */
export const rateColumnOf = (columns: readonly LaneColumn[]): LaneColumn | null =>
  columns.find((c) => c.owner === 'ba' && c.type === 'number') ?? null;

/** The BA column the vehicle-availability sheet reports (the rfp-properties master's key). */
export const VEHICLES_AVAILABLE_KEY = 'vehiclesAvailable';
export const availabilityColumnOf = (columns: readonly LaneColumn[]): LaneColumn | null =>
  columns.find((c) => c.owner === 'ba' && c.key === VEHICLES_AVAILABLE_KEY) ?? null;

/** Our name for the vehicle-availability download (spec §7 lists the download but not its file name). */
export const vehicleAvailabilityFileName = (rfpCode: string) => `VehicleAvailability-${rfpCode}.xlsx`;

const BEST_FILL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFC6EFCE' } } as const;
export const LOWEST_RATE_HEADER = (label: string) => `Lowest ${label}`;
export const LOWEST_BY_HEADER = 'Lowest by';

/** A value as its cell: a valid amount of a number column as a number, anything else formula-safe text. */
const valueCell = (column: LaneColumn, value: string | null | undefined): string | number | null => {
  if (value === null || value === undefined) return null;
  return column.type === 'number' && patterns.amount.test(value) ? Number(value) : (safeCell(value) as string);
};

/** The lowest valid rate of a lane and the BAs who quoted it (ties: all of them). */
function lowestRate(rate: LaneColumn | null, laneId: string, responses: readonly BaResponse[]): { rate: number; baIds: Set<string> } | null {
  if (!rate) return null;
  let best: { rate: number; baIds: Set<string> } | null = null;
  for (const r of responses) {
    const v = r.quotes[laneId]?.[rate.key];
    if (v === null || v === undefined || !patterns.amount.test(v)) continue;
    const n = Number(v);
    if (!best || n < best.rate) best = { rate: n, baIds: new Set([r.baId]) };
    else if (n === best.rate) best.baIds.add(r.baId);
  }
  return best;
}

/**
 * One row per lane: the lane id and MLL columns, then per BA its BA-column values under the BA's name (a header
 * row of BA names merged over their columns, a row of column labels below), then the lowest rate and who quoted
 * it; the lowest rate's cell is shaded green in each BA group that has it.
 */
export async function writeQuoteMatrix(
  columns: readonly LaneColumn[],
  lanes: readonly Lane[],
  responses: readonly BaResponse[],
  out: Writable,
): Promise<void> {
  const { mll, ba } = bidColumns(columns);
  const rate = rateColumnOf(columns);
  const wb = newWorkbookWriter(out);
  const ws = wb.addWorksheet('Quote Matrix', { views: [{ state: 'frozen', ySplit: 2, xSplit: 1 }] });
  const laneWidth = 1 + mll.length;
  const tail = rate ? [LOWEST_RATE_HEADER(rate.label), LOWEST_BY_HEADER] : [];
  ws.columns = [
    { width: 12 },
    ...mll.map((c) => ({ width: columnWidth(c.label) })),
    ...responses.flatMap(() => ba.map((c) => ({ width: columnWidth(c.label) }))),
    ...tail.map((t) => ({ width: columnWidth(t) })),
  ];
  const groups = ws.addRow([
    safeCell(LANE_ID_COLUMN),
    ...mll.map((c) => safeCell(c.label)),
    ...responses.flatMap((r) => ba.map((_, i) => (i === 0 ? safeCell(r.baName) : null))),
    ...tail.map((t) => safeCell(t)),
  ]);
  groups.font = { bold: true };
  const labels = ws.addRow([null, ...mll.map(() => null), ...responses.flatMap(() => ba.map((c) => safeCell(c.label))), ...tail.map(() => null)]);
  labels.font = { bold: true };
  // Lane and tail headers span both header rows; each BA's name spans its columns (merged before the rows are committed).
  const total = laneWidth + responses.length * ba.length + tail.length;
  for (let i = 0; i < laneWidth; i += 1) ws.mergeCells(`${columnLetter(i)}1:${columnLetter(i)}2`);
  for (let i = total - tail.length; i < total; i += 1) ws.mergeCells(`${columnLetter(i)}1:${columnLetter(i)}2`);
  if (ba.length > 1)
    responses.forEach((_, g) => {
      const from = laneWidth + g * ba.length;
      ws.mergeCells(`${columnLetter(from)}1:${columnLetter(from + ba.length - 1)}1`);
    });
  groups.commit();
  labels.commit();

  const nameOf = new Map(responses.map((r) => [r.baId, r.baName]));
  const rateAt = rate ? ba.indexOf(rate) : -1;
  for (const lane of lanes) {
    const best = lowestRate(rate, lane.laneId, responses);
    const row = ws.addRow([
      safeCell(lane.laneId),
      ...mll.map((c) => valueCell(c, lane.values[c.key])),
      ...responses.flatMap((r) => ba.map((c) => valueCell(c, r.quotes[lane.laneId]?.[c.key]))),
      ...(rate ? [best ? best.rate : null, best ? safeCell([...best.baIds].map((id) => nameOf.get(id) ?? id).join(', ')) : null] : []),
    ]);
    for (let i = 0; i < laneWidth; i += 1) row.getCell(i + 1).fill = GREY_FILL;
    if (best)
      responses.forEach((r, g) => {
        if (best.baIds.has(r.baId)) {
          const cell = row.getCell(laneWidth + g * ba.length + rateAt + 1);
          cell.fill = BEST_FILL;
          cell.font = { bold: true };
        }
      });
    row.commit();
  }
  ws.commit();
  await wb.commit();
}

/**
 * Per lane (id and MLL columns) the vehicles each BA says it has (the vehiclesAvailable BA column), and their
 * total. Throws when the RFP has no such column (the caller answers 404: there is nothing to report).
 */
export async function writeVehicleAvailability(
  columns: readonly LaneColumn[],
  lanes: readonly Lane[],
  responses: readonly BaResponse[],
  out: Writable,
): Promise<void> {
  const availability = availabilityColumnOf(columns);
  if (!availability) throw new Error(`The RFP has no ${VEHICLES_AVAILABLE_KEY} column`);
  const { mll } = bidColumns(columns);
  const wb = newWorkbookWriter(out);
  const ws = wb.addWorksheet('Vehicle Availability', { views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }] });
  const headers = [LANE_ID_COLUMN, ...mll.map((c) => c.label), ...responses.map((r) => r.baName), 'Total'];
  ws.columns = headers.map((h) => ({ header: safeCell(h), width: columnWidth(h) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for (const lane of lanes) {
    const counts = responses.map((r) => valueCell(availability, r.quotes[lane.laneId]?.[availability.key]));
    const numbers = counts.filter((v): v is number => typeof v === 'number');
    ws.addRow([
      safeCell(lane.laneId),
      ...mll.map((c) => valueCell(c, lane.values[c.key])),
      ...counts,
      numbers.length > 0 ? numbers.reduce((a, b) => a + b, 0) : null,
    ]).commit();
  }
  ws.commit();
  await wb.commit();
}
