import type pg from 'pg';
import { DomainError } from '../../../domain/src/shared/errors';

/*
 * "The same PAN twice under one company code is refused" (issue 8, duplicates). Operational state beside the
 * events, like master_keys: `ba_pan_claims` holds one row per (company code, PAN), naming the BA that holds it.
 * The API claims the PAN before it sends the company details (or an application for another company code) to
 * the workflow; the primary key lets only one of two concurrent claims through, so two BAs saving the same PAN
 * at the same moment cannot both succeed. A BA's claim moves with its PAN: the claims of its other PANs under
 * the code are released once a new one is saved. BAs whose PAN was saved before this table existed hold no
 * claim: the business_associates read model is checked as well, which covers them.
 */
export const PAN_CLAIMS_SCHEMA_SQL = /* sql */ `
create table if not exists ba_pan_claims (
  company_code text not null,
  pan_number text not null,
  ba_id text not null,
  claimed_at timestamptz not null default now(),
  primary key (company_code, pan_number)
);
create index if not exists ba_pan_claims_ba on ba_pan_claims (ba_id);`;

export async function ensurePanClaimsSchema(db: pg.Pool | pg.PoolClient | pg.Client): Promise<void> {
  await db.query(PAN_CLAIMS_SCHEMA_SQL);
}

export const DUPLICATE_PAN = 'A business associate with this PAN is already registered for this company code';

const duplicate = () => new DomainError('conflict', DUPLICATE_PAN, { panNumber: DUPLICATE_PAN });

/** How a PAN is compared: upper case, no spaces (the field rules upper-case it too). */
export const normalisePan = (pan: string): string => pan.replace(/\s+/g, '').toUpperCase();

/**
 * Claims `pan` under each of `companyCodes` for `baId`, or refuses (409) if another BA holds it there (by claim,
 * or by its saved details in the read model). Answers the claims this call newly made, so a caller whose
 * command is then refused can give them back (`releaseClaims`).
 */
export async function claimPan(
  pool: pg.Pool,
  baId: string,
  pan: string,
  companyCodes: readonly string[],
): Promise<{ companyCode: string; panNumber: string }[]> {
  const panNumber = normalisePan(pan);
  const made: { companyCode: string; panNumber: string }[] = [];
  try {
    for (const companyCode of companyCodes) {
      const inserted = await pool.query(
        `insert into ba_pan_claims (company_code, pan_number, ba_id) values ($1, $2, $3)
         on conflict (company_code, pan_number) do nothing`,
        [companyCode, panNumber, baId],
      );
      if (inserted.rowCount === 1) made.push({ companyCode, panNumber });
      else {
        const { rows } = await pool.query<{ ba_id: string }>(
          'select ba_id from ba_pan_claims where company_code = $1 and pan_number = $2',
          [companyCode, panNumber],
        );
        if (rows[0] && rows[0].ba_id !== baId) throw duplicate();
      }
      // BAs saved before the claims existed: their PAN is only in the read model.
      const { rows: others } = await pool.query(
        `select 1 from business_associates where company_code = $1 and upper(pan_number) = $2 and id <> $3 limit 1`,
        [companyCode, panNumber, baId],
      );
      if (others.length > 0) throw duplicate();
    }
  } catch (error) {
    await releaseClaims(pool, baId, made);
    throw error;
  }
  return made;
}

/** Gives back claims of `baId` (a refused command's, or of a PAN the BA no longer has). */
export async function releaseClaims(
  pool: pg.Pool,
  baId: string,
  claims: readonly { companyCode: string; panNumber: string }[],
): Promise<void> {
  for (const { companyCode, panNumber } of claims) {
    await pool.query('delete from ba_pan_claims where company_code = $1 and pan_number = $2 and ba_id = $3', [
      companyCode,
      panNumber,
      baId,
    ]);
  }
}

/** After `pan` is saved: the BA's claims of any other PAN are released, so the old PAN is free again. */
export async function releaseOtherPans(pool: pg.Pool, baId: string, pan: string | null): Promise<void> {
  await pool.query('delete from ba_pan_claims where ba_id = $1 and ($2::text is null or pan_number <> $2)', [
    baId,
    pan === null ? null : normalisePan(pan),
  ]);
}
