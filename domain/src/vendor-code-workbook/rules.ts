import { patterns } from '../validation/fields';

/**
 * Utility/government and other-company vendor codes from workbooks (spec 000 §3 "Vendor-code upload workbook",
 * §5 "Vendor-code workbook rows"). Pure: the API reads the workbook into `WorkbookSheets`, `validateWorkbook`
 * answers every error row the "Validation Error" dialog lists, `vendorRows` turns a valid workbook into what
 * the ERP is asked to create.
 *
 * Every column has a rule `{column, mandatory, pattern, dependency?, dependentColumn?}`:
 * - mandatory and empty → "No Data Present";
 * - mandatory and failing its pattern → "No Data Present due to redex mismatch";
 * - optional, present and failing its pattern → the same mismatch message (the spec has no other);
 * - `dependency: true` with `dependentColumn: D`: the value (when present, or always when mandatory) is checked
 *   against D's pattern instead of a pattern of its own ("Mobile Number Dept" is a mobile number, "E-MailId"
 *   an e-mail id like "EmailidDept").
 * Child-sheet cross checks: the GSTIN starts with the Region value and contains the PAN; a company PAN (4th
 * character C) needs ZZCIN_NO. Reported row = data index + 2 (the header is row 1; blank rows are not data).
 */
export type WorkbookKind = 'utility' | 'other-company';
export const WORKBOOK_KINDS: readonly WorkbookKind[] = ['utility', 'other-company'];

export const PARENT_SHEET = 'Parent Sheet';
export const CHILD_SHEET = 'Child Sheet';
export type SheetName = typeof PARENT_SHEET | typeof CHILD_SHEET;
export const SHEET_NAMES: readonly SheetName[] = [PARENT_SHEET, CHILD_SHEET];

export type ColumnRule = {
  column: string;
  mandatory: boolean;
  /** null: only the dependent column's pattern applies (`dependency`). */
  pattern: RegExp | null;
  /** The value is checked against `dependentColumn`'s pattern. */
  dependency?: boolean;
  dependentColumn?: string;
};

export const workbookMessages = {
  // Spec 000 §5 "Vendor-code workbook rows", verbatim.
  noData: 'No Data Present',
  mismatch: 'No Data Present due to redex mismatch',
  regionMismatch: 'not matching with Region code',
  panMismatch: 'not matching with PAN',
  cinRequired: 'ZZCIN_No is mandatory for Company PAN Number',
  // Spec 000 §5 "Mass upload" (the same workbook messages the masters and mass uploads use).
  noRows: 'Please upload valid excel file or download template by clicking on download button',
  missingColumn: 'Column Not Found in the Excel check the template and upload again',
  emptyHeader: 'Upload the excel with proper template',
  // Ours: a row the file already has would create a second vendor.
  duplicateParent: (row: number) => `Same PAN Number and Company Code as row ${row}`,
  duplicateChild: (row: number) => `Same TaxNumber(GSTIN)-Number and Company Code as row ${row}`,
  tooManyRows: (max: number) => `A sheet may hold at most ${max} rows`,
  validationError: 'Validation Error',
} as const;

/**
 * A vendor-code workbook is a batch a person checks row by row on screen, not a mass upload (that is
 * mass-upload's job); the bound also keeps the run's Temporal history well below its limits (~20 history
 * events a row).
 */
export const MAX_SHEET_ROWS = 200;

// Column names (the spec names TaxNumber(GSTIN)-Number, PAN Number, ZZCIN_NO and EmailidDept).
export const COL = {
  companyCode: 'Company Code',
  purchaseOrganisation: 'Purchase Organisation',
  name: 'Name',
  street: 'Street/House No',
  city: 'City',
  postalCode: 'Postal Code',
  region: 'Region',
  country: 'Country',
  pan: 'PAN Number',
  cin: 'ZZCIN_NO',
  gstin: 'TaxNumber(GSTIN)-Number',
  mobile: 'Mobile Number',
  mobileDept: 'Mobile Number Dept',
  emailDept: 'EmailidDept',
  email: 'E-MailId',
  bankAccount: 'Bank Account',
  bankKey: 'Bank Key',
  bankName: 'Bank Name',
  paymentTerm: 'Payment Term',
  reconAccount: 'Vendor Reconciliation Account',
} as const;

