import { fromPaise, toPaise } from '../../../domain/src/memos/amounts';

export { fromPaise, toPaise };

/**
 * Amounts travel as decimal strings (contract); sums are made in paise with the memo domain's helpers, so
 * "0.10" + "0.20" is "0.30". Empty counts as 0; the sum is null when one amount is malformed.
 */
export function sumAmounts(amounts: readonly (string | null | undefined)[]): string | null {
  let total = 0;
  for (const a of amounts) {
    const p = toPaise(a);
    if (p === null) return null;
    total += p;
  }
  return fromPaise(total);
}

