import thesaurus from './data/thesaurus.json';
import { contentTerms } from '../enrich/text.util';

/**
 * Query expansion for keyword search: technicians ask "how big", manuals say "51 × 51 mm form
 * factor"; "RAM" is "Memory: LPDDR5" in a spec table. The word groups are data
 * (data/thesaurus.json). Expansion words are searched at a lower weight than the question's own.
 */

interface Thesaurus {
  groups: string[][];
}

const byTerm = new Map<string, string[]>();
for (const group of (thesaurus as Thesaurus).groups) {
  for (const word of group) {
    for (const term of contentTerms(word)) {
      const list = byTerm.get(term) ?? [];
      list.push(...group.filter((w) => w !== word));
      byTerm.set(term, list);
    }
  }
}

/** Words to add to a keyword search for `query` (not already in it), or '' when none apply. */
export function expandQuery(query: string): string {
  const own = new Set(contentTerms(query));
  const extra = new Set<string>();
  for (const term of own) {
    for (const w of byTerm.get(term) ?? []) {
      if (!contentTerms(w).every((t) => own.has(t))) extra.add(w);
    }
  }
  return [...extra].join(' ');
}
