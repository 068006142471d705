/**
 * Spreadsheet formula injection (OWASP "CSV injection"): a text starting with = + - @ or a tab/CR/LF may be
 * read as a formula when someone edits the cell. Every workbook the project writes passes its text cells
 * through `safeCell`: such text gets a leading apostrophe, so it stays visibly text (exceljs writes strings
 * as strings, never as formulas; the apostrophe protects the next person who edits the cell).
 */
export const FORMULA_LEADING = /^[=+\-@\t\r\n]/;

/** Excel refuses a file whose cell holds more (it "repairs" it away). */
export const MAX_CELL_TEXT = 32_767;

/** Text made formula-safe; numbers, booleans, dates and null pass unchanged. */
export function safeCell<T>(value: T): T | string {
  if (typeof value !== 'string') return value;
  return FORMULA_LEADING.test(value) ? `'${value}` : value;
}

/** Any value as formula-safe text ('' for null), cut at Excel's cell limit with `cutNote` at the end. */
export function safeCellText(value: unknown, cutNote = '… (cut)'): string {
  if (value === null || value === undefined) return '';
  const text = safeCell(typeof value === 'string' ? value : JSON.stringify(value)) as string;
  return text.length > MAX_CELL_TEXT ? text.slice(0, MAX_CELL_TEXT - cutNote.length) + cutNote : text;
}
