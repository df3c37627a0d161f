/**
 * The small product-category lexicon of the heuristic CNM backend: a category is named when one of
 * its phrases occurs. Data, not code: extend the table to teach the app a new product family.
 * Hand-written because no offline library maps manual prose to product families.
 */

export interface CategoryRule {
  category: string;
  /** Case-insensitive, matched with the global flag added. */
  pattern: RegExp;
  /** Accessories and parts: named only when no product family is (manuals mention them in passing). */
  accessory?: boolean;
}

/** Ordered: on equal scores the earlier (more specific) category wins. */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  { category: 'air conditioner', pattern: /\bair[- ]?condition(?:er|ers|ing)\b/i },
  { category: 'washing machine', pattern: /\bwash(?:ing)? machines?\b|\bwashers?\b/i },
  { category: 'refrigerator', pattern: /\brefrigerators?\b|\bfridges?\b/i },
  { category: 'television', pattern: /\btelevisions?\b|\bsmart tvs?\b|\btv sets?\b/i },
  { category: 'remote control', accessory: true, pattern: /\bremote controls?\b|\bsmart remote\b/i },
  { category: 'smartwatch', pattern: /\bsmart ?watch(?:es)?\b|\bfitness (?:band|tracker)s?\b/i },
  { category: 'tablet', pattern: /\btablets?\b/i },
  { category: 'smartphone', pattern: /\bsmart ?phones?\b|\bmobile phones?\b/i },
  { category: 'AI accelerator', pattern: /\bai accelerat\w*|\bnpu (?:module|card)s?\b|\bm\.2 ai\b/i },
  { category: 'edge AI computer', pattern: /\bedge (?:ai|computing) (?:box|device|computer|platform)s?\b|\bai ?box\b/i },
  {
    category: 'network appliance',
    pattern: /\bsoft routers?\b|\bnetwork computers?\b|\bnetwork (?:computing )?(?:devices?|appliances?|platforms?)\b/i,
  },
  {
    category: 'compute module',
    pattern: /\b(?:compute|computer|system)[- ]on[- ]modules?\b|\bcompute modules?\b|\bcore ?boards?\b|\bsoms?\b/i,
  },
  { category: 'single board computer', pattern: /\bsingle[- ]board computers?\b|\bsbcs?\b/i },
  { category: 'mini PC', pattern: /\bmini ?pcs?\b/i },
  {
    category: 'development board',
    pattern: /\bdevelopment (?:boards?|kits?)\b|\bdev ?kit\w*|\bevaluation (?:boards?|kits?)\b|\bev[- ]boards?\b/i,
  },
  { category: 'programmer', accessory: true, pattern: /\bprogrammers?\b|\bdebug probes?\b|\bjtag (?:adapter|debugger)s?\b/i },
  { category: 'camera module', accessory: true, pattern: /\bcamera modules?\b/i },
  { category: 'power adapter', accessory: true, pattern: /\bpower adapters?\b|\bpd adapters?\b/i },
];

const GLOBAL_RULES = CATEGORY_RULES.map((r) => ({
  category: r.category,
  accessory: r.accessory ?? false,
  pattern: new RegExp(r.pattern.source, r.pattern.flags.includes('g') ? r.pattern.flags : `${r.pattern.flags}g`),
}));

/**
 * Counts lexicon hits per category in `text`, each hit weighted by `weight`, added into `into`.
 * `accessories: false` skips accessory categories (count them only where a title names them).
 */
export function addCategoryHits(text: string, weight: number, into: Record<string, number>, accessories = true): Record<string, number> {
  for (const r of GLOBAL_RULES) {
    if (!accessories && r.accessory) continue;
    r.pattern.lastIndex = 0;
    const n = text.match(r.pattern)?.length ?? 0;
    if (n > 0) into[r.category] = (into[r.category] ?? 0) + n * weight;
  }
  return into;
}

/**
 * The best category of a score table (ties: lexicon order), or null when it is empty. A product
 * family beats any accessory category: every board manual mentions power adapters.
 */
export function bestCategory(scores: Readonly<Record<string, number>>): string | null {
  for (const accessory of [false, true]) {
    let best: string | null = null;
    let bestScore = 0;
    for (const r of CATEGORY_RULES) {
      if ((r.accessory ?? false) !== accessory) continue;
      const s = scores[r.category] ?? 0;
      if (s > bestScore) {
        best = r.category;
        bestScore = s;
      }
    }
    if (best) return best;
  }
  return null;
}
