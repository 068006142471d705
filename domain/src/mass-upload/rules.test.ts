import {
  columnsOf,
  errorFileName,
  massUploadMessages as m,
  PARENT_COLUMNS,
  templateFileName,
  type MassUploadField,
  type MassUploadKind,
  type MassUploadSheet,
} from './columns';
import { acrossRows, checkAcrossRows, checkHeaders, checkRow, headerKey, type RawRow } from './rules';

/** A row every rule accepts: the template's example values. */
const validRow = (kind: MassUploadKind, sheet: MassUploadSheet): RawRow =>
  Object.fromEntries(columnsOf(kind, sheet).map((c) => [c.field, c.example === '' ? null : c.example]));

const SPEC_PARENT_COLUMNS =
  'Account Group, BP Role, Company Code, Purchase Organisation, Name, Street/House No, Postal Code, City, Country, Region, Currency, Mobile Number, Mobile Number Dept, E-MailId, Bank Country, Bank Account, Bank Key, Bank Name, GSTIN category, GSTIN number, PAN Number, Payment Term, Vendor Reconciliation Account, Withholding Tax Type, Withholding Tax Code, Subject to Withholding Tax, Exemption Number, Exemption Rate, Exemption From, Exemption To, Exemption Reason';

describe('columns (spec 000 §3)', () => {
  test('the parent sheet has exactly the spec columns in order; the child sheet adds Parent Vendor Code', () => {
    expect(PARENT_COLUMNS.map((c) => c.column).join(', ')).toBe(SPEC_PARENT_COLUMNS);
    for (const kind of ['nucleus', 'sap-verified'] as const)
      expect(columnsOf(kind, 'Child').map((c) => c.column)).toEqual([...SPEC_PARENT_COLUMNS.split(', '), 'Parent Vendor Code']);
  });

  test('all columns are mandatory except GSTIN, withholding and exemption ones (§5)', () => {
    const optional = PARENT_COLUMNS.filter((c) => !c.mandatory).map((c) => c.column);
    expect(optional).toEqual([
      'GSTIN category',
      'GSTIN number',
      'Withholding Tax Type',
      'Withholding Tax Code',
      'Subject to Withholding Tax',
      'Exemption Number',
      'Exemption Rate',
      'Exemption From',
      'Exemption To',
      'Exemption Reason',
    ]);
  });

  test('file names (§7, §8)', () => {
    expect(templateFileName('nucleus')).toBe('Nucleus-Mass-Upload-Template.xlsx');
    expect(templateFileName('sap-verified')).toBe('SAP-Verified-Mass-Upload-Template.xlsx');
    expect(errorFileName('nucleus')).toBe('Nucleus-Mass-Upload-Error.xlsx');
    expect(errorFileName('sap-verified')).toBe('SAP-Verified-Mass-Upload-Error.xlsx');
  });

  test('the examples of both sheets and kinds pass every rule', () => {
    for (const kind of ['nucleus', 'sap-verified'] as const)
      for (const sheet of ['Parent', 'Child'] as const) expect(checkRow(kind, sheet, validRow(kind, sheet)).errors).toEqual([]);
  });
});

