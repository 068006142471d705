import { z } from 'zod';
import { fieldErrors, messages, patterns, MAX_TEXT_LENGTH } from '../validation/fields';
import { rfpMessages } from './messages';
import { PROPERTY_KEY_PATTERN } from './rules';
import { STANDARD_LANE_KEYS, type Lane, type LaneColumn, type LaneQuote, type RfpStep2, type RfpType } from './model';

/**
 * The lane sheet's rules, shared by the decider (UploadLanes, SubmitLaneResponses), the Excel importers
 * (standard, non-standard and the BA bid) and the lane grid: one function per cell, so a value refused in the
 * grid is refused the same way in a sheet.
 */

/** A 5,000-lane sheet is the bench's size; twice that is the most one RFP takes. */
export const MAX_LANES = 10_000;
export const LANE_ID_PATTERN = /^L\d{4,6}$/;
/** 'L0001' for the first lane of a sheet. */
export const laneIdOf = (index: number): string => `L${String(index + 1).padStart(4, '0')}`;

const columnSchema = z
  .object({
    key: z.string().regex(PROPERTY_KEY_PATTERN),
    label: z
      .string()
      .trim()
      .min(1)
      .max(MAX_TEXT_LENGTH)
      .refine((v) => !patterns.forbiddenLeading.test(v)),
    owner: z.enum(['mll', 'ba']),
    type: z.enum(['text', 'number', 'select']),
    options: z
      .array(
        z
          .string()
          .trim()
          .min(1)
          .max(MAX_TEXT_LENGTH)
          .refine((v) => !patterns.forbiddenLeading.test(v)),
      )
      .max(500)
      .optional(),
    required: z.boolean(),
  })
  .refine((c) => c.type !== 'select' || (c.options?.length ?? 0) > 0, { error: 'A dropdown column needs its options', path: ['options'] });

export const headerDataSchema = z
  .array(columnSchema)
  .min(2)
  .max(200)
  .superRefine((columns, ctx) => {
    const seen = new Set<string>();
    columns.forEach((c, i) => {
      if (seen.has(c.key)) ctx.addIssue({ code: 'custom', message: `Column ${c.key} appears twice`, path: [i, 'key'] });
      seen.add(c.key);
    });
    for (const owner of ['mll', 'ba'] as const)
      if (!columns.some((c) => c.owner === owner))
        ctx.addIssue({ code: 'custom', message: `The sheet needs at least one ${owner === 'mll' ? 'MLL' : 'BA'} property column` });
  });

/** Why the columns are refused (`{ field: message }`), or null when they are fine for this RFP. */
export function headerDataProblems(headerData: unknown, step2: RfpStep2): Record<string, string> | null {
  const parsed = headerDataSchema.safeParse(headerData);
  if (!parsed.success) return fieldErrors(parsed.error);
  const columns = parsed.data;
  if (!columnsMatchStep2(columns, step2)) return { headerData: rfpMessages.columnsNotChosen };
  const missing = missingStandardKeys(columns, step2.rfpType);
  if (missing.length > 0) return { headerData: `A standard RFP's lanes need the columns ${missing.join(', ')}` };
  return null;
}

/** The sheet's columns are exactly the properties chosen in step 2, each with its owner. */
export function columnsMatchStep2(columns: readonly LaneColumn[], step2: RfpStep2): boolean {
  const keysOf = (owner: 'mll' | 'ba') =>
    columns
      .filter((c) => c.owner === owner)
      .map((c) => c.key)
      .sort()
      .join(',');
  return keysOf('mll') === [...step2.mllProperties].sort().join(',') && keysOf('ba') === [...step2.baProperties].sort().join(',');
}

/**
 * Standard and single RFPs are compared by location and vehicle, so their lanes must say where from, where to
 * and which vehicle; a non-standard RFP's lanes are free-form.
 */
export function missingStandardKeys(columns: readonly LaneColumn[], rfpType: RfpType): string[] {
  if (rfpType === 'non-standard') return [];
  return STANDARD_LANE_KEYS.filter((key) => !columns.some((c) => c.key === key && c.owner === 'mll'));
}

/** Sheets and forms arrive as JSON: a row that is not an object is read as a row of empty cells. */
const isRecord = (v: unknown): v is Record<string, string | null> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A cell as stored: trimmed, and an empty cell is null. */
export const normaliseCell = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  const v = String(value).trim();
  return v === '' ? null : v;
};

