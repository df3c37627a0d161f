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

/**
 * A group's one-word entries are keyed by their term; an entry of several words is a phrase,
 * keyed by its words in order ("shut down", "input voltage"): its words alone say something else
 * ("the door does not shut", "the input list").
 */
const byTerm = new Map<string, string[]>();
/** Phrases as looked for in the question's words (space-padded, so whole words only), with what each adds. */
const byPhrase: { phrase: string; adds: string[] }[] = [];
for (const group of (thesaurus as Thesaurus).groups) {
  for (const entry of group) {
    const others = group.filter((w) => w !== entry);
    const words = phraseWords(entry);
    if (words.length > 1) {
      byPhrase.push({ phrase: ` ${words.join(' ')} `, adds: others });
      continue;
    }
    for (const term of contentTerms(entry)) {
      const list = byTerm.get(term) ?? [];
      list.push(...others);
      byTerm.set(term, list);
    }
  }
}

/** Lowercase words, stopwords kept (a phrase's "down" or "with" is part of it). */
function phraseWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Words to add to a keyword search for `query` (not already in it), or '' when none apply. */
export function expandQuery(query: string): string {
  const own = new Set(contentTerms(query));
  const asked = ` ${phraseWords(query).join(' ')} `;
  const adds: string[] = [];
  for (const term of own) adds.push(...(byTerm.get(term) ?? []));
  for (const p of byPhrase) if (asked.includes(p.phrase)) adds.push(...p.adds);
  const extra = new Set<string>();
  for (const w of adds) if (!contentTerms(w).every((t) => own.has(t))) extra.add(w);
  return [...extra].join(' ');
}

/** The word groups (data/thesaurus.json), for readers that match words their own way (chat's relevance gate). */
export function thesaurusGroups(): readonly (readonly string[])[] {
  return (thesaurus as Thesaurus).groups;
}
