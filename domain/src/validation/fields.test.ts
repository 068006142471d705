import type { z } from 'zod';
import {
  emptyToNull,
  fieldErrors,
  fields,
  keepDigits,
  MAX_TEXT_LENGTH,
  messages,
  newPasswordWithConfirm,
  patterns,
  safeText,
} from './fields';

/** The first message a field shows for a value, or undefined when the value is accepted. */
const messageFor = (schema: z.ZodType, value: unknown): string | undefined => {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

type Case = [string, unknown];

/** Given a field: when a good value is parsed, then it passes; when a bad one is, then its message shows. */
const rule = (schema: z.ZodType, good: unknown[], bad: Case[], message: string) => {
  test.each(good.map((v) => [JSON.stringify(v), v]))('accepts %s', (_label, value) => {
    expect(messageFor(schema, value)).toBeUndefined();
  });
  test.each(bad)('refuses %s with its message', (_label, value) => {
    expect(messageFor(schema, value)).toBe(message);
  });
};

describe('spec messages', () => {
  test('are the spec’s own words where it gives them', () => {
    expect(messages.email).toBe('Please enter a valid email id');
    expect(messages.confirmPassword).toBe('Confirm Password Not Matching');
    expect(MAX_TEXT_LENGTH).toBe(260);
  });
});

describe('e-mail', () => {
  rule(
    fields.email,
    ['ba.admin@demo.test', 'First.Last+tag@example.co.in', 'a_b-c@sub.domain.in'],
    [
      ['no @', 'ba.admin.demo.test'],
      ['no domain dot', 'x@localhost'],
      ['two @', 'a@b@c.com'],
      ['inner space', 'a b@c.com'],
      ['empty', ''],
    ],
    messages.email,
  );
  test('a missing value is required', () => {
    expect(messageFor(fields.email, undefined)).toBe(messages.required);
  });
  test('an address starting with a formula character is refused by the leading-character rule', () => {
    expect(messageFor(fields.email, '=a@b.com')).toBe(messages.leadingCharacter);
  });
});

describe('mobile: 10 digits starting with 6-9', () => {
  rule(
    fields.mobile,
    ['6000000000', '7123456789', '8123456789', '9999999999'],
    [
      ['starts with 5', '5999999999'],
      ['starts with 0', '0987654321'],
      ['9 digits', '987654321'],
      ['11 digits', '98765432101'],
      ['a letter', '98765x4321'],
      ['country code', '+919876543210'],
      ['empty', ''],
    ],
    messages.mobile,
  );
});

describe('account number: 9 to 15 digits', () => {
  rule(
    fields.accountNumber,
    ['123456789', '123456789012345', '000000000'],
    [
      ['8 digits', '12345678'],
      ['16 digits', '1234567890123456'],
      ['a letter', '12345678A'],
      ['a space', '1234 56789'],
    ],
    messages.accountNumber,
  );
});

describe('new password', () => {
  rule(
    fields.newPassword,
    ['Abcdef1@', 'Abcdefghijklmnopq1$z', 'aB3!aB3!', 'Zz9%Zz9*', 'Qq1?Qq1&'],
    [
      ['7 characters', 'Abcde1@'],
      ['21 characters', 'Abcdefghijklmnopq1$zz'],
      ['no lowercase', 'ABCDEF1@'],
      ['no uppercase', 'abcdef1@'],
      ['no digit', 'Abcdefg@'],
      ['no special', 'Abcdefg1'],
      ['a special outside @$!%*?& instead', 'Abcdef1#'],
      ['a special outside @$!%*?& as well', 'Abcdef1@#'],
      ['a non-ASCII letter as well', 'Abcdéf1@'],
      ['a space', 'Abc def1@'],
      ['empty', ''],
    ],
    messages.password,
  );

  test('given a valid password, when the confirmation differs, then "Confirm Password Not Matching"', () => {
    const parsed = newPasswordWithConfirm.safeParse({ newPassword: 'Abcdef1@', confirmPassword: 'Abcdef1!' });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({ confirmPassword: 'Confirm Password Not Matching' });
  });
  test('given a valid password, when the confirmation equals it, then it is accepted', () => {
    const parsed = newPasswordWithConfirm.safeParse({ newPassword: 'Abcdef1@', confirmPassword: 'Abcdef1@' });
    expect(parsed.success).toBe(true);
  });
  test('the login password only has to be non-empty', () => {
    expect(messageFor(fields.loginPassword, 'x')).toBeUndefined();
    expect(messageFor(fields.loginPassword, '')).toBe(messages.required);
  });
});

describe('pincode: 6 digits', () => {
  rule(
    fields.pinCode,
    ['400001', '000000'],
    [
      ['5 digits', '40000'],
      ['7 digits', '4000011'],
      ['a letter', '40000A'],
    ],
    messages.pinCode,
  );
});

describe('OTP: 6 digits', () => {
  rule(
    fields.otp,
    ['123456', '000000'],
    [
      ['5 digits', '12345'],
      ['7 digits', '1234567'],
      ['a letter', '12345a'],
    ],
    messages.otp,
  );
  test('the contact-change OTP is 4 digits per box', () => {
    expect(patterns.contactChangeOtp.test('1234')).toBe(true);
    expect(patterns.contactChangeOtp.test('123')).toBe(false);
    expect(patterns.contactChangeOtp.test('12345')).toBe(false);
  });
});

describe('PAN: 5 letters, 4 digits, 1 letter', () => {
  rule(
    fields.pan,
    ['ABCDE1234F', 'AAACM1234Z'],
    [
      ['lower case (upper-casing is the caller’s job)', 'abcde1234f'],
      ['4 letters first', 'ABCD12345F'],
      ['ends with a digit', 'ABCDE12345'],
      ['too long', 'ABCDE1234FG'],
      ['too short', 'ABCDE1234'],
    ],
    messages.pan,
  );
});

describe('GSTIN: 15 characters in the standard pattern', () => {
  rule(
    fields.gstin,
    ['27ABCDE1234F1Z5', '29AAACM1234ZAZA'],
    [
      ['14 characters', '27ABCDE1234F1Z'],
      ['16 characters', '27ABCDE1234F1Z55'],
      ['14th character not Z', '27ABCDE1234F1Y5'],
      ['13th character 0', '27ABCDE1234F0Z5'],
      ['state code not digits', 'MHABCDE1234F1Z5'],
      ['PAN part malformed', '271BCDE1234F1Z5'],
    ],
    messages.gstin,
  );
});

describe('CIN: L/U, 5 digits, 2 letters, 4 digits, 3 letters, 6 digits', () => {
  rule(
    fields.cin,
    ['L12345MH2001PLC123456', 'U74999DL2015PTC123456'],
    [
      ['starts with X', 'X12345MH2001PLC123456'],
      ['4 digits first', 'L1234MH2001PLC1234567'],
      ['3 letters for the state', 'L12345MHA001PLC123456'],
      ['5 trailing digits', 'L12345MH2001PLC12345'],
      ['7 trailing digits', 'L12345MH2001PLC1234567'],
      ['lower case', 'l12345mh2001plc123456'],
    ],
    messages.cin,
  );
});

describe('IFSC: 4 letters, 0, 6 alphanumerics, upper-cased first', () => {
  rule(
    fields.ifsc,
    ['SBIN0001234', 'HDFC0ABC12Z'],
    [
      ['fifth character not 0', 'SBIN1001234'],
      ['3 letters', 'SBI00001234'],
      ['10 characters', 'SBIN000123'],
      ['12 characters', 'SBIN00012345'],
    ],
    messages.ifsc,
  );
  test('given a lower-case IFSC, when parsed, then it is accepted upper-cased', () => {
    expect(fields.ifsc.parse('sbin0a01234')).toBe('SBIN0A01234');
  });
});

describe('alphanumeric code: 1 to 25 letters or digits', () => {
  rule(
    fields.alphanumericCode,
    ['A', 'abc123', 'A'.repeat(25)],
    [
      ['empty', ''],
      ['26 characters', 'A'.repeat(26)],
      ['a hyphen', 'AB-12'],
      ['a space', 'AB 12'],
    ],
    messages.alphanumericCode,
  );
  test('the 9-digit numeric pattern', () => {
    expect(patterns.nineDigits.test('123456789')).toBe(true);
    expect(patterns.nineDigits.test('12345678')).toBe(false);
    expect(patterns.nineDigits.test('1234567890')).toBe(false);
  });
});

describe('names: letters, hyphen, dot and space', () => {
  rule(
    fields.name,
    ['Ravi Kumar', 'A. K. Sharma-Rao', 'X'],
    [
      ['a digit', 'Ravi 2'],
      ['an apostrophe inside', 'D’Souza'],
      ['an underscore', 'Ravi_Kumar'],
      ['empty', ''],
    ],
    messages.name,
  );
});

describe('amount: digits with up to 2 decimals', () => {
  rule(
    fields.amount,
    ['0', '100', '100.5', '100.50', '1234567.99'],
    [
      ['3 decimals', '100.123'],
      ['a trailing dot', '100.'],
      ['no integer part', '.5'],
      ['grouping commas', '1,000'],
      ['negative', '-5'],
      ['letters', '12a'],
    ],
    messages.amount,
  );
});

describe('integer without leading zero', () => {
  rule(
    fields.integer,
    ['0', '7', '10', '123456'],
    [
      ['a leading zero', '07'],
      ['two zeros', '00'],
      ['decimals', '1.5'],
      ['negative', '-1'],
      ['empty', ''],
    ],
    messages.integer,
  );
});

describe('comma-separated 4-8 digit numbers', () => {
  rule(
    fields.numberList,
    ['1234', '12345678', '1234,12345678,5555'],
    [
      ['3 digits', '123'],
      ['9 digits', '123456789'],
      ['a space after the comma', '1234, 5678'],
      ['a trailing comma', '1234,'],
      ['a short member', '1234,567'],
    ],
    messages.numberList,
  );
});

describe('free text: at most 260 characters', () => {
  test('260 characters are accepted', () => {
    expect(messageFor(fields.text, 'a'.repeat(260))).toBeUndefined();
  });
  test('261 characters are refused with "Maximum 260 characters allowed"', () => {
    expect(messageFor(fields.text, 'a'.repeat(261))).toBe('Maximum 260 characters allowed');
  });
  test('a patterned field over 260 characters reports the length first', () => {
    expect(messageFor(fields.mobile, '9'.repeat(261))).toBe(messages.tooLong);
  });
  test('a smaller limit names its own maximum', () => {
    expect(messageFor(safeText(45), 'a'.repeat(45))).toBeUndefined();
    expect(messageFor(safeText(45), 'a'.repeat(46))).toBe('Maximum 45 characters allowed');
  });
});

describe('leading-character rule (formula injection)', () => {
  const leading = ['-', '=', '@', '#', '&', '^', '+', '|', '%', '<', "'", '"', '\t', '\r', '\n', '\0'];
  test.each(leading.map((c) => [JSON.stringify(c), c]))('refuses text starting with %s', (_label, c) => {
    expect(messageFor(fields.text, `${c}SUM(A1:A9)`)).toBe(messages.leadingCharacter);
  });
  test.each(leading.map((c) => [JSON.stringify(c), c]))('accepts %s inside the text', (_label, c) => {
    expect(messageFor(fields.text, `Plot 4${c}B`)).toBeUndefined();
  });
  test.each([
    ['a letter', 'Acme'],
    ['a digit', '4 Main Road'],
    ['a space', ' Acme'],
    ['a bracket', '(North) Depot'],
  ])('accepts text starting with %s', (_label, value) => {
    expect(messageFor(fields.text, value)).toBeUndefined();
  });
  test('the rule covers patterned fields too', () => {
    // The name pattern allows a hyphen, but a cell starting with one is evaluated by spreadsheets.
    expect(messageFor(fields.name, '-Ravi')).toBe(messages.leadingCharacter);
    expect(messageFor(fields.name, 'Ravi-Kumar')).toBeUndefined();
  });
  test('a number field says what it expects before mentioning formulas', () => {
    expect(messageFor(fields.integer, '-1')).toBe(messages.integer);
  });
});

describe('emptyToNull', () => {
  test.each([[''], ['   '], ['\t\n']])('turns %j into null', (v) => {
    expect(emptyToNull(v)).toBeNull();
  });
  test.each([['a'], [' a '], [0], [null], [undefined]])('leaves %j as it is', (v) => {
    expect(emptyToNull(v)).toBe(v);
  });
});

describe('fieldErrors', () => {
  test('keys each message by its field path and keeps the first per field', () => {
    const parsed = newPasswordWithConfirm.safeParse({ newPassword: 'short', confirmPassword: 'other' });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({
      newPassword: messages.password,
      confirmPassword: messages.confirmPassword,
    });
  });
  test('an error with no path is keyed "_"', () => {
    const parsed = fields.pan.safeParse('x');
    expect(fieldErrors(parsed.error!)).toEqual({ _: messages.pan });
  });
});

describe('issue 8 fields', () => {
  const first = (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }, v: unknown) => {
    const r = schema.safeParse(v);
    return r.success ? null : r.error?.issues[0]?.message;
  };

  test.each([['-5'], ['2.5'], ['100001'], [1000000], [-1], [2.5], ['ten'], ['012']])('fleetSize refuses %j with one plain message', (v) => {
    expect(first(fields.fleetSize, v)).toBe('Please enter a whole number of vehicles from 0 to 100000');
  });

  test.each([['0', 0], [' 250 ', 250], [100000, 100000]])('fleetSize takes %j as %j', (v, n) => {
    expect(fields.fleetSize.parse(v)).toBe(n);
  });

  test('address: a leading # gets the plain-words message, other formula characters the rule message', () => {
    expect(first(fields.address, '#42, 2nd Main Road')).toBe('Start the address with the number, e.g. No. 42, 2nd Main Road');
    expect(first(fields.address, '=42')).toBe(messages.leadingCharacter);
    expect(first(fields.address, 'No. 42, 2nd Main Road')).toBeNull();
    expect(first(fields.address, 'a'.repeat(261))).toBe(messages.tooLong);
  });

  test.each([['2026-02-29'], ['2026-13-01'], ['26-01-01'], ['2026-1-1']])('date refuses %j', (v) => {
    expect(first(fields.date, v)).toBe(messages.date);
  });

  test('date takes a real calendar day; MICR takes 9 digits', () => {
    expect(first(fields.date, '2028-02-29')).toBeNull();
    expect(first(fields.micr, '400240002')).toBeNull();
    expect(first(fields.micr, '40024000')).toBe(messages.micr);
  });

  test('keepDigits strips everything but digits as the user types', () => {
    expect(keepDigits('98a76 5-43210')).toBe('9876543210');
  });
});
