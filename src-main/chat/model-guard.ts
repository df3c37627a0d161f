import type { ModelEntry, ModelVocabulary } from '../enrich/model-vocabulary';
import type { ModelToken } from '../enrich/text.util';
import { isCodeToken, isStopword, isUnitLike, joinable, modelTokens, nameKey } from '../enrich/text.util';
import technicalTerms from './data/technical-terms.json';

/**
 * Honest "not found" for product models: spots model-number-like names in a question that the
 * library's vocabulary does not know ("E99C", "RAC-999Z", "ROCK 9X"); closest-models.ts ranks
 * the library's models closest to them. A name counts only when it looks like the library's own
 * models (same leading letters and the same letter/digit shape as some model), so ordinary
 * identifiers and units (5V, USB3, M.2, GPIO3_A4) are never taken for a missing manual; chips and
 * part numbers the library's own text mentions are taken back by `confirmUnknown` (question-plan.ts).
 */

/** A model-number-like name in a question that no model of the library matches. */
export interface UnknownModel {
  /** The words as written in the question. */
  text: string;
  /**
   * `sibling`: shaped like a product line of the library ("E99C" beside E52C), so its closest
   * models are worth naming; `code`: a product code of another line ("TPS7A47"), whose closest
   * library models would be noise.
   */
  kind: 'sibling' | 'code';
  /** Normalized key (lowercase letters and digits, vendor words removed). */
  key: string;
  start: number;
  end: number;
  /**
   * The library model whose name it extends ("M5StickC+" of "M5StickC Plus 2"): the manuals
   * mention it only where they write the whole name, not wherever they write that model.
   */
  extends?: string;
  /**
   * It begins with a family name of the library's models ("XIAO ESP32" of "XIAO ESP32-C9"), or
   * with the name of a model no manual is about that the question goes on writing ("Foo X2" of
   * "Foo X2 Lite", `undocumentedMentions`): the manuals mention it only where they write the
   * whole name, and the models its mention reads are not asked about.
   */
  family?: true;
  /**
   * A library model no manual is about, and the one model with a manual whose name is it with
   * more words ("S20+": the Galaxy S20+, which only other manuals mention, and the Galaxy S20+ 5G):
   * the answer is for `documented`, saying so (`undocumentedMentions` in undocumented-models.ts),
   * unless a stored chunk is about `mentioned` (`confirmUnknown`).
   */
  fuller?: { mentioned: string; documented: string };
  /**
   * As `fuller`, when the mentioned model's name begins several documented models' names ("Galaxy
   * S20": the Galaxy S20+ 5G and the Galaxy S20 Ultra 5G): nothing says which one is asked about,
   * so the reply asks which (`clarify` of the chat turn) instead of answering from any manual.
   */
  ambiguous?: { mentioned: string; documented: string[] };
}

/**
 * General technical terms shaped like model numbers (interfaces, memory, ratings, codecs), never a
 * product manual; kept as data. The shape gate below already rejects most; these share a letter
 * prefix with real product lines in some libraries ("X86" vs "X4", "C6" vs "C200"). Chips and
 * part numbers the manuals mention are recognised from the library's text instead
 * (`confirmUnknown` in question-plan.ts), so no chip family is listed here.
 */
const TECH_PREFIXES: readonly string[] = technicalTerms.prefixes;

/**
 * Whether a key is a general technical term: a listed prefix and what may follow it. One letter
 * takes one digit ("m2", "r5"), two letters take digits ("ip67", "rj45"), longer prefixes any
 * letters and digits ("usb3", "typec", "gpio3a4").
 */
function isTechnicalTerm(key: string): boolean {
  return TECH_PREFIXES.some((p) => {
    if (!key.startsWith(p)) return false;
    const rest = key.slice(p.length);
    if (p.length === 1) return /^\d$/.test(rest);
    if (p.length === 2) return /^\d+$/.test(rest);
    return /^[\p{L}\p{N}]*$/u.test(rest);
  });
}

/** Leading run of letters of a key ("e52c" -> "e", "rock5b" -> "rock"). */
export function lead(key: string): string {
  return /^\p{L}*/u.exec(key)?.[0] ?? '';
}

/** Letter/digit run pattern of a key ("e52c" -> "LDL", "esp32s3devkitc1" -> "LDLDLDL"). */
function shape(key: string): string {
  return key
    .replace(/\p{L}+/gu, 'L')
    .replace(/\p{N}+/gu, 'D')
    .replace(/[^LD]/g, '');
}

/** Products and members of the vocabulary (revisions are listed under their base). */
export function catalog(vocabulary: ModelVocabulary): ModelEntry[] {
  return vocabulary.models().filter((m) => m.kind !== 'variant' && m.key !== '');
}

