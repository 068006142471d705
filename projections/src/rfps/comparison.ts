import type { LaneColumn, LaneQuote } from '../../../domain/src/rfp/model';

/**
 * The pure half of the RFP comparisons (spec 001 §2 "quote comparison screen by all, locationWise, vehicleWise,
 * or locationAndVehicle, and a BA-response comparison of the same structure"): which number a quote is compared
 * by, how lanes are grouped, and the BA-response view of a comparison. The SQL half is in rfps.queries.ts.
 */

/** Our names for the spec's comparison types (one name everywhere: kebab-case in URLs). */
export const COMPARISON_BYS = ['all', 'location', 'vehicle', 'location-vehicle'] as const;
export type ComparisonBy = (typeof COMPARISON_BYS)[number];

export const isComparisonBy = (value: unknown): value is ComparisonBy => (COMPARISON_BYS as readonly unknown[]).includes(value);

/**
 * What a lane group is keyed by, as columns of `rfp_lanes`. 'all' compares lane by lane; location is the route
 * (from and to city), vehicle the vehicle type.
 */
export const GROUP_COLUMNS: Record<ComparisonBy, readonly ('lane_id' | 'from_city' | 'to_city' | 'vehicle_type')[]> = {
  all: ['lane_id'],
  location: ['from_city', 'to_city'],
  vehicle: ['vehicle_type'],
  'location-vehicle': ['from_city', 'to_city', 'vehicle_type'],
};

/**
 * A group's key as one text, in SQL, from the key columns of a row of `rfp_lanes` or `rfp_quotes` (`alias`): the
 * read model stores it pre-aggregated by this key (rfp_quote_groups) and the comparison pages match it, so both
 * must build it here. A missing value is '' (a non-standard lane may lack one): such lanes group together.
 */
export const groupKeySql = (columns: readonly string[], alias: string): string =>
  `concat_ws(E'\\x01', ${columns.map((c) => `coalesce(${alias}.${c}, '')`).join(', ')})`;

/**
 * The BA column a quote is compared by: the first BA-property column of type number, in sheet order (the rate
 * the template asks for first). Null when the sheet has none: such an RFP's quotes have no rate to compare.
 */
export function rateKeyOf(columns: readonly LaneColumn[] | null | undefined): string | null {
  return columns?.find((c) => c.owner === 'ba' && c.type === 'number')?.key ?? null;
}

/** Numbers as the lane rules accept them (digits, optional sign and decimals); anything else is no rate. */
const NUMBER = /^-?\d+(\.\d+)?$/;

/** The quote's rate as a decimal string (numeric in SQL), or null when it has none. */
export function rateOf(quote: LaneQuote, rateKey: string | null): string | null {
  if (rateKey === null) return null;
  const value = quote[rateKey]?.trim();
  return value !== undefined && NUMBER.test(value) ? value : null;
}

/** The lane keys comparisons group by, from a lane's MLL values (standard lanes have all three). */
export function laneKeysOf(values: Record<string, string | null>): { fromCity: string | null; toCity: string | null; vehicleType: string | null } {
  const key = (k: string) => {
    const v = values[k]?.trim();
    return v ? v : null;
  };
  return { fromCity: key('fromCity'), toCity: key('toCity'), vehicleType: key('vehicleType') };
}

/** One BA's rate in a lane group: its average over the group's lanes it quoted; rank 1 is the lowest (ties share). */
export type ComparisonQuote = { baId: string; companyName: string | null; rate: number; lanesQuoted: number; rank: number };

export type ComparisonGroup = {
  /** The group's key values (null where the grouping does not use them); for 'all' the lane's own. */
  laneId: string | null;
  fromCity: string | null;
  toCity: string | null;
  vehicleType: string | null;
  /** Lanes in the group. */
  lanes: number;
  /** The BAs' rates, lowest first. */
  quotes: ComparisonQuote[];
  /** Over the BAs' rates listed (so `min` is the first one's); null when nobody quoted the group. */
  min: number | null;
  avg: number | null;
  max: number | null;
};

export type Comparison = { rfpCode: string; round: number; by: ComparisonBy; total: number; groups: ComparisonGroup[] };

/** A BA's standing in one group of the BA-response comparison. */
export type BaResponseEntry = Omit<ComparisonGroup, 'quotes' | 'min' | 'avg' | 'max'> & {
  rate: number;
  lanesQuoted: number;
  rank: number;
  /** How many BAs quoted the group: rank 1 of 1 is not rank 1 of 12. */
  of: number;
  /** The BA's rate above the group's lowest, in percent (0 for the lowest). */
  aboveLowestPercent: number;
};
export type BaResponse = { baId: string; companyName: string | null; groupsQuoted: number; firstRanks: number; entries: BaResponseEntry[] };

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * The BA-response comparison: the same groups seen per BA (what each BA quoted, its rank and how far above the
 * lowest it is), BAs ordered by how many groups they are lowest in, then by how many they quoted.
 */
export function baResponses(groups: readonly ComparisonGroup[]): BaResponse[] {
  const byBa = new Map<string, BaResponse>();
  for (const g of groups) {
    const { quotes, min, avg: _avg, max: _max, ...key } = g;
    for (const q of quotes) {
      let ba = byBa.get(q.baId);
      if (!ba) {
        ba = { baId: q.baId, companyName: q.companyName, groupsQuoted: 0, firstRanks: 0, entries: [] };
        byBa.set(q.baId, ba);
      }
      ba.groupsQuoted += 1;
      if (q.rank === 1) ba.firstRanks += 1;
      const lowest = min ?? q.rate;
      ba.entries.push({
        ...key,
        rate: q.rate,
        lanesQuoted: q.lanesQuoted,
        rank: q.rank,
        of: quotes.length,
        aboveLowestPercent: lowest > 0 ? round2(((q.rate - lowest) / lowest) * 100) : 0,
      });
    }
  }
  return [...byBa.values()].sort((a, b) => b.firstRanks - a.firstRanks || b.groupsQuoted - a.groupsQuoted || a.baId.localeCompare(b.baId));
}
