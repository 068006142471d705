/**
 * Nucleus and SAP-verified mass upload (spec 000 §3 "Mass-upload parent columns", §5 "Mass upload", §8).
 * A workbook has a "Parent" sheet (one vendor per PAN and company code) and a "Child" sheet (one row per GST
 * state of a vendor; the spec's parent columns plus "Parent Vendor Code"). Pure data and rules, no I/O.
 *
 * Patterns the spec gives are used as given (Account Group 1-4 alphanumerics, BP Role 1-6, Company Code and
 * Purchase Organisation 1-4 upper-case alphanumerics, City/Country/Bank Country ≤45, Mobile Number Dept ≤50
 * parent / ≤45 child, Vendor Reconciliation Account ≤10). Where the spec shows none, the portal's own field
 * rules are used (PAN, GSTIN, IFSC, mobile, PIN code, e-mail) or a plain length bound (ARCHITECTURE: "Mass
 * upload"). Region is the GST state code (two digits), as in the vendor-code workbook where a GSTIN must
 * start with it.
 */
export const MASS_UPLOAD_KINDS = ['nucleus', 'sap-verified'] as const;
export type MassUploadKind = (typeof MASS_UPLOAD_KINDS)[number];
export const isMassUploadKind = (v: unknown): v is MassUploadKind => MASS_UPLOAD_KINDS.includes(v as MassUploadKind);

export const MASS_UPLOAD_SHEETS = ['Parent', 'Child'] as const;
export type MassUploadSheet = (typeof MASS_UPLOAD_SHEETS)[number];

/** The value names rows carry in events (stable: events store them). */
export type MassUploadField =
  | 'accountGroup'
  | 'bpRole'
  | 'companyCode'
  | 'purchaseOrganisation'
  | 'name'
  | 'street'
  | 'postalCode'
  | 'city'
  | 'country'
  | 'region'
  | 'currency'
  | 'mobileNo'
  | 'mobileNoDept'
  | 'email'
  | 'bankCountry'
  | 'bankAccount'
  | 'bankKey'
  | 'bankName'
  | 'gstinCategory'
  | 'gstin'
  | 'pan'
  | 'paymentTerm'
  | 'reconAccount'
  | 'withholdingTaxType'
  | 'withholdingTaxCode'
  | 'subjectToWithholdingTax'
  | 'exemptionNumber'
  | 'exemptionRate'
  | 'exemptionFrom'
  | 'exemptionTo'
  | 'exemptionReason'
  | 'parentVendorCode';

export type MassUploadValues = Partial<Record<MassUploadField, string>>;

export type ColumnRule = {
  /** The header exactly as the template writes it (matched case- and space-insensitively on upload). */
  column: string;
  field: MassUploadField;
  mandatory: boolean;
  pattern: RegExp;
  /** What the pattern means, for the error workbook ("Account Group: 1-4 letters or digits"). */
  describe: string;
  /** Mandatory only when this column has a value (exemption fields on Exemption Number, …). */
  dependsOn?: MassUploadField;
  /** Upper-cased before it is checked and stored (PAN, GSTIN, IFSC, codes). */
  upperCase?: boolean;
  /** An example value for the template's example row. */
  example: string;
};

/** Up to n characters of text (trimmed before the check), not starting with a formula character. */
const upTo = (n: number) => new RegExp(`^(?![-=@#&^+|%<'"\\t\\r\\n\\0])[\\s\\S]{1,${n}}$`);
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const rule = (
  column: string,
  field: MassUploadField,
  pattern: RegExp,
  describe: string,
  example: string,
  extra: Partial<Pick<ColumnRule, 'mandatory' | 'dependsOn' | 'upperCase'>> = {},
): ColumnRule => ({ column, field, pattern, describe, example, mandatory: extra.mandatory ?? true, ...extra });

