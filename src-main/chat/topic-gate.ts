import { isStopword } from '../enrich/text.util';
import { stem } from './sentences';

/**
 * Whether a question is about something the library never writes. A question that names none of
 * the library's models but names something else ("safe mode a51", "the PVR", "Wireless
 * PowerShare", "Samsung Pay"), or whose topic is mostly words no passage holds ("take a
 * screenshot" in a library of datasheets), asks about another product: its other words ("mode",
 * "set up", "take") are found in any manual, and quoting the lines that share them answers a
 * question that was not asked. Learned from the library's passage statistics at each question,
 * so no list of products or features is needed.
 */

/** A word of the question as the passage statistics count words, where it starts, and its stem. */
interface QuestionWord {
  raw: string;
  start: number;
  stem: string;
}

/** Words as the passage statistics split them (`passage-words.ts`): letters and digits, a trailing `+` kept. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}+]*/gu;

/**
 * Words joined by hyphens ("Wi-Fi", "quad-core"): one topic word where the question's topic reads
 * them whole (`terms`). An underscore ends a word, as in the passage statistics: an identifier's
 * parts ("Vdd11", "aon") are judged each, as the coverage gate counts them (`topicWordGroups`).
 */
const HYPHENED = /[\p{L}\p{N}][\p{L}\p{N}+]*(?:-[\p{L}\p{N}][\p{L}\p{N}+]*)*/gu;

/** What joins a compound's parts: a hyphen or an underscore, where `terms` splits a compound and the passage statistics end a word. */
const JOINER = /[-_]+/;

/**
 * The words a compound's stem ("wi-fi", "quad-core", "wake_up") is made of, as the passage
 * statistics count them (split at its hyphens and underscores, 2 characters or more, no
 * stopwords): the statistics never hold the compound itself. A word without a joiner is its own
 * one part.
 */
export function compoundParts(wordStem: string): string[] {
  if (!JOINER.test(wordStem)) return [wordStem];
  return wordStem
    .split(JOINER)
    .filter((p) => p.length >= 2 && !isStopword(p))
    .map((p) => stem(p));
}

