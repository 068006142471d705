const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Dates are shown in Indian time whatever the browser's zone, so a BA and the staff see the same day. */
const parts = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: 'numeric',
  year: 'numeric',
});

function pieces(value: string | Date) {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  const p = Object.fromEntries(parts.formatToParts(date).map((x) => [x.type, x.value]));
  return { ...p, month: MONTHS[Number(p['month']) - 1] ?? '' } as Record<string, string>;
}

/** DD-MMM-YYYY (spec 000 §9), e.g. 05-Mar-2026; the spec's missing-value marker "NA" without a date. */
export function formatDate(value: string | Date | null | undefined): string {
  const p = value ? pieces(value) : null;
  return p ? `${p['day']}-${p['month']}-${p['year']}` : 'NA';
}
