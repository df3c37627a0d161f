import { z } from 'zod';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { distinctPassageTerms, passagesOf, passageTerms } from './passage-words';
import { countTable } from './stored-checks';

export { passagesOf, passageTerms };

/**
 * Passage-level term statistics: in how many of the library's blocks (paragraphs, list items
 * grouped as one list, tables, headings) each stemmed word occurs. Ranking inside a document
 * weighs a question's words by how rare they are *as passages*: in a library of sibling manuals
 * nearly every document says "battery" somewhere (document frequency says nothing), but few of
 * its paragraphs do. Blocks come from the normalized document, so the statistics follow
 * `learn`/`forget` of whole documents and do not depend on the chunker.
 */

const passageStatsSchema = z.object({
  version: z.literal(1),
  passages: z.number().int().min(0),
  df: countTable(1),
});

export type PassageTermStatsJson = z.infer<typeof passageStatsSchema>;

export class PassageTermStats {
  private readonly df = new Map<string, number>();
  private count = 0;

  static create(): PassageTermStats {
    return new PassageTermStats();
  }

  static fromJSON(json: unknown): Result<PassageTermStats> {
    const parsed = passageStatsSchema.safeParse(json);
    if (!parsed.success) return fail('corrupt', 'The stored passage statistics are damaged and must be rebuilt.');
    const s = new PassageTermStats();
    s.count = parsed.data.passages;
    for (const [t, n] of Object.entries(parsed.data.df)) s.df.set(t, n);
    return ok(s);
  }

  toJSON(): PassageTermStatsJson {
    return { version: 1, passages: this.count, df: Object.fromEntries(this.df) };
  }

  /** Number of passages counted; 0 for a library indexed before these statistics existed. */
  get passages(): number {
    return this.count;
  }

  addDocument(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): void {
    this.addPassages(passagesOf(doc).map((p) => distinctPassageTerms(p)));
  }

  /** `addDocument` from each passage's distinct terms, computed elsewhere (`learning-extract.ts`). */
  addPassages(passages: Iterable<Iterable<string>>): void {
    for (const terms of passages) {
      this.count++;
      for (const t of terms) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
  }

  /**
   * The terms that begin with `prefix` and are longer, most frequent first, at most `limit`
   * (a part number written short: "ili9342" for the library's "ili9342c"). Reads every term: for
   * the rare question word the library never saw.
   */
  longerTerms(prefix: string, limit: number): string[] {
    const found: [string, number][] = [];
    for (const [t, n] of this.df) if (t.length > prefix.length && t.startsWith(prefix)) found.push([t, n]);
    return found
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([t]) => t);
  }

  /** Takes back what `addDocument` added for the same document. */
  removeDocument(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): void {
    for (const p of passagesOf(doc)) {
      this.count = Math.max(0, this.count - 1);
      for (const t of distinctPassageTerms(p)) {
        const n = (this.df.get(t) ?? 0) - 1;
        if (n > 0) this.df.set(t, n);
        else this.df.delete(t);
      }
    }
  }

  /** In how many counted passages a stemmed term occurs (0 for an unseen one). */
  frequency(term: string): number {
    return this.df.get(term) ?? 0;
  }

  /**
   * BM25's inverse passage frequency of a stemmed term, > 0 (unseen terms score highest). With no
   * statistics (an index built before them) every term weighs 1.
   */
  idf(term: string): number {
    if (this.count === 0) return 1;
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.count - n + 0.5) / (n + 0.5));
  }
}
