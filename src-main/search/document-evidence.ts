import { isCodeToken, isStopword } from '../enrich/text.util';

/**
 * Document-level evidence: how well a question's words match each document's names — its title,
 * its file name and its folders — weighted by how rare each name term is in the library. In a library
 * of
 * sibling manuals the names are what tell the siblings apart (a model code in a file name, a
 * "Plus" in a title), and the IDF over the library's own names discounts what every sibling shares
 * (a vendor word, "Evaluation Board"), so nothing here knows a vendor or a product. Hand-written:
 * it is a few dozen lines over a few hundred short names, rebuilt when the documents change, and
 * LanceDB's FTS cannot credit one spelling of a name once (see `score`).
 */

/** Longest run of adjacent words joined into one term ("zero 2 pro" -> "zero2pro"). */
const MAX_JOIN = 3;

/** Words of a name or a question: NFKC, lowercase, stopwords out; a trailing "+" is the word "plus". */
export function nameWords(text: string): string[] {
  const words: string[] = [];
  for (const raw of text.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}+]+/u)) {
    if (raw === '') continue;
    const w = raw.replace(/\+/g, '');
    if (w !== '' && !isStopword(w)) {
      // "702/704/706" after "BL702": the bare numbers name BL704 and BL706.
      const prev = words[words.length - 1];
      const stem = prev?.match(/^(\p{L}+)(\p{N}+)$/u);
      if (stem && /^\p{N}+$/u.test(w) && w.length === stem[2]!.length) words.push(stem[1]! + w);
      else words.push(w);
    }
    if (raw.includes('+')) words.push('plus');
  }
  return words;
}

/** Each word and each run of up to MAX_JOIN adjacent words joined, with the word span it covers. */
function spans(words: readonly string[]): { term: string; from: number; to: number }[] {
  const out: { term: string; from: number; to: number }[] = [];
  for (let i = 0; i < words.length; i++) {
    let term = '';
    for (let j = i; j < Math.min(words.length, i + MAX_JOIN); j++) {
      term += words[j]!;
      out.push({ term, from: i, to: j });
    }
  }
  return out;
}

/** The names of a document: its title, its file name (without extension), each folder below the imported one, and its ordering codes. */
export function documentNames(doc: { id: string; title: string; codes?: readonly string[] }): string[] {
  const parts = doc.id.split('/').slice(1);
  const file = (parts.pop() ?? '').replace(/\.[^.]+$/, '');
  return [doc.title, file, ...parts].map((p) => p.replace(/_/g, ' ')).concat(doc.codes ?? []);
}

/**
 * A name's first and third word joined when they make a code of letters and digits: the
 * run-together form a technician types for a name with a word in the middle ("MKR WiFi 1010" is
 * asked as "MKR1010").
 */
function skipJoins(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 2 < words.length; i++) {
    const term = words[i]! + words[i + 2]!;
    if (isCodeToken(term)) out.push(term);
  }
  return out;
}

/** How well a question names each document (see `DocumentEvidence.score`), by document id. */
export interface DocumentScores {
  /** Documents that match at all. */
  readonly size: number;
  /** The document's evidence in (0, 1], undefined for a document that matches nothing. */
  get(docId: string): number | undefined;
}

/** What a question's words match: the documents holding a candidate term (ascending), their sums, the best sum. */
interface Matched {
  readonly docs: readonly number[];
  readonly sums: readonly number[];
  readonly best: number;
  /** The question's word positions the best documents' names cover. */
  readonly covered: ReadonlySet<number>;
}

export class DocumentEvidence {
  /** Document id -> index into `ids` (built on first need). */
  private indexOf: Map<string, number> | null = null;
  /** Reused between questions: which candidate terms each document holds, 32 a word (see `match`). */
  private held = new Uint32Array(0);
  /**
   * The last question matched and what it matched: a search asks `scores` and `passageWords` of
   * the same question whenever it names no model (0.4 ms a search at 100k chunks). Read only.
   */
  private last: { query: string; matched: Matched } | null = null;

  private constructor(
    private readonly ids: string[],
    /** Name term -> the documents (indexes into `ids`, ascending) that hold it; its length is the term's df. */
    private readonly postings: Map<string, number[]>,
  ) {}

  static build(docs: readonly { id: string; title: string; codes?: readonly string[] }[]): DocumentEvidence {
    const ids: string[] = [];
    const postings = new Map<string, number[]>();
    // A name's terms, made once per name: most names are folders that thousands of documents share.
    const termsOf = new Map<string, readonly string[]>();
    for (const d of docs) {
      const set = new Set<string>();
      for (const name of documentNames(d)) {
        let terms = termsOf.get(name);
        if (!terms) {
          const words = nameWords(name);
          terms = [...spans(words).map((s) => s.term), ...skipJoins(words)];
          termsOf.set(name, terms);
        }
        for (const t of terms) set.add(t);
      }
      for (const t of set) {
        const list = postings.get(t);
        if (list) list.push(ids.length);
        else postings.set(t, [ids.length]);
      }
      ids.push(d.id);
    }
    return new DocumentEvidence(ids, postings);
  }

  /**
   * Each matching document's evidence divided by the best one's (so in (0, 1]); documents that
   * match nothing are absent, and the map is empty when the question matches no name. A
   * document's evidence is, over the question's words, the IDF of the rarest of its name terms
   * that covers the word: a model name counts once however many ways a document spells it
   * ("ZERO 2 PRO" in a title, "zero2pro" in its folder), so the pages of one model tie on it and
   * the passage decides between them. A word the question repeats counts once.
   */
  score(query: string): Map<string, number> {
    const { docs, sums, best } = this.match(query);
    return new Map(docs.map((i, d) => [this.ids[i]!, sums[d]! / best]));
  }