/**
 * Which names besides those shaped like the library's models count (`findUnknownModels`):
 * - `library`: none;
 * - `any`: any product code ("ZX-900", "QX70"); chat asks for it in a follow-up, which would
 *   otherwise be answered from the kept model's manual;
 * - `product`: a product code with at least three digits ("TPS7A47", "FAN7631"), for a question
 *   naming no model of the library, which would otherwise be answered from whichever manual the
 *   search ranks first. Fewer digits are as often a pin, a button or a standard ("KEY1", "PA12",
 *   "VDD33", "WPA3", "MPEG4") that a manual may not spell out.
 * Chat takes back the names the library's own text mentions (`confirmUnknown`).
 */
export type CodeMode = 'library' | 'any' | 'product';

/** Fewest digits of a product code taken in `product` mode. */
const PRODUCT_DIGITS = 3;

/**
 * Model-number-like names in `question` that the vocabulary does not know. Names the vocabulary
 * resolves (via `findMentions` or `lookup`) and series/family prefixes of known models ("ESP32",
 * "ROCK 5") are not unknown. `known`: the question's mentions when the caller has them already;
 * `codes`: which product codes shaped like none of the library's models count (`CodeMode`).
 */
export function findUnknownModels(
  question: string,
  vocabulary: ModelVocabulary,
  known: readonly { start: number; end: number }[] = vocabulary.findMentions(question),
  codes: CodeMode = 'library',
): UnknownModel[] {
  const anyCode = codes !== 'library';
  const models = catalog(vocabulary);
  if (models.length === 0) return [];
  const vendors = vocabulary.vendorWordSet();
  // Words that occur in model names ("rock", "zero", "cubie", "rac"): a series word may precede
  // a number that is not a code by itself ("ROCK 9X", "ZERO 9").
  const nameWords = new Set<string>();
  for (const m of models) for (const t of modelTokens(m.name)) if (t.kind === 'word' && !/\d/.test(t.norm)) nameWords.add(t.norm);
  const covered = (t: ModelToken): boolean => known.some((k) => t.start < k.end && t.end > k.start);
  const keys = models.map((m) => ({ key: m.key, lead: lead(m.key), shape: shape(m.key) }));

  const toks = modelTokens(question);
  const out: UnknownModel[] = [];
  let i = 0;
  while (i < toks.length) {
    // A run of joinable tokens, each a series word or a letter/digit code, not inside a known name.
    const run: ModelToken[] = [];
    let j = i;
    while (j < toks.length) {
      const t = toks[j]!;
      if (run.length > 0 && !joinable(question.slice(run[run.length - 1]!.end, t.start))) break;
      // Taking any product code, a capitalised code word ("ZX" of "ZX-900") may begin a name too.
      const codeWord = anyCode && /^\p{Lu}{2,4}$/u.test(t.raw);
      const usable = t.kind === 'word' && !covered(t) && !vendors.has(t.norm) && !isStopword(t.norm) && (nameWords.has(t.norm) || /\d/.test(t.norm) || codeWord);
      if (!usable) break;
      run.push(t);
      j++;
    }
    // Trim trailing series words: the name ends at its last code ("ROCK 9X board" -> "ROCK 9X").
    while (run.length > 0 && !/\d/.test(run[run.length - 1]!.norm)) run.pop();
    if (run.length > 0) {
      const key = run.map((t) => t.norm).join('');
      const text = question.slice(run[0]!.start, run[run.length - 1]!.end);
      const code = anyCode && writtenAsOneCode(run, question) && looksLikeProductCode(key, run, keys) && (codes === 'any' || (key.match(/\p{N}/gu) ?? []).length >= PRODUCT_DIGITS);
      const kind = looksLikeUnknownModel(key, run, keys) ? 'sibling' : code ? 'code' : null;
      if (kind && vocabulary.lookup(text) === null) out.push({ text, kind, key, start: run[0]!.start, end: run[run.length - 1]!.end });
    }
    i = Math.max(j, i + 1);
  }
  // Only for a question naming no model (a note before the answer): in a follow-up a setting
  // written so ("Picture Mode 2") would switch away from the kept model.
  if (codes === 'product') {
    for (const g of namedGenerations(question, toks, known, vendors, keys)) if (!out.some((u) => u.start < g.end && u.end > g.start) && vocabulary.lookup(g.text) === null) out.push(g);
  }
  const members = [...unknownMembers(question, vocabulary, models, known, toks), ...unknownInFamilies(question, vocabulary, known, toks, keys, nameWords, vendors)];
  return [...out.filter((u) => !members.some((m) => u.start < m.end && u.end > m.start)), ...members];
}

