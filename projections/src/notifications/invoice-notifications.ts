import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../../domain/src/shared/events';
import { isInvoiceStream } from '../invoices/invoice-events';
import type { TableNames } from '../projection';
import { upsertRows } from '../sql';
import { evolveInvoiceSubject, invoiceNotifications, memoNotifications, type InvoiceSubject, type NotificationRequest } from './rules';

/**
 * The Bill-Hub side of the notifications projection (issue 11): the per-invoice subject (`notification_invoices`:
 * number, company code, BA) folded from the invoice streams, guarded by stream version, and the notifications
 * the invoice and memo events ask for. Like `notification_rfps`, it is this projection's own table, so the
 * wording never depends on how far the `invoices` projection has got.
 */
export const INVOICE_SUBJECTS_TABLE = 'notification_invoices';

export const invoiceSubjectsSchema = (t: TableNames): string => {
  const s = t(INVOICE_SUBJECTS_TABLE);
  return `
CREATE TABLE IF NOT EXISTS ${s} (
  invoice_id text NOT NULL,
  ba_id text NOT NULL,
  invoice_number text NOT NULL,
  company_code text,
  version integer NOT NULL,
  CONSTRAINT ${s}_pkey PRIMARY KEY (invoice_id)
);`;
};

type Row = { invoice_id: string; ba_id: string; invoice_number: string; company_code: string | null; version: number };
const COLUMNS = [
  { name: 'invoice_id', type: 'text' },
  { name: 'ba_id', type: 'text' },
  { name: 'invoice_number', type: 'text' },
  { name: 'company_code', type: 'text' },
  { name: 'version', type: 'integer' },
] as const satisfies readonly { name: keyof Row; type: string }[];

/** Folds the page's invoice events onto the stored subjects and returns the notifications they ask for. */
export async function applyInvoices(client: PoolClient, events: readonly StoredEvent[], t: TableNames): Promise<NotificationRequest[]> {
  const table = t(INVOICE_SUBJECTS_TABLE);
  const mine = events.filter((e) => isInvoiceStream(e.streamId) && typeof (e.data as { invoiceId?: unknown } | null)?.invoiceId === 'string');
  const requests: NotificationRequest[] = [];
  if (mine.length > 0) {
    const ids = [...new Set(mine.map((e) => (e.data as { invoiceId: string }).invoiceId))];
    const { rows } = await client.query<Row>(`SELECT ${COLUMNS.map((c) => c.name).join(', ')} FROM ${table} WHERE invoice_id = ANY($1::text[])`, [ids]);
    const subjects = new Map<string, InvoiceSubject>(
      rows.map((r) => [r.invoice_id, { invoiceId: r.invoice_id, baId: r.ba_id, invoiceNumber: r.invoice_number, companyCode: r.company_code, version: r.version }]),
    );
    const changed = new Set<string>();
    for (const e of mine) {
      const d = e.data as { invoiceId: string; baId?: unknown };
      const before = subjects.get(d.invoiceId);
      // A page applied again: the subject is past it, and the rows it would ask for exist (deterministic ids).
      if (before && e.version <= before.version) continue;
      const start: InvoiceSubject = before ?? {
        invoiceId: d.invoiceId,
        baId: typeof d.baId === 'string' ? d.baId : '',
        invoiceNumber: '',
        companyCode: null,
        version: -1,
      };
      const after = evolveInvoiceSubject(start, e);
      subjects.set(d.invoiceId, after);
      changed.add(d.invoiceId);
      requests.push(...invoiceNotifications(e, after));
    }
    const fresh = [...changed].map((id) => subjects.get(id)!).map((s) => ({
      invoice_id: s.invoiceId,
      ba_id: s.baId,
      invoice_number: s.invoiceNumber,
      company_code: s.companyCode,
      version: s.version,
    }));
    await upsertRows(client, table, COLUMNS, fresh, { conflict: ['invoice_id'], guard: `${table}.version < excluded.version` });
  }
  return [...requests, ...events.flatMap(memoNotifications)];
}
