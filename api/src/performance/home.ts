import { formatDate } from '../../../domain/src/shared/format';
import { listNotifications, type NotificationItem } from '../../../projections/src/notifications/notifications.queries';
import { expiringDocumentsOf } from '../../../projections/src/performance/performance.queries';
import { listRfpsForBa } from '../../../projections/src/rfps/rfps.queries';
import type { Db } from '../../../projections/src/sql';
import { listVendorCodesOfBa } from '../../../projections/src/vendor-codes/vendor-codes.queries';

/** GET /api/home (issue 11 contract): the verified BA's home page in one answer. */
export type HomeCompanyCode = { companyCode: string; status: string; parentCode: string | null; blocked: boolean };
export type HomeOpenRfp = { rfpCode: string; customerName: string; dueDate: string; dueAt: string | null; rfpType: string | null; quoted: boolean };
export type HomePendingAction = { label: string; to: string };
export type HomeResponse = {
  companyCodes: HomeCompanyCode[];
  openRfps: HomeOpenRfp[];
  invoicesByStatus: Record<string, number>;
  expiringDocuments: { name: string; expiresOn: string }[];
  pendingActions: HomePendingAction[];
  notifications: NotificationItem[];
};

/** How far ahead an open RFP counts as "closing soon" on the pending actions. */
export const CLOSING_SOON_MS = 3 * 86_400_000;
/** The BA dashboard query's largest page: the home looks at the 20 latest invitations. */
const RFP_PAGE = 20;
const LATEST_NOTIFICATIONS = 5;
/** Where the portal's pages are (portal/src: identity/routing.ts, bill-hub, onboarding). */
const LINKS = { home: '/home', billHub: '/bill-hub', invoice: (id: string) => `/bill-hub/invoice/${encodeURIComponent(id)}`, documents: '/onboard/ba-details/view' };

type InvoiceFacts = { counts: Record<string, number>; rejected: { id: string; invoiceNumber: string }[] };

/**
 * The BA's invoices by status, and its rejected ones to correct, from the `invoices` read model. Guarded by
 * to_regclass: the table belongs to the invoice projection and a database without it answers nothing.
 */
async function invoiceFactsOf(db: Db, baId: string): Promise<InvoiceFacts> {
  const { rows: exists } = await db.query<{ t: string | null }>(`SELECT to_regclass('invoices')::text AS t`);
  if (!exists[0]?.t) return { counts: {}, rejected: [] };
  const [counts, rejected] = await Promise.all([
    db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM invoices WHERE ba_id = $1 GROUP BY status ORDER BY status', [baId]),
    db.query<{ id: string; invoice_number: string }>(
      `SELECT id, invoice_number FROM invoices WHERE ba_id = $1 AND status = 'C' ORDER BY updated_at DESC, id LIMIT 5`,
      [baId],
    ),
  ]);
  return {
    counts: Object.fromEntries(counts.rows.map((r) => [r.status, Number(r.n)])),
    rejected: rejected.rows.map((r) => ({ id: r.id, invoiceNumber: r.invoice_number })),
  };
}

/** Everything the home shows, for BA `baId` and its user `userId`, on `today` (YYYY-MM-DD, India) at `now`. */
export async function homeOf(db: Db, input: { baId: string; userId: string; today: string; now: Date }): Promise<HomeResponse> {
  const { baId, userId, today, now } = input;
  const [codes, rfps, invoices, expiring, notifications] = await Promise.all([
    listVendorCodesOfBa(db, baId),
    listRfpsForBa(db, baId, 0, RFP_PAGE),
    invoiceFactsOf(db, baId),
    expiringDocumentsOf(db, baId, today),
    listNotifications(db, userId, { offset: 0, limit: LATEST_NOTIFICATIONS }),
  ]);
  // Open to quote: floated (bidding open) and not yet due.
  const open = rfps.rows.filter((r) => r.status === 'floated' && (r.dueAt === null || Date.parse(r.dueAt) > now.getTime()));
  const openRfps: HomeOpenRfp[] = open.map((r) => ({
    rfpCode: r.rfpCode,
    customerName: r.customerName,
    dueDate: r.dueDate,
    dueAt: r.dueAt,
    rfpType: r.rfpType,
    quoted: r.lanesQuoted > 0,
  }));

  const pendingActions: HomePendingAction[] = [];
  for (const code of codes) {
    if (code.rejection?.sendToBa)
      pendingActions.push({ label: `Your vendor-code request for company code ${code.companyCode} was returned: ${code.rejection.reason}`, to: LINKS.home });
  }
  for (const inv of invoices.rejected) pendingActions.push({ label: `Invoice ${inv.invoiceNumber} was rejected: correct and submit it again`, to: LINKS.invoice(inv.id) });
  for (const r of open) {
    if (r.lanesQuoted === 0 && r.dueAt !== null && Date.parse(r.dueAt) - now.getTime() <= CLOSING_SOON_MS)
      pendingActions.push({ label: `RFP ${r.rfpCode} closes on ${formatDate(r.dueAt)} and has no quote yet`, to: `/rfp/BA/view/${encodeURIComponent(r.rfpCode)}/${encodeURIComponent(r.rfpType ?? 'standard')}` });
  }
  const drafts = invoices.counts['draft'] ?? 0;
  if (drafts > 0) pendingActions.push({ label: `${drafts} draft invoice${drafts === 1 ? '' : 's'} not yet submitted`, to: LINKS.billHub });
  if (expiring.length > 0)
    pendingActions.push({ label: `${expiring.length} document${expiring.length === 1 ? '' : 's'} expiring within 30 days`, to: LINKS.documents });

  return {
    companyCodes: codes.map((c) => ({ companyCode: c.companyCode, status: c.status, parentCode: c.parentCode, blocked: c.blocked })),
    openRfps,
    // A discarded draft is gone for the BA: not a status worth counting on its home.
    invoicesByStatus: Object.fromEntries(Object.entries(invoices.counts).filter(([s]) => s !== 'discarded')),
    expiringDocuments: expiring,
    pendingActions,
    notifications: notifications.rows,
  };
}
