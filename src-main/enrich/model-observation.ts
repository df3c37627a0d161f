import type { NormalizedDocument } from '../core/document';
import { addCategoryHits } from './category.lexicon';
import { documentCodes } from './document-codes';
import { bump, GENERIC_WORDS, MAX_WINDOW, revisionsAfter, SUFFIX_WORDS } from './model-keys';
import type { DocObservation, VocabularyDocInput } from './model-vocabulary.types';
import type { ModelToken } from './text.util';
import { charClass, isCodeToken, isStopword, isUnitLike, joinable, modelTokens, nameKey, plainText } from './text.util';

/**
 * The first half of the model vocabulary (model-vocabulary.ts has the rules): `observe` reads one
 * document's path, title, front matter, headings and text, and records every written form of the
 * keys its folders, file name and title suggest, with where it was seen, plus the words written
 * before them, the revisions after them and the document's category words. Observations are the
 * vocabulary's only stored state; model-derivation.ts derives everything else from all of them.
 */

/**
 * Suffix words that make a member only when they name a board: followed by "board" / "carrier
 * board" ("CM5 IO Board"), or as a whole title or heading line ("Radxa CM5 IO"). Elsewhere "IO"
 * is a signal word ("ESP32-S2-HMI-DevKit-1 IO expander" is no product).
 */
const BOARD_SUFFIX_WORDS = new Set(['io']);
/** A suffix glued to the model's last token ("3" -> "3W", "5B" -> "5B+"). */
const ATTACHED_SUFFIX = /^(?:[a-z]{1,2}\+?|\+)$/;
/** Characters at the start of a document whose category words count fully. */
const INTRO_CHARS = 1500;

/** Builds the vocabulary input of a normalized document (title, front matter, headings, text). */
export function vocabularyInput(doc: NormalizedDocument): VocabularyDocInput {
  const headings: string[] = [];
  const h1Headings: string[] = [];
  const h2Headings: string[] = [];
  for (const b of doc.blocks) {
    if (b.kind !== 'heading') continue;
    const text = b.headingPath[b.headingPath.length - 1] ?? '';
    headings.push(text);
    if (b.level === 1) h1Headings.push(text);
    if (b.level === 2) h2Headings.push(text);
  }
  const facts = doc.facts ? [doc.facts.metadataTitle, doc.facts.subject, ...doc.facts.runningText].filter((t): t is string => !!t) : [];
  return { id: doc.id, title: doc.title, text: doc.text, metadata: doc.metadata, headings, h1Headings, h2Headings, ...(facts.length ? { facts } : {}) };
}

export function isInput(doc: NormalizedDocument | VocabularyDocInput): doc is VocabularyDocInput {
  return !('blocks' in doc);
}

/** Splits a document id into folders and the file stem's key/revision. */
function pathParts(id: string): { dirs: string[]; stemKey: string | null; stemRevision: string | null; stemWords: string } {
  const parts = id.split('/').filter(Boolean);
  const file = parts.pop() ?? '';
  const stem = file.replace(/\.[^./]+$/, '');
  const toks = modelTokens(stem);
  const stemRevision = toks.find((t) => t.kind === 'rev')?.norm ?? null;
  const words = toks.filter((t) => t.kind === 'word' && !GENERIC_WORDS.has(t.norm)).map((t) => t.norm);
  const stemKey = words.join('');
  const useful = stemKey.length >= 2 && (/\d/.test(stemKey) || stemRevision !== null);
  return { dirs: parts, stemKey: useful ? stemKey : null, stemRevision, stemWords: stemKey };
}

/** Key of a title with vendor words, ancestor-folder words, revisions and generic words removed. */
function strippedTitleKey(title: string, vendorKeys: ReadonlySet<string>, dirKeys: ReadonlySet<string>): string {
  const toks = modelTokens(title).filter((t) => t.kind === 'word');
  let i = 0;
  let j = toks.length;
  while (j > 1 && GENERIC_WORDS.has(toks[j - 1]!.norm)) j--;
  while (i < j - 1 && (vendorKeys.has(toks[i]!.norm) || dirKeys.has(toks[i]!.norm))) i++;
  const kept = toks.slice(i, j);
  // A digit-free name must look like one: "ZERO", "AirBox", "ESP-Prog", not "Install System".
  if (!kept.some((t) => /\d/.test(t.raw) || /^\p{Lu}{2,}$/u.test(t.raw) || /^\p{Lu}?\p{Ll}+\p{Lu}/u.test(t.raw))) return '';
  return kept.map((t) => t.norm).join('');
}

