/**
 * Small text helpers shared by the enrichment stages: turning chunk Markdown into plain prose,
 * content-word tokens for TF-IDF and lexical similarity, and the token stream model names are
 * matched on.
 *
 * Longer than 500 lines for now: `plainText`'s rewrites, with the reasons each shortcut gives the
 * same text, stand beside the tokenizers; moving `plainText` to a file of its own is left to a
 * change of its own.
 */

import { MD_IMAGE, MD_LINK } from '../core/text';

const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can cannot could did do does doing down during each either etc few for from further ' +
    'get gets had has have having he her here hers him his how i if in into is it its itself just may me ' +
    'might more most must my no nor not now of on once only or other our out over own per please same ' +
    'see shall she should so some such than that the their them then there these they this those through to ' +
    'too under until up upon us use used uses using very via was we were what when where which while who ' +
    'whom why will with within without would yes you your e.g i.e. eg ie one two three first second new ' +
    'following follow follows shown show shows below above click step steps need needs want make ' +
    'like well able support supports supported'
  ).split(/\s+/),
);

/** True for English function words and filler that carry no topic. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/**
 * Chunk Markdown to readable prose: front matter, code, HTML tags, image/link syntax, table pipes
 * and emphasis removed; whitespace collapsed. Offsets are not preserved (for scoring only).
 */
export function plainText(markdown: string): string {
  let t = markdown;
  for (const [needles, rewrite] of PLAIN_STEPS) {
    // A rewrite that needs a literal the text lacks cannot match: skipping it saves a pass.
    if (needles.length === 0 || needles.some((n) => t.includes(n))) t = rewrite(t);
  }
  return t.trim();
}

/** `re`'s matches in a text replaced by `to` (a `replace` pattern, `$1` its first group). */
function replacing(re: RegExp, to: string): (t: string) => string {
  return (t) => t.replace(re, to);
}

/**
 * The rewrites of `plainText`, in order, each with the literals (any one of) a match must contain.
 * Each step is checked against the text as the steps before it left it.
 */