describe('per-column patterns (§5)', () => {
  // [sheet, column, field, accepted, refused]
  const cases: [MassUploadSheet, string, MassUploadField, string[], string[]][] = [
    ['Parent', 'Account Group', 'accountGroup', ['Z', 'ZDOM', 'a1b2'], ['ZDOMX', 'Z-1']],
    ['Parent', 'BP Role', 'bpRole', ['F', 'FLVN00'], ['FLVN001', 'FL VN']],
    ['Parent', 'Company Code', 'companyCode', ['1000', 'A1'], ['10000', '10a0', 'ab']],
    ['Parent', 'Purchase Organisation', 'purchaseOrganisation', ['MLPO', '1'], ['mlpo', 'MLPOX']],
    ['Parent', 'City', 'city', ['Mumbai', 'x'.repeat(45)], ['x'.repeat(46), '=HYPERLINK("x")', '+91', '@x']],
    ['Parent', 'Name', 'name', ['Acme & Sons (P) Ltd.'], ['-Acme', 'x'.repeat(101)]],
    ['Parent', 'Country', 'country', ['India', 'x'.repeat(45)], ['x'.repeat(46)]],
    ['Parent', 'Bank Country', 'bankCountry', ['IN', 'x'.repeat(45)], ['x'.repeat(46)]],
    ['Parent', 'Mobile Number Dept', 'mobileNoDept', ['x'.repeat(50)], ['x'.repeat(51)]],
    ['Child', 'Mobile Number Dept', 'mobileNoDept', ['x'.repeat(45)], ['x'.repeat(46)]],
    ['Parent', 'Vendor Reconciliation Account', 'reconAccount', ['2110000', '1234567890'], ['12345678901']],
    ['Parent', 'PAN Number', 'pan', ['ABCDE1234F', 'abcde1234f'], ['ABCD1234F', 'ABCDE12345']],
    ['Parent', 'Postal Code', 'postalCode', ['400001'], ['40001', '4000011']],
    ['Parent', 'Mobile Number', 'mobileNo', ['9876543210'], ['1234567890', '98765']],
    ['Parent', 'E-MailId', 'email', ['a@b.in'], ['a@b', 'not an email']],
    ['Parent', 'Bank Key', 'bankKey', ['HDFC0001234', 'hdfc0001234'], ['HDFC1001234']],
    ['Parent', 'Bank Account', 'bankAccount', ['123456789'], ['12345678', 'ab123456789']],
    ['Parent', 'Region', 'region', ['27'], ['MH', '270']],
    ['Parent', 'Currency', 'currency', ['INR'], ['RUPEE']],
    ['Parent', 'Payment Term', 'paymentTerm', ['Z030'], ['Z0301']],
    ['Parent', 'GSTIN number', 'gstin', ['27ABCDE1234F1Z5'], ['27ABCDE1234F1X5']],
    ['Child', 'Parent Vendor Code', 'parentVendorCode', ['1000000001'], ['10000000011', '1000-1']],
  ];
  test.each(cases)('%s %s', (sheet, column, field, accepted, refused) => {
    const rule = columnsOf('sap-verified', sheet).find((c) => c.field === field)!;
    expect(rule.column).toBe(column);
    for (const v of accepted) expect(checkRow('sap-verified', sheet, { ...validRow('sap-verified', sheet), [field]: v }).errors).toEqual([]);
    for (const v of refused)
      expect(checkRow('sap-verified', sheet, { ...validRow('sap-verified', sheet), [field]: v }).errors).toEqual([
        m.pattern(column, rule.describe),
      ]);
  });

  test.each(PARENT_COLUMNS.filter((c) => c.mandatory).map((c) => [c.column, c.field] as const))('%s empty → mandatory', (column, field) => {
    for (const empty of [null, '', '   '])
      expect(checkRow('nucleus', 'Parent', { ...validRow('nucleus', 'Parent'), [field]: empty }).errors).toEqual([m.required(column)]);
  });

  test('values are trimmed and codes upper-cased', () => {
    const { values } = checkRow('nucleus', 'Parent', { ...validRow('nucleus', 'Parent'), pan: ' abcde1234f ', bankKey: 'hdfc0001234' });
    expect(values.pan).toBe('ABCDE1234F');
    expect(values.bankKey).toBe('HDFC0001234');
  });
});

describe('dependent columns (§5)', () => {
  const base = validRow('nucleus', 'Parent');
  test.each([
    ['Exemption Rate', 'exemptionRate'],
    ['Exemption From', 'exemptionFrom'],
    ['Exemption To', 'exemptionTo'],
    ['Exemption Reason', 'exemptionReason'],
  ] as const)('%s is mandatory once Exemption Number is given', (column, field) => {
    const full = { ...base, exemptionNumber: 'EX/1', exemptionRate: '2.5', exemptionFrom: '2026-04-01', exemptionTo: '2027-03-31', exemptionReason: 'A1' };
    expect(checkRow('nucleus', 'Parent', full).errors).toEqual([]);
    expect(checkRow('nucleus', 'Parent', { ...full, [field]: null }).errors).toEqual([m.requiredWith(column, 'Exemption Number')]);
    // Without the exemption number nothing is asked.
    expect(checkRow('nucleus', 'Parent', { ...base, [field]: null }).errors).toEqual([]);
  });

  test.each([
    ['Withholding Tax Code', 'withholdingTaxCode'],
    ['Subject to Withholding Tax', 'subjectToWithholdingTax'],
  ] as const)('%s is mandatory once Withholding Tax Type is given', (column, field) => {
    const full = { ...base, withholdingTaxType: 'WC', withholdingTaxCode: 'C2', subjectToWithholdingTax: 'X' };
    expect(checkRow('nucleus', 'Parent', full).errors).toEqual([]);
    expect(checkRow('nucleus', 'Parent', { ...full, [field]: '' }).errors).toEqual([m.requiredWith(column, 'Withholding Tax Type')]);
  });

  test('optional values present must match their pattern', () => {
    expect(checkRow('nucleus', 'Parent', { ...base, exemptionNumber: 'EX 1', exemptionRate: '101', exemptionFrom: '2026-13-01', exemptionTo: '2026-01-01', exemptionReason: 'A' }).errors).toEqual([
      m.pattern('Exemption Number', 'up to 25 letters, digits, / or -'),
      m.pattern('Exemption Rate', 'a percentage from 0 to 100'),
      m.pattern('Exemption From', 'a date YYYY-MM-DD'),
    ]);
  });

  test('cross-field rules: exemption dates, GSTIN against PAN and Region', () => {
    const ex = { ...base, exemptionNumber: 'E1', exemptionRate: '1', exemptionReason: 'A', exemptionFrom: '2026-05-01', exemptionTo: '2026-04-01' };
    expect(checkRow('nucleus', 'Parent', ex).errors).toEqual([m.exemptionDates]);
    expect(checkRow('nucleus', 'Parent', { ...base, gstin: '27ZZZZZ1234F1Z5' }).errors).toEqual([m.gstinPan]);
    expect(checkRow('nucleus', 'Parent', { ...base, gstin: '29ABCDE1234F1Z5' }).errors).toEqual([m.gstinRegion]);
  });

  test('Parent Vendor Code: mandatory for SAP-verified children, optional for nucleus children', () => {
    expect(checkRow('sap-verified', 'Child', { ...validRow('sap-verified', 'Child'), parentVendorCode: null }).errors).toEqual([
      m.required('Parent Vendor Code'),
    ]);
    expect(checkRow('nucleus', 'Child', { ...validRow('nucleus', 'Child'), parentVendorCode: null }).errors).toEqual([]);
  });
});

