/**
 * Small text helpers shared by the enrichment stages: turning chunk Markdown into plain prose,
 * content-word tokens for TF-IDF and lexical similarity, and the token stream model names are
 * matched on.
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
  for (const [needles, re, to] of PLAIN_STEPS) {
    // A pattern that needs a literal the text lacks cannot match: skipping it saves a regex pass.
    if (needles.length === 0 || needles.some((n) => t.includes(n))) t = t.replace(re, to);
  }
  return t.trim();
}

/**
 * The rewrites of `plainText`, in order, each with the literals (any one of) a match must contain.
 * Each step is checked against the text as the steps before it left it.
 */
const PLAIN_STEPS: readonly (readonly [needles: readonly string[], pattern: RegExp, replacement: string])[] = [
  [['---'], /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, ' '],
  [['```'], /```[\s\S]*?(?:```|$)/g, ' '],
  [['<!--'], /<!--[\s\S]*?-->/g, ' '],
  [['!['], MD_IMAGE, '$1'],
  [[']('], MD_LINK, '$1'],
  [['://'], /https?:\/\/[^\s)"'<>]+/g, ' '],
  // Anchored at a token start: an unanchored `\S+@\S+` backtracks quadratically on long tokens.
  [['@'], /(?<!\S)[^\s@]+@\S+/g, ' '],
  // Tab labels name the variant a passage is for (<TabItem value="ROCK 5B+">): keep them.
  [['<'], /(?<!\\)<(?=[A-Za-z])[^<>]*?\b(?:label|value)=["']([^"']*)["'][^<>]*>/g, ' $1 '],
  // A tag starts with a name, `/`, `!`, `?` or `>` (a JSX fragment) and holds no other `<`; a `<`
  // that starts none ("Sleep mode: \<200ms", "Angle: < 100°") is text, and taken for a tag it
  // dropped everything up to the next `>`, in a whole document up to a page of its text.
  [['<'], /(?<!\\)<(?=[A-Za-z/!?>])[^<>]*>/g, ' '],
  [['import', 'export'], /^\s*(?:import|export)\s.*$/gm, ' '],
  [['/'], /(?:^|\s)\.{0,2}\/\S*/g, ' '],
  [['---'], /^[ \t]*\|?[ \t]*:?-{3,}.*$/gm, ' '],
  [[], /[|*`#>~]+/g, ' '],
  // Emphasis underscores go, identifiers keep theirs ("GPIO3_A4", "SARADC_IN4").
  [['_'], /(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, ' '],
  [['&'], /&[a-z]+;|&#\d+;/gi, ' '],
  // Every run of whitespace becomes one space; written as the runs that are not one space already
  // (most are), which `replace` then leaves alone: about half the time of `/\s+/g` here.
  [[], /\s{2,}|[^\S ]/g, ' '],
];

/** Crude English singular for TF-IDF terms ("supplies" -> "supply", "ports" -> "port"). */
export function singular(word: string): string {
  if (word.length <= 3 || /ss$|us$|is$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

const CONTENT_WORD = /[\p{L}][\p{L}\p{N}+]*(?:[.-][\p{L}\p{N}]+)*/gu;
/** `CONTENT_WORD` on lower-case ASCII text, where \p{L} is [a-z] and \p{N} is [0-9]. */
const ASCII_CONTENT_WORD = /[a-z][a-z0-9+]*(?:[.-][a-z0-9]+)*/g;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
const SPACE = /\s/;

/**
 * Pieces of `text` of about `size` characters, each ending at whitespace (or the text's end), as
 * [start, end) offsets. The word patterns here never match whitespace and their look-arounds
 * read whitespace and a text's edge alike, so matching piece by piece finds the same words as
 * matching the whole text; a piece of pure ASCII can then use a plain character class, which
 * runs in about half the time of the Unicode one (96% of the paragraphs of the shared manuals are
 * ASCII, but most whole documents hold a "®" or a "×" somewhere).
 */
function* asciiPieces(text: string, size = 2048): Generator<[start: number, end: number, ascii: boolean]> {
  for (let start = 0; start < text.length; ) {
    let end = start + size;
    if (end >= text.length) end = text.length;
    else {
      const cut = text.slice(end).search(SPACE);
      end = cut < 0 ? text.length : end + cut + 1;
    }
    const piece = text.slice(start, end);
    yield [start, end, !NON_ASCII.test(piece)];
    start = end;
  }
}

/**
 * Content term of each word seen (its singular), or '' for a stopword: the same words recur in
 * every chunk of a library, so each is looked at once. Bounded; dropped wholesale when full.
 */
const termOf = new Map<string, string>();
const TERM_CACHE = 50_000;

function pushTerms(out: string[], words: readonly string[] | null): void {
  if (!words) return;
  for (const w of words) {
    if (w.length < 2) continue;
    let term = termOf.get(w);
    if (term === undefined) {
      term = isStopword(w) ? '' : singular(w);
      if (termOf.size >= TERM_CACHE) termOf.clear();
      termOf.set(w, term);
    }
    if (term !== '') out.push(term);
  }
}

/** Lowercase content words (letters first, >= 2 chars, no stopwords), singularized. */
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  for (const [start, end, ascii] of asciiPieces(lower)) {
    const piece = start === 0 && end === lower.length ? lower : lower.slice(start, end);
    pushTerms(out, piece.match(ascii ? ASCII_CONTENT_WORD : CONTENT_WORD));
  }
  return out;
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

const TOKEN_RE = /(?<![\p{L}\p{N}])[vV]\d+(?:\.\d+)*(?![\p{L}\p{N}])|[\p{L}\p{N}]+\+*/gu;
/** `TOKEN_RE` on ASCII text, where \p{L} is [A-Za-z] and \p{N} is [0-9]. */
const ASCII_TOKEN_RE = /(?<![A-Za-z0-9])[vV]\d+(?:\.\d+)*(?![A-Za-z0-9])|[A-Za-z0-9]+\+*/g;

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

/** Splits text into model-name tokens with offsets; revisions like `v1.1` are single tokens. */
export function modelTokens(text: string): ModelToken[] {
  const out: ModelToken[] = [];
  for (const [from, to, ascii] of asciiPieces(text)) {
    const piece = from === 0 && to === text.length ? text : text.slice(from, to);
    const re = ascii ? ASCII_TOKEN_RE : TOKEN_RE;
    re.lastIndex = 0;
    for (let m = re.exec(piece); m !== null; m = re.exec(piece)) {
      const raw = m[0];
      const start = from + m.index;
      // A revision is a `v`/`V` and a digit: the regex's first alternative, checked by code point.
      const c0 = raw.charCodeAt(0);
      const c1 = raw.charCodeAt(1);
      const isRev = (c0 === 118 || c0 === 86) && c1 >= 48 && c1 <= 57;
      let norm: string;
      if (isRev) norm = raw.slice(1);
      else {
        // An ASCII word is its own NFKC form: only its case can change.
        norm = ascii ? raw.toLowerCase() : wordKey(raw);
        if (norm === 'plus') norm = '+';
      }
      out.push({ raw, norm, kind: isRev ? 'rev' : 'word', start, end: start + raw.length });
    }
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

/** True when the token mixes letters and digits ("e52c", "s3", "225b"). */
export function isCodeToken(norm: string): boolean {
  return /\p{L}/u.test(norm) && /\p{N}/u.test(norm);
}
