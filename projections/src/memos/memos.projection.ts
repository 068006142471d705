import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { isMemoStream, type MemoEventData } from '../invoices/invoice-events';
import type { Projection, TableNames } from '../projection';

/**
 * `memos`: one row per submitted memo (GET /api/memos), `memo_advances`: the advance payments recorded against
 * it; both from the `memo-<memoId>` streams (the claims and sequence streams are the workflow's, not read here).
 * The memo row keeps the running sum of its advances, so the list shows the balance without aggregating; the sum
 * moves only when the memo row's version guard lets the advance through, so a page applied twice adds nothing.
 */
export const memosProjection: Projection = {
  name: 'memos',
  tables: ['memos', 'memo_advances'],
  schema: (t: TableNames) => `
    CREATE TABLE IF NOT EXISTS ${t('memos')} (
      id text PRIMARY KEY,
      memo_number text NOT NULL,
      ba_id text NOT NULL,
      company_code text NOT NULL,
      financial_year text NOT NULL,
      from_state_id integer,
      to_state_id integer,
      invoice_ids text[] NOT NULL,
      taxable_amount numeric(16,2) NOT NULL,
      cgst numeric(16,2) NOT NULL,
      sgst numeric(16,2) NOT NULL,
      igst numeric(16,2) NOT NULL,
      td numeric(16,2) NOT NULL,
      total_amount numeric(16,2) NOT NULL,
      net_payable numeric(16,2) NOT NULL,
      advance_amount numeric(16,2) NOT NULL DEFAULT 0,
      comments text,
      submitted_at timestamptz NOT NULL,
      submitted_by jsonb NOT NULL,
      updated_at timestamptz NOT NULL,
      stream_version integer NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${t('memos')}_scope_idx ON ${t('memos')} (company_code, submitted_at DESC, id);
    CREATE INDEX IF NOT EXISTS ${t('memos')}_ba_idx ON ${t('memos')} (ba_id, submitted_at DESC);
    CREATE INDEX IF NOT EXISTS ${t('memos')}_number_idx ON ${t('memos')} (lower(memo_number) text_pattern_ops);
    CREATE TABLE IF NOT EXISTS ${t('memo_advances')} (
      advance_id text PRIMARY KEY,
      memo_id text NOT NULL,
      amount numeric(16,2) NOT NULL,
      reference text NOT NULL,
      paid_on text NOT NULL,
      recorded_by jsonb NOT NULL,
      recorded_at timestamptz NOT NULL,
      global_position bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${t('memo_advances')}_memo_idx ON ${t('memo_advances')} (memo_id, global_position);
  `,
  apply: async (client: PoolClient, events: readonly StoredEvent[], t: TableNames) => {
    for (const stored of events) {
      if (isMemoStream(stored.streamId)) await applyMemo(client, stored, t('memos'), t('memo_advances'));
    }
  },
};

const amount = (v: unknown): string => (typeof v === 'string' && /^\d{1,13}(\.\d{1,2})?$/.test(v) ? v : '0');

async function applyMemo(client: PoolClient, stored: StoredEvent, memos: string, advances: string): Promise<void> {
  const event = { type: stored.type, data: stored.data } as MemoEventData;
  const at = stored.metadata.at;
  const v = Number(stored.version);
  switch (event.type) {
    case 'MemoSubmitted': {
      const d = event.data;
      const totals = d.totals;
      await client.query(
        `INSERT INTO ${memos} (id, memo_number, ba_id, company_code, financial_year, from_state_id, to_state_id, invoice_ids,
           taxable_amount, cgst, sgst, igst, td, total_amount, net_payable, comments, submitted_at, submitted_by, updated_at, stream_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $17, $19)
         ON CONFLICT (id) DO NOTHING`,
        [
          d.memoId,
          d.memoNumber,
          d.baId,
          d.companyCode,
          d.financialYear,
          d.fromStateId ?? null,
          d.toStateId ?? null,
          d.invoiceIds,
          amount(totals.taxableAmount),
          amount(totals.cgst),
          amount(totals.sgst),
          amount(totals.igst),
          amount(totals.td),
          amount(totals.totalAmount),
          amount(totals.netPayable),
          d.comments ?? null,
          at,
          JSON.stringify(d.submittedBy),
          v,
        ],
      );
      break;
    }
    case 'AdvancePaymentRecorded': {
      const d = event.data;
      const { rowCount } = await client.query(
        `UPDATE ${memos} SET advance_amount = advance_amount + $2::numeric, updated_at = $3, stream_version = $4
         WHERE id = $1 AND stream_version < $4`,
        [d.memoId, amount(d.amount), at, v],
      );
      if (!rowCount) break;
      await client.query(
        `INSERT INTO ${advances} (advance_id, memo_id, amount, reference, paid_on, recorded_by, recorded_at, global_position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (advance_id) DO NOTHING`,
        [d.advanceId, d.memoId, amount(d.amount), d.reference ?? '', d.paidOn ?? '', JSON.stringify(d.by), at, stored.globalPosition],
      );
      break;
    }
    default:
      break;
  }
}