/**
 * A mention read inside a longer name the library has no model for: a family name with a code
 * after it ("XIAO ESP32-C9" beside the XIAO ESP32-C5 and ESP32C3: the mention reads the family,
 * every member of it), or a short code with series words before it ("Galaxy Tab S7" beside the
 * Galaxy S7 and Galaxy Tab S6: the mention reads "S7" alone). The question would otherwise be
 * answered for a model it does not name without a word. Taken when the whole is shaped like the
 * library's models, as `findUnknownModels` takes a name outside any mention; units and technical
 * terms after a family ("XIAO ESP32 5V", "ESP32 GPIO2") are not part of it.
 */
function unknownInFamilies(
  question: string,
  vocabulary: ModelVocabulary,
  known: readonly { start: number; end: number }[],
  toks: readonly ModelToken[],
  keys: readonly { key: string; lead: string; shape: string }[],
  nameWords: ReadonlySet<string>,
  vendors: ReadonlySet<string>,
): UnknownModel[] {
  const out: UnknownModel[] = [];
  const covered = (t: ModelToken): boolean => known.some((o) => t.start < o.end && t.end > o.start);
  const spans = [...new Map(known.map((k) => [`${k.start}:${k.end}`, k])).values()];
  for (const k of spans) {
    let start = k.start;
    // Series words before the mention ("Galaxy Tab" of "Galaxy Tab S7").
    for (let i = toks.findIndex((t) => t.start >= k.start) - 1; i >= 0; i--) {
      const t = toks[i]!;
      if (!joinable(question.slice(t.end, start)) || t.kind !== 'word' || covered(t) || vendors.has(t.norm) || isStopword(t.norm) || !nameWords.has(t.norm)) break;
      start = t.start;
    }
    // Codes after a mention that names no model by itself ("-C9" of "XIAO ESP32-C9").
    let end = k.end;
    if (vocabulary.lookup(question.slice(k.start, k.end)) === null) {
      for (const t of toks) {
        if (t.start < end) continue;
        if (!joinable(question.slice(end, t.start))) break;
        if (t.kind !== 'word' || !isCodeToken(t.norm) || isUnitLike(t.norm) || isTechnicalTerm(t.norm) || covered(t)) break;
        end = t.end;
      }
    }
    if (start === k.start && end === k.end) continue;
    const text = question.slice(start, end);
    const all = toks.filter((t) => t.start >= start && t.end <= end);
    const key = askedKey(text, vocabulary).replace(/[^\p{L}\p{N}]/gu, '');
    if (vocabulary.lookup(text) === null && looksLikeUnknownModel(key, all, keys)) out.push({ text, kind: 'sibling', key, start, end, family: true });
  }
  return out;
}

/** A word of a product's name written in title case ("Raspberry", "Pi"). */
const TITLE_WORD = /^\p{Lu}\p{Ll}+$/u;
/** A generation number written apart after a product's name ("5" of "Raspberry Pi 5"). */
const GENERATION_NUMBER = /^\d{1,2}$/;
/**
 * Fewest title-case words before a generation number for them to name a product: one is as often
 * a setting, a step or a system ("Channel 5", "Step 2", "Windows 11"), which a manual may never
 * write with that number.
 */
const GENERATION_NAME_WORDS = 2;
/**
 * Words that make the number before them a count or a duration, not a generation ("hold the
 * Side Key 10 seconds", "press the Side Key 3 times"): general English, as `isUnitLike` is for
 * physical units.
 */
const COUNT_WORDS = new Set('s sec secs second seconds min mins minute minutes h hr hrs hour hours day days week weeks month months year years time times x'.split(' '));

/**
 * Products written as title-case words and a generation number apart ("Raspberry Pi 5", "Galaxy
 * Note 9"): no token of theirs mixes letters and digits, so `findUnknownModels` reads no code in
 * them, and a question about one was answered from manuals that only write its maker's other
 * products ("Raspberry Pi RP2040"). Taken as product codes; chat takes back those the library's
 * text mentions (`confirmUnknown`). Not in a question written in title case, where every word
 * looks like a name, nor before a unit ("Raspberry Pi 4 GB") or a count ("Side Key 3 times"),
 * nor for a family of the library's own models.
 */