/** Key of the title words right after a leading vendor word ("Samsung Galaxy Z Flip User Manual"). */
function vendorTitleKey(title: string, vendorKeys: ReadonlySet<string>): string {
  const toks = modelTokens(title).filter((t) => t.kind === 'word');
  if (!toks[0] || !vendorKeys.has(toks[0].norm)) return '';
  let j = toks.length;
  while (j > 1 && GENERIC_WORDS.has(toks[j - 1]!.norm)) j--;
  return toks
    .slice(1, j)
    .map((t) => t.norm)
    .join('');
}

/** The first model-number-like run of a title ("Samsung Galaxy S10 User Manual" -> "Galaxy S10"). */
function titleModelOf(title: string, vendorKeys: ReadonlySet<string>): { surface: string; revisions: string[] } | null {
  const toks = modelTokens(title);
  const isCap = (t: ModelToken): boolean => /^\p{Lu}/u.test(t.raw) && !GENERIC_WORDS.has(t.norm) && !isStopword(t.norm);
  const isCode = (t: ModelToken): boolean => isCodeToken(t.norm) && !isUnitLike(t.norm);
  let i = 0;
  while (i < toks.length) {
    const t = toks[i]!;
    if (t.kind !== 'word' || vendorKeys.has(t.norm) || !(isCap(t) || isCode(t) || /^\d/.test(t.norm))) {
      i++;
      continue;
    }
    let j = i;
    let lastCode = isCode(t) ? i : -1;
    // A name does not run into a parenthesis: "Electrical Characteristics (LM7812A)" is a caption
    // and the code it names, not one name.
    while (j + 1 < toks.length && toks[j + 1]!.kind === 'word' && joinable(title.slice(toks[j]!.end, toks[j + 1]!.start)) && !title.slice(toks[j]!.end, toks[j + 1]!.start).includes('(')) {
      const n = toks[j + 1]!;
      if (!(isCap(n) || isCode(n) || /^\d/.test(n.norm))) break;
      j++;
      if (isCode(n)) lastCode = j;
    }
    if (lastCode >= 0) {
      // End at the last code token, then keep tokens glued to it ("SIM7600G-H", "DevKitC-1").
      let end = lastCode;
      while (end + 1 <= j && /^[-_]$/.test(title.slice(toks[end]!.end, toks[end + 1]!.start))) end++;
      const surface = title.slice(t.start, toks[end]!.end);
      return { surface, revisions: revisionsAfter(title, toks, end) };
    }
    i = j + 1;
  }
  return null;
}

/** Most words of a digit-free product name read from a coded page's title ("ATOM Lite", "Timer Camera"). */
const CODED_TITLE_WORDS = 3;

/**
 * The title of a page that gives itself an ordering code (a SKU: a product's own page) as the
 * product's name, when the title is a short run of capitalised words: names without a digit
 * ("ATOM Lite", "Nicla Vision") are otherwise never learned, as a title word is only a word.
 */
function codedTitleModel(input: VocabularyDocInput, title: string, vendorKeys: ReadonlySet<string>): { surface: string; revisions: string[] } | null {
  const toks = modelTokens(title).filter((t) => t.kind === 'word' && !vendorKeys.has(t.norm));
  if (toks.length === 0 || toks.length > CODED_TITLE_WORDS) return null;
  if (!toks.every((t) => /^\p{Lu}/u.test(t.raw) && !isStopword(t.norm)) || toks.every((t) => GENERIC_WORDS.has(t.norm))) return null;
  if (documentCodes({ text: input.text, metadata: input.metadata ?? {}, facts: undefined }).length === 0) return null;
  return { surface: title.slice(toks[0]!.start, toks[toks.length - 1]!.end), revisions: [] };
}

/** The model a heading consists of, apart from vendor and generic words ("RAC-228B Service Manual"). */
function headingModelOf(heading: string, vendorKeys: ReadonlySet<string>): string | null {
  const m = titleModelOf(heading, vendorKeys);
  if (!m) return null;
  const at = heading.indexOf(m.surface);
  const rest = modelTokens(heading.slice(0, at) + ' ' + heading.slice(at + m.surface.length));
  return rest.every((t) => t.kind === 'rev' || GENERIC_WORDS.has(t.norm) || vendorKeys.has(t.norm) || SUFFIX_WORDS.has(t.norm)) ? m.surface : null;
}

/**
 * Sub-document models of a stitched manual: H1 headings that are a model name, and H2 headings
 * when at least two different H2 headings are (a lone "## I2C" is a section, not a product).
 */
