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

/**
 * Each one-word entry of the thesaurus as `normalize` reads words (content terms, stemmed passage
 * terms, chat's terms), with the group's other one-word entries read the same way ("delete" ->
 * "remove", "erase"). Phrases ("form factor") are left out: one of their words alone says
 * something else. For readers that score words their own way: the ranking stages, chat's gate.
 */
export function synonymMap(normalize: (text: string) => readonly string[]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, Set<string>>();
  for (const group of (thesaurus as Thesaurus).groups) {
    const single = group.flatMap((e) => {
      const t = /\s/.test(e.trim()) ? [] : normalize(e);
      return t.length === 1 ? t : [];
    });
    for (const t of single) for (const o of single) if (o !== t) (out.get(t) ?? out.set(t, new Set()).get(t)!).add(o);
  }
  return new Map([...out].map(([t, set]) => [t, [...set]]));
}
