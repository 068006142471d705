import {
  ACCOUNT_GROUPS,
  CHILD_SHEET,
  COL,
  MAX_SHEET_ROWS,
  PARENT_SHEET,
  TEMPLATE_EXAMPLES,
  WORKBOOK_COLUMNS,
  WORKBOOK_KINDS,
  rowNumber,
  validateRow,
  validateWorkbook,
  vendorRows,
  workbookMessages as m,
  type SheetName,
  type WorkbookKind,
  type WorkbookSheets,
} from './rules';

const example = (kind: WorkbookKind, sheet: SheetName, over: Record<string, string> = {}) => ({ ...TEMPLATE_EXAMPLES[kind][sheet], ...over });

const sheetsOf = (kind: WorkbookKind, parents: Record<string, string>[], children: Record<string, string>[]): WorkbookSheets => ({
  [PARENT_SHEET]: { headers: WORKBOOK_COLUMNS[kind][PARENT_SHEET].map((r) => r.column), rows: parents },
  [CHILD_SHEET]: { headers: WORKBOOK_COLUMNS[kind][CHILD_SHEET].map((r) => r.column), rows: children },
});

describe('vendor-code workbook rules (spec 000 §5 "Vendor-code workbook rows")', () => {
  test.each(WORKBOOK_KINDS)('the template examples of %s pass every rule', (kind) => {
    expect(validateWorkbook(kind, sheetsOf(kind, [example(kind, PARENT_SHEET)], [example(kind, CHILD_SHEET)]))).toEqual([]);
  });

  test('reported row = data index + 2', () => {
    expect([0, 1, 9].map(rowNumber)).toEqual([2, 3, 11]);
    const kind = 'utility';
    const errors = validateWorkbook(
      kind,
      sheetsOf(kind, [example(kind, PARENT_SHEET), example(kind, PARENT_SHEET, { [COL.pan]: 'BBBCB1111B', [COL.name]: '' })], []),
    );
    expect(errors).toEqual([{ sheet: PARENT_SHEET, row: 3, column: COL.name, value: '', message: m.noData }]);
  });

  type Case = { name: string; kind: WorkbookKind; sheet: SheetName; set: Record<string, string>; expected: [string, string, string][] };
  const cases: Case[] = [];
  // Every column of every sheet of both kinds: empty, and a value failing its pattern.
  for (const kind of WORKBOOK_KINDS)
    for (const sheet of [PARENT_SHEET, CHILD_SHEET] as const)
      for (const r of WORKBOOK_COLUMNS[kind][sheet]) {
        const bad = r.column === COL.country ? 'india' : '=HYPERLINK("x")';
        const empty: [string, string, string][] = r.mandatory ? [[r.column, '', m.noData]] : [];
        // A company PAN (the examples' 4th character is C) without ZZCIN_NO: the cross check's message.
        if (sheet === CHILD_SHEET && r.column === COL.cin) empty.push([COL.cin, '', m.cinRequired]);
        cases.push({ name: `${kind} ${sheet} ${r.column} empty`, kind, sheet, set: { [r.column]: '' }, expected: empty });
        const mismatch: [string, string, string][] = [[r.column, bad, m.mismatch]];
        cases.push({ name: `${kind} ${sheet} ${r.column} not matching its pattern`, kind, sheet, set: { [r.column]: bad }, expected: mismatch });
      }
  const child = (set: Record<string, string>, expected: [string, string, string][], name: string): Case => ({
    name,
    kind: 'utility',
    sheet: CHILD_SHEET,
    set,
    expected,
  });
  cases.push(
    child({ [COL.region]: '29' }, [[COL.gstin, '27AAECM2933K1ZA', m.regionMismatch]], 'GSTIN not starting with the Region code'),
    child(
      { [COL.pan]: 'AAECM2934K' },
      [[COL.gstin, '27AAECM2933K1ZA', m.panMismatch]],
      'GSTIN not containing the PAN',
    ),
    child(
      { [COL.region]: '29', [COL.pan]: 'AAECM2934K' },
      [
        [COL.gstin, '27AAECM2933K1ZA', m.regionMismatch],
        [COL.gstin, '27AAECM2933K1ZA', m.panMismatch],
      ],
      'GSTIN matching neither',
    ),
    child({ [COL.gstin]: '27AAECM2933K1Z' }, [[COL.gstin, '27AAECM2933K1Z', m.mismatch]], 'malformed GSTIN: only the pattern is reported'),
    child({ [COL.region]: '' }, [[COL.region, '', m.noData]], 'no Region: the GSTIN is not compared'),
    child(
      { [COL.pan]: 'AAEPM2933K', [COL.gstin]: '27AAEPM2933K1ZA', [COL.cin]: '' },
      [],
      'a personal PAN (4th character P) needs no ZZCIN_NO',
    ),
    child({ [COL.cin]: '' }, [[COL.cin, '', m.cinRequired]], 'a company PAN (4th character C) needs ZZCIN_NO'),
    child({ [COL.mobileDept]: '9123456780', [COL.email]: 'someone@example.com' }, [], 'dependent columns present and matching'),
    child({ [COL.mobileDept]: '5123456780' }, [[COL.mobileDept, '5123456780', m.mismatch]], 'Mobile Number Dept against the Mobile Number pattern'),
    child({ [COL.email]: 'not-an-email' }, [[COL.email, 'not-an-email', m.mismatch]], 'E-MailId against the EmailidDept pattern'),
    child({ [COL.emailDept]: '' }, [[COL.emailDept, '', m.noData]], 'EmailidDept is always mandatory'),
    {
      name: 'EmailidDept is mandatory on the parent sheet too',
      kind: 'other-company',
      sheet: PARENT_SHEET,
      set: { [COL.emailDept]: '' },
      expected: [[COL.emailDept, '', m.noData]],
    },
    {
      name: 'optional ZZCIN_NO on the parent sheet must match when present',
      kind: 'utility',
      sheet: PARENT_SHEET,
      set: { [COL.cin]: 'X123' },
      expected: [[COL.cin, 'X123', m.mismatch]],
    },
    {
      name: 'the parent sheet has no company-PAN rule',
      kind: 'utility',
      sheet: PARENT_SHEET,
      set: { [COL.cin]: '' },
      expected: [],
    },
  );

  test.each(cases)('$name', ({ kind, sheet, set, expected }) => {
    const values = example(kind, sheet, set);
    const errors = validateRow(kind, sheet, values, 0);
    expect(errors.map((e) => [e.column, e.value, e.message])).toEqual(expected);
    for (const e of errors) expect(e).toMatchObject({ sheet, row: 2 });
  });

  test('values are trimmed and headers matched case-insensitively', () => {
    const kind = 'utility';
    const values = Object.fromEntries(Object.entries(example(kind, PARENT_SHEET)).map(([k, v]) => [k.toUpperCase(), ` ${v} `]));
    expect(validateRow(kind, PARENT_SHEET, values, 0)).toEqual([]);
  });

  test('only other-company parents carry the Purchase Organisation', () => {
    const cols = (kind: WorkbookKind) => WORKBOOK_COLUMNS[kind][PARENT_SHEET].map((r) => r.column);
    expect(cols('other-company')).toContain(COL.purchaseOrganisation);
    expect(cols('utility')).not.toContain(COL.purchaseOrganisation);
    expect(validateRow('utility', PARENT_SHEET, example('other-company', PARENT_SHEET), 0)).toEqual([]);
    expect(validateRow('other-company', PARENT_SHEET, example('utility', PARENT_SHEET), 0)).toEqual([
      { sheet: PARENT_SHEET, row: 2, column: COL.purchaseOrganisation, value: '', message: m.noData },
    ]);
  });

  describe('sheet-level rules', () => {
    const kind = 'utility';
    test('a missing sheet', () => {
      const sheets = sheetsOf(kind, [example(kind, PARENT_SHEET)], []);
      delete sheets[CHILD_SHEET];
      expect(validateWorkbook(kind, sheets)).toEqual([{ sheet: CHILD_SHEET, row: 0, column: '', value: '', message: m.noRows }]);
    });
    test('a missing column, once per column', () => {
      const sheets = sheetsOf(kind, [example(kind, PARENT_SHEET)], []);
      sheets[PARENT_SHEET] = { ...sheets[PARENT_SHEET]!, headers: sheets[PARENT_SHEET]!.headers.filter((h) => h !== COL.pan && h !== COL.city) };
      expect(validateWorkbook(kind, sheets)).toEqual([
        { sheet: PARENT_SHEET, row: 1, column: COL.city, value: '', message: m.missingColumn },
        { sheet: PARENT_SHEET, row: 1, column: COL.pan, value: '', message: m.missingColumn },
      ]);
    });
    test('an empty header', () => {
      const sheets = sheetsOf(kind, [example(kind, PARENT_SHEET)], []);
      sheets[CHILD_SHEET] = { ...sheets[CHILD_SHEET]!, headers: [...sheets[CHILD_SHEET]!.headers, ' '] };
      expect(validateWorkbook(kind, sheets)).toEqual([{ sheet: CHILD_SHEET, row: 1, column: '', value: '', message: m.emptyHeader }]);
    });
    test('no rows in either sheet', () => {
      expect(validateWorkbook(kind, sheetsOf(kind, [], []))).toEqual([{ sheet: PARENT_SHEET, row: 0, column: '', value: '', message: m.noRows }]);
    });
    test('children only (their parents are in the ERP already) are fine', () => {
      expect(validateWorkbook(kind, sheetsOf(kind, [], [example(kind, CHILD_SHEET)]))).toEqual([]);
    });
    test('too many rows', () => {
      const rows = Array.from({ length: MAX_SHEET_ROWS + 1 }, () => example(kind, CHILD_SHEET));
      expect(validateWorkbook(kind, sheetsOf(kind, [], rows))).toEqual([
        { sheet: CHILD_SHEET, row: 0, column: '', value: '', message: m.tooManyRows(MAX_SHEET_ROWS) },
      ]);
    });
    test('the same vendor twice in a sheet', () => {
      const errors = validateWorkbook(
        kind,
        sheetsOf(
          kind,
          [example(kind, PARENT_SHEET), example(kind, PARENT_SHEET), example(kind, PARENT_SHEET, { [COL.companyCode]: '2000' })],
          [example(kind, CHILD_SHEET), example(kind, CHILD_SHEET)],
        ),
      );
      expect(errors).toEqual([
        { sheet: PARENT_SHEET, row: 3, column: COL.pan, value: 'AAECM2933K', message: m.duplicateParent(2) },
        { sheet: CHILD_SHEET, row: 3, column: COL.gstin, value: '27AAECM2933K1ZA', message: m.duplicateChild(2) },
      ]);
    });
  });

  test('valid rows become what the ERP is asked to create', () => {
    const kind = 'other-company';
    const rows = vendorRows(kind, sheetsOf(kind, [example(kind, PARENT_SHEET)], [example(kind, CHILD_SHEET, { [COL.email]: 'x@y.example' })]));
    expect(rows.parents).toEqual([
      expect.objectContaining({
        sheet: 'parent',
        row: 2,
        companyCode: '1000',
        pan: 'AABCA1234F',
        gstin: null,
        email: 'accounts@acme-freight.example',
        purchaseOrganisation: '1000',
        accountGroup: ACCOUNT_GROUPS[kind],
        bankKey: 'HDFC0000001',
        extra: { [COL.cin]: 'U60231MH2010PTC123456', [COL.emailDept]: 'accounts@acme-freight.example' },
      }),
    ]);
    expect(rows.children).toEqual([
      expect.objectContaining({ sheet: 'child', row: 2, region: '27', gstin: '27AABCA1234F1Z5', bankAccount: null, reconAccount: null }),
    ]);
    expect(rows.children[0]?.extra[COL.email]).toBe('x@y.example');
  });
});