function headingModels(input: VocabularyDocInput, vendorKeys: ReadonlySet<string>): string[] {
  const of = (hs: readonly string[] | undefined): string[] =>
    [...new Set((hs ?? []).map((h) => headingModelOf(h, vendorKeys)).filter((h): h is string => h !== null))];
  const h2 = of(input.h2Headings);
  return [...new Set([...of(input.h1Headings), ...(h2.length >= 2 ? h2 : [])])];
}

/** Records every window of `text` whose key is interesting (or extends one) into `obs`. */
function scan(
  text: string,
  where: 0 | 1 | 2,
  interesting: readonly string[],
  obs: DocObservation,
  vendorKeys: ReadonlySet<string>,
  inline?: InlineWitness,
): void {
  const toks = modelTokens(text);
  // A window's key starts with its first token's key, so it can equal, extend or begin an
  // interesting key only if both start with the same character: most tokens start no window and
  // are passed over here (this function's own time in an import of radxa + esp: 0.10 -> 0.06 s).
  const starts = new Set(interesting.map((k) => k.charCodeAt(0)));
  for (let i = 0; i < toks.length; i++) {
    const first = toks[i]!;
    if (first.kind !== 'word' || !starts.has(first.norm.charCodeAt(0))) continue;
    let key = '';
    for (let j = i; j < toks.length && j < i + MAX_WINDOW; j++) {
      const t = toks[j]!;
      if (t.kind !== 'word') break;
      if (j > i && !joinable(text.slice(toks[j - 1]!.end, t.start))) break;
      key += t.norm;
      let live = false;
      let exact = false;
      let base: string | null = null;
      // A board suffix word ("io") extends a model only where the window names a board; that look
      // at the surrounding words is taken at most once per window, and only for such a word (a
      // closure per window here cost the whole learning pass 60% more time).
      let board: boolean | null = BOARD_SUFFIX_WORDS.has(t.norm) ? null : true;
      for (const k of interesting) {
        if (k.startsWith(key)) live = true;
        if (key === k) exact = true;
        else if (key.startsWith(k) && (base === null || k.length > base.length)) {
          const suffix = key.slice(k.length);
          if (!extensionOk(suffix, t)) continue;
          if (suffix === t.norm && board === null) board = namesBoard(text, toks, i, j, where, vendorKeys);
          if (suffix !== t.norm || board) base = k;
        }
      }
      if (exact || base !== null) record(text, toks, i, j, key, where, obs, vendorKeys, inline);
      if (!exact && base !== null) {
        const known = obs.extensions[key];
        if (known === undefined || known.length < base.length) obs.extensions[key] = base;
      }
      if (!live) break;
    }
  }
}

/**
 * Whether the window `toks[i..j]`, ending in a board suffix word, names a board: "board" or
 * "carrier board" follows it, or it is a whole title/heading line apart from vendor words.
 */
function namesBoard(text: string, toks: readonly ModelToken[], i: number, j: number, where: 0 | 1 | 2, vendorKeys: ReadonlySet<string>): boolean {
  const next = (k: number): string | null => {
    const t = toks[k];
    return t && t.kind === 'word' && joinable(text.slice(toks[k - 1]!.end, t.start)) ? t.norm : null;
  };
  const after = next(j + 1);
  if (after === 'board' || (after === 'carrier' && next(j + 2) === 'board')) return true;
  if (where === 2) return false;
  const lineStart = text.lastIndexOf('\n', toks[i]!.start - 1) + 1;
  const lineEnd = text.indexOf('\n', toks[j]!.end);
  const rest = text.slice(toks[j]!.end, lineEnd < 0 ? text.length : lineEnd);
  const lead = text.slice(lineStart, toks[i]!.start);
  return rest.trim() === '' && /^[\p{L}\s]*$/u.test(lead) && modelTokens(lead).every((t) => vendorKeys.has(t.norm));
}

/** Whether `suffix` may extend a model ending in `last` (a board suffix word also needs `namesBoard`). */
function extensionOk(suffix: string, last: ModelToken): boolean {
  if (last.norm === suffix) return SUFFIX_WORDS.has(suffix);
  const head = last.norm.slice(0, last.norm.length - suffix.length);
  // Letters glue only onto a number ("3" -> "3W"); "+" glues onto anything ("5B" -> "5B+").
  return last.norm.endsWith(suffix) && ATTACHED_SUFFIX.test(suffix) && (suffix.startsWith('+') || /\d$/.test(head));
}

