import { DISPLAY_TIME_ZONE } from '../../../domain/src/shared/format';

/**
 * The console shows every time in Indian time (Asia/Kolkata, UTC+05:30 all year), whatever the browser's
 * zone; a picked date-time means the same. These convert between a `datetime-local` field's value
 * ("2025-11-03T10:30") read as Indian time and the ISO instant the API takes.
 */
const IST_OFFSET = '+05:30';
const IST_OFFSET_MS = 330 * 60_000;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export { DISPLAY_TIME_ZONE };

/** "2025-11-03T10:30" → "2025-11-03T10:30:00+05:30"; '' for anything else (an emptied field). */
export const istLocalToIso = (local: string | null | undefined, endOfMinute = false): string =>
  local && LOCAL.test(local) ? `${local}:${endOfMinute ? '59.999' : '00'}${IST_OFFSET}` : '';

/** An ISO instant as the field's value in Indian time: "2025-11-03T05:00:00Z" → "2025-11-03T10:30". */
export function isoToIstLocal(iso: string | null | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 16);
}

/** Now, as a field value in Indian time (the picker's default and its upper bound). */
export const nowIstLocal = (): string => isoToIstLocal(new Date().toISOString());