function namedGenerations(
  question: string,
  toks: readonly ModelToken[],
  known: readonly { start: number; end: number }[],
  vendors: ReadonlySet<string>,
  keys: readonly { key: string }[],
): UnknownModel[] {
  const words = toks.filter((t) => /^\p{L}{2,}$/u.test(t.raw));
  const covered = (t: ModelToken): boolean => known.some((k) => t.start < k.end && t.end > k.start);
  const out: UnknownModel[] = [];
  for (let i = 1; i < toks.length; i++) {
    const n = toks[i]!;
    if (n.kind !== 'word' || !GENERATION_NUMBER.test(n.raw) || covered(n)) continue;
    const next = toks[i + 1];
    if (next && question.slice(n.end, next.start) === ' ' && (isUnitLike(n.norm + next.norm) || COUNT_WORDS.has(next.norm))) continue;
    let first = i;
    while (first > 0) {
      const t = toks[first - 1]!;
      if (t.kind !== 'word' || !TITLE_WORD.test(t.raw) || covered(t) || isStopword(t.norm) || question.slice(t.end, toks[first]!.start) !== ' ') break;
      first--;
    }
    const name = toks.slice(first, i);
    if (name.length < GENERATION_NAME_WORDS || name.every((t) => vendors.has(t.norm))) continue;
    // The question's other words: in title case too, the case says nothing.
    const rest = words.filter((t) => t.end <= name[0]!.start || t.start >= n.end);
    if (rest.filter((t) => TITLE_WORD.test(t.raw)).length * 2 > rest.length) continue;
    // A family of the library's models written in title case ("Radxa Rock 5") is no other product.
    const key = [...name, n].filter((t) => !vendors.has(t.norm)).map((t) => t.norm).join('');
    if (keys.some((k) => k.key.startsWith(key))) continue;
    out.push({ text: question.slice(name[0]!.start, n.end), kind: 'code', key, start: name[0]!.start, end: n.end });
  }
  return out;
}

/** Longest ending (in key characters) that makes one of the library's models another. */
const MAX_ENDING = 10;

/**
 * Endings that make one of the library's models another ("ROCK 5B" -> "ROCK 5B+", "ZERO 3" ->
 * "ZERO 3W", "Galaxy A71" -> "Galaxy A71 5G", "M5StickC" -> "M5StickC+"), learned from pairs of
 * its models' keys: what the library calls a member or a sibling, not a list of marketing words.
 */
function memberEndings(models: readonly ModelEntry[]): Set<string> {
  const out = new Set<string>();
  for (const a of models) {
    for (const b of models) {
      if (b.key.length > a.key.length && b.key.length - a.key.length <= MAX_ENDING && b.key.startsWith(a.key)) {
        const ending = b.key.slice(a.key.length);
        // A number alone ("ESP32-S2-DevKitC" -> "-1") is as often a count after a name ("ROCK 5B 2 GB").
        if (!/^\d+$/.test(ending)) out.add(ending);
      }
    }
  }
  return out;
}

/**
 * A known model written with one of the library's member endings, or such an ending and a
 * generation number, that together name a model it has no manual for ("M5StickC Plus2" or
 * "M5StickC Plus 2" beside M5StickC and M5StickC+, "Galaxy S10 5G" beside Galaxy A71 5G): the
 * mention alone would have the question answered for the shorter name without a word.
 */
function unknownMembers(question: string, vocabulary: ModelVocabulary, models: readonly ModelEntry[], known: readonly { start: number; end: number }[], toks: readonly ModelToken[]): UnknownModel[] {
  const out: UnknownModel[] = [];
  let endings: Set<string> | null = null;
  for (const k of known) {
    const at = toks.findIndex((t) => t.start >= k.end);
    const t = toks[at];
    if (!t || t.kind !== 'word' || isStopword(t.norm) || !joinable(question.slice(k.end, t.start))) continue;
    if (known.some((o) => t.start < o.end && t.end > o.start)) continue;
    endings ??= memberEndings(models);
    // "Plus2" is the ending "+" with a generation number.
    const norm = t.norm.replace(/^plus(?=\d)/, '+');
    const generation = /^(\D+)\d{1,2}$/.exec(norm);
    const ownKey = nameKey(question.slice(k.start, k.end));
    const next = toks[at + 1];
    // Where the name ends: the question ends, or punctuation follows ("the M5StickC Plus 2?"), not
    // a further word ("ROCK 5B+ 2 GB", "M5StickC+ 2 buttons", "ROCK 4C+ 2 HDMI outputs").
    const nameEnds = !next || /[?!.,;:)]/.test(question.slice(t.end, next.start));
    const extends_ =
      // A word ending is written as a name's part, capitalised ("Galaxy S10 Edge", not the "edge
      // lighting" of "Galaxy S10 edge lighting"), or glued to a number ("Plus2").
      (endings.has(norm) && (/^\p{Lu}/u.test(t.raw) || /\d/.test(norm)) && !(next && isUnitLike(norm + next.norm))) ||
      (generation !== null && endings.has(generation[1]!)) ||
      // "M5StickC Plus 2": a lone digit after a name that ends with an ending, where the name ends.
      (/^\d$/.test(norm) && nameEnds && [...endings].some((e) => /\D$/.test(e) && ownKey.endsWith(e)));
    if (!extends_) continue;
    const text = question.slice(k.start, t.end);
    if (vocabulary.lookup(text) !== null) continue;
    const base = longestBeginning(text, vocabulary, models) ?? vocabulary.lookup(question.slice(k.start, k.end));
    out.push({ text, kind: 'sibling', key: nameKey(text).replace(/[^\p{L}\p{N}]/gu, ''), start: k.start, end: t.end, ...(base ? { extends: base.name } : {}) });
  }
  return out;
}

