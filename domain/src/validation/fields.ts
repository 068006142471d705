import { z } from 'zod';

/**
 * Every field pattern of spec 000 §5, with the spec's messages where it gives them and plain user language
 * where it does not. One module, used by the API, the Excel importers and both front ends.
 */
export const MAX_TEXT_LENGTH = 260;

export const messages = {
  email: 'Please enter a valid email id',
  mobile: 'Please enter a valid 10-digit mobile number starting with 6, 7, 8 or 9',
  accountNumber: 'Account number must be 9 to 15 digits',
  required: 'This field is required',
  password:
    'Password must be 8-20 characters with at least one lowercase letter, one uppercase letter, one digit and one of @$!%*?&',
  confirmPassword: 'Confirm Password Not Matching',
  pinCode: 'Pincode must be 6 digits',
  otp: 'OTP must be 6 digits',
  pan: 'Please enter a valid PAN (5 letters, 4 digits, 1 letter)',
  gstin: 'Please enter a valid 15-character GSTIN',
  cin: 'Please enter a valid CIN (L or U, 5 digits, 2 letters, 4 digits, 3 letters, 6 digits)',
  ifsc: 'Please enter a valid IFSC (4 letters, 0, then 6 letters or digits)',
  alphanumericCode: 'Code must be 1 to 25 letters or digits',
  name: 'Only letters, hyphen, dot and space are allowed',
  amount: 'Please enter an amount with up to 2 decimals',
  leadingCharacter: "Text must not start with - = @ # & ^ + | % < ' \" or a tab or line break",
  integer: 'Please enter a whole number without leading zeros',
  numberList: 'Please enter numbers of 4 to 8 digits separated by commas',
  tooLong: `Maximum ${MAX_TEXT_LENGTH} characters allowed`,
  /** One message for every wrong fleet size: "-5", "2.5", "1000000" and "ten" all need the same fix. */
  fleetSize: 'Please enter a whole number of vehicles from 0 to 100000',
  /** "#42, 2nd Main Road" is common in Indian addresses; say how to write it rather than list symbols. */
  addressHash: 'Start the address with the number, e.g. No. 42, 2nd Main Road',
  micr: 'MICR must be 9 digits',
  date: 'Please enter a valid date (YYYY-MM-DD)',
} as const;

/** The largest fleet a BA may declare (issue 8: a fleet of 1,000,000 was accepted). */
export const MAX_FLEET_SIZE = 100000;

export const patterns = {
  mobile: /^[6-9]\d{9}$/,
  accountNumber: /^\d{9,15}$/,
  password: /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,20}$/,
  pinCode: /^\d{6}$/,
  otp: /^\d{6}$/,
  contactChangeOtp: /^\d{4}$/,
  pan: /^[A-Z]{5}\d{4}[A-Z]$/,
  gstin: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
  cin: /^[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}$/,
  ifsc: /^[A-Z]{4}0[A-Z0-9]{6}$/,
  alphanumericCode: /^[A-Za-z0-9]{1,25}$/,
  nineDigits: /^\d{9}$/,
  name: /^[A-Za-z.\- ]+$/,
  amount: /^\d+(\.\d{1,2})?$/,
  /** Formula injection: a cell or field starting with one of these is executed by spreadsheets. */
  forbiddenLeading: /^[-=@#&^+|%<'"\t\r\n\0]/,
  integer: /^(0|[1-9]\d*)$/,
  numberList: /^\d{4,8}(,\d{4,8})*$/,
} as const;

/** Free text: at most 260 characters and not starting with a formula character. */
export const safeText = (max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: messages.required })
    .max(max, { error: max === MAX_TEXT_LENGTH ? messages.tooLong : `Maximum ${max} characters allowed` })
    .refine((v) => !patterns.forbiddenLeading.test(v), { error: messages.leadingCharacter });

/**
 * The field's own pattern is checked before the leading-character rule, so "-5" in a number field says what
 * the field expects rather than talking about formulas; both still refuse it.
 */
const patterned = (re: RegExp, message: string) =>
  z
    .string({ error: messages.required })
    .max(MAX_TEXT_LENGTH, { error: messages.tooLong })
    .regex(re, { error: message })
    .refine((v) => !patterns.forbiddenLeading.test(v), { error: messages.leadingCharacter });

function isCalendarDate(v: string): boolean {
  const d = new Date(`${v}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

export const fields = {
  email: safeText().pipe(z.email({ error: messages.email })),
  mobile: patterned(patterns.mobile, messages.mobile),
  accountNumber: patterned(patterns.accountNumber, messages.accountNumber),
  loginPassword: z.string({ error: messages.required }).min(1, { error: messages.required }),
  newPassword: z.string({ error: messages.required }).regex(patterns.password, { error: messages.password }),
  pinCode: patterned(patterns.pinCode, messages.pinCode),
  otp: patterned(patterns.otp, messages.otp),
  pan: patterned(patterns.pan, messages.pan),
  gstin: patterned(patterns.gstin, messages.gstin),
  cin: patterned(patterns.cin, messages.cin),
  /** IFSC is upper-cased before it is checked and sent (spec 000 §5, "Other"). */
  ifsc: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), patterned(patterns.ifsc, messages.ifsc)),
  alphanumericCode: patterned(patterns.alphanumericCode, messages.alphanumericCode),
  name: patterned(patterns.name, messages.name),
  amount: patterned(patterns.amount, messages.amount),
  integer: patterned(patterns.integer, messages.integer),
  numberList: patterned(patterns.numberList, messages.numberList),
  text: safeText(),
  micr: patterned(patterns.nineDigits, messages.micr),
  /** An address line: free text whose leading '#' gets a plain-words message (the rule itself is unchanged). */
  address: z
    .string({ error: messages.required })
    .max(MAX_TEXT_LENGTH, { error: messages.tooLong })
    .refine((v) => !v.startsWith('#'), { error: messages.addressHash, abort: true })
    .refine((v) => !patterns.forbiddenLeading.test(v), { error: messages.leadingCharacter }),
  /** A number of vehicles: a whole number 0–100000, as a number or digit string (forms send strings). */
  fleetSize: z.preprocess(
    (v) => (typeof v === 'string' && patterns.integer.test(v.trim()) ? Number(v.trim()) : v),
    z.number({ error: messages.fleetSize }).int({ error: messages.fleetSize }).min(0, { error: messages.fleetSize }).max(MAX_FLEET_SIZE, { error: messages.fleetSize }),
  ),
  /** A calendar date as YYYY-MM-DD that exists (no 2026-02-30). */
  date: z
    .string({ error: messages.date })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.date })
    .refine(isCalendarDate, { error: messages.date }),
} as const;

/** Input filter for digit-only fields (mobile, account number, PIN code): what the field may hold as typed. */
export const keepDigits = (typed: string): string => typed.replace(/\D+/g, '');

/** A new password with its confirmation (spec: "Confirm Password Not Matching"). */
export const newPasswordWithConfirm = z
  .object({ newPassword: fields.newPassword, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: messages.confirmPassword,
    path: ['confirmPassword'],
  });

/** Empty or whitespace-only text becomes null (spec 000 §3: "Empty text fields are sent as null"). */
export const emptyToNull = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? null : v);

/** Turns a zod error into `{ field: message }` with the first message per field. */
export const fieldErrors = (error: z.ZodError): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
};
