import type { Lane, LaneQuote } from '../../../domain/src/rfp/model';
import { invitationsOf, listLanes, MAX_LANE_PAGE_SIZE, quotesOf } from '../../../projections/src/rfps/rfps.queries';
import type { Db } from '../../../projections/src/sql';
import type { BaResponse } from '../rfp-workbooks';

/** What the workbooks need of an RFP's read models: every lane (the grid pages; a sheet is whole). */
export async function allLanes(db: Db, code: string): Promise<Lane[]> {
  const lanes: Lane[] = [];
  for (let page = 0; ; page += 1) {
    const { rows, total } = await listLanes(db, code, { page, perPage: MAX_LANE_PAGE_SIZE });
    lanes.push(...rows.map((r) => ({ laneId: r.laneId, values: r.values })));
    if (rows.length < MAX_LANE_PAGE_SIZE || lanes.length >= total) return lanes;
  }
}

/** One BA's quotes of a round by lane id (its bid template, its grid). */
export async function quotesByLane(db: Db, code: string, round: number, baId: string): Promise<Record<string, LaneQuote>> {
  return Object.fromEntries((await quotesOf(db, code, round, baId)).map((q) => [q.laneId, q.values]));
}

/** Every invited BA's quotes of a round, in invitation order (the quote matrix, vehicle availability). */
export async function responsesOf(db: Db, code: string, round: number): Promise<BaResponse[]> {
  const invited = await invitationsOf(db, code);
  return Promise.all(
    invited.map(async (i) => ({ baId: i.baId, baName: i.companyName ?? i.baId, quotes: await quotesByLane(db, code, round, i.baId) })),
  );
}

/** The verified BAs of a company code: "float to all" (spec 001 §3 floatToAll). */
export async function verifiedBaIds(db: Db, companyCode: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM business_associates WHERE company_code = $1 AND status = 'verified' ORDER BY id`,
    [companyCode],
  );
  return rows.map((r) => r.id);
}
