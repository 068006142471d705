import type { Db } from '../../../projections/src/sql';

/**
 * The BAs the portal suggests for an RFP (spec 001 §2 step 5 "suggested BAs", §3 "Suggested BA: emailId,
 * invited", §7 suggested-ba-list). The spec gives only the shape; the rule is ours: the verified, unblocked BAs
 * of the RFP's company code that either were awarded lanes on an earlier RFP of the same customer (CRM account,
 * `casshAccId`) or are based in a city the RFP's lanes start or end in. Earlier awardees come first. Each says
 * why it is suggested, so staff can judge; the wizard adds one with a click (isSuggestedBa: true).
 */
export type SuggestedBa = {
  baId: string;
  baName: string;
  /** The BA's registered e-mail address (the spec's emailId). */
  emailId: string | null;
  cityName: string | null;
  /** Already invited to this RFP (a float made earlier). */
  invited: boolean;
  /** Earlier RFPs of the same customer that awarded this BA lanes, in code order. */
  awardedOn: string[];
  /** The BA's city is one of the RFP's lane cities. */
  servesLaneCity: boolean;
};

/** A page of suggestions is enough to choose from; the BA search finds the rest. */
export const SUGGESTED_BAS_LIMIT = 50;

type Row = {
  id: string;
  company_name: string | null;
  registered_email: string | null;
  city_name: string | null;
  invited: boolean;
  awarded_on: string[] | null;
  serves_lane_city: boolean;
};

export async function suggestedBas(db: Db, rfpCode: string): Promise<SuggestedBa[]> {
  const { rows } = await db.query<Row>(
    `WITH rfp AS (SELECT code, company_code, header->>'casshAccId' AS account FROM rfps WHERE code = $1),
     lane_cities AS (
       SELECT DISTINCT lower(trim(c)) AS city
         FROM rfp_lanes l CROSS JOIN LATERAL unnest(ARRAY[l.from_city, l.to_city]) AS c
        WHERE l.rfp_code = $1 AND c IS NOT NULL AND trim(c) <> ''
     ),
     awarded AS (
       SELECT a.ba_id, array_agg(DISTINCT a.rfp_code ORDER BY a.rfp_code) AS awarded_on
         FROM rfp_awards a JOIN rfps r ON r.code = a.rfp_code JOIN rfp ON r.code <> rfp.code
        WHERE r.header->>'casshAccId' = rfp.account AND r.company_code IS NOT DISTINCT FROM rfp.company_code
        GROUP BY a.ba_id
     ),
     candidates AS (
       SELECT ba.id, ba.company_name, ba.registered_email,
              (SELECT m.values->>'name' FROM master_items m WHERE m.master = 'cities' AND m.id = ba.city_id::text) AS city_name,
              aw.awarded_on
         FROM business_associates ba JOIN rfp ON ba.company_code = rfp.company_code
         LEFT JOIN awarded aw ON aw.ba_id = ba.id
        WHERE ba.status = 'verified'
          AND NOT EXISTS (SELECT 1 FROM vendor_blocks vb WHERE vb.ba_id = ba.id AND vb.blocked)
     )
     SELECT c.id, c.company_name, c.registered_email, c.city_name, c.awarded_on,
            EXISTS (SELECT 1 FROM rfp_invitations i WHERE i.rfp_code = $1 AND i.ba_id = c.id) AS invited,
            COALESCE(lower(trim(c.city_name)) IN (SELECT city FROM lane_cities), false) AS serves_lane_city
       FROM candidates c
      WHERE c.awarded_on IS NOT NULL OR lower(trim(c.city_name)) IN (SELECT city FROM lane_cities)
      ORDER BY (c.awarded_on IS NULL), c.company_name NULLS LAST, c.id
      LIMIT ${SUGGESTED_BAS_LIMIT}`,
    [rfpCode],
  );
  return rows.map((r) => ({
    baId: r.id,
    baName: r.company_name ?? r.id,
    emailId: r.registered_email,
    cityName: r.city_name,
    invited: r.invited,
    awardedOn: r.awarded_on ?? [],
    servesLaneCity: r.serves_lane_city,
  }));
}