/** Whether the word opens the question or a sentence of it, or follows a colon, a bracket or a quote mark. */
function opensSentence(question: string, start: number): boolean {
  const before = question.slice(0, start).trimEnd();
  return before === '' || /[.!?:;"'“‘([]$/u.test(before);
}

/**
 * Whether the word is written as a name: letters and digits ("A51", "I2C"), a capital after its
 * first letter ("PVR", "PowerShare") in a question not written in capitals throughout, or a
 * capital first letter inside a sentence ("Bixby") in a question not written in title case
 * (there the case says nothing).
 */
function writtenAsName(w: QuestionWord, question: string, titleCased: boolean): boolean {
  if (/\p{N}/u.test(w.raw)) return true;
  if (/\p{L}\p{Lu}/u.test(w.raw)) return /\p{Ll}/u.test(question);
  return !titleCased && /^\p{Lu}/u.test(w.raw) && !opensSentence(question, w.start);
}

/** Share of a question's words inside sentences written with a capital above which case says nothing of names. */
const TITLE_CASE_SHARE = 0.5;

/** What `unsaidTopic` needs of the library and of the question's reading. */
export interface TopicEvidence {
  /** The question's topic words, stemmed (`topicTerms`: model names and vendor words left out). */
  topic: readonly string[];
  /** In how many of the library's passages a stem occurs; undefined for a word that must not be judged. */
  passageFrequency: (stem: string) => number | undefined;
  /** The thesaurus, as chat stems its words: a word the library writes otherwise is not unsaid. */
  synonyms: ReadonlyMap<string, readonly string[]>;
  /** Stems of the words a question asks with ("fix", "meaning", "steps"), never its topic. */
  asking: ReadonlySet<string>;
  /** The library's words (lowercase), to tell a misspelling of one ("conect") from a word it never writes. */
  libraryWords?: () => Iterable<string>;
  /** Words (lowercase) the answer says otherwise (a product code no manual mentions): counted, never unsaid. */
  noted?: ReadonlySet<string>;
}

/**
 * The question's topic words (`topicTerms`) as the coverage gate counts them: a compound and the
 * parts `terms` adds to it ("wi-fi", "wi", "fi", so that "core" meets "quad-core") are one word,
 * held by a passage holding any of them. Counted apart, "Wi-Fi" was three words of the question
 * and a passage writing it alone held three. Only hyphened compounds: one joined by underscores
 * is an identifier ("Vdd11_aon", "wake_up") that a passage writes only where it is about it, and
 * weighing it as its parts keeps such passages over the gate. Grouped with its parts (as
 * `compoundParts` reads them), pdf-dev q026 ("... in PDS7 sleep with Vdd11_aon at 1.1 V?") lost
 * its first line, the gold row fourth among the same table's rows, and no question gained;
 * grouped as `terms` adds parts, stopwords too, m5stack m048 ("first-generation") lost its first
 * line as well (39e424c).
 */
export function topicWordGroups(topic: readonly string[]): string[][] {
  const isPart = (t: string): boolean => topic.some((c) => c !== t && c.includes('-') && compoundParts(c).includes(t));
  return topic.filter((t) => !isPart(t)).map((t) => [t, ...(t.includes('-') ? compoundParts(t).filter((p) => p !== t && topic.includes(p)) : [])]);
}

/** The question's words the library never writes, and whether the question is about them. */
export interface UnsaidTopic {
  /** Topic words no passage of the library holds, as written in the question. */
  unsaid: string[];
  /** Those written as names (`writtenAsName`). */
  names: string[];
  /**
   * The question's topic words the statistics count (stems; a compound once), unsaid ones
   * included: never asking words, stopwords or words glued to a number, nor a word the library
   * writes only as another of them (the thesaurus's "pin" for "header" in "header pins").
   */
  counted: string[];
}

/**
 * The question's topic words that no passage of the library holds: words the passage statistics
 * count (not stopwords, not glued to a number before them: "x1200" of "1600x1200" is counted
 * whole), not asking words, and no thesaurus word of theirs in any passage either.
 */
export function unsaidTopic(question: string, evidence: TopicEvidence): UnsaidTopic {
  const topic = new Set(evidence.topic);
  const text = question.normalize('NFKC');
  // A compound the topic reads whole ("Wi-Fi") is one word, not its parts ("Wi", "Fi") as well:
  // counted twice, it would weigh as two words of the question.
  const words = [...text.matchAll(HYPHENED)].flatMap((m): QuestionWord[] => {
    const whole = { raw: m[0], start: m.index, stem: stem(m[0].toLowerCase()) };
    if (!m[0].includes('-') || topic.has(whole.stem)) return [whole];
    return [...m[0].matchAll(WORD)].map((p) => ({ raw: p[0], start: m.index + p.index, stem: stem(p[0].toLowerCase()) }));
  });
  // Words inside sentences ("I" is a capital anywhere): how the question writes its common words.
  const inner = words.filter((w) => /^\p{L}\p{L}/u.test(w.raw) && !opensSentence(text, w.start));
  const titleCased = inner.filter((w) => /^\p{Lu}/u.test(w.raw)).length > inner.length * TITLE_CASE_SHARE;
  const counted = new Set<string>();
  const unsaid: string[] = [];
  const names: string[] = [];
  for (const w of words) {
    if (!/^\p{L}/u.test(w.raw) || w.raw.length < 2 || isStopword(w.raw.toLowerCase()) || !topic.has(w.stem) || evidence.asking.has(w.stem)) continue;
    counted.add(w.stem);
    if (evidence.noted?.has(w.raw.toLowerCase()) || writtenApart(w.stem, evidence.passageFrequency)) continue;
    // A compound may be written closed ("WiFi" for "Wi-Fi"), and the thesaurus knows it so.
    const closed = compoundParts(w.stem).join('');
    if (closed !== w.stem && evidence.passageFrequency(closed) !== 0) continue;
    const otherwise = [...new Set([w.stem, closed])].flatMap((s) => evidence.synonyms.get(s) ?? []).filter((o) => (evidence.passageFrequency(o) ?? 0) > 0);
    if (otherwise.length > 0) {
      // Written only as a word the question says beside it ("header pins", the library's "pin"):
      // that word again, counted once, as a compound is with its parts.
      if (otherwise.every((o) => topic.has(o) && !evidence.asking.has(o))) counted.delete(w.stem);
      continue;
    }
    const name = writtenAsName(w, text, titleCased);
    // Not a name: "PowerShare" is a feature of its own, not power and sharing.
    if (!name && closedCompound(w.raw.toLowerCase(), evidence.passageFrequency)) continue;
    // A name is not of a family the library writes in another form ("responding" / "response").
    if (evidence.libraryWords && writtenOtherwise(w.raw.toLowerCase(), w.stem, !name, evidence.libraryWords())) continue;
    if (unsaid.includes(w.raw)) continue;
    unsaid.push(w.raw);
    if (name) names.push(w.raw);
  }
  return { unsaid, names, counted: [...counted] };
}

/**
 * Whether the passages hold a word, a compound every one of its parts (the statistics read
 * "Wi-Fi" as "wi" and "fi"), or the word must not be judged (`passageFrequency` undefined).
 */
function writtenApart(wordStem: string, passageFrequency: (stem: string) => number | undefined): boolean {
  return compoundParts(wordStem).every((p) => passageFrequency(p) !== 0);
}

/** Fewest letters of each part of a closed compound (`closedCompound`). */
const COMPOUND_PART = 3;

/**
 * Whether a word is two words the library writes apart, run together ("soundbar" for "sound bar",
 * "wallmount", "touchscreen"): the library writes about it, spelled otherwise.
 */
function closedCompound(word: string, passageFrequency: (stem: string) => number | undefined): boolean {
  if (!/^\p{L}+$/u.test(word)) return false;
  for (let i = COMPOUND_PART; i <= word.length - COMPOUND_PART; i++) {
    if ((passageFrequency(stem(word.slice(0, i))) ?? 0) > 0 && (passageFrequency(stem(word.slice(i))) ?? 0) > 0) return true;
  }
  return false;
}

/** Fewest letters of a word read as a misspelling of a library word one edit away (shorter words differ by one letter as often as not). */
export const MISSPELLING_CHARS = 5;

/** The rows of a QWERTY keyboard: a letter typed for another is one beside it. */
const KEY_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Vowels: one written for another is a slip of spelling ("seperate", "brightniss", "calender"). */
const VOWELS = 'aeiouy';
/**
 * Fewest letters of a word whose vowel changed for another reads as a slip: shorter words are
 * other words as often ("toner" / "tuner", "liter" / "later").
 */
const VOWEL_SLIP_CHARS = 7;

/**
 * Whether a letter written for another reads as a slip: keys side by side or diagonally adjacent
 * on a QWERTY keyboard, one vowel for another in a word of `length` at least `VOWEL_SLIP_CHARS`
 * (spelled by ear), or one letter with and without an accent ("menü" / "menu"). A consonant for
 * a far consonant makes another word as often as a slip ("night" / "light", "charging" /
 * "changing").
 */
function slipOf(a: string, b: string, length: number): boolean {
  const base = (c: string): string => c.normalize('NFD').replace(/\p{M}/gu, '');
  const x = base(a);
  const y = base(b);
  if (x === y || (length >= VOWEL_SLIP_CHARS && VOWELS.includes(x) && VOWELS.includes(y))) return true;
  const at = (c: string): [number, number] | null => {
    for (let r = 0; r < KEY_ROWS.length; r++) {
      const col = KEY_ROWS[r]!.indexOf(c);
      // Each row sits about half a key right of the one above.
      if (col >= 0) return [r, col + r * 0.5];
    }
    return null;
  };
  const pa = at(x);
  const pb = at(y);
  if (!pa || !pb) return false;
  return Math.abs(pa[0] - pb[0]) <= 1 && Math.abs(pa[1] - pb[1]) <= 1;
}

/**
 * Whether `a` and `b` are one edit apart as a slip of typing: a letter added or dropped (not the
 * first), two neighbours swapped ("conect" / "connect", "serach" / "search"), or a letter changed
 * for a key beside it ("timer" / "tiner") or a vowel for a vowel ("seperate"), as `slipOf` reads it. A
 * consonant changed for a far one makes another word as often as a slip ("night" / "light",
 * "header" / "reader"): a word the library never writes.
 */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return slipOf(a[i]!, b[i]!, a.length);
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // A first letter dropped or added makes another word as often as a slip ("solder" / "older",
  // "scan" / "can", "plug" / "lug"), and few misspellings get the first letter wrong (studies of
  // collected misspellings: Yannakoudakis & Fawthrop 1983, Pollock & Zamora 1984). A doubled
  // first letter ("sselect") differs at the second and stays a slip.
  if (i === 0) return false;
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Fewest letters of a stem read as one family with a stem differing in its last letter ("signag" of "signage" is no "signal"). */
const FAMILY_STEM = 7;

/**
 * Whether `word` (lower case) is `written`, a word the library writes (its term statistics' words:
 * lower case, singular), or a slip of typing of it (`oneEditApart`), both long enough to be read
 * as a misspelling. A code is never a slip: one character from another ("core2" / "core3") it is
 * another product. The topic gate and the reading of a word after a model's name (`goesOnWithName`) ask this of
 * every word of the library they walk.
 */
export function writtenOrSlipOf(word: string, written: string): boolean {
  if (word === written) return true;
  return word.length >= MISSPELLING_CHARS && written.length >= MISSPELLING_CHARS && !/\p{N}/u.test(word) && oneEditApart(word, written);
}

/**
 * Whether the library writes `word` otherwise, in one walk over its words (a library's vocabulary
 * runs to tens of thousands): the word itself (its term statistics also count words the passage
 * statistics leave out, units) or a slip of typing of one (`writtenOrSlipOf`); where `family`, a
 * word whose stem differs from `wordStem` only in its last letter ("respons" of "response" for
 * "respond" of "responding"): the stemmer folds inflections, not a verb and its noun. Only stems
 * of the same length, equal up to their last letter; only the library words that begin like it
 * are stemmed.
 */
function writtenOtherwise(word: string, wordStem: string, family: boolean, library: Iterable<string>): boolean {
  const ofFamily = family && wordStem.length >= FAMILY_STEM && /^\p{L}+$/u.test(wordStem);
  const root = wordStem.slice(0, -1);
  for (const w of library) {
    if (writtenOrSlipOf(word, w)) return true;
    if (ofFamily && w.startsWith(root)) {
      const s = stem(w);
      if (s.length === wordStem.length && s.startsWith(root) && s !== wordStem) return true;
    }
  }
  return false;
}

/** How many topic words a name weighs: what a question names is its subject, the rest says what about it. */
const NAME_WEIGHT = 2;

/**
 * The words to name when the question is about something the library never writes, else none:
 * the words no passage holds make half its topic or more, a name weighing as two words ("safe
 * mode a51": "a51"; "How do I take a screenshot?": "screenshot", while "take" is in many
 * manuals). A name among many words the library does hold ("absolute maximum voltage on the USB
 * bus supply (VBUS) pin") is the library's topic written another way.
 */
export function offLibrary(found: UnsaidTopic): string[] {
  const weight = found.unsaid.length + (NAME_WEIGHT - 1) * found.names.length;
  return found.unsaid.length > 0 && weight * 2 >= found.counted.length ? found.unsaid : [];
}