const PLAIN_STEPS: readonly (readonly [needles: readonly string[], rewrite: (t: string) => string])[] = [
  [['---'], replacing(/^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, ' ')],
  [['```'], replacing(/```[\s\S]*?(?:```|$)/g, ' ')],
  [['<!--'], replacing(/<!--[\s\S]*?-->/g, ' ')],
  [['!['], replacing(MD_IMAGE, '$1')],
  [[']('], replacing(MD_LINK, '$1')],
  [['://'], replacing(/https?:\/\/[^\s)"'<>]+/g, ' ')],
  [['@'], dropAddresses],
  // Tab labels name the variant a passage is for (<TabItem value="ROCK 5B+">): keep them.
  // (A match holds `label=` or `value=`: most texts with tags have neither.)
  [['label=', 'value='], replacing(/(?<!\\)<(?=[A-Za-z])[^<>]*?\b(?:label|value)=["']([^"']*)["'][^<>]*>/g, ' $1 ')],
  // A tag starts with a name, `/`, `!`, `?` or `>` (a JSX fragment) and holds no other `<`; a `<`
  // that starts none ("Sleep mode: \<200ms", "Angle: < 100°") is text, and taken for a tag it
  // dropped everything up to the next `>`, in a whole document up to a page of its text.
  [['<'], replacing(/(?<!\\)<(?=[A-Za-z/!?>])[^<>]*>/g, ' ')],
  // A match holds "import" or "export", so "mport" or "xport": rarer first letters than "i" and "e",
  // which V8's substring search stops at (less than half the time of looking for the words).
  [['mport', 'xport'], replacing(/^\s*(?:import|export)\s.*$/gm, ' ')],
  [['/'], dropPaths],
  [['---'], dropRuleLines],
  // The last rewrites were, in this order: `[|*`#>~]+` (table pipes, emphasis, code ticks, headings,
  // quotes, strike-through), the underscores below, entities (`&[a-z]+;|&#\d+;`, flags gi), and every
  // run of whitespace made one space. Each turns what it removes into spaces and the last collapses
  // them, so the text's kept characters and their order are all that matters; the removals are now
  // done first and the markup characters go with the whitespace in one pass (one pass over every
  // text instead of two). Exact because whether a character is kept does not depend on the order:
  // - an underscore run's fate depends on the code points beside it being letters or numbers, and
  //   `|*`#>~`, spaces and entities' `&` and `;` are none of them, whether removed or not;
  // - an entity holds no markup character, underscore or whitespace, and the removals write spaces
  //   (never join two pieces of text), so the same entities are found before as after them;
  //   `&#\d+;` never matched (the markup pass had made its `#` a space) and is left out.
  // Emphasis underscores go, identifiers keep theirs ("GPIO3_A4", "SARADC_IN4").
  [['_'], replacing(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, ' ')],
  [['&'], replacing(/&[a-z]+;/gi, ' ')],
  // Every run of whitespace and `|*`#>~` becomes one space; written as the runs that are not one space
  // already (most are), which `replace` then leaves alone: about half the time of `/[\s|*`#>~]+/g`.
  [[], replacing(/ [\s|*`#>~]+|(?:[^\S ]|[|*`#>~])[\s|*`#>~]*/g, ' ')],
];

/**
 * `/(?<!\S)[^\s@]+@\S+/g` -> ' ' (mail addresses, `user@host`) found from the `@`s: the pattern tried every
 * token of the text. A match starts a token (the look-behind: at the start or after whitespace)
 * and, as `[^\s@]+@` must follow at once, only one that does not start with `@`; `[^\s@]+` then
 * reaches the token's first `@`, and `\S+` needs one more character of the token and takes the
 * rest of it. So the pattern replaces each whitespace-delimited token (`\S`: no `\s` code unit)
 * whose first `@` is neither its first nor its last character, and nothing else.
 */
function dropAddresses(t: string): string {
  let out = '';
  let kept = 0;
  for (let at = t.indexOf('@'); at >= 0; ) {
    // `at` is the first `@` of its token: the search goes on after the token.
    let from = at;
    while (from > 0 && !isSpaceUnit(t.charCodeAt(from - 1))) from--;
    let end = at + 1;
    while (end < t.length && !isSpaceUnit(t.charCodeAt(end))) end++;
    if (from < at && end > at + 1) {
      out += `${t.slice(kept, from)} `;
      kept = end;
    }
    at = t.indexOf('@', end);
  }
  return kept === 0 ? t : out + t.slice(kept);
}

/**
 * `(?:^|\s)\.{0,2}\/\S*` (flag g) -> ' ' (paths: "/dev/ttyUSB0", "./flash.sh", "../tools") found from the `/`s:
 * the pattern tried every whitespace character of the text. A match is the rest of a token from a
 * `/` that has at most two dots and then whitespace (taken too) or the text's start before it: with
 * three dots before a `/`, the character before the last two is a dot. A token's later `/`s are
 * passed over with it.
 */
function dropPaths(t: string): string {
  let out = '';
  let kept = 0;
  for (let at = t.indexOf('/'); at >= 0; ) {
    let from = at;
    while (from > 0 && at - from < 2 && t.charCodeAt(from - 1) === 46) from--;
    if (from > 0 && isSpaceUnit(t.charCodeAt(from - 1))) from--;
    else if (from > 0) {
      at = t.indexOf('/', at + 1);
      continue;
    }
    let end = at + 1;
    while (end < t.length && !isSpaceUnit(t.charCodeAt(end))) end++;
    out += `${t.slice(kept, from)} `;
    kept = end;
    at = t.indexOf('/', end);
  }
  return kept === 0 ? t : out + t.slice(kept);
}

/**
 * `/^[ \t]*\|?[ \t]*:?-{3,}.*$/gm` -> ' ' (table rules, "| --- |", and other lines of dashes) found from
 * the `---`s: the pattern tried every line. A line is replaced (not its line break) when it starts
 * with `[ \t]*\|?[ \t]*:?` and then three dashes; none of those characters is a dash, so the first
 * `---` of a line is where they must end, and a line whose first `---` does not qualify has no
 * match. Lines end at `\n`, `\r`, U+2028 and U+2029 (the `m` flag's, and what `.` does not match).
 */
function dropRuleLines(t: string): string {
  let out = '';
  let kept = -1;
  for (let at = t.indexOf('---'); at >= 0; ) {
    let from = at;
    while (from > 0 && !isLineBreak(t.charCodeAt(from - 1))) from--;
    let end = at + 3;
    while (end < t.length && !isLineBreak(t.charCodeAt(end))) end++;
    let i = from;
    while (i < at && isBlankUnit(t.charCodeAt(i))) i++;
    if (i < at && t.charCodeAt(i) === 124) i++;
    while (i < at && isBlankUnit(t.charCodeAt(i))) i++;
    if (i < at && t.charCodeAt(i) === 58) i++;
    if (i === at) {
      out += `${t.slice(kept < 0 ? 0 : kept, from)} `;
      kept = end;
    }
    at = t.indexOf('---', end);
  }
  return kept < 0 ? t : out + t.slice(kept);
}

/** A space or a tab. */
function isBlankUnit(c: number): boolean {
  return c === 32 || c === 9;
}

/** A line terminator of JS patterns: `\n`, `\r`, U+2028, U+2029. */
function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

/** `\s` beyond ASCII: no-break, Ogham, typographic (U+2000-200A), line/paragraph separator, narrow, math and ideographic spaces, BOM. */
const WIDE_SPACES = new Set([0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
for (let c = 0x2000; c <= 0x200a; c++) WIDE_SPACES.add(c);

/** Whether the code unit `c` is whitespace (`\s` without the `u` flag, `trim()`'s set). */
function isSpaceUnit(c: number): boolean {
  return c < 128 ? c === 32 || (c >= 9 && c <= 13) : WIDE_SPACES.has(c);
}

/** Crude English singular for TF-IDF terms ("supplies" -> "supply", "ports" -> "port"). */
export function singular(word: string): string {
  if (word.length <= 3 || /ss$|us$|is$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** What a code point is to the word patterns here: a letter (`\p{L}`), a number (`\p{N}`) or neither. */
const LETTER = 1;
const NUMBER = 2;
const OTHER = 3;
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
/** `charClass`'s answers for the Basic Multilingual Plane beyond ASCII: 0 not asked yet. */
const bmpClass = new Uint8Array(0x10000);

function classOfCodePoint(c: number): number {
  const s = String.fromCodePoint(c);
  return IS_LETTER.test(s) ? LETTER : IS_NUMBER.test(s) ? NUMBER : OTHER;
}

/** `LETTER`, `NUMBER` or neither (0) for the code point `c`; ASCII by arithmetic. */
export function charClass(c: number): number {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) ? LETTER : c >= 48 && c <= 57 ? NUMBER : 0;
  if (c > 0xffff) {
    const k = classOfCodePoint(c);
    return k === OTHER ? 0 : k;
  }
  let known = bmpClass[c]!;
  if (known === 0) bmpClass[c] = known = classOfCodePoint(c);
  return known === OTHER ? 0 : known;
}

/**
 * Values of the words seen, found by a word's place in a text (`find`) without cutting it out:
 * the tokenizers here read every word of every learned document and chunk, and most words
 * recur, so a lookup by a string made for the purpose (and hashed again) was most of their time
 * and garbage. The caller hashes the word's code units as it reads them (`hashUnits`, from 0).
 * Bounded; dropped wholesale when full.
 */
export class WordTable<T> {
  private slots: Int32Array;
  private readonly words: string[] = [];
  private readonly values: T[] = [];

  /** `max`: words kept before the table is emptied. */
  constructor(private readonly max: number) {
    // Open addressing at most half full.
    let size = 1;
    while (size < max * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
  }

  /** The value of the word `text.slice(start, end)` with hash `h`, undefined when not kept. */
  find(text: string, start: number, end: number, h: number): T | undefined {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let k = spread(h) & mask; ; k = (k + 1) & mask) {
      const at = this.slots[k]!;
      if (at < 0) return undefined;
      const w = this.words[at]!;
      if (w.length === len && text.startsWith(w, start)) return this.values[at];
    }
  }

  /** Keeps `value` for `word` (hash `h`, not kept yet); returns `value`. */
  add(word: string, h: number, value: T): T {
    if (this.words.length >= this.max) {
      this.slots.fill(-1);
      this.words.length = 0;
      this.values.length = 0;
    }
    const mask = this.slots.length - 1;
    let k = spread(h) & mask;
    while (this.slots[k]! >= 0) k = (k + 1) & mask;
    this.slots[k] = this.words.length;
    this.words.push(word);
    this.values.push(value);
    return value;
  }
}

/**
 * A word's hash with its bits mixed (MurmurHash3's finalizer): the low bits of `h * 31 + c` of
 * short words differ little, and the table's slots are the low bits.
 */
function spread(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Words kept in `wordTerms` before it is emptied. */
const TERM_CACHE = 50_000;

/** The content term of a matched word of 2 or more characters: its singular, null for a stopword. */
function termOfWord(w: string): string | null {
  return isStopword(w) ? null : singular(w);
}

/**
 * Content terms of the words seen (`termOfWord`'s answers), found in place: the same words recur
 * in every chunk of a library, so each is looked at once.
 */
const wordTerms = new WordTable<string | null>(TERM_CACHE);

/**
 * How content terms read words: `[\p{L}][\p{L}\p{N}+]*(?:[.-][\p{L}\p{N}]+)*` (a letter first; "usb-c",
 * "v1.2" stay one word). The pattern never backtracks (each part is greedy and nothing follows it),
 * so the first match at each place is what `scanTableWords` reads.
 */
const CONTENT_WORDS: TableWordRule = { letterFirst: true, joinDotted: true };

/** Lowercase content words (letters first, >= 2 chars, no stopwords), singularized. */
export function contentTerms(text: string): string[] {
  return tableWordList(text.toLowerCase(), wordTerms, termOfWord, CONTENT_WORDS);
}

/**
 * `new Set(contentTerms(text))` without the list of every occurrence: learning keeps only a
 * document's distinct terms, and that list (one entry per word of the whole document) was
 * garbage as soon as the set was made.
 */
export function distinctContentTerms(text: string): Set<string> {
  return tableWordSet(text.toLowerCase(), wordTerms, termOfWord, CONTENT_WORDS);
}

/**
 * Which words `scanTableWords` reads, beyond a run of `[\p{L}\p{N}+]` (its first character a
 * letter or digit) of at least 2 code units.
 */
export interface TableWordRule {
  /** The run starts with a letter (`\p{L}`); a digit before it is passed over. */
  readonly letterFirst: boolean;
  /** `(?:[.-][\p{L}\p{N}]+)*` continues the run: a dot or hyphen joins when a letter or digit follows it. */
  readonly joinDotted: boolean;
}

/**
 * Puts the value of each word of `lower` (a text already in the form its words are kept in, e.g.
 * lower case) in `list` in order, or else in `set`, passing over words whose value is null: each
 * word is read code point by code point as `rule` says and found in `table` by its place in the
 * text, cut out and given its value (`valueOf`) only the first time it is seen. The term tokenizers read every
 * learned document and every chunk: a pattern's match arrays (every word cut out as a string,
 * then hashed again for a map) were most of their time and garbage. A list or set, not a callback:
 * with a `take` callback per caller this scanner, shared by both tokenizers, was ~5% slower than
 * their own loops had been (in-process A/B, session 30); pushing in place measured as fast as those.
 */
function scanTableWords(
  lower: string,
  table: WordTable<string | null>,
  valueOf: (word: string) => string | null,
  rule: TableWordRule,
  list: string[] | null,
  set: Set<string> | null,
): void {
  const { letterFirst, joinDotted } = rule;
  const n = lower.length;
  let i = 0;
  while (i < n) {
    let c = lower.charCodeAt(i);
    if (c >= 0xd800) c = lower.codePointAt(i)!;
    const k = charClass(c);
    if (k === 0 || (letterFirst && k !== LETTER)) {
      i += c > 0xffff ? 2 : 1;
      continue;
    }
    const from = i;
    let h = 0;
    // `[\p{L}\p{N}+]*` after the first character.
    for (;;) {
      h = hashUnits(h, lower, i, c);
      i += c > 0xffff ? 2 : 1;
      if (i >= n) break;
      c = lower.charCodeAt(i);
      if (c >= 0xd800) c = lower.codePointAt(i)!;
      if (c !== 43 && charClass(c) === 0) break;
    }
    // `(?:[.-][\p{L}\p{N}]+)*`: a dot or hyphen joins only when a letter or digit follows it.
    while (joinDotted && i + 1 < n) {
      const sep = lower.charCodeAt(i);
      if (sep !== 46 && sep !== 45) break;
      c = lower.codePointAt(i + 1)!;
      if (charClass(c) === 0) break;
      h = (Math.imul(h, 31) + sep) | 0;
      i++;
      for (;;) {
        h = hashUnits(h, lower, i, c);
        i += c > 0xffff ? 2 : 1;
        if (i >= n) break;
        c = lower.codePointAt(i)!;
        if (charClass(c) === 0) break;
      }
    }
    if (i - from < 2) continue;
    let value = table.find(lower, from, i, h);
    if (value === undefined) {
      const w = lower.slice(from, i);
      value = table.add(w, h, valueOf(w));
    }
    if (value !== null) {
      if (list !== null) list.push(value);
      else set!.add(value);
    }
  }
}

/** `scanTableWords`'s values as a list, in order. */
export function tableWordList(
  lower: string,
  table: WordTable<string | null>,
  valueOf: (word: string) => string | null,
  rule: TableWordRule,
): string[] {
  const out: string[] = [];
  scanTableWords(lower, table, valueOf, rule, out, null);
  return out;
}

/** `scanTableWords`'s distinct values. */
export function tableWordSet(
  lower: string,
  table: WordTable<string | null>,
  valueOf: (word: string) => string | null,
  rule: TableWordRule,
): Set<string> {
  const out = new Set<string>();
  scanTableWords(lower, table, valueOf, rule, null, out);
  return out;
}

/** `WordTable`'s hash `h` continued with the code point `c` at `text[i]` (its code units). */
function hashUnits(h: number, text: string, i: number, c: number): number {
  h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return c > 0xffff ? (Math.imul(h, 31) + text.charCodeAt(i + 1)) | 0 : h;
}

/** Jaccard overlap of two term sets, 0..1. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** A token of the model-name stream: `norm` is lowercase letters/digits (with `+`), or a revision. */
export interface ModelToken {
  raw: string;
  /** Lowercase key part; "plus" becomes "+"; for revisions the bare number ("1.1"). */
  norm: string;
  kind: 'word' | 'rev';
  start: number;
  end: number;
}

/** Printable ASCII without upper-case letters: already its own NFKC lower-case form. */
const LOWER_ASCII = /^[\x20-\x40\x5b-\x7e]*$/;

/**
 * Lower-case NFKC keys of the words seen, for `modelTokens`: a library repeats the same words
 * all over, and normalizing each occurrence again was most of the tokenizer's time. Bounded;
 * dropped wholesale when full.
 */
const wordKeys = new Map<string, string>();
const WORD_KEY_CACHE = 50_000;

function wordKey(raw: string): string {
  if (LOWER_ASCII.test(raw)) return raw;
  let norm = wordKeys.get(raw);
  if (norm === undefined) {
    norm = raw.normalize('NFKC').toLowerCase();
    if (wordKeys.size >= WORD_KEY_CACHE) wordKeys.clear();
    wordKeys.set(raw, norm);
  }
  return norm;
}

/** Whether the code point `c` is a letter or a digit (`[\p{L}\p{N}]`): `charClass`, named for the tokenizer's reading. */
function isWordChar(c: number): boolean {
  return charClass(c) !== 0;
}

/** Whether the code point at `i` (< text.length) is a letter or a digit. */
function wordCharAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 ? isWordChar(c) : isWordChar(text.codePointAt(i)!);
}

/** Code units of the code point `c` in UTF-16. */
function width(c: number): number {
  return c > 0xffff ? 2 : 1;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** `/\d/.test(text)` (an ASCII digit: `\d` without the `u` flag) by character code, for words asked of every term of a chunk. */
export function hasAsciiDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isDigitCode(text.charCodeAt(i))) return true;
  return false;
}

/**
 * Splits text into model-name tokens with offsets; revisions like `v1.1` are single tokens.
 *
 * The tokens are the matches of `(?<![\p{L}\p{N}])[vV]\d+(?:\.\d+)*(?![\p{L}\p{N}])|[\p{L}\p{N}]+\+*` (a
 * Unicode pattern), read code point by code point: the tokenizer runs over every learned
 * document's prose and every chunk's, and the pattern's match arrays and (for text with any
 * non-ASCII character) its Unicode classes were most of its time. Where the pattern can start a
 * match, the character before is never a letter or digit (a match ends at the text's end, before
 * a character that is not one, or after `+`), so the revision's look-behind always holds.
 */
export function modelTokens(text: string): ModelToken[] {
  const out: ModelToken[] = [];
  const n = text.length;
  let p = 0;
  while (p < n) {
    const c = text.codePointAt(p)!;
    if (!isWordChar(c)) {
      p += width(c);
      continue;
    }
    let end = -1;
    const c1 = p + 1 < n ? text.charCodeAt(p + 1) : -1;
    // A token is a revision when it starts with `v`/`V` and a digit, whichever alternative of the
    // pattern matched it ("v2B" too, as this tokenizer has always told them).
    const isRev = (c === 118 || c === 86) && isDigitCode(c1);
    if (isRev) {
      // `[vV]\d+(?:\.\d+)*` then no letter or digit: the pattern backtracks over whole `.\d+`
      // groups only (a shorter digit run is followed by a digit), longest first.
      let q = p + 2;
      while (q < n && isDigitCode(text.charCodeAt(q))) q++;
      const ends = [q];
      while (q + 1 < n && text.charCodeAt(q) === 46 && isDigitCode(text.charCodeAt(q + 1))) {
        q += 2;
        while (q < n && isDigitCode(text.charCodeAt(q))) q++;
        ends.push(q);
      }
      for (let k = ends.length - 1; k >= 0 && end < 0; k--) {
        const e = ends[k]!;
        if (e >= n || !wordCharAt(text, e)) end = e;
      }
    }
    let ascii = true;
    let upper = false;
    if (end < 0) {
      // `[\p{L}\p{N}]+\+*`
      end = p + width(c);
      ascii = c < 128;
      upper = c >= 65 && c <= 90;
      while (end < n) {
        const d = text.codePointAt(end)!;
        if (!isWordChar(d)) break;
        if (d >= 128) ascii = false;
        else if (d <= 90 && d >= 65) upper = true;
        end += width(d);
      }
      while (end < n && text.charCodeAt(end) === 43) end++;
    }
    const raw = text.slice(p, end);
    let norm: string;
    if (isRev) norm = raw.slice(1);
    else {
      // An ASCII word is its own NFKC form: only its case can change, and most words are
      // written in lower case already (`toLowerCase` was a tenth of this tokenizer's time).
      norm = ascii ? (upper ? raw.toLowerCase() : raw) : wordKey(raw);
      if (norm === 'plus') norm = '+';
    }
    out.push({ raw, norm, kind: isRev ? 'rev' : 'word', start: p, end });
    p = end;
  }
  return out;
}

/**
 * Whether two adjacent tokens belong to one name: only spaces, hyphens, underscores, brand marks,
 * `&`, parentheses or a single dot (as in "10.5") lie between them.
 */
export function joinable(gap: string): boolean {
  return gap === '.' || /^[ \t\u00a0\-_&®™()]{1,3}$/.test(gap);
}

/** The key of a model name: its tokens' keys concatenated ("ROCK 5B plus" -> "rock5b+"). */
export function nameKey(name: string): string {
  return modelTokens(name)
    .filter((t) => t.kind === 'word')
    .map((t) => t.norm)
    .join('');
}

/** Measurement-like tokens ("5v", "3a", "30w", "4k") that must never be read as a model by themselves. */
export function isUnitLike(norm: string): boolean {
  return /^\d+(?:\.\d+)?(?:v|a|ma|mah|w|kw|mm|cm|m|mp|in|inch|hz|khz|mhz|ghz|gb|mb|kb|tb|k|p|fps|bit|bits|pin|pins|x|g|d|nm|ms|s|th|st|nd|rd)$/.test(
    norm,
  );
}

/** The unit of a quantity written as one word ("5g" -> "g", "30w" -> "w"). */
export function unitOf(norm: string): string {
  return norm.replace(/^[\d.]+/u, '');
}

/** Letters at most in a word in capitals read as a short one ("OK", "FE", "LTE"): a longer one is no common word said in capitals. */
const SHORT_CAPITALS = 3;

/** Whether a word is a short one written in capitals, letters only ("OK", "FE"). */
export function shortCapitals(raw: string): boolean {
  return raw.length >= 2 && raw.length <= SHORT_CAPITALS && /^\p{Lu}+$/u.test(raw);
}

/** True when the token mixes letters and digits ("e52c", "s3", "225b"). */
export function isCodeToken(norm: string): boolean {
  // By character code for ASCII (where \p{L} is [A-Za-z] and \p{N} is [0-9]): the mention scan
  // asks this of nearly every word of every chunk.
  let letter = false;
  let digit = false;
  for (let i = 0; i < norm.length; i++) {
    const c = norm.charCodeAt(i);
    if (c >= 128) return /\p{L}/u.test(norm) && /\p{N}/u.test(norm);
    if (c >= 48 && c <= 57) digit = true;
    else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) letter = true;
  }
  return letter && digit;
}
