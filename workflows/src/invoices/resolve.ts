import type { Pool } from 'pg';
import type { InvoiceFields, InvoiceRecord } from '../../../domain/src/invoices/events';
import { ACTIVE_HSN_CODES } from '../../../domain/src/invoices/fields';
import { INVOICE_COMMERCIAL } from '../../../domain/src/identity/roles';
import { LOCATIONS } from '../../../domain/src/masters/reference-data/locations';
import { isVendorBlocked } from '../../../projections/src/blocks/blocks.queries';
import { listVendorCodesOfBa } from '../../../projections/src/vendor-codes/vendor-codes.queries';

/**
 * What an invoice's fields name, resolved from the read models for the deciding activity (and the API's form
 * options): never from workflow code, since masters and read models change and a workflow's history does not.
 */

/** The BA's child vendor codes (created in the ERP) with their company code and GST state. */
export async function childCodesOf(pool: Pool, baId: string): Promise<{ code: string; companyCode: string; stateId: number; stateName: string | null }[]> {
  const rows = await listVendorCodesOfBa(pool, baId).catch(() => []);
  return rows.flatMap((r) =>
    r.childCodes
      .filter((c) => c.childCode)
      .map((c) => ({ code: c.childCode as string, companyCode: r.companyCode, stateId: c.stateId, stateName: c.stateName })),
  );
}

/** Active locations of the master (master_items), or the reference data when the master was never loaded. */
export async function activeLocations(pool: Pool): Promise<{ code: string; name: string; stateId: number }[]> {
  const { rows } = await pool
    .query<{ values: Record<string, unknown>; status: string }>(`SELECT values, status FROM master_items WHERE master = 'locations'`)
    .catch(() => ({ rows: [] as { values: Record<string, unknown>; status: string }[] }));
  if (rows.length === 0) return LOCATIONS.map((l) => ({ code: l.locationCode, name: l.locationName, stateId: l.stateId }));
  return rows
    .filter((r) => r.status === 'active' && typeof r.values['locationCode'] === 'string')
    .map((r) => ({ code: String(r.values['locationCode']), name: String(r.values['locationName'] ?? ''), stateId: Number(r.values['stateId']) }));
}

/** Active HSN codes of the master, or the reference data when the master was never loaded. */
export async function activeHsnCodes(pool: Pool): Promise<ReadonlySet<string>> {
  const { rows } = await pool
    .query<{ values: Record<string, unknown>; status: string }>(`SELECT values, status FROM master_items WHERE master = 'hsn-codes'`)
    .catch(() => ({ rows: [] as { values: Record<string, unknown>; status: string }[] }));
  if (rows.length === 0) return ACTIVE_HSN_CODES;
  return new Set(rows.filter((r) => r.status === 'active').map((r) => String(r.values['hsnCode'])));
}

/** Active staff users holding MLL Commercial (or MLL-ADMIN) in a company code (or every company code when null). */
export async function commercialUsers(pool: Pool, companyCode: string | null): Promise<{ userId: string; name: string; companyCodes: string[] }[]> {
  const { rows } = await pool.query<{ id: string; name: string; company_codes: string[] }>(
    `SELECT id, name, company_codes FROM users
      WHERE kind = 'staff' AND status = 'active' AND roles && $1::text[]
        AND ($2::text IS NULL OR $2 = ANY(company_codes) OR 'All' = ANY(company_codes))
      ORDER BY name`,
    [INVOICE_COMMERCIAL, companyCode],
  );
  return rows.map((r) => ({ userId: r.id, name: r.name, companyCodes: r.company_codes }));
}

/** The fields plus what they name; null where a code or user does not resolve (the decider refuses it). */
export async function resolveInvoiceRecord(pool: Pool, baId: string, fields: InvoiceFields): Promise<InvoiceRecord> {
  const from = fields.billingFromCode ? (await childCodesOf(pool, baId)).find((c) => c.code === fields.billingFromCode) : undefined;
  const to = fields.billingToCode ? (await activeLocations(pool)).find((l) => l.code.toUpperCase() === fields.billingToCode.toUpperCase()) : undefined;
  const companyCode = from?.companyCode ?? null;
  const submitTo =
    fields.submitToUserId && companyCode ? (await commercialUsers(pool, companyCode)).find((u) => u.userId === fields.submitToUserId) : undefined;
  return {
    ...fields,
    billingToCode: to?.code ?? fields.billingToCode,
    submitToName: submitTo?.name ?? null,
    companyCode,
    fromStateId: from?.stateId ?? null,
    billingToName: to?.name ?? null,
    toStateId: to?.stateId ?? null,
    financialYear: null,
  };
}

export const vendorBlocked = (pool: Pool, baId: string): Promise<boolean> => isVendorBlocked(pool, { baId }).catch(() => false);

export async function paymentsOnHold(pool: Pool, baId: string): Promise<boolean> {
  const { rows } = await pool.query<{ hold: boolean }>('SELECT payments_on_hold AS hold FROM business_associates WHERE id = $1', [baId]);
  return rows[0]?.hold === true;
}

/**
 * The draft-time duplicate look-up (409 "Invoice already exists"): another invoice of the BA in that year, not
 * discarded, with the same number (case-insensitive, trimmed), in the read model. Not race-safe by itself: the
 * reservation stream decides at submission.
 */
export async function numberUsedElsewhere(pool: Pool, q: { baId: string; invoiceId: string; invoiceNumber: string; financialYear: string | null }): Promise<boolean> {
  if (!q.financialYear) return false;
  const { rows } = await pool
    .query<{ taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM invoices WHERE ba_id = $1 AND id <> $2 AND status <> 'discarded'
          AND upper(trim(invoice_number)) = upper(trim($3)) AND financial_year = $4) AS taken`,
      [q.baId, q.invoiceId, q.invoiceNumber, q.financialYear],
    )
    .catch(() => ({ rows: [{ taken: false }] }));
  return rows[0]?.taken === true;
}
