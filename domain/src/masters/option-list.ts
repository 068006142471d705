/**
 * The choices of a dropdown held as one comma-separated text, an RFP property's `options`: "30 days, 45 days"
 * gives ['30 days', '45 days']. Blank entries are dropped and a choice repeated (in any case) is kept once,
 * so "A, a, ,B" offers A and B. The lane template, the upload check and the BA's grid read options this way.
 */
export function optionListOf(text: string | null | undefined): string[] {
  if (!text) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(',')) {
    const option = raw.trim().replace(/\s+/g, ' ');
    const key = option.toLowerCase();
    if (option === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(option);
  }
  return out;
}