const p = {
  code4: /^[A-Z0-9]{1,4}$/,
  // A vendor's name and address: letters or digits first (never a formula character), ≤ 80 / 60 characters.
  name: /^[A-Za-z0-9][A-Za-z0-9 .,&()'/-]{0,79}$/,
  street: /^[A-Za-z0-9][A-Za-z0-9 .,&()'/#:-]{0,59}$/,
  city: /^[A-Za-z][A-Za-z .-]{0,44}$/,
  bankName: /^[A-Za-z][A-Za-z0-9 .&()'-]{0,59}$/,
  /** The 2-digit GST state code: a GSTIN starts with it. */
  region: /^\d{2}$/,
  country: /^[A-Z]{2}$/,
  email: /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/,
  reconAccount: /^\d{1,10}$/,
} as const;

const rule = (column: string, mandatory: boolean, pattern: RegExp | null, dependentColumn?: string): ColumnRule =>
  dependentColumn ? { column, mandatory, pattern, dependency: true, dependentColumn } : { column, mandatory, pattern };

/** Columns both kinds' parent sheets share, in template order. */
const parentCommon = (purchaseOrganisation: boolean): ColumnRule[] => [
  rule(COL.companyCode, true, p.code4),
  ...(purchaseOrganisation ? [rule(COL.purchaseOrganisation, true, p.code4)] : []),
  rule(COL.name, true, p.name),
  rule(COL.street, true, p.street),
  rule(COL.city, true, p.city),
  rule(COL.postalCode, true, patterns.pinCode),
  rule(COL.region, true, p.region),
  rule(COL.country, true, p.country),
  rule(COL.pan, true, patterns.pan),
  rule(COL.cin, false, patterns.cin),
  rule(COL.mobile, true, patterns.mobile),
  rule(COL.mobileDept, false, null, COL.mobile),
  rule(COL.emailDept, true, p.email),
  rule(COL.email, false, null, COL.emailDept),
  rule(COL.bankAccount, true, patterns.accountNumber),
  rule(COL.bankKey, true, patterns.ifsc),
  rule(COL.bankName, true, p.bankName),
  rule(COL.paymentTerm, true, p.code4),
  rule(COL.reconAccount, true, p.reconAccount),
];

/** A child is the parent's registration in one GST state: its address there, its GSTIN, its contacts. */
const childColumns: ColumnRule[] = [
  rule(COL.companyCode, true, p.code4),
  rule(COL.pan, true, patterns.pan),
  rule(COL.name, true, p.name),
  rule(COL.street, true, p.street),
  rule(COL.city, true, p.city),
  rule(COL.postalCode, true, patterns.pinCode),
  rule(COL.region, true, p.region),
  rule(COL.country, true, p.country),
  rule(COL.gstin, true, patterns.gstin),
  // Mandatory for a company PAN (4th character C): a cross check below.
  rule(COL.cin, false, patterns.cin),
  rule(COL.mobile, true, patterns.mobile),
  rule(COL.mobileDept, false, null, COL.mobile),
  rule(COL.emailDept, true, p.email),
  rule(COL.email, false, null, COL.emailDept),
  rule(COL.paymentTerm, true, p.code4),
];

/**
 * The two kinds differ in one column: other-company vendors are bought from on purchase orders, so their
 * parent sheet names the Purchase Organisation; utility and government bodies are paid on bills, without one.
 * The ERP account group follows from the kind (`ACCOUNT_GROUPS`).
 */
export const WORKBOOK_COLUMNS: Record<WorkbookKind, Record<SheetName, readonly ColumnRule[]>> = {
  utility: { [PARENT_SHEET]: parentCommon(false), [CHILD_SHEET]: childColumns },
  'other-company': { [PARENT_SHEET]: parentCommon(true), [CHILD_SHEET]: childColumns },
};

export const ACCOUNT_GROUPS: Record<WorkbookKind, string> = { utility: 'UTIL', 'other-company': 'EXTN' };

/** The template's file name (spec 000 §7: the other-company template is the "EXTERNAL" one). */
export const TEMPLATE_FILE_NAMES: Record<WorkbookKind, string> = {
  utility: 'Utility-Vendor-Code-Template.xlsx',
  'other-company': 'External-Vendor-Code-Template.xlsx',
};

/** One example row per sheet for the templates (valid against the rules). */
export const TEMPLATE_EXAMPLES: Record<WorkbookKind, Record<SheetName, Record<string, string>>> = {
  utility: {
    [PARENT_SHEET]: {
      [COL.companyCode]: '1000',
      [COL.name]: 'Maharashtra State Electricity Distribution Co Ltd',
      [COL.street]: 'Prakashgad, Bandra East',
      [COL.city]: 'Mumbai',
      [COL.postalCode]: '400051',
      [COL.region]: '27',
      [COL.country]: 'IN',
      [COL.pan]: 'AAECM2933K',
      [COL.cin]: 'U40109MH2005SGC153645',
      [COL.mobile]: '9876543210',
      [COL.mobileDept]: '',
      [COL.emailDept]: 'accounts@mahadiscom.example',
      [COL.email]: '',
      [COL.bankAccount]: '123456789012',
      [COL.bankKey]: 'SBIN0000300',
      [COL.bankName]: 'State Bank of India',
      [COL.paymentTerm]: 'Z030',
      [COL.reconAccount]: '31000010',
    },
    [CHILD_SHEET]: {
      [COL.companyCode]: '1000',
      [COL.pan]: 'AAECM2933K',
      [COL.name]: 'Maharashtra State Electricity Distribution Co Ltd',
      [COL.street]: 'Prakashgad, Bandra East',
      [COL.city]: 'Mumbai',
      [COL.postalCode]: '400051',
      [COL.region]: '27',
      [COL.country]: 'IN',
      [COL.gstin]: '27AAECM2933K1ZA',
      [COL.cin]: 'U40109MH2005SGC153645',
      [COL.mobile]: '9876543210',
      [COL.mobileDept]: '',
      [COL.emailDept]: 'accounts@mahadiscom.example',
      [COL.email]: '',
      [COL.paymentTerm]: 'Z030',
    },
  },
  'other-company': {
    [PARENT_SHEET]: {
      [COL.companyCode]: '1000',
      [COL.purchaseOrganisation]: '1000',
      [COL.name]: 'Acme Freight Private Limited',
      [COL.street]: '12 Industrial Estate',
      [COL.city]: 'Pune',
      [COL.postalCode]: '411001',
      [COL.region]: '27',
      [COL.country]: 'IN',
      [COL.pan]: 'AABCA1234F',
      [COL.cin]: 'U60231MH2010PTC123456',
      [COL.mobile]: '9876543211',
      [COL.mobileDept]: '',
      [COL.emailDept]: 'accounts@acme-freight.example',
      [COL.email]: '',
      [COL.bankAccount]: '987654321012',
      [COL.bankKey]: 'HDFC0000001',
      [COL.bankName]: 'HDFC Bank',
      [COL.paymentTerm]: 'Z045',
      [COL.reconAccount]: '31000020',
    },
    [CHILD_SHEET]: {
      [COL.companyCode]: '1000',
      [COL.pan]: 'AABCA1234F',
      [COL.name]: 'Acme Freight Private Limited',
      [COL.street]: '12 Industrial Estate',
      [COL.city]: 'Pune',
      [COL.postalCode]: '411001',
      [COL.region]: '27',
      [COL.country]: 'IN',
      [COL.gstin]: '27AABCA1234F1Z5',
      [COL.cin]: 'U60231MH2010PTC123456',
      [COL.mobile]: '9876543211',
      [COL.mobileDept]: '',
      [COL.emailDept]: 'accounts@acme-freight.example',
      [COL.email]: '',
      [COL.paymentTerm]: 'Z045',
    },
  },
};

/** One sheet as read: its header row and its data rows (blank rows left out), every cell as trimmed text. */
export type WorkbookSheet = { headers: readonly string[]; rows: readonly Readonly<Record<string, string>>[] };
/** The sheets by name; a sheet the file does not have is absent. */
export type WorkbookSheets = Partial<Record<SheetName, WorkbookSheet>>;

/** One row of the "Validation Error" dialog (Sheet, Row No, Column Name, Data) with its message. */
export type WorkbookError = { sheet: string; row: number; column: string; value: string; message: string };

/** The spec's reported row number: the header is row 1, so the first data row (index 0) is row 2. */
export const rowNumber = (dataIndex: number): number => dataIndex + 2;

const headerKey = (h: string) => h.trim().toLowerCase();

/** Checks the sheets are there with their columns; then every row of both. Nothing else is read. */
export function validateWorkbook(kind: WorkbookKind, sheets: WorkbookSheets): WorkbookError[] {
  const errors: WorkbookError[] = [];
  let rows = 0;
  for (const name of SHEET_NAMES) {
    const sheet = sheets[name];
    const rules = WORKBOOK_COLUMNS[kind][name];
    if (!sheet) {
      errors.push({ sheet: name, row: 0, column: '', value: '', message: workbookMessages.noRows });
      continue;
    }
    const present = new Set(sheet.headers.map(headerKey));
    if (sheet.headers.some((h) => h.trim() === '')) {
      errors.push({ sheet: name, row: 1, column: '', value: '', message: workbookMessages.emptyHeader });
      continue;
    }
    const missing = rules.filter((r) => !present.has(headerKey(r.column)));
    for (const r of missing) errors.push({ sheet: name, row: 1, column: r.column, value: '', message: workbookMessages.missingColumn });
    if (missing.length > 0) continue;
    if (sheet.rows.length > MAX_SHEET_ROWS) {
      errors.push({ sheet: name, row: 0, column: '', value: '', message: workbookMessages.tooManyRows(MAX_SHEET_ROWS) });
      continue;
    }
    rows += sheet.rows.length;
    sheet.rows.forEach((values, index) => errors.push(...validateRow(kind, name, values, index)));
    errors.push(...duplicates(name, sheet.rows));
  }
  if (rows === 0 && errors.length === 0) errors.push({ sheet: PARENT_SHEET, row: 0, column: '', value: '', message: workbookMessages.noRows });
  return errors;
}

/** A rule's value against its pattern (or its dependent column's): null when it passes. */
function patternOf(rules: readonly ColumnRule[], r: ColumnRule): RegExp | null {
  if (r.dependency && r.dependentColumn) return rules.find((d) => d.column === r.dependentColumn)?.pattern ?? r.pattern;
  return r.pattern;
}

/** Every error of one row of `sheet` (`dataIndex` counts data rows from 0). */
export function validateRow(
  kind: WorkbookKind,
  sheet: SheetName,
  values: Readonly<Record<string, string>>,
  dataIndex: number,
): WorkbookError[] {
  const rules = WORKBOOK_COLUMNS[kind][sheet];
  const row = rowNumber(dataIndex);
  const errors: WorkbookError[] = [];
  const err = (column: string, message: string) => errors.push({ sheet, row, column, value: valueOf(values, column), message });
  const ok = new Set<string>();
  for (const r of rules) {
    const value = valueOf(values, r.column);
    if (value === '') {
      if (r.mandatory) err(r.column, workbookMessages.noData);
      continue;
    }
    const pattern = patternOf(rules, r);
    if (pattern && !pattern.test(value)) err(r.column, workbookMessages.mismatch);
    else ok.add(r.column);
  }
  if (sheet === CHILD_SHEET) {
    const gstin = valueOf(values, COL.gstin);
    const region = valueOf(values, COL.region);
    const pan = valueOf(values, COL.pan);
    // Compared only when both values are well formed: a malformed one is already reported, once.
    if (ok.has(COL.gstin)) {
      if (ok.has(COL.region) && !gstin.startsWith(region)) err(COL.gstin, workbookMessages.regionMismatch);
      if (ok.has(COL.pan) && !gstin.includes(pan)) err(COL.gstin, workbookMessages.panMismatch);
    }
    if (ok.has(COL.pan) && pan.charAt(3) === 'C' && valueOf(values, COL.cin) === '') err(COL.cin, workbookMessages.cinRequired);
  }
  return errors;
}

/** The cell under a column, matched case-insensitively on the header, trimmed ('' when absent). */
export function valueOf(values: Readonly<Record<string, string>>, column: string): string {
  if (column in values) return (values[column] ?? '').trim();
  const key = headerKey(column);
  for (const [k, v] of Object.entries(values)) if (headerKey(k) === key) return (v ?? '').trim();
  return '';
}

/** The same vendor twice in one file would be created twice: the later row is refused. */
function duplicates(sheet: SheetName, rows: readonly Readonly<Record<string, string>>[]): WorkbookError[] {
  const errors: WorkbookError[] = [];
  const seen = new Map<string, number>();
  rows.forEach((values, index) => {
    const column = sheet === PARENT_SHEET ? COL.pan : COL.gstin;
    const id = valueOf(values, column);
    if (id === '') return;
    const key = `${valueOf(values, COL.companyCode)}|${id}`;
    const first = seen.get(key);
    if (first === undefined) return void seen.set(key, rowNumber(index));
    const message = sheet === PARENT_SHEET ? workbookMessages.duplicateParent(first) : workbookMessages.duplicateChild(first);
    errors.push({ sheet, row: rowNumber(index), column, value: id, message });
  });
  return errors;
}

/** A valid row as the ERP is asked to create it (ErpVendorData by meaning), with where it came from. */
export type WorkbookVendorRow = {
  sheet: 'parent' | 'child';
  /** The reported row number (data index + 2). */
  row: number;
  companyCode: string;
  pan: string;
  name: string;
  street: string;
  city: string;
  postalCode: string;
  region: string;
  country: string;
  gstin: string | null;
  mobileNo: string;
  email: string;
  bankAccount: string | null;
  bankKey: string | null;
  bankName: string | null;
  paymentTermsCode: string;
  reconAccount: string | null;
  purchaseOrganisation: string | null;
  accountGroup: string;
  /** Columns the ERP keeps as they are: ZZCIN_NO, EmailidDept, Mobile Number Dept, E-MailId (when given). */
  extra: Record<string, string>;
};

const orNull = (v: string): string | null => (v === '' ? null : v);

/** The rows of a workbook `validateWorkbook` passed, parents first. */
export function vendorRows(kind: WorkbookKind, sheets: WorkbookSheets): { parents: WorkbookVendorRow[]; children: WorkbookVendorRow[] } {
  const toRow = (sheet: 'parent' | 'child', values: Readonly<Record<string, string>>, index: number): WorkbookVendorRow => {
    const v = (c: string) => valueOf(values, c);
    const extra: Record<string, string> = {};
    for (const c of [COL.cin, COL.emailDept, COL.mobileDept, COL.email]) if (v(c) !== '') extra[c] = v(c);
    return {
      sheet,
      row: rowNumber(index),
      companyCode: v(COL.companyCode),
      pan: v(COL.pan),
      name: v(COL.name),
      street: v(COL.street),
      city: v(COL.city),
      postalCode: v(COL.postalCode),
      region: v(COL.region),
      country: v(COL.country),
      gstin: orNull(v(COL.gstin)),
      mobileNo: v(COL.mobile),
      // The department's mailbox is the vendor's e-mail id in the ERP; E-MailId, when given, is kept in extra.
      email: v(COL.emailDept),
      bankAccount: orNull(v(COL.bankAccount)),
      bankKey: orNull(v(COL.bankKey)),
      bankName: orNull(v(COL.bankName)),
      paymentTermsCode: v(COL.paymentTerm),
      reconAccount: orNull(v(COL.reconAccount)),
      purchaseOrganisation: orNull(v(COL.purchaseOrganisation)),
      accountGroup: ACCOUNT_GROUPS[kind],
      extra,
    };
  };
  return {
    parents: (sheets[PARENT_SHEET]?.rows ?? []).map((r, i) => toRow('parent', r, i)),
    children: (sheets[CHILD_SHEET]?.rows ?? []).map((r, i) => toRow('child', r, i)),
  };
}

/** One row of the result dialog (spec 000 §2: Type, PAN, MSG, MSGTYPE, VEN_CODE). */
export type WorkbookResultRow = {
  Type: 'Parent' | 'Child';
  PAN: string;
  MSG: string;
  /** 'S' created, 'E' refused by the ERP or not reachable, '' not attempted (the console shows INVALID CODE). */
  MSGTYPE: 'S' | 'E' | '';
  VEN_CODE: string;
  sheet: SheetName;
  row: number;
};

export const resultMessages = {
  noParent: (pan: string, companyCode: string) =>
    `No parent vendor code for PAN ${pan} in company code ${companyCode}: the parent row failed or the ERP has none`,
  unavailable: (error: string) => `The ERP could not be reached: ${error}`,
  noAnswer: 'The ERP has not answered this request yet. Upload the same file again later to see its result',
  uploaded: 'File uploaded successfully',
  someFailed: 'Some vendor codes could not be created',
  running: 'The ERP is still creating the vendor codes',
} as const;

/** Whether a result row may come out differently if the same file is run again (the ERP was out). */
export const isRetryableResult = (r: WorkbookResultRow): boolean =>
  (r.MSGTYPE === 'E' && r.MSG.startsWith(resultMessages.unavailable(''))) || r.MSG === resultMessages.noAnswer;

/** Ours: vendors are created only in the uploader's own company codes (as the SAP dashboard is scoped). */
export const companyCodeMessage = (code: string): string => `Company Code ${code} is not one of your company codes`;

/** The rows whose (well-formed) Company Code is not one of `allowed`. */
export function companyScopeErrors(sheets: WorkbookSheets, allowed: readonly string[]): WorkbookError[] {
  const errors: WorkbookError[] = [];
  for (const sheet of SHEET_NAMES)
    (sheets[sheet]?.rows ?? []).forEach((values, index) => {
      const code = valueOf(values, COL.companyCode);
      if (/^[A-Z0-9]{1,4}$/.test(code) && !allowed.includes(code))
        errors.push({ sheet, row: rowNumber(index), column: COL.companyCode, value: code, message: companyCodeMessage(code) });
    });
  return errors;
}
