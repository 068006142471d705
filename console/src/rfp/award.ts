import { rfpMessages } from '../../../domain/src/rfp/messages';
import type { ComparisonGroup } from './types';

/**
 * The award dialog's rules, checked before anything is sent (the decider checks them again, decide.ts
 * decideAward, and its refusal is shown as it comes): per lane each share more than 0 with up to 2 decimals,
 * no BA twice, and the shares adding up to exactly 100 — counted in hundredths, so 33.33 + 33.33 + 33.34 is 100.
 * A lane with no share rows is not awarded.
 */
export type ShareInput = { baId: string; share: string };
export type AwardDraft = Record<string, ShareInput[]>;

/** Each lane starts with its lowest bidder at 100% (the usual award); lanes nobody quoted start empty. */
export function initialAward(lanes: readonly ComparisonGroup[]): AwardDraft {
  const draft: AwardDraft = {};
  for (const lane of lanes) {
    const lowest = lane.quotes[0];
    if (lane.laneId) draft[lane.laneId] = lowest ? [{ baId: lowest.baId, share: '100' }] : [];
  }
  return draft;
}

const hundredthsOf = (text: string): number | null => {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text.trim())) return null;
  const n = Math.round(Number(text) * 100);
  return n > 0 && n <= 10_000 ? n : null;
};

/** The lane's problem in the decider's own words, or null. */
export function laneProblem(laneId: string, shares: readonly ShareInput[]): string | null {
  if (shares.length === 0) return null;
  if (shares.some((s) => !s.baId)) return 'Please choose a BA for each share';
  const parts = shares.map((s) => hundredthsOf(s.share));
  if (parts.some((p) => p === null)) return rfpMessages.sharePositive;
  if (new Set(shares.map((s) => s.baId)).size !== shares.length) return rfpMessages.duplicateBaInLane(laneId);
  if (parts.reduce<number>((sum, p) => sum + (p ?? 0), 0) !== 10_000) return rfpMessages.sharesSum(laneId);
  return null;
}

/** Every lane's problem, by lane id; empty when the award may be sent. */
export function awardProblems(draft: AwardDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [laneId, shares] of Object.entries(draft)) {
    const problem = laneProblem(laneId, shares);
    if (problem) problems[laneId] = problem;
  }
  return problems;
}

/** POST /award's body: the lanes with shares, in the draft's order. */
export function awardBody(draft: AwardDraft): { lanes: { laneId: string; shares: { baId: string; sharePercent: number }[] }[] } {
  return {
    lanes: Object.entries(draft)
      .filter(([, shares]) => shares.length > 0)
      .map(([laneId, shares]) => ({ laneId, shares: shares.map((s) => ({ baId: s.baId, sharePercent: Number(s.share) })) })),
  };
}