describe('sheet rules (§5)', () => {
  const headers = PARENT_COLUMNS.map((c) => c.column);
  test.each([
    ['no data rows', headers, 0, [], m.noRows],
    ['no header at all', [], 3, [], m.noRows],
    ['an empty header between headers', [...headers.slice(0, 3), '', ...headers.slice(3)], 2, [], m.emptyHeader],
    ['data under an empty header', [...headers, ''], 2, [headers.length], m.emptyHeader],
    ['a mandatory column missing', headers.filter((h) => h !== 'Bank Key'), 2, [], m.missingColumn],
  ] as const)('%s', (_name, hs, rows, dataColumns, message) => {
    expect(checkHeaders('nucleus', 'Parent', hs, { rows, dataColumns })).toEqual({ ok: false, message });
  });

  test('optional columns may be left out; unknown columns (Errors) are ignored; headers match loosely', () => {
    const hs = [...headers.filter((h) => !h.startsWith('Exemption')).map((h) => ` ${h.toUpperCase()} `), 'Errors'];
    const check = checkHeaders('nucleus', 'Parent', hs, { rows: 1 });
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.index.accountGroup).toBe(0);
      expect(check.index.exemptionNumber).toBeUndefined();
    }
    expect(headerKey('  E-MailId ')).toBe('e-mailid');
  });

  test('the child sheet needs Parent Vendor Code only for SAP-verified uploads', () => {
    const child = columnsOf('sap-verified', 'Child').map((c) => c.column).filter((c) => c !== 'Parent Vendor Code');
    expect(checkHeaders('nucleus', 'Child', child, { rows: 1 }).ok).toBe(true);
    expect(checkHeaders('sap-verified', 'Child', child, { rows: 1 })).toEqual({ ok: false, message: m.missingColumn });
  });
});

describe('rules across rows', () => {
  const row = (kind: MassUploadKind, sheet: MassUploadSheet, over: RawRow) => checkRow(kind, sheet, { ...validRow(kind, sheet), ...over });
  test('the same PAN and company code twice; the same child state twice; a nucleus child without parent', () => {
    const parents = [
      { number: 2, check: row('nucleus', 'Parent', {}) },
      { number: 3, check: row('nucleus', 'Parent', {}) },
      { number: 4, check: row('nucleus', 'Parent', { companyCode: '2000' }) },
    ];
    const children = [
      { number: 2, check: row('nucleus', 'Child', { parentVendorCode: null }) },
      { number: 3, check: row('nucleus', 'Child', { parentVendorCode: null }) },
      { number: 4, check: row('nucleus', 'Child', { parentVendorCode: null, pan: 'ZZZZZ9999Z', gstin: null }) },
      { number: 5, check: row('nucleus', 'Child', { parentVendorCode: '1000000007', pan: 'YYYYY9999Y', gstin: null }) },
    ];
    checkAcrossRows('nucleus', parents, children);
    expect(parents.map((p) => p.check.errors)).toEqual([[], [m.duplicate(2)], []]);
    expect(children.map((c) => c.check.errors)).toEqual([[], [m.duplicateChild(2)], [m.noParent], []]);
  });
});

describe('rules across rows, streamed', () => {
  test('a nucleus child read before its parent waits; unresolved() names the children whose parent never came', () => {
    const across = acrossRows('nucleus');
    const child = (pan: string) => checkRow('nucleus', 'Child', { ...validRow('nucleus', 'Child'), pan, gstin: null, parentVendorCode: null }).values;
    const parent = (pan: string) => checkRow('nucleus', 'Parent', { ...validRow('nucleus', 'Parent'), pan, gstin: null }).values;
    expect(across.child(2, child('AAAAA1111A'))).toBe('waiting');
    expect(across.child(3, child('BBBBB2222B'))).toBe('waiting');
    expect(across.parent(2, parent('AAAAA1111A'))).toBeNull();
    expect(across.parent(3, parent('AAAAA1111A'))).toBe(m.duplicate(2));
    expect(across.child(4, child('AAAAA1111A'))).toBe(m.duplicateChild(2));
    expect([...across.unresolved()]).toEqual([3]);
  });
});
