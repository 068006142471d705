import { listDocuments, type DocumentRow } from '../onboarding-items/items.queries';
import type { Db } from '../sql';
import { COUNTERS, type Counter } from './facts';
import { average, bucketsEndingAt, percentage, type Period } from './periods';

/** One bucket of the dashboard (contract: GET /api/performance/:baId). */
export type PerformanceFigures = {
  rfpsInvited: number;
  rfpsQuoted: number;
  rfpsWon: number;
  /** Won / quoted × 100, 2 decimals. */
  winRate: number;
  lanesAwarded: number;
  invoicesSubmitted: number;
  invoicesReleased: number;
  /** Average days from first submission to release of the invoices released in the bucket; null when none. */
  avgDaysToRelease: number | null;
  /** Invoices rejected / invoices submitted × 100, 2 decimals. */
  rejectedShare: number;
  blocks: number;
};
export type PerformanceBucket = PerformanceFigures & { key: string; label: string };
export type DocumentValidity = { valid: number; expiring: number; expired: number };
export type PerformanceReport = {
  baId: string;
  period: Period;
  buckets: PerformanceBucket[];
  totals: PerformanceFigures;
  documents: DocumentValidity;
};

/** A document expiring within this many days counts as "expiring" (the first expiry reminder's horizon). */
export const EXPIRING_WITHIN_DAYS = 30;
const DAY_MS = 86_400_000;

type Sums = Record<Counter, number> & { releaseMs: number };
const zero = (): Sums => ({ ...(Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number>), releaseMs: 0 });

function figures(s: Sums): PerformanceFigures {
  return {
    rfpsInvited: s.rfps_invited,
    rfpsQuoted: s.rfps_quoted,
    rfpsWon: s.rfps_won,
    winRate: percentage(s.rfps_won, s.rfps_quoted),
    lanesAwarded: s.lanes_awarded,
    invoicesSubmitted: s.invoices_submitted,
    invoicesReleased: s.invoices_released,
    avgDaysToRelease: average(s.releaseMs / DAY_MS, s.invoices_released),
    rejectedShare: percentage(s.invoices_rejected, s.invoices_submitted),
    blocks: s.blocks,
  };
}

const add = (into: Sums, from: Sums): void => {
  for (const c of COUNTERS) into[c] += from[c];
  into.releaseMs += from.releaseMs;
};

/**
 * A BA's dashboard for the period's buckets ending at `today` (YYYY-MM-DD, India): 12 months, 8 quarters or 5
 * financial years, oldest first, each the sum of its months; totals over the buckets shown.
 */
export async function performanceOf(db: Db, baId: string, period: Period, today: string): Promise<PerformanceReport> {
  const buckets = bucketsEndingAt(period, today);
  const months = buckets.flatMap((b) => b.months);
  const { rows } = await db.query<Record<Counter, number> & { month: string; release_ms_sum: string | number }>(
    `SELECT month, ${COUNTERS.join(', ')}, release_ms_sum FROM ba_performance WHERE ba_id = $1 AND month = ANY($2::text[])`,
    [baId, months],
  );
  const byMonth = new Map<string, Sums>();
  for (const r of rows) {
    const sums = zero();
    for (const c of COUNTERS) sums[c] = Number(r[c]);
    sums.releaseMs = Number(r.release_ms_sum);
    byMonth.set(r.month, sums);
  }
  const total = zero();
  const out = buckets.map((b) => {
    const sums = zero();
    for (const m of b.months) {
      const s = byMonth.get(m);
      if (s) add(sums, s);
    }
    add(total, sums);
    return { key: b.key, label: b.label, ...figures(sums) };
  });
  return { baId, period, buckets: out, totals: figures(total), documents: documentValidity(await listDocuments(db, baId), today) };
}

/**
 * The BA's current documents by validity on `today`: expired (marked so by the expiry timer, or past the date),
 * expiring (valid till within 30 days), valid (the rest, documents without a validity date included). Rejected
 * documents are not valid documents and are left out.
 */
export function documentValidity(documents: readonly Pick<DocumentRow, 'validTill' | 'expired' | 'reviewStatus'>[], today: string): DocumentValidity {
  const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + EXPIRING_WITHIN_DAYS * DAY_MS).toISOString().slice(0, 10);
  const result: DocumentValidity = { valid: 0, expiring: 0, expired: 0 };
  for (const d of documents) {
    if (d.reviewStatus === 'rejected') continue;
    if (d.expired || (d.validTill !== null && d.validTill < today)) result.expired += 1;
    else if (d.validTill !== null && d.validTill <= horizon) result.expiring += 1;
    else result.valid += 1;
  }
  return result;
}

/** The BA's current documents expiring within 30 days of `today` (not yet expired), soonest first. */
export async function expiringDocumentsOf(db: Db, baId: string, today: string): Promise<{ name: string; expiresOn: string }[]> {
  const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + EXPIRING_WITHIN_DAYS * DAY_MS).toISOString().slice(0, 10);
  return (await listDocuments(db, baId))
    .filter((d) => d.reviewStatus !== 'rejected' && !d.expired && d.validTill !== null && d.validTill >= today && d.validTill <= horizon)
    .sort((a, b) => (a.validTill as string).localeCompare(b.validTill as string))
    .map((d) => ({ name: d.stateName ? `${d.documentTypeName} (${d.stateName})` : d.documentTypeName, expiresOn: d.validTill as string }));
}
