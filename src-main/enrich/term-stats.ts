import { z } from 'zod';
import type { Result } from '../core/result';
import { boundedMemo } from '../core/memo';
import { fail, ok } from '../core/result';
import { contentTerms, distinctContentTerms, hasAsciiDigit, plainText } from './text.util';
import { countTable } from './stored-checks';

/**
 * Document frequencies of content words over a library, for the TF-IDF of nouns and keywords.
 * Serializable; documents are added and removed by their text (the same text must be passed to
 * remove what was added).
 */

const termStatsSchema = z.object({
  version: z.literal(1),
  documentCount: z.number().int().min(0),
  df: countTable(0),
});

export type TermStatsJson = z.infer<typeof termStatsSchema>;

/** The distinct content terms of a Markdown text. */
export function documentTerms(markdown: string): Set<string> {
  return distinctContentTerms(plainText(markdown));
}

export class TermStats {
  private readonly df = new Map<string, number>();
  private docs = 0;
  /** `idf` values while the statistics do not change (enrichment asks for the same terms often). */
  private readonly idfCache = new Map<string, number>();

  static create(): TermStats {
    return new TermStats();
  }

  /** Document frequencies over the given texts (one text = one document). */
  static fromTexts(texts: Iterable<string>): TermStats {
    const s = new TermStats();
    for (const t of texts) s.addDocument(t);
    return s;
  }

  static fromJSON(json: unknown): Result<TermStats> {
    const parsed = termStatsSchema.safeParse(json);
    if (!parsed.success) return fail('corrupt', 'The stored term statistics are damaged and must be rebuilt.');
    const s = new TermStats();
    s.docs = parsed.data.documentCount;
    for (const [t, n] of Object.entries(parsed.data.df)) s.df.set(t, n);
    return ok(s);
  }

  toJSON(): TermStatsJson {
    return { version: 1, documentCount: this.docs, df: Object.fromEntries(this.df) };
  }

  get documentCount(): number {
    return this.docs;
  }

  /** Every term counted (lower case, singular), in no particular order. */
  words(): IterableIterator<string> {
    return this.df.keys();
  }

  addDocument(markdown: string): void {
    this.addTerms(documentTerms(markdown));
  }

  /** `addDocument` from the text's distinct content terms, computed elsewhere (`learning-extract.ts`; removal still takes the Markdown). */
  addTerms(terms: Iterable<string>): void {
    this.idfCache.clear();
    this.docs++;
    for (const t of terms) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  removeDocument(markdown: string): void {
    this.idfCache.clear();
    this.docs = Math.max(0, this.docs - 1);
    for (const t of documentTerms(markdown)) {
      const n = (this.df.get(t) ?? 0) - 1;
      if (n > 0) this.df.set(t, n);
      else this.df.delete(t);
    }
  }

  /** Smoothed inverse document frequency, >= 1 for every term (unseen terms score highest). */
  idf(term: string): number {
    let v = this.idfCache.get(term);
    if (v === undefined) {
      v = Math.log((this.docs + 1) / ((this.df.get(term) ?? 0) + 1)) + 1;
      this.idfCache.set(term, v);
    }
    return v;
  }
}

/**
 * Top `k` terms of a text by TF-IDF (terms of `boost` texts count double), excluding `exclude`.
 * Ties keep first-occurrence order, so results are deterministic.
 */
export function topTerms(text: string, stats: TermStats, k: number, options: { boost?: string; exclude?: ReadonlySet<string> } = {}): string[] {
  return topTermsOf(contentTerms(plainText(text)), stats, k, options);
}

/** `topTerms` over the text's content terms (`contentTerms(plainText(text))`) computed by the caller. */
export function topTermsOf(terms: readonly string[], stats: TermStats, k: number, options: { boost?: string; exclude?: ReadonlySet<string> } = {}): string[] {
  return topCounted(boostCounts(options.boost ?? ''), termCounts(terms), stats, k, options.exclude);
}

/**
 * The terms `topTermsOf` weighs among `terms`, each with its count, in first-occurrence order:
 * at weight 1 (a text's terms) a term with digits is a pin or register name ("gpio3", "uart7")
 * and is left out; at weight 2 (the heading's) it counts. It reads no statistics, so an import
 * counts a chunk's terms while it waits for the next parse (`ChunkText.termCounts`); the
 * statistics are the whole batch's only once every file is learned.
 */
export function termCounts(terms: readonly string[], weight = 1): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of terms) {
    if (t.length < 3 || (weight < 2 && hasAsciiDigit(t))) continue;
    tf.set(t, (tf.get(t) ?? 0) + weight);
  }
  return tf;
}

/**
 * The counts of recent `boost` texts' terms (at weight 2): the boost is a chunk's title, the same
 * heading for every chunk of a section, and its terms were read again for each. Bounded; dropped
 * wholesale when full.
 */
export const boostCounts: (text: string) => ReadonlyMap<string, number> = boundedMemo(2000, (text) => termCounts(contentTerms(text), 2));

/**
 * The best `k` terms by TF-IDF of a boost text's counts and a text's (`termCounts`), added up,
 * without `exclude`: the boost's terms first, then the text's, each in first-occurrence order, so
 * ties keep the order in which `topTermsOf` meets the terms.
 */
export function topCounted(
  boost: ReadonlyMap<string, number>,
  text: ReadonlyMap<string, number>,
  stats: TermStats,
  k: number,
  exclude?: { has(term: string): boolean },
): string[] {
  // The best `k` kept in order while the terms go by, instead of sorting them all: a chunk has
  // ~100 distinct terms and asks for 6, and this ran for every chunk of an import. A later term
  // displaces an equal score only when strictly better: the same ranking as the sort by score,
  // then first occurrence.
  if (k <= 0) return [];
  const top: { t: string; score: number }[] = [];
  const consider = (t: string, n: number): void => {
    if (exclude?.has(t)) return;
    const score = (1 + Math.log(n)) * stats.idf(t);
    if (top.length === k && score <= top[k - 1]!.score) return;
    let at = top.length === k ? k - 1 : top.length;
    while (at > 0 && top[at - 1]!.score < score) at--;
    if (top.length === k) top.pop();
    top.splice(at, 0, { t, score });
  };
  for (const [t, n] of boost) consider(t, n + (text.get(t) ?? 0));
  for (const [t, n] of text) if (!boost.has(t)) consider(t, n);
  return top.map((x) => x.t);
}