const columns = (sheet: MassUploadSheet): ColumnRule[] => [
  rule('Account Group', 'accountGroup', /^[A-Za-z0-9]{1,4}$/, '1-4 letters or digits', 'ZDOM'),
  rule('BP Role', 'bpRole', /^[A-Za-z0-9]{1,6}$/, '1-6 letters or digits', 'FLVN00'),
  rule('Company Code', 'companyCode', /^[A-Z0-9]{1,4}$/, '1-4 upper-case letters or digits', '1000'),
  rule('Purchase Organisation', 'purchaseOrganisation', /^[A-Z0-9]{1,4}$/, '1-4 upper-case letters or digits', 'MLPO'),
  rule('Name', 'name', upTo(100), 'up to 100 characters, not starting with a formula character', 'Acme Logistics Private Limited'),
  rule('Street/House No', 'street', upTo(100), 'up to 100 characters, not starting with a formula character', '12 Harbour Road'),
  rule('Postal Code', 'postalCode', /^\d{6}$/, '6 digits', '400001'),
  rule('City', 'city', upTo(45), 'up to 45 characters, not starting with a formula character', 'Mumbai'),
  rule('Country', 'country', upTo(45), 'up to 45 characters, not starting with a formula character', 'IN'),
  rule('Region', 'region', /^\d{2}$/, 'the 2-digit GST state code', '27'),
  rule('Currency', 'currency', /^[A-Z]{3}$/, '3 letters (ISO code)', 'INR', { upperCase: true }),
  rule('Mobile Number', 'mobileNo', /^[6-9]\d{9}$/, '10 digits starting with 6-9', '9876543210'),
  rule(
    'Mobile Number Dept',
    'mobileNoDept',
    upTo(sheet === 'Parent' ? 50 : 45),
    `up to ${sheet === 'Parent' ? 50 : 45} characters, not starting with a formula character`,
    'Accounts',
  ),
  rule('E-MailId', 'email', /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/, 'an e-mail address', 'accounts@acme.example'),
  rule('Bank Country', 'bankCountry', upTo(45), 'up to 45 characters, not starting with a formula character', 'IN'),
  rule('Bank Account', 'bankAccount', /^\d{9,18}$/, '9-18 digits', '123456789012'),
  rule('Bank Key', 'bankKey', /^[A-Z]{4}0[A-Z0-9]{6}$/, 'an IFSC (4 letters, 0, then 6 letters or digits)', 'HDFC0001234', {
    upperCase: true,
  }),
  rule('Bank Name', 'bankName', upTo(60), 'up to 60 characters, not starting with a formula character', 'HDFC Bank'),
  rule('GSTIN category', 'gstinCategory', upTo(30), 'up to 30 characters, not starting with a formula character', 'Registered', { mandatory: false }),
  rule('GSTIN number', 'gstin', /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/, 'a 15-character GSTIN', '27ABCDE1234F1Z5', {
    mandatory: false,
    upperCase: true,
  }),
  rule('PAN Number', 'pan', /^[A-Z]{5}\d{4}[A-Z]$/, 'a PAN (5 letters, 4 digits, 1 letter)', 'ABCDE1234F', { upperCase: true }),
  rule('Payment Term', 'paymentTerm', /^[A-Za-z0-9]{1,4}$/, '1-4 letters or digits', 'Z030'),
  rule('Vendor Reconciliation Account', 'reconAccount', /^[A-Za-z0-9]{1,10}$/, 'up to 10 letters or digits', '2110000'),
  rule('Withholding Tax Type', 'withholdingTaxType', /^[A-Za-z0-9]{1,2}$/, '1-2 letters or digits', 'WC', {
    mandatory: false,
    upperCase: true,
  }),
  rule('Withholding Tax Code', 'withholdingTaxCode', /^[A-Za-z0-9]{1,2}$/, '1-2 letters or digits', 'C2', {
    mandatory: false,
    dependsOn: 'withholdingTaxType',
    upperCase: true,
  }),
  rule('Subject to Withholding Tax', 'subjectToWithholdingTax', /^(X|Y|N|YES|NO)$/, 'X, Y, N, Yes or No', 'X', {
    mandatory: false,
    dependsOn: 'withholdingTaxType',
    upperCase: true,
  }),
  rule('Exemption Number', 'exemptionNumber', /^[A-Za-z0-9/-]{1,25}$/, 'up to 25 letters, digits, / or -', '', {
    mandatory: false,
  }),
  rule('Exemption Rate', 'exemptionRate', /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, 'a percentage from 0 to 100', '', {
    mandatory: false,
    dependsOn: 'exemptionNumber',
  }),
  rule('Exemption From', 'exemptionFrom', DATE, 'a date YYYY-MM-DD', '', { mandatory: false, dependsOn: 'exemptionNumber' }),
  rule('Exemption To', 'exemptionTo', DATE, 'a date YYYY-MM-DD', '', { mandatory: false, dependsOn: 'exemptionNumber' }),
  rule('Exemption Reason', 'exemptionReason', /^[A-Za-z0-9]{1,2}$/, '1-2 letters or digits', '', {
    mandatory: false,
    dependsOn: 'exemptionNumber',
    upperCase: true,
  }),
];