function record(
  text: string,
  toks: readonly ModelToken[],
  i: number,
  j: number,
  key: string,
  where: 0 | 1 | 2,
  obs: DocObservation,
  vendorKeys: ReadonlySet<string>,
  inline?: InlineWitness,
): void {
  let a = i;
  let b = j;
  if (where === 0) {
    // In titles, keep the whole hyphenated compound ("ESP32-C3-LCD-Ev-Board", not "C3-LCD-Ev-Board").
    while (a > 0 && toks[a - 1]!.kind === 'word' && /^[-_]$/.test(text.slice(toks[a - 1]!.end, toks[a]!.start))) a--;
    while (b + 1 < toks.length && toks[b + 1]!.kind === 'word' && /^[-_]$/.test(text.slice(toks[b]!.end, toks[b + 1]!.start))) b++;
  }
  let end = toks[b]!.end;
  if (text[end] === ')' && text.slice(toks[a]!.start, end).split('(').length > text.slice(toks[a]!.start, end).split(')').length) end++;
  const surface = text.slice(toks[a]!.start, end).replace(/\s+/g, ' ');
  const bySurface = (obs.surfaces[key] ??= {});
  const counts = (bySurface[surface] ??= [0, 0, 0]);
  counts[where]++;
  const p = toks[a - 1];
  if (p && p.kind === 'word' && /^[ \t\u00a0®™]{1,3}$/.test(text.slice(p.end, toks[a]!.start))) {
    const word = /^\p{Lu}/u.test(p.raw) && !/\d/.test(p.raw) && !isStopword(p.norm) && !vendorKeys.has(p.norm) ? p.raw : '';
    bump((obs.prev[key] ??= {}), word && (!inline || inline(p.raw, toks[a]!.raw)) ? word : '');
  } else bump((obs.prev[key] ??= {}), '');
  if (where === 0) {
    const revs = revisionsAfter(text, toks, b);
    if (revs.length > 0) {
      const list = (obs.revisions[key] ??= []);
      for (const r of revs) if (!list.includes(r)) list.push(r);
    }
  }
}

/**
 * Answers, for a word the body's prose shows right before a product's first token, whether the
 * document's Markdown writes it there within one line: the prose has line breaks, headings and
 * table cells turned into spaces, so "## Description\n\n**K10** is ..." reads "Description K10 is
 * ..." and a heading or column word stood before every product its page opens with. A pair is
 * granted as many times as the Markdown writes it within a line, then refused (the prose does not
 * say which of its writings is which; a pair written in a code block may grant one more). Where the word opens a sentence or line, its capital says nothing of a name: such
 * writings count only when the prose never writes the word in lower case ("Connect ESP-DualKey to
 * the computer" where "connect" is a verb elsewhere; "**Acme K10** is ..." where "acme" never is).
 */
type InlineWitness = (word: string, next: string) => boolean;

function inlineWitness(markdown: string, prose: string): InlineWitness {
  const left = new Map<string, number>();
  const lower = new Map<string, boolean>();
  const writesLower = (word: string): boolean => {
    const w = word.toLowerCase();
    let seen = lower.get(w);
    if (seen === undefined) {
      seen = false;
      for (let q = prose.indexOf(w); q >= 0 && !seen; q = prose.indexOf(w, q + 1)) {
        seen = !wordUnitAt(prose, q - 1) && !wordUnitAt(prose, q + w.length);
      }
      lower.set(w, seen);
    }
    return seen;
  };
  return (word, next) => {
    const pair = `${word} ${next}`;
    let n = left.get(pair);
    if (n === undefined) {
      const { within, opening } = inlineCount(markdown, word, next);
      n = within + (opening > 0 && !writesLower(word) ? opening : 0);
    }
    left.set(pair, n - 1);
    return n > 0;
  };
}

/**
 * Whether the UTF-16 unit at `i` is a letter or digit (`[\p{L}\p{N}]`); false outside the text.
 * One unit, as these word-boundary checks have always read it: half of a surrogate pair is neither
 * (`charClass` of a lone surrogate is 0), so a letter beyond the BMP does not join the word.
 */
function wordUnitAt(text: string, i: number): boolean {
  return i >= 0 && i < text.length && charClass(text.charCodeAt(i)) !== 0;
}
/** What may stand between two words of one line and read as a space in the prose: spaces, brand marks, emphasis, code and link openers. */
const INLINE_GAP = new Set([' ', '\t', '\u00a0', '®', '™', '*', '_', '~', '`', '[']);
/** What ends a sentence or starts a line, cell or quote before a word (after spaces and inline markup). */
const OPENER = new Set(['\n', '\r', '|', '.', '!', '?', ':', '>', '#']);
/** List bullets: they open a line item when a space follows them ("- Connect ..."), not in a compound ("Low-Power"). */
const BULLET = new Set(['-', '+']);

