import type ExcelJS from 'exceljs';
import type { XlsxCellValue } from './xlsx-rows';

/** A cell as text: trimmed strings, integers without ".0", dates as YYYY-MM-DD, a formula as its "=" text. */
export function cellText(v: ExcelJS.CellValue | XlsxCellValue | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    // A formula is never evaluated: its text fails every pattern (no column takes a leading "=").
    if ('formula' in v || 'sharedFormula' in v) {
      const f = v as { formula?: string; sharedFormula?: string };
      return `=${f.formula ?? f.sharedFormula ?? ''}`;
    }
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return String((v as { text: unknown }).text);
    if ('error' in v) return String((v as { error: unknown }).error);
  }
  return String(v);
}
