import answerTypes from '../data/answer-types.json';
import { passageTerms } from '../../enrich/passage-terms';
import { escapeRe, phrasePattern } from '../../core/text';
import type { ChunkHit } from '../../storage/chunk-store';
import { byScore, type RankStage } from './stage';
import { synonymMap } from '../thesaurus';

/**
 * Line-level evidence. A chunk answers a technician's question with one line — a spec-table row,
 * a list item, a sentence — not with the question's words scattered over a section, yet BM25 and
 * the coverage stage score the chunk as a bag of words. Here each hit is weighed by its best
 * line: the share of the question's words (stemmed, weighed by how rare they are as passages in
 * the library) that one line holds. When the question asks for a quantity ("how much", "range",
 * "current"...), a line without a number and a unit counts for a fraction only, so the table row
 * "| Charging current | 50mA |" beats the paragraph about charging. Lines inside fenced code are
 * skipped: a code comment repeats the question's words but is never the answer to them.
 *
 * Measured on every shared set (docs/benchmarks.md): with `ANSWER_LINE_WEIGHT` 4 and
 * `NO_VALUE_SHARE` 0.3 the macro Hit@1 rose by about .04 and no set fell; 2–6 and 0.1–0.5 move
 * single questions only.
 */

/** Extra share of score for a hit whose best line holds all of the question's words (weighted). */
export const ANSWER_LINE_WEIGHT = 4;
/** What a line without a quantity counts for, relative to one with, when the question asks for a value. */
export const NO_VALUE_SHARE = 0.3;
/**
 * Extra share for a line that pairs a label with a value when the question names its whole label
 * ("| Flash | 1536KB + 4MB |", "Detecting Range: 150cm" for "flash size", "detecting range"): the
 * manual's own answer to that label, where a sentence mentioning the same words only talks about it.
 * Measured on every set: 0.75–1.25 lift galaxy-s10, seeed-xiao and smart-tv and drop none; 1.5 and
 * more start to drop m5stack and pdf-dev.
 */
export const LABEL_WEIGHT = 1;
/**
 * A label earns the whole `LABEL_WEIGHT` when it names at least 1 / `LABEL_COVERAGE` of the
 * question (IDF-weighted), and a part of it in proportion below that: "Power off:" for "how do
 * I power off" is the manual's answer to it, "Sound:" for "how do I set up the notification
 * sound" one word of three. Measured on every set against the whole bonus for any asked label,
 * together with the numbered-kind rule (`askedKind`): galaxy-s10 +1 question at Hit@1, smart-tv
 * +2 (5 won, 3 lost), m5stack one won and one lost, the others unchanged. Without the kind rule
 * seeed-xiao lost its "which GPIO is the BOOT button" to the spec row "Onboard Buttons | Boot
 * Button"; 1.0 and 2.0 lift smart-tv too (+1, +4) and galaxy-s10 only at 1.0–1.5.
 */
export const LABEL_COVERAGE = 1.5;
/**
 * What a how-to question's word counts for in a line that holds only a thesaurus word of its
 * group: a manual titles the task with its own verb ("Remove an account" for "how to delete my
 * account"), and that line should not lose to every "Delete ..." section that lacks the thing
 * asked about. Only for how-to questions: the groups are loose on purpose (the keyword search
 * adds them at a low weight), and for a question asking for a value a near word is a different
 * fact ("pins" for "how many GPIOs": pdf-dev lost a first line, smart-tv two questions at Hit@1
 * with this credit for every question). Measured on every set (docs/benchmarks.md, "Search,
 * session 13"): galaxy-s10 Hit@1 .820 -> .860, smart-tv .724 -> .722, the others unchanged;
 * 0.75 measured the same, 0.35 no gain.
 */
const SYNONYM_CREDIT = 0.5;
/** The thesaurus as passage terms (see `synonymMap`). */
const SYNONYMS = synonymMap(passageTerms);
/** Marks of `AskedTerms`: a term the line holds, and one it holds only a thesaurus word of. */
const FULL = 2;
const HALF = 1;

/** Lines longer than this are read as sentences (a paragraph is not one line of evidence). */
const LONG_LINE = 200;

interface AnswerTypes {
  quantityCues: string[];
  prefixedUnits: string[];
  units: string[];
  dimensions: { words: string[]; units: string[]; anyCase?: boolean }[];
  howTo: string[];
  signalKinds: string[];
}