  /**
   * `score` as a lookup by document id, without a map entry per matching document: in a library
   * of near-identical manuals a model's name matches thousands of documents (~1,700 of 14,500 at
   * 100k chunks), and a search looks up the few dozen of its hits.
   */
  scores(query: string): DocumentScores {
    const { docs, sums, best } = this.match(query);
    this.indexOf ??= new Map(this.ids.map((id, i) => [id, i]));
    const indexOf = this.indexOf;
    return {
      size: docs.length,
      get: (docId) => {
        const i = indexOf.get(docId);
        if (i === undefined) return undefined;
        // `docs` is ascending: a binary search finds the document's place in it, if it has one.
        let lo = 0;
        let hi = docs.length - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (docs[mid] === i) return sums[mid]! / best;
          if (docs[mid]! < i) lo = mid + 1;
          else hi = mid - 1;
        }
        return undefined;
      },
    };
  }

  /**
   * The documents the question names best (evidence 1) and the question's words left when the
   * words their names cover are taken out: what the passage, not the manual, must match. Null
   * when no document name matches, when the question names every document alike (a one-manual
   * library, a word in every title: such a name tells no manual apart, and taking its words out
   * of the question only loses them) or when no word is left.
   */
  passageWords(query: string): { docs: string[]; words: string[] } | null {
    const { docs: matched, sums, best, covered } = this.match(query);
    const docs = matched.filter((_, d) => sums[d]! / best >= 1).map((i) => this.ids[i]!);
    if (docs.length === 0 || docs.length === this.ids.length || covered.size === 0) return null;
    const words = nameWords(query).filter((_, i) => !covered.has(i));
    return words.length > 0 ? { docs, words } : null;
  }

  private match(query: string): Matched {
    if (this.last?.query !== query) this.last = { query, matched: this.matchUncached(query) };
    return this.last.matched;
  }

  private matchUncached(query: string): Matched {
    const words = nameWords(query);
    const candidates = spans(words).filter((s) => this.postings.has(s.term));
    const n = this.ids.length;
    const idf = (t: string) => {
      const df = this.postings.get(t)!.length;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    };
    const weights = candidates.map((c) => idf(c.term));
    // Only documents holding a candidate term can score, and each is credited for the candidates
    // it holds: the postings say which, as one bit per candidate, so no document is scanned for
    // terms it lacks. A document's sum depends only on which candidates it holds, and in a
    // library of near-identical manuals thousands of documents hold the same few: each distinct
    // set is summed once. Documents are visited in library order, as a loop over every document
    // would (that loop took longer than the search itself at ~14k documents).
    const stride = Math.max(1, Math.ceil(candidates.length / 32));
    if (this.held.length < n * stride) this.held = new Uint32Array(n * stride);
    const held = this.held;
    held.fill(0, 0, n * stride);
    candidates.forEach((c, k) => {
      const bit = 1 << k % 32;
      const word = Math.floor(k / 32);
      for (const i of this.postings.get(c.term)!) held[i * stride + word]! |= bit;
    });
    const credit = new Array<number>(words.length);
    const credited = (i: number): number[] => {
      credit.fill(0);
      for (let k = 0; k < candidates.length; k++) {
        if ((held[i * stride + Math.floor(k / 32)]! & (1 << k % 32)) === 0) continue;
        const c = candidates[k]!;
        for (let p = c.from; p <= c.to; p++) if (weights[k]! > credit[p]!) credit[p] = weights[k]!;
      }
      return credit;
    };
    // A word the question repeats counts once, at its best credit: "Can I plug the Acme X5 into
    // the Acme X3 board?" names the vendor twice to compare two of its models, and a title holding
    // the vendor word and one model's name ("Acme X5") was credited for both, outweighing the
    // pages that answer how the two relate (at a deeper POOL, searcher.ts).
    const firstOf = words.map((w) => words.indexOf(w));
    const perWord = new Array<number>(words.length);
    const onceEach = (c: readonly number[]): number => {
      perWord.fill(0);
      c.forEach((v, p) => {
        if (v > perWord[firstOf[p]!]!) perWord[firstOf[p]!] = v;
      });
      return perWord.reduce((a, b) => a + b, 0);
    };
    const keyOf = (i: number): number | string => (stride === 1 ? held[i]! : held.subarray(i * stride, (i + 1) * stride).join(','));
    const sumOf = new Map<number | string, number>();
    const docs: number[] = [];
    const sums: number[] = [];
    let best = 0;
    for (let i = 0; i < n; i++) {
      let holds = false;
      for (let w = i * stride; w < (i + 1) * stride && !holds; w++) holds = held[w] !== 0;
      if (!holds) continue;
      const key = keyOf(i);
      let s = sumOf.get(key);
      if (s === undefined) {
        s = onceEach(credited(i));
        sumOf.set(key, s);
      }
      docs.push(i);
      sums.push(s);
      if (s > best) best = s;
    }
    const covered = new Set<number>();
    const seen = new Set<number | string>();
    docs.forEach((i, d) => {
      const key = keyOf(i);
      if (sums[d] !== best || seen.has(key)) return;
      seen.add(key);
      credited(i).forEach((c, p) => {
        if (c > 0) covered.add(p);
      });
    });
    return { docs, sums, best, covered };
  }
}
