import {
  columnsOf,
  massUploadMessages as m,
  type ColumnRule,
  type MassUploadField,
  type MassUploadKind,
  type MassUploadSheet,
  type MassUploadValues,
} from './columns';

/** Header text as compared: case and spacing do not matter ("e-mailid " = "E-MailId"). */
export const headerKey = (h: unknown): string =>
  String(h ?? '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

export type HeaderCheck =
  | { ok: true; /** column index (0-based) of each field the sheet has */ index: Partial<Record<MassUploadField, number>> }
  | { ok: false; message: string };

/**
 * The sheet-level rules of spec 000 §5, in this order: a sheet without data rows, a header cell left empty
 * (between headers, or above a column holding data), a mandatory column missing. Unknown columns (the error
 * workbook's "Errors") are ignored, so a corrected error workbook can be uploaded as it is.
 */
export function checkHeaders(
  kind: MassUploadKind,
  sheet: MassUploadSheet,
  headers: readonly unknown[],
  options: { rows: number; dataColumns?: readonly number[] },
): HeaderCheck {
  if (options.rows === 0) return { ok: false, message: m.noRows };
  const keys = headers.map(headerKey);
  const last = keys.reduce((acc, k, i) => (k === '' ? acc : i), -1);
  if (last < 0) return { ok: false, message: m.noRows };
  if (keys.slice(0, last).some((k) => k === '') || (options.dataColumns ?? []).some((i) => (keys[i] ?? '') === ''))
    return { ok: false, message: m.emptyHeader };
  const index: Partial<Record<MassUploadField, number>> = {};
  for (const col of columnsOf(kind, sheet)) {
    const i = keys.indexOf(headerKey(col.column));
    if (i >= 0) index[col.field] = i;
    else if (col.mandatory) return { ok: false, message: m.missingColumn };
  }
  return { ok: true, index };
}

/** One row's raw text per field (trimmed; '' or null when the cell is empty). */
export type RawRow = Partial<Record<MassUploadField, string | null>>;

export type RowCheck = { values: MassUploadValues; errors: string[] };

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/** Every column rule of §5 on one row: mandatory, dependent-mandatory, pattern; then the cross-field rules. */
export function checkRow(kind: MassUploadKind, sheet: MassUploadSheet, raw: RawRow): RowCheck {
  const rules = columnsOf(kind, sheet);
  const values: MassUploadValues = {};
  const errors: string[] = [];
  const text = (r: ColumnRule): string | null => {
    const v = raw[r.field];
    if (!present(v)) return null;
    const t = v.trim();
    return r.upperCase ? t.toUpperCase() : t;
  };
  for (const r of rules) {
    const v = text(r);
    if (v === null) {
      if (r.mandatory) errors.push(m.required(r.column));
      else if (r.dependsOn && present(raw[r.dependsOn])) {
        const on = rules.find((x) => x.field === r.dependsOn)!;
        errors.push(m.requiredWith(r.column, on.column));
      }
      continue;
    }
    if (!r.pattern.test(v)) {
      errors.push(m.pattern(r.column, r.describe));
      continue;
    }
    values[r.field] = v;
  }
  if (values.exemptionFrom && values.exemptionTo && values.exemptionTo < values.exemptionFrom) errors.push(m.exemptionDates);
  if (values.gstin && values.pan && !values.gstin.includes(values.pan)) errors.push(m.gstinPan);
  if (values.gstin && values.region && !values.gstin.startsWith(values.region)) errors.push(m.gstinRegion);
  return { values, errors };
}

/** The key a parent row is identified by (one vendor per PAN and company code). */
export const parentKey = (v: MassUploadValues): string => `${v.pan ?? ''}|${v.companyCode ?? ''}`;
/** The key a child row is identified by (one child per GST state of a parent). */
export const childKey = (v: MassUploadValues): string => `${v.pan ?? ''}|${v.companyCode ?? ''}|${v.region ?? ''}`;

/**
 * The rules across rows, fed one row at a time as the workbook streams: the same parent twice ("Same PAN Number
 * and Company Code as row N", the first one stands), the same child twice, and (nucleus) a child whose parent
 * is neither in the Parent sheet nor named by its Parent Vendor Code. A nucleus child read before its parent
 * row is 'waiting' until `unresolved()` (called once every row was read) says whether its parent came.
 * Rows that failed their own checks are not fed (their keys are not trustworthy), except that every parent
 * row's key counts as present for the child rule.
 */
export function acrossRows(kind: MassUploadKind) {
  const parentAt = new Map<string, number>();
  const childAt = new Map<string, number>();
  const parentsSeen = new Set<string>();
  const waiting: { number: number; key: string }[] = [];
  return {
    /** Any parent row (also a failed one): its key satisfies children of the same PAN and company code. */
    parentSeen(values: MassUploadValues): void {
      parentsSeen.add(parentKey(values));
    },
    /** A parent row that passed its own checks: an error message, or null. */
    parent(number: number, values: MassUploadValues): string | null {
      const k = parentKey(values);
      parentsSeen.add(k);
      const first = parentAt.get(k);
      if (first !== undefined) return m.duplicate(first);
      parentAt.set(k, number);
      return null;
    },
    /** A child row that passed its own checks: an error message, null, or 'waiting' for its parent row. */
    child(number: number, values: MassUploadValues): string | null | 'waiting' {
      const k = childKey(values);
      const first = childAt.get(k);
      if (first !== undefined) return m.duplicateChild(first);
      childAt.set(k, number);
      if (kind !== 'nucleus' || values.parentVendorCode || parentsSeen.has(parentKey(values))) return null;
      waiting.push({ number, key: parentKey(values) });
      return 'waiting';
    },
    /** After every row: the numbers of the waiting children whose parent row never came (m.noParent). */
    unresolved(): Set<number> {
      return new Set(waiting.filter((w) => !parentsSeen.has(w.key)).map((w) => w.number));
    },
  };
}

/** The rules across rows over whole sheets (parents first): pushes each row's messages onto its errors. */
export function checkAcrossRows(
  kind: MassUploadKind,
  parents: readonly { number: number; check: RowCheck }[],
  children: readonly { number: number; check: RowCheck }[],
): void {
  const across = acrossRows(kind);
  for (const p of parents) {
    across.parentSeen(p.check.values);
    if (p.check.errors.length > 0) continue;
    const error = across.parent(p.number, p.check.values);
    if (error) p.check.errors.push(error);
  }
  for (const c of children) {
    if (c.check.errors.length > 0) continue;
    const error = across.child(c.number, c.check.values);
    if (error && error !== 'waiting') c.check.errors.push(error);
  }
  const orphans = across.unresolved();
  for (const c of children) if (orphans.has(c.number)) c.check.errors.push(m.noParent);
}
