import { stemmer } from 'stemmer';
import { z } from 'zod';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { isStopword } from './text.util';

/**
 * Passage-level term statistics: in how many of the library's blocks (paragraphs, list items
 * grouped as one list, tables, headings) each stemmed word occurs. Ranking inside a document
 * weighs a question's words by how rare they are *as passages*: in a library of sibling manuals
 * nearly every document says "battery" somewhere (document frequency says nothing), but few of
 * its paragraphs do. Blocks come from the normalized document, so the statistics follow
 * `learn`/`forget` of whole documents and do not depend on the chunker.
 */

/** Stems of the words seen so far (most words repeat; stemming each occurrence again is wasted work). */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 200_000;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /[a-z0-9][a-z0-9+]*/g;
const UNICODE_WORD = /[\p{L}\p{N}][\p{L}\p{N}+]*/gu;
const LETTERS = /^\p{L}+$/u;

/**
 * The words of a text as passage statistics count them: NFKC, lowercase, letters and digits (a
 * trailing `+` kept: "S3+" is not "S3"), at least 2 characters, no stopwords; words of letters
 * are Porter-stemmed ("charging" = "charge"), codes with digits are kept as written.
 */
export function passageTerms(text: string): string[] {
  const out: string[] = [];
  // Most manual text is ASCII: it needs no NFKC and a plain character class finds its words
  // (measured: about half the time of the Unicode pattern on the dev corpora).
  const ascii = !NON_ASCII.test(text);
  const words = ascii ? text.toLowerCase().match(ASCII_WORD) : text.normalize('NFKC').toLowerCase().match(UNICODE_WORD);
  for (const w of words ?? []) {
    if (w.length < 2 || isStopword(w)) continue;
    let s = stems.get(w);
    if (s === undefined) {
      s = LETTERS.test(w) ? stemmer(w) : w;
      if (stems.size >= MAX_CACHED_STEMS) stems.clear();
      stems.set(w, s);
    }
    out.push(s);
  }
  return out;
}

const passageStatsSchema = z.object({
  version: z.literal(1),
  passages: z.number().int().min(0),
  df: z.record(z.string(), z.number().int().min(1)),
});

export type PassageTermStatsJson = z.infer<typeof passageStatsSchema>;

/** The blocks of a document whose words are counted (front matter says nothing a passage answers). */
export function passagesOf(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): string[] {
  return doc.blocks.filter((b) => b.kind !== 'frontmatter').map((b) => doc.text.slice(b.start, b.end));
}

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
    this.addPassages(passagesOf(doc).map((p) => new Set(passageTerms(p))));
  }

  /** `addDocument` from each passage's distinct terms, computed elsewhere (`learning-extract.ts`). */
  addPassages(passages: Iterable<Iterable<string>>): void {
    for (const terms of passages) {
      this.count++;
      for (const t of terms) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
  }

  /** Takes back what `addDocument` added for the same document. */
  removeDocument(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): void {
    for (const p of passagesOf(doc)) {
      this.count = Math.max(0, this.count - 1);
      for (const t of new Set(passageTerms(p))) {
        const n = (this.df.get(t) ?? 0) - 1;
        if (n > 0) this.df.set(t, n);
        else this.df.delete(t);
      }
    }
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
