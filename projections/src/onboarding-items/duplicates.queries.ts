import type { Db } from '../sql';

/**
 * Duplicate vendors (issue 8): the BA's PAN, GSTINs, bank accounts (number + IFSC), mobile numbers and e-mail
 * id matched against every other BA, and mobile / e-mail also against registrations still waiting for their
 * codes. Reviewers see the matches as a warning; only "same PAN under one company code" is refused, and that
 * is the commands' claim table, not this read.
 */
export type DuplicateField = 'panNumber' | 'gstNo' | 'bankAccount' | 'mobileNo' | 'email';

export type DuplicateRow = {
  /** field:source:other id:value — unique per match. */
  id: string;
  field: DuplicateField;
  value: string;
  /** The other BA; null for a pending registration (it has no BA yet). */
  otherBaId: string | null;
  otherCompanyName: string | null;
  /** The other BA's status, or 'registration pending'. */
  otherStatus: string;
  otherCompanyCode: string;
  source: 'ba' | 'registration';
};

type Match = {
  field: DuplicateField;
  value: string;
  other_id: string;
  company_name: string | null;
  status: string;
  company_code: string;
  source: 'ba' | 'registration';
};

/** The matches of one BA, by field then other BA; empty when the BA does not exist. */
export async function findDuplicates(db: Db, baId: string): Promise<DuplicateRow[]> {
  const { rows } = await db.query<Match>(
    `WITH me AS (
       SELECT id, pan_number,
              array_remove(ARRAY[contact_person_mobile_number, registered_mobile], NULL) AS mobiles,
              lower(registered_email) AS email
       FROM business_associates WHERE id = $1
     ),
     my_gst AS (SELECT DISTINCT gst_no FROM ba_gst_registrations WHERE ba_id = $1 AND NOT removed AND gst_no IS NOT NULL),
     my_bank AS (SELECT DISTINCT account_no, ifsc_code FROM ba_bank_accounts WHERE ba_id = $1 AND NOT removed)
     SELECT 'panNumber' AS field, b.pan_number AS value, b.id AS other_id, b.company_name, b.status, b.company_code,
            'ba' AS source
       FROM me JOIN business_associates b ON b.pan_number = me.pan_number AND b.id <> me.id
     UNION ALL
     SELECT 'gstNo', g.gst_no, b.id, b.company_name, b.status, b.company_code, 'ba'
       FROM my_gst m JOIN ba_gst_registrations g ON g.gst_no = m.gst_no AND NOT g.removed AND g.ba_id <> $1
       JOIN business_associates b ON b.id = g.ba_id
     UNION ALL
     SELECT 'bankAccount', a.account_no || ' / ' || a.ifsc_code, b.id, b.company_name, b.status, b.company_code, 'ba'
       FROM my_bank m JOIN ba_bank_accounts a ON a.account_no = m.account_no AND a.ifsc_code = m.ifsc_code
            AND NOT a.removed AND a.ba_id <> $1
       JOIN business_associates b ON b.id = a.ba_id
     UNION ALL
     SELECT 'mobileNo', x.mobile, b.id, b.company_name, b.status, b.company_code, 'ba'
       FROM me CROSS JOIN LATERAL unnest(me.mobiles) AS x(mobile)
       JOIN business_associates b ON (b.contact_person_mobile_number = x.mobile OR b.registered_mobile = x.mobile)
            AND b.id <> me.id
     UNION ALL
     SELECT 'email', me.email, b.id, b.company_name, b.status, b.company_code, 'ba'
       FROM me JOIN business_associates b ON lower(b.registered_email) = me.email AND b.id <> me.id
     UNION ALL
     SELECT 'mobileNo', r.mobile_no, r.id, NULL, 'registration pending', r.company_code, 'registration'
       FROM me JOIN registrations r ON r.mobile_no = ANY(me.mobiles)
            AND r.status = 'pending' AND r.expires_at > now()
     UNION ALL
     SELECT 'email', r.email, r.id, NULL, 'registration pending', r.company_code, 'registration'
       FROM me JOIN registrations r ON r.email = me.email AND r.status = 'pending' AND r.expires_at > now()`,
    [baId],
  );
  const seen = new Set<string>();
  const out: DuplicateRow[] = [];
  for (const r of rows) {
    const id = `${r.field}:${r.source}:${r.other_id}:${r.value}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      id,
      field: r.field,
      value: r.value,
      otherBaId: r.source === 'ba' ? r.other_id : null,
      otherCompanyName: r.company_name,
      otherStatus: r.status,
      otherCompanyCode: r.company_code,
      source: r.source,
    });
  }
  const order: DuplicateField[] = ['panNumber', 'gstNo', 'bankAccount', 'mobileNo', 'email'];
  return out.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field) || a.id.localeCompare(b.id));
}