const types = answerTypes as AnswerTypes;
const QUANTITY_CUE = phrasePattern(types.quantityCues);
/** A unit of measure written after a number ("V", "mA", "MHz", "mm", "°C"; SI prefixes on the base units), as a pattern: chat reads values with it too. */
export const UNIT_PATTERN = `(?:[kmgµunp]?(?:${types.prefixedUnits.map(escapeRe).join('|')})|${types.units.map(escapeRe).join('|')})`;
/** A number that does not continue a word ("I2C", "ESP32" are names), then one of `units` (a pattern) ending there. */
function valuePattern(units: string, flags: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])\\d+(?:[.,]\\d+)?\\s?${units}(?![\\p{L}\\p{N}])`, flags);
}

/** A number with a unit (see `valuePattern`). */
const QUANTITY = valuePattern(UNIT_PATTERN, 'iu');

/**
 * What a value measures, known by its unit: each dimension's question words as written and a
 * pattern for a number followed by one of its units ("less than 5μA" states a current). Chat
 * reads values with them too, its words stemmed as it stems.
 */
export const VALUE_DIMENSIONS: readonly { readonly words: readonly string[]; readonly value: RegExp }[] = types.dimensions.map((d) => ({
  words: d.words,
  value: valuePattern(`(?:${d.units.map(escapeRe).join('|')})`, d.anyCase ? 'iu' : 'u'),
}));

/** `VALUE_DIMENSIONS` with their words stemmed as passage terms. */
const DIMENSIONS = VALUE_DIMENSIONS.map((d) => ({ terms: [...new Set(d.words.flatMap((w) => passageTerms(w)))], value: d.value }));

const HOW_TO = phrasePattern(types.howTo);

/**
 * The dimensions whose words a question's terms hold: the only ones worth looking for in its
 * lines. None for a how-to question: "how do I set the clock" asks for steps, and "240MHz" is no
 * answer to it.
 */
export function askedDimensions(terms: readonly string[], question = ''): typeof DIMENSIONS {
  if (HOW_TO.test(question.toLowerCase())) return [];
  return DIMENSIONS.filter((d) => d.terms.some((t) => terms.includes(t)));
}

/** A count written as a multiplication ("WS2812B x 25", "×2"): how spec tables give how many. */
const COUNT = /(?<![\p{L}\p{N}])[x×]\s?\d+(?![\p{L}\p{N}.,])/u;

/** A version number: three dotted parts ("4.2.0") or a "v" before dotted digits ("v1.2"): the value a "which version" asks for. */
const VERSION = /(?<![\p{L}\p{N}.])(?:\d+\.\d+\.\d+|v\d+(?:\.\d+)+)(?![\p{L}\p{N}])/iu;

/** True when the question asks for a value (a quantity cue in it). */
export function asksForQuantity(question: string): boolean {
  return QUANTITY_CUE.test(question.toLowerCase());
}

/** True when the question asks which version (the only question a version number answers). */
export function asksForVersion(question: string): boolean {
  return /(?<![\p{L}\p{N}])versions?(?![\p{L}\p{N}])/iu.test(question);
}

/**
 * True when the line states a quantity: a number with a unit or a count ("x 25"); with
 * `versions`, a version number too ("4.2.0" for "which version", never for "max current": a
 * section number "4.2.1" or a date states no current).
 */
export function statesQuantity(line: string, versions = false): boolean {
  return QUANTITY.test(line) || COUNT.test(line) || (versions && VERSION.test(line));
}

/** The lines of a chunk's text, code excluded; a line longer than `LONG_LINE` is split into its sentences and at `<br>`. */
export function evidenceLines(text: string): string[] {
  const out: string[] = [];
  let code = false;
  for (const raw of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      code = !code;
      continue;
    }
    if (code || raw.trim() === '') continue;
    if (raw.length <= LONG_LINE) out.push(raw);
    else out.push(...raw.split(/(?<=[.!?;])\s+|<br\s*\/?>/i).filter((s) => s.trim() !== ''));
  }
  return out;
}

/**
 * What a ranking reads of one evidence line whatever the question: its label, its words (passage
 * terms), the kinds of its numbered names and its label's words; whether it states a quantity or
 * a version is tested on first need (most questions ask for neither).
 */
interface LineFacts {
  readonly line: string;
  /** Read on first need (`labelOf`): only a line holding the question's words, or an abbreviation of one, is asked for it. */
  label?: string | null;
  readonly words: readonly string[];
  readonly kinds: readonly string[];
  labelWords?: readonly string[];
  quantity?: boolean;
  version?: boolean;
}

/** What `NUMBERED` needs somewhere in a line (a capital, then a digit): a cheap test that spares most lines its look-behind scan. */
const MAYBE_NUMBERED = /\p{Lu}\d/u;

function lineFacts(line: string): LineFacts {
  const kinds: string[] = [];
  if (MAYBE_NUMBERED.test(line)) {
    for (const m of line.matchAll(NUMBERED)) {
      const kind = passageTerms(m[1]!)[0];
      if (kind) kinds.push(kind);
    }
  }
  // An underscore parts words as a space does ("SDA_PIN": "sda", "pin"): passage words never hold one.
  return { line, words: passageTerms(line), kinds };
}

/** The line's label (see `lineLabel`), read once. */
function labelOf(facts: LineFacts): string | null {
  if (facts.label === undefined) facts.label = lineLabel(facts.line);
  return facts.label;
}

/**
 * Each record's line facts, for as long as the record lives: one search weighs many of its hits
 * twice (the passage-order stage weighs the named documents' passages, then this stage every
 * hit), and splitting lines into stemmed words was a quarter of a search's JavaScript at 100k
 * chunks. Keyed by the record object, so the facts live as long as it does: the store reads
 * records afresh for each search, and a record whose text changed is read again (checked below).
 */
const factsByRecord = new WeakMap<object, { text: string; lines: LineFacts[] }>();

/**
 * `record`'s line facts; `sameText` holds those already made in this weighing by text: sibling
 * manuals repeat passages word for word, and the hits of one question are often copies of one
 * passage (a line's facts depend on its text alone).
 */
function recordLines(record: { text: string }, sameText: Map<string, LineFacts[]>): LineFacts[] {
  const have = factsByRecord.get(record);
  if (have && have.text === record.text) return have.lines;
  let lines = sameText.get(record.text);
  if (!lines) sameText.set(record.text, (lines = evidenceLines(record.text).map(lineFacts)));
  factsByRecord.set(record, { text: record.text, lines });
  return lines;
}

function statesQuantityFacts(f: LineFacts, versions: boolean): boolean {
  f.quantity ??= QUANTITY.test(f.line) || COUNT.test(f.line);
  if (f.quantity || !versions) return f.quantity;
  f.version ??= VERSION.test(f.line);
  return f.version;
}

/**
 * Scales each hit by `1 + weight × best line`, where a line's value is the IDF-weighted share of
 * the question's words it holds (a value's unit holds the word of its dimension), times
 * `NO_VALUE_SHARE` when a quantity or a numbered signal is asked and the line states none, and
 * more when its label names the question. `idf` weighs a stemmed word; order among equal scores is kept.
 */
export function weighByAnswerLine(hits: ChunkHit[], question: string, idf: (term: string) => number, weight = ANSWER_LINE_WEIGHT): ChunkHit[] {
  const terms = [...new Set(passageTerms(question))];
  if (terms.length === 0) return hits;
  const weights = terms.map(idf);
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) return hits;
  const quantity = asksForQuantity(question);
  const versions = asksForVersion(question);
  const dimensions = askedDimensions(terms, question);
  const kind = askedKind(question);
  const asked = new AskedTerms(terms, dimensions, HOW_TO.test(question.toLowerCase()));
  /** The weight of the marked terms (half for a thesaurus word's mark), summed in the terms' order. */
  const weighed = (marks: Uint8Array): number => {
    let sum = 0;
    for (let k = 0; k < terms.length; k++) if (marks[k] === FULL) sum += weights[k]!;
    else if (marks[k] === HALF) sum += SYNONYM_CREDIT * weights[k]!;
    return sum;
  };
  const sameText = new Map<string, LineFacts[]>();
  return byScore(
    hits.map((h, i) => {
      // 0 stays 0 whatever its lines (see `byScore`).
      if (h.score === 0) return { hit: h, i };
      let best = 0;
      for (const facts of recordLines(h.record, sameText)) {
        let share = weighed(asked.offered(facts)) / total;
        if (quantity && !statesQuantityFacts(facts, versions)) share *= NO_VALUE_SHARE;
        else if (kind !== null && !facts.kinds.includes(kind)) share *= NO_VALUE_SHARE;
        const named = share > 0 ? asked.label(facts) : null;
        if (named !== null) share *= 1 + LABEL_WEIGHT * Math.min(1, LABEL_COVERAGE * (weighed(named) / total));
        if (share > best) best = share;
      }
      return { hit: { ...h, score: h.score * (1 + weight * best) }, i };
    }),
  );
}

/**
 * One question's terms, and which of them a line offers (see `lineWords`) and its label names,
 * marked in an array instead of a set built for every line of every hit (a set per line and a
 * list per abbreviation test were much of the garbage a search made). Abbreviation candidates and
 * their patterns are kept per word for the question.
 */
class AskedTerms {
  private readonly index: Map<string, number>;
  /** A thesaurus word of a term (not itself a term) -> that term's index. */
  private readonly alike = new Map<string, number>();
  private readonly marks: Uint8Array;
  private readonly labelMarks: Uint8Array;
  /** Word -> the index of the one term it could abbreviate (see `cut`), or -1. */
  private readonly cuts = new Map<string, number>();
  private readonly cutPatterns = new Map<string, RegExp>();

  constructor(
    private readonly terms: readonly string[],
    private readonly dimensions: ReturnType<typeof askedDimensions>,
    /** Whether a thesaurus word of a term counts for it (at `SYNONYM_CREDIT`). */
    alike = false,
  ) {
    this.index = new Map(terms.map((t, k) => [t, k]));
    if (alike) terms.forEach((t, k) => {
      for (const s of SYNONYMS.get(t) ?? []) if (!this.index.has(s) && !this.alike.has(s)) this.alike.set(s, k);
    });
    this.marks = new Uint8Array(terms.length);
    this.labelMarks = new Uint8Array(terms.length);
  }

  /** The question's terms among the words the line offers (see `visitWords`), marked (valid until the next call). */
  offered(facts: LineFacts): Uint8Array {
    this.marks.fill(0);
    this.visitWords(facts, this.markOffered);
    return this.marks;
  }

  /** Every word the line offers (see `lineWords`). */
  words(facts: LineFacts): Set<string> {
    const out = new Set<string>();
    this.visitWords(facts, (w) => out.add(w));
    return out;
  }

  /**
   * The words of the line's label (see `lineLabel`), abbreviations read as the question's words
   * they cut, marked when every one of them is among the question's terms; else null (valid until
   * the next call).
   */
  label(facts: LineFacts): Uint8Array | null {
    const label = labelOf(facts);
    if (label === null) return null;
    facts.labelWords ??= passageTerms(label);
    if (facts.labelWords.length === 0) return null;
    const marks = this.labelMarks.fill(0);
    for (const w of facts.labelWords) {
      const cut = this.cut(w);
      const k = cut >= 0 && this.cutPattern(w).test(label) ? cut : this.index.get(w);
      if (k === undefined) return null;
      marks[k] = FULL;
    }
    return marks;
  }

  private readonly markOffered = (term: string): void => {
    const k = this.index.get(term);
    if (k !== undefined) this.marks[k] = FULL;
    else if (this.alike.size > 0) {
      const j = this.alike.get(term);
      if (j !== undefined && this.marks[j] === 0) this.marks[j] = HALF;
    }
  };

  /**
   * The words a line offers the question, each passed to `visit`: the dimensions whose unit follows
   * a number in it, the kinds of its numbered names, its passage terms, and the question term each
   * abbreviation cut with a dot stands for. `labels` is where labels are written (a table row, a
   * line's label): in prose a dot after a word ends its sentence ("enters sleep mode." is no "model").
   */
  private visitWords(facts: LineFacts, visit: (word: string) => void): void {
    const { line } = facts;
    for (const d of this.dimensions) if (d.value.test(line)) for (const t of d.terms) visit(t);
    for (const kind of facts.kinds) visit(kind);
    let labels: string | null | undefined;
    for (const w of facts.words) {
      visit(w);
      const cut = this.cut(w);
      if (cut < 0) continue;
      labels ??= line.trim().startsWith('|') ? line : labelOf(facts);
      if (labels !== null && this.cutPattern(w).test(labels)) visit(this.terms[cut]!);
    }
  }

  /**
   * The index of the question term `word` could abbreviate, before the test for its dot: the one
   * longer term it begins; -1 for none, and for a cut that begins two of the question's terms
   * ("Min." of "minimum" and "minutes" stands for neither).
   */
  private cut(word: string): number {
    let k = this.cuts.get(word);
    if (k === undefined) {
      const full = cutCandidates(word, this.terms);
      k = full.length === 1 ? this.index.get(full[0]!)! : -1;
      this.cuts.set(word, k);
    }
    return k;
  }

  private cutPattern(word: string): RegExp {
    let re = this.cutPatterns.get(word);
    if (!re) this.cutPatterns.set(word, (re = cutPattern(word)));
    return re;
  }
}

/** Signal kinds by the stemmed word a question writes them with (`answer-types.json` `signalKinds`). */
const SIGNAL_KINDS = new Set(types.signalKinds.flatMap((k) => passageTerms(k)));

/**
 * The kind of numbered signal a question asks for by name ("which GPIO", "what UARTs": one of
 * `signalKinds`, written in capitals as signal names are): its stemmed word, or null. Such a
 * question is answered by a line naming one ("| Boot | GPIO28 |"), as a quantity question is by a
 * line stating a value; "which LED", "which pin" or a question in capitals throughout ask for
 * none.
 */
export function askedKind(question: string): string | null {
  if (!/\p{Ll}/u.test(question)) return null;
  const m = /(?<![\p{L}\p{N}])(?:[Ww]hich|[Ww]hat)\s+(\p{Lu}[\p{Lu}\d]+)s?(?![\p{L}\p{N}])/u.exec(question);
  const kind = m ? passageTerms(m[1]!)[0] : undefined;
  return kind !== undefined && SIGNAL_KINDS.has(kind) ? kind : null;
}

/**
 * A signal or peripheral numbered in a pin table ("GPIO28", "ADC2", "UART0"): capitals, then
 * digits. Written in capitals, as signal names are: "page12" or "Step2" name no kind of pin.
 */
const NUMBERED = /(?<![\p{L}\p{N}])(\p{Lu}{2,})\d+(?![\p{L}\p{N}])/gu;

/**
 * The words a line offers the question: its passage terms, plus the kind of each numbered name
 * ("GPIO28" is a GPIO: "which GPIO is the BOOT button" meets the row "| Boot | GPIO28 |") and the
 * question's word that each abbreviation cut with a dot stands for ("Typ." for "typical", "Max."
 * for "maximum": spec tables abbreviate their labels; the technician does not), and the words
 * of each of `dimensions` whose unit follows a number in the line ("5μA" says "current").
 */
export function lineWords(
  line: string,
  terms: readonly string[],
  label: string | null = lineLabel(line),
  dimensions: ReturnType<typeof askedDimensions> = [],
): Set<string> {
  return new AskedTerms(terms, dimensions).words({ ...lineFacts(line), label });
}

/** The terms a word could abbreviate: those it begins, when it is a plain word of 3 letters or more. */
function cutCandidates(word: string, terms: readonly string[]): string[] {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return [];
  return terms.filter((t) => t.length > word.length && t.startsWith(word));
}

/** The word written with a dot after it, not inside a longer word. */
function cutPattern(word: string): RegExp {
  return new RegExp(`(?<![\\p{L}])${word}\\.`, 'iu');
}

/**
 * The label of a line that pairs a label with a value: a table row's first filled cell (when
 * another cell is filled), or up to six words before a colon (a list item's or bold label's
 * markup aside); null for any other line.
 */
export function lineLabel(line: string): string | null {
  const t = line.trim();
  if (t.startsWith('|')) {
    const cells = t.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
    const filled = cells.filter((c) => c !== '' && !/^[-:\s]+$/.test(c));
    return filled.length >= 2 ? filled[0]! : null;
  }
  // The pattern below needs a colon; most lines have none.
  if (!t.includes(':') && !t.includes('：')) return null;
  const m = /^(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?([^:：*]{1,60}?)(?:\*\*)?\s*[:：](?:\*\*)?\s*\S/.exec(t);
  return m && m[1]!.split(/\s+/).length <= 6 ? m[1]! : null;
}

/** `weighByAnswerLine` as a stage, on the question without its model names. */
export const answerLineStage: RankStage<'answer-line'> = {
  name: 'answer-line',
  describes: "weights each hit by its line holding most of the question's (rare) words; a value where one is asked",
  run: (hits, ctx) => weighByAnswerLine(hits, ctx.topical, ctx.idf),
};
