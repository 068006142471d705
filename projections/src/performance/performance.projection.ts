import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../../domain/src/shared/events';
import type { Projection, TableNames } from '../projection';
import { COUNTERS, factsOf, type Counter, type Fact } from './facts';

/**
 * `ba_performance`: per BA and month (Indian time of the event) the counters of the performance dashboard
 * (issue 11): RFPs invited, quoted (first quote per RFP), won, lanes awarded, invoices submitted (first
 * submission), released (with the milliseconds from first submission, summed), rejected (once per invoice),
 * blocks applied. Quarters and financial years are sums of months (performance.queries.ts).
 *
 * `ba_performance_facts` remembers every counted fact by (kind, key), with its time: a fact counts only when its
 * row is new, which makes a page applied twice a no-op and "once per RFP per BA" exact, and gives a release its
 * invoice's first submission time. The time sum is integer milliseconds, not fractional days, so a rebuild with
 * other page boundaries adds up to exactly the same value.
 */
export const performanceProjection: Projection = {
  name: 'ba_performance',
  tables: ['ba_performance', 'ba_performance_facts'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('ba_performance')} (
      ba_id text NOT NULL,
      month text NOT NULL,
      ${COUNTERS.map((c) => `${c} integer NOT NULL DEFAULT 0`).join(',\n      ')},
      release_ms_sum bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (ba_id, month)
    );
    CREATE TABLE IF NOT EXISTS ${t('ba_performance_facts')} (
      kind text NOT NULL,
      key text NOT NULL,
      ba_id text NOT NULL,
      month text NOT NULL,
      at timestamptz NOT NULL,
      PRIMARY KEY (kind, key)
    );
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    const facts = uniqueFacts(events.flatMap(factsOf));
    if (facts.length === 0) return;
    const { rows: inserted } = await client.query<{ kind: string; key: string; ba_id: string; month: string; at: Date }>(
      `INSERT INTO ${t('ba_performance_facts')} (kind, key, ba_id, month, at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
       ON CONFLICT (kind, key) DO NOTHING
       RETURNING kind, key, ba_id, month, at`,
      [facts.map((f) => f.kind), facts.map((f) => f.key), facts.map((f) => f.baId), facts.map((f) => f.month), facts.map((f) => f.at)],
    );
    if (inserted.length === 0) return;
    const byKey = new Map(facts.map((f) => [`${f.kind}\u0000${f.key}`, f]));
    const releases = inserted.filter((r) => r.kind === 'released').map((r) => r.key);
    const submittedAt = new Map<string, number>();
    if (releases.length > 0) {
      const { rows } = await client.query<{ key: string; at: Date }>(
        `SELECT key, at FROM ${t('ba_performance_facts')} WHERE kind = 'submitted' AND key = ANY($1::text[])`,
        [releases],
      );
      for (const r of rows) submittedAt.set(r.key, new Date(r.at).getTime());
    }
    const months = new Map<string, { baId: string; month: string; counts: Record<Counter, number>; releaseMs: number }>();
    for (const row of inserted) {
      const fact = byKey.get(`${row.kind}\u0000${row.key}`);
      if (!fact) continue;
      const id = `${row.ba_id}\u0000${row.month}`;
      let entry = months.get(id);
      if (!entry) {
        entry = { baId: row.ba_id, month: row.month, counts: Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number>, releaseMs: 0 };
        months.set(id, entry);
      }
      entry.counts[fact.counter] += 1;
      if (fact.releaseOf !== undefined) {
        const since = submittedAt.get(fact.releaseOf);
        // A release always follows its submission on the invoice's stream; the guard only keeps bad data out.
        if (since !== undefined) entry.releaseMs += Math.max(0, new Date(row.at).getTime() - since);
      }
    }
    const rows = [...months.values()];
    const columns = [...COUNTERS, 'release_ms_sum'];
    await client.query(
      `INSERT INTO ${t('ba_performance')} AS p (ba_id, month, ${columns.join(', ')})
       SELECT * FROM unnest($1::text[], $2::text[], ${columns.map((c, i) => `$${i + 3}::${c === 'release_ms_sum' ? 'bigint' : 'integer'}[]`).join(', ')})
       ON CONFLICT (ba_id, month) DO UPDATE SET ${columns.map((c) => `${c} = p.${c} + EXCLUDED.${c}`).join(', ')}`,
      [
        rows.map((r) => r.baId),
        rows.map((r) => r.month),
        ...COUNTERS.map((c) => rows.map((r) => r.counts[c])),
        rows.map((r) => r.releaseMs),
      ],
    );
  },
};

/** The first of facts with the same identity (events come in global order): one statement may not insert a key twice. */
function uniqueFacts(facts: readonly Fact[]): Fact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const id = `${f.kind}\u0000${f.key}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