/**
 * The key of an asked name as the library's keys are written: vendor words dropped, "plus" glued
 * to a generation number read as the "+" ending ("M5StickC Plus2" -> "m5stickc+2", as "M5StickC
 * Plus 2" already is), so it compares with "m5stickc+" rather than only with "m5stickc".
 */
export function askedKey(name: string, vocabulary: ModelVocabulary): string {
  const vendors = vocabulary.vendorWordSet();
  return modelTokens(name)
    .filter((t) => t.kind === 'word' && !vendors.has(t.norm))
    .map((t) => t.norm.replace(/^plus(?=\d)/, '+'))
    .join('');
}

/**
 * The library model with the longest key that `name` begins with ("M5StickC Plus2" -> the
 * M5StickC+, not the M5StickC its mention reads): the model it extends.
 */
function longestBeginning(name: string, vocabulary: ModelVocabulary, models: readonly ModelEntry[]): ModelEntry | null {
  const key = askedKey(name, vocabulary);
  let best: ModelEntry | null = null;
  for (const m of models) if (m.key.length < key.length && key.startsWith(m.key) && (!best || m.key.length > best.key.length)) best = m;
  return best;
}

function looksLikeUnknownModel(key: string, run: readonly ModelToken[], keys: readonly { key: string; lead: string; shape: string }[]): boolean {
  if (!/\p{L}/u.test(key) || !/\p{N}/u.test(key)) return false;
  if (run.length === 1 && (!isCodeToken(key) || isUnitLike(key))) return false;
  if (isTechnicalTerm(key)) return false;
  const l = lead(key);
  if (l === '') return false;
  const s = shape(key);
  // A family or series name ("esp32s3", "rock5") is the beginning of a known model's key.
  if (keys.some((k) => k.key.startsWith(key))) return false;
  // Same leading letters as a product line and a shape that line uses ("e99c" ~ "e52c"), or
  // begins with ("xiaonrf54l15" ~ "xiaonrf52840": a name no mention reads, since it is not one of them).
  return keys.some((k) => k.lead === l && (k.shape === s || (s.length >= 2 && (k.shape.startsWith(s) || s.startsWith(k.shape)))));
}

/** Fewest letters and digits of a product code that names no product line of the library. */
const PRODUCT_CODE_CHARS = 4;

/**
 * A product code of any product line ("ZX-900", "QX7"), for a question naming no model of the
 * library: a name shaped like none of its models is still another product (in a follow-up, a
 * switch away from the model the conversation had). Units ("8GB"), interfaces ("USB3") and the
 * start of a known model's key stay out; chips the manuals mention are taken back by `confirmUnknown`.
 */
function looksLikeProductCode(key: string, run: readonly ModelToken[], keys: readonly { key: string }[]): boolean {
  if (key.length < PRODUCT_CODE_CHARS || !/^\p{L}/u.test(key) || !/\p{N}/u.test(key) || isTechnicalTerm(key)) return false;
  if (run.some((t) => isUnitLike(t.norm))) return false;
  return !keys.some((k) => k.key.startsWith(key));
}

/**
 * A product code written as one: a token mixing letters and digits ("QX70") or parts joined by
 * hyphens ("ZX-900"). A capitalised word, a space and a number ("SSD 2280", "LED 2", "COM 1",
 * "UHS 1") is a part, a port or a standard named in the kept model's manual, not another product.
 */
function writtenAsOneCode(run: readonly ModelToken[], question: string): boolean {
  if (run.length === 1) return /\p{L}/u.test(run[0]!.norm) && /\p{N}/u.test(run[0]!.norm);
  return run.every((t, k) => k === 0 || /^-$/.test(question.slice(run[k - 1]!.end, t.start)));
}