/** "Parent Vendor Code": the ERP's parent code (10 digits); see childParentRule. */
const PARENT_VENDOR_CODE = (kind: MassUploadKind): ColumnRule =>
  rule('Parent Vendor Code', 'parentVendorCode', /^[A-Za-z0-9]{1,10}$/, 'up to 10 letters or digits', '1000000001', {
    // Nucleus: the parent is created by the same upload, so the code is optional (the parent row with the
    // same PAN and company code stands in). SAP-verified: the vendor is in the ERP, its parent code is known.
    mandatory: kind === 'sap-verified',
  });

export const PARENT_COLUMNS: readonly ColumnRule[] = columns('Parent');

export function columnsOf(kind: MassUploadKind, sheet: MassUploadSheet): readonly ColumnRule[] {
  return sheet === 'Parent' ? PARENT_COLUMNS : [...columns('Child'), PARENT_VENDOR_CODE(kind)];
}

export const ERRORS_COLUMN = 'Errors';

export const templateFileName = (kind: MassUploadKind): string =>
  kind === 'nucleus' ? 'Nucleus-Mass-Upload-Template.xlsx' : 'SAP-Verified-Mass-Upload-Template.xlsx';
export const errorFileName = (kind: MassUploadKind): string =>
  kind === 'nucleus' ? 'Nucleus-Mass-Upload-Error.xlsx' : 'SAP-Verified-Mass-Upload-Error.xlsx';

/** Spec 000 §5 and §8, verbatim. */
export const massUploadMessages = {
  notExcel: 'Please Select Only xlsx or xls File',
  noRows: 'Please upload valid excel file or download template by clicking on download button',
  missingColumn: 'Column Not Found in the Excel check the template and upload again',
  emptyHeader: 'Upload the excel with proper template',
  rowErrors: 'Some Errors occured with uploaded data. Please check downlaoded file for errors',
  uploaded: 'File uploaded successfully',
  // Ours (the spec shows no wording for these).
  required: (column: string) => `${column} is mandatory`,
  requiredWith: (column: string, on: string) => `${column} is mandatory when ${on} is given`,
  pattern: (column: string, describe: string) => `${column} must be ${describe}`,
  duplicate: (row: number) => `Same PAN Number and Company Code as row ${row}`,
  duplicateChild: (row: number) => `Same PAN Number, Company Code and Region as row ${row}`,
  noParent: 'No parent row with this PAN Number and Company Code, and no Parent Vendor Code',
  exemptionDates: 'Exemption To must not be before Exemption From',
  gstinPan: 'GSTIN number must contain the PAN Number',
  gstinRegion: 'GSTIN number must start with the Region code',
} as const;