/** Why one cell's value is refused for its column, or null. `value` is already normalised. */
export function cellProblem(column: LaneColumn, value: string | null): string | null {
  if (value === null) return column.required ? rfpMessages.requiredValue(column.label) : null;
  if (value.length > MAX_TEXT_LENGTH) return messages.tooLong;
  switch (column.type) {
    case 'number':
      return patterns.amount.test(value) ? null : rfpMessages.numberValue(column.label);
    case 'select':
      return (column.options ?? []).includes(value) ? null : rfpMessages.optionValue(column.label);
    case 'text':
      return patterns.forbiddenLeading.test(value) ? messages.leadingCharacter : null;
    default: {
      const never: never = column.type;
      return never;
    }
  }
}

export type LaneCheck<T> = { value: T; errors: Record<string, string> };

/**
 * Lanes of an upload: ids unique and well formed, only MLL columns, every cell valid for its column. Errors
 * are keyed `<laneId>.<key>` (or `lanes.<index>` for a bad lane), the shape the error sheet marks cells with.
 */
export function checkLanes(columns: readonly LaneColumn[], lanes: readonly Lane[]): LaneCheck<Lane[]> {
  const errors: Record<string, string> = {};
  if (lanes.length === 0) return { value: [], errors: { lanes: rfpMessages.sheetEmpty } };
  if (lanes.length > MAX_LANES) return { value: [], errors: { lanes: rfpMessages.tooManyLanes(MAX_LANES) } };
  const mll = columns.filter((c) => c.owner === 'mll');
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const seen = new Set<string>();
  const value: Lane[] = [];
  lanes.forEach((lane, index) => {
    if (typeof lane?.laneId !== 'string' || !LANE_ID_PATTERN.test(lane.laneId) || seen.has(lane.laneId)) {
      errors[`lanes.${index}`] = `Lane ${index + 1} needs its own lane id like ${laneIdOf(index)}`;
      return;
    }
    seen.add(lane.laneId);
    const cells: Readonly<Record<string, string | null>> = isRecord(lane.values) ? lane.values : {};
    for (const key of Object.keys(cells)) {
      if (byKey.get(key)?.owner !== 'mll') errors[`${lane.laneId}.${key}`] = rfpMessages.notMllColumn(key);
    }
    const values: Record<string, string | null> = {};
    for (const column of mll) {
      const cell = normaliseCell(cells[column.key]);
      const problem = cellProblem(column, cell);
      if (problem) errors[`${lane.laneId}.${column.key}`] = problem;
      values[column.key] = cell;
    }
    value.push({ laneId: lane.laneId, values });
  });
  return { value, errors };
}

/**
 * A BA's quotes: per lane its BA-property values. A lane whose cells are all empty withdraws the BA's quote
 * for it (null); a lane with any value must fill every required BA column.
 */
export function checkQuotes(
  columns: readonly LaneColumn[],
  laneIds: ReadonlySet<string>,
  quotes: Readonly<Record<string, Readonly<Record<string, string | null>>>>,
): LaneCheck<Record<string, LaneQuote | null>> {
  const errors: Record<string, string> = {};
  const entries = Object.entries(quotes);
  if (entries.length === 0) return { value: {}, errors: { quotes: rfpMessages.noQuotes } };
  const ba = columns.filter((c) => c.owner === 'ba');
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const value: Record<string, LaneQuote | null> = {};
  for (const [laneId, given] of entries) {
    if (!laneIds.has(laneId)) {
      errors[laneId] = rfpMessages.unknownLane(laneId);
      continue;
    }
    const cells: Readonly<Record<string, string | null>> = isRecord(given) ? given : {};
    for (const key of Object.keys(cells)) {
      if (byKey.get(key)?.owner !== 'ba') errors[`${laneId}.${key}`] = rfpMessages.notBaColumn(key);
    }
    const quote: LaneQuote = {};
    for (const column of ba) quote[column.key] = normaliseCell(cells[column.key]);
    if (Object.values(quote).every((v) => v === null)) {
      value[laneId] = null;
      continue;
    }
    for (const column of ba) {
      const problem = cellProblem(column, quote[column.key] ?? null);
      if (problem) errors[`${laneId}.${column.key}`] = problem;
    }
    value[laneId] = quote;
  }
  return { value, errors };
}