/** Steps back from `k` over inline markup (INLINE_GAP characters, HTML tags, entities). */
function skipInline(markdown: string, k: number): number {
  for (;;) {
    const c = markdown[k - 1];
    if (c !== undefined && INLINE_GAP.has(c)) k--;
    else if (c === '>' || c === ';') {
      // An HTML tag or entity ends here ("<b>Acme</b> K10", "Acme&nbsp;K10"): skip it whole.
      const open = markdown.lastIndexOf(c === '>' ? '<' : '&', k - 1);
      const inner = open < 0 ? '' : markdown.slice(open, k);
      if (open < 0 || !(c === '>' ? /^<\/?[A-Za-z][^<>\n|]*>$/ : /^&(?:[a-z]+|#\d+);$/i).test(inner)) return k;
      k = open;
    } else return k;
  }
}

/**
 * How often `markdown` writes the token `word` then the token `next` with only inline markup
 * between them: never a line break or a table cell's `|`, so never across a heading's end, a
 * paragraph or a cell. `opening` counts those where the word opens a sentence, line or cell.
 */
function inlineCount(markdown: string, word: string, next: string): { within: number; opening: number } {
  let within = 0;
  let opening = 0;
  for (let q = markdown.indexOf(next); q >= 0; q = markdown.indexOf(next, q + 1)) {
    if (wordUnitAt(markdown, q - 1) || wordUnitAt(markdown, q + next.length)) continue;
    const k = skipInline(markdown, q);
    const from = k - word.length;
    if (k === q || from < 0 || !markdown.startsWith(word, from) || wordUnitAt(markdown, from - 1)) continue;
    const at = skipInline(markdown, from);
    const before = markdown[at - 1];
    if (before === undefined || OPENER.has(before) || (BULLET.has(before) && at < from)) opening++;
    else within++;
  }
  return { within, opening };
}

/** One document's observation; `vendorKeys` are the vendor words the vocabulary was given (learned ones come later). */
export function observe(input: VocabularyDocInput, vendorKeys: ReadonlySet<string>): DocObservation {
  const parts = pathParts(input.id);
  const { dirs, stemRevision } = parts;
  // A file named exactly as its vendor-prefixed title ("Galaxy_Z_Flip.md") is a product file too.
  const stemKey = parts.stemKey ?? (parts.stemWords.length >= 3 && parts.stemWords === vendorTitleKey(input.title, vendorKeys) ? parts.stemWords : null);
  const dirKeys = dirs.map((d) => nameKey(d)).filter((k) => k.length >= 2);
  const interesting = [...new Set([...dirKeys, ...(stemKey ? [stemKey] : [])])];
  const meta = input.metadata ?? {};
  // A title that is only the file name (no H1, no front matter) is no evidence of a name.
  const fileStem = input.id.split('/').pop()?.replace(/\.[^./]+$/, '') ?? '';
  const title = input.title === fileStem ? '' : input.title;
  const titleish = [title, meta['title'], meta['description'], ...(input.facts ?? [])].filter((s): s is string => !!s).join('\n');
  const obs: DocObservation = {
    id: input.id,
    dirs,
    stemKey,
    stemRevision,
    surfaces: {},
    prev: {},
    revisions: {},
    extensions: {},
    titleKey: strippedTitleKey(title, vendorKeys, new Set(dirKeys)),
    titleModel: titleModelOf(title, vendorKeys) ?? codedTitleModel(input, title, vendorKeys),
    headingModels: headingModels(input, vendorKeys),
    categories: {},
  };
  if (obs.titleModel) {
    const tk = nameKey(obs.titleModel.surface);
    if (tk && !interesting.includes(tk)) interesting.push(tk);
  }
  scan(titleish, 0, interesting, obs, vendorKeys);
  for (const h of input.headings ?? []) scan(h, 1, interesting, obs, vendorKeys);
  // Prose only: file paths, image names and shell commands spell models in lowercase ("e20c").
  const body = input.plain ?? plainText(input.text);
  scan(body, 2, interesting, obs, vendorKeys, inlineWitness(input.text, body));
  addCategoryHits(titleish, 5, obs.categories);
  addCategoryHits((input.headings ?? []).join('\n'), 2, obs.categories, false);
  // The opening of a document says what the product is; later text mentions everything else.
  addCategoryHits(body.slice(0, INTRO_CHARS), 1, obs.categories, false);
  return obs;
}
