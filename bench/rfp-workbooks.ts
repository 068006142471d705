import { PassThrough, Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { laneIdOf } from '../domain/src/rfp/lanes';
import type { Lane, LaneColumn, LaneQuote } from '../domain/src/rfp/model';
import { readBidUpload } from '../api/src/rfp-workbooks/bid-upload';
import { writeBidTemplate } from '../api/src/rfp-workbooks/bid-template';
import { writeLaneTemplate } from '../api/src/rfp-workbooks/lane-template';
import type { Row } from './group';

/**
 * The `rfp-workbooks` group of `npm run bench` (issue 10; `--only=rfp-workbooks`, RFP_WORKBOOKS_BENCH_N lanes,
 * default 5,000): in this process, no servers. Figures, each the median of several runs after a warm-up, beside a
 * baseline measured in the same run:
 * - the step-3 template with 5,000 lanes (writeLaneTemplate: text format, dropdowns, Options sheet) and the BA's
 *   bid template (writeBidTemplate: locked grey lane cells, protection) beside a plain exceljs streaming write of
 *   the same cells (no styles, no validations); goal ≤ 1 s;
 * - a 5,000-lane bid parsed and validated (readBidUpload: lean reader, header match, lane checks, the domain's
 *   quote rules) beside a plain exceljs streaming read of the same file, every cell touched; goal ≤ 2 s.
 * Printed, not asserted.
 */
const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** The seeded rfp-properties a standard RFP uses (reference data): 7 MLL and 6 BA columns. */
const COLUMNS: LaneColumn[] = [
  { key: 'fromCity', label: 'From City', owner: 'mll', type: 'text', required: true },
  { key: 'toCity', label: 'To City', owner: 'mll', type: 'text', required: true },
  { key: 'vehicleType', label: 'Vehicle Type', owner: 'mll', type: 'select', options: ['32 FT MXL', '20 FT SXL', '40 FT Trailer'], required: true },
  { key: 'distanceKm', label: 'Distance (km)', owner: 'mll', type: 'number', required: true },
  { key: 'tripsPerMonth', label: 'Trips per Month', owner: 'mll', type: 'number', required: true },
  { key: 'loadTonnes', label: 'Load (tonnes)', owner: 'mll', type: 'number', required: false },
  { key: 'materialType', label: 'Material Type', owner: 'mll', type: 'select', options: ['FMCG', 'Steel', 'Cement', 'Other'], required: false },
  { key: 'ratePerTrip', label: 'Rate per Trip (INR)', owner: 'ba', type: 'number', required: true },
  { key: 'ratePerKm', label: 'Rate per km (INR)', owner: 'ba', type: 'number', required: false },
  { key: 'transitDays', label: 'Transit Time (days)', owner: 'ba', type: 'number', required: true },
  { key: 'vehiclesAvailable', label: 'Vehicles Available', owner: 'ba', type: 'number', required: true },
  { key: 'detentionPerDay', label: 'Detention per Day (INR)', owner: 'ba', type: 'number', required: false },
  { key: 'remarks', label: 'Remarks', owner: 'ba', type: 'text', required: false },
];
const CITIES = ['Mumbai', 'Pune', 'Chennai', 'Bengaluru', 'Delhi', 'Jaipur', 'Kolkata', 'Nagpur', 'Surat', 'Indore'];

const lanesOf = (n: number): Lane[] =>
  Array.from({ length: n }, (_, i) => ({
    laneId: laneIdOf(i),
    values: {
      fromCity: CITIES[i % 10]!,
      toCity: `${CITIES[(i * 7 + 3) % 10]} ${i}`,
      vehicleType: i % 3 === 0 ? '20 FT SXL' : '32 FT MXL',
      distanceKm: String(100 + (i % 1500)),
      tripsPerMonth: String(1 + (i % 30)),
      loadTonnes: i % 4 === 0 ? null : '12.5',
      materialType: i % 2 === 0 ? 'FMCG' : 'Steel',
    },
  }));
const quotesOf = (lanes: readonly Lane[]): Record<string, LaneQuote> =>
  Object.fromEntries(
    lanes.map((l, i) => [
      l.laneId,
      {
        ratePerTrip: String(20_000 + i),
        ratePerKm: '42.50',
        transitDays: String(1 + (i % 5)),
        vehiclesAvailable: '3',
        detentionPerDay: null,
        remarks: i % 10 === 0 ? 'Night driving only' : null,
      },
    ]),
  );

async function bytesOf(write: (out: Writable) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await write(out);
  return Buffer.concat(chunks);
}

/** Median ms of `runs` timed runs after one warm-up. */
async function medianMs(runs: number, work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** The same cells written by exceljs' streaming writer with nothing of ours: no styles, validations or escaping. */
async function plainWrite(header: string[], rows: (string | null)[][], out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet('Lanes');
  ws.addRow(header).commit();
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  await wb.commit();
}

/** exceljs' streaming reader over the file, every cell touched (the baseline for parsing). */
async function plainRead(bytes: Buffer): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let cells = 0;
  for await (const ws of reader)
    for await (const row of ws as AsyncIterable<ExcelJS.Row>)
      for (const v of row.values as unknown[]) if (v !== undefined && v !== null) cells += 1;
  return cells;
}

export async function rfpWorkbookFigures(options: { quick: boolean; row: Row; n?: number }): Promise<void> {
  const n = options.n ?? 5_000;
  const runs = options.quick ? 3 : 7;
  console.log(`\nrfp-workbooks (${n} lanes, median of ${runs})`);
  const lanes = lanesOf(n);
  const quotes = quotesOf(lanes);
  const mll = COLUMNS.filter((c) => c.owner === 'mll');
  const ba = COLUMNS.filter((c) => c.owner === 'ba');

  const laneRows = lanes.map((l) => mll.map((c) => l.values[c.key] ?? null));
  const plainLanes = await medianMs(runs, () => bytesOf((out) => plainWrite(mll.map((c) => c.label), laneRows, out)));
  const template = await medianMs(runs, () => bytesOf((out) => writeLaneTemplate(COLUMNS, lanes, out)));
  options.row(
    `lane template with data, ${n} lanes × ${mll.length} columns (writeLaneTemplate)`,
    `${fmt(template)} ms`,
    '≤ 1,000 ms',
    `plain exceljs streaming write of the same cells: ${fmt(plainLanes)} ms`,
    `ratio ${fmt(template / plainLanes, 2)}`,
  );

  const bidRows = lanes.map((l) => [l.laneId, ...mll.map((c) => l.values[c.key] ?? null), ...ba.map((c) => quotes[l.laneId]?.[c.key] ?? null)]);
  const bidHeader = ['Lane ID', ...COLUMNS.map((c) => c.label)];
  const plainBid = await medianMs(runs, () => bytesOf((out) => plainWrite(bidHeader, bidRows, out)));
  const bidTemplate = await medianMs(runs, () => bytesOf((out) => writeBidTemplate(COLUMNS, lanes, quotes, out)));
  options.row(
    `BA bid template with saved quotes, ${n} lanes × ${bidHeader.length} columns (writeBidTemplate)`,
    `${fmt(bidTemplate)} ms`,
    '≤ 1,000 ms',
    `plain exceljs streaming write of the same cells: ${fmt(plainBid)} ms`,
    `ratio ${fmt(bidTemplate / plainBid, 2)}`,
  );

  const bid = await bytesOf((out) => writeBidTemplate(COLUMNS, lanes, quotes, out));
  const check = await readBidUpload(COLUMNS, lanes, bid);
  if (!check.ok || Object.keys(check.quotes).length !== n) throw new Error('the bench bid did not validate');
  const plain = await medianMs(runs, () => plainRead(bid));
  const parse = await medianMs(runs, () => readBidUpload(COLUMNS, lanes, bid));
  options.row(
    `BA bid of ${n} lanes parsed and validated (readBidUpload, ${(bid.length / 1024).toFixed(0)} KiB)`,
    `${fmt(parse)} ms`,
    '≤ 2,000 ms',
    `plain exceljs streaming read of the same file, every cell touched: ${fmt(plain)} ms`,
    `ratio ${fmt(parse / plain, 2)}`,
  );
}
