import { z } from 'zod';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { addCategoryHits, bestCategory } from './category.lexicon';
import { documentCodes } from './document-codes';
import type { ModelToken } from './text.util';
import { isCodeToken, isStopword, isUnitLike, joinable, modelTokens, nameKey, plainText } from './text.util';

/**
 * The library's model vocabulary: the product models its documents are about, learned from file
 * paths, titles, front matter and headings, then confirmed by the text.
 *
 * - A folder is a product folder when its name, read as a model key ("rock5b", "e52c",
 *   "esp32-s3-devkitc-1"), is written out in the documents under it ("ROCK 5B", "E52C"). Names
 *   without digits ("zero", "airbox") count only when a title directly in the folder is exactly
 *   that name, so "getting-started" never becomes a product.
 * - A file named after a model ("Galaxy_S10.md", "user-guide-esp-lyrat-8311a_v1.3.md") is a product
 *   file. It overrides its folder only when it carries its own revision (a separate board's manual);
 *   accessory pages inside a product folder (cameras, adapters) stay with the folder's product.
 * - Documents outside product folders fall back to a model-number-like name in their title.
 * - Members extend a product's key by a short suffix in the text ("ROCK 5B" -> "ROCK 5B+",
 *   "ZERO 3" -> "ZERO 3W"); revisions ("v1.1") are variants of their base, learned from titles and
 *   file names.
 *
 * Keys compare tokens of letters and digits (case-free, spacing and hyphens ignored, "plus" = "+").
 * Unlike the storage key, `+` is kept: "ROCK 5B+" and "ROCK 5B" are different models.
 * Serializable (toJSON/fromJSON) as per-document observations, so a library can add and remove
 * documents incrementally; everything else is derived.
 *
 * Longer than 500 lines for now: the natural seam is per-document observation (the free
 * functions above the class: `observe` and its scanners) versus the library-wide derivation and
 * lookups (the class), but the class alone is ~600 lines and both halves share the key rules and
 * the JSON schema; the retrieval issue reworks this file (learned vocabulary as data, no vendor
 * list in code), and splits it then instead of twice.
 */

/**
 * Fewest different products a capitalized word must be written right before for it to be a vendor
 * word ("Radxa" before ROCK 5B, CM5, ZERO 3W, E20C, ...): stripped from model names instead of
 * taken as a series word ("Cubie" before A5E, A7A, A7Z names a series of its own).
 */
const VENDOR_MIN_PRODUCTS = 5;

/** Words that name a document's role, not a product; stripped from file stems and titles. */
const GENERIC_WORDS = new Set(
  (
    'user users guide guides manual manuals readme index introduction intro overview getting started quick ' +
    'start doc docs documentation reference datasheet en english series family handbook instruction ' +
    'instructions owner owners operating service the of for and'
  ).split(' '),
);
/** Words that may sit between a model name and its revision ("Kaluga-1 Kit v1.3"). */
const REVISION_FILLERS = new Set(['kit', 'board', 'module', 'dev']);
/** Separate words that turn a model into a member of it ("ROCK 5T Industrial"; "CM5 IO", the carrier board of the CM5 module). */
const SUFFIX_WORDS = new Set(['+', 'pro', 'lite', 'max', 'mini', 'ultra', 'industrial', 'se', '5g', 'lte', 'io']);
/**
 * Suffix words that make a member only when they name a board: followed by "board" / "carrier
 * board" ("CM5 IO Board"), or as a whole title or heading line ("Radxa CM5 IO"). Elsewhere "IO"
 * is a signal word ("ESP32-S2-HMI-DevKit-1 IO expander" is no product).
 */
const BOARD_SUFFIX_WORDS = new Set(['io']);
/** A suffix glued to the model's last token ("3" -> "3W", "5B" -> "5B+"). */
const ATTACHED_SUFFIX = /^(?:[a-z]{1,2}\+?|\+)$/;
/** Words after a part number that say what kind of product carries it ("CH32H417 Evaluation Board"). */
const PRODUCT_TYPE_WORDS = new Set(['evaluation', 'development', 'dev', 'board', 'kit', 'module', 'reference', 'design', 'demo', 'starter']);
/** An evaluation-kit suffix glued to a part number ("CH592EVT", "xxEVB", "xxEVK", "xxEVM"). */
const KIT_SUFFIX = /^(\p{L}+\d+[\p{L}\d]*?\d)(?:evt|evb|evk|evm|eval)$/u;

/**
 * The family pattern of a name written with placeholder digits, as datasheets name a series:
 * "LM78XX" (an upper-case run of two or more X after a digit), "CH32V30x" or "CH32X3x5" (a lower-case
 * x after a digit in an otherwise upper-case code). Each placeholder stands for one digit; one or
 * two letters may follow the code ("LM7812A"). Null for names without placeholders ("CH32X035":
 * a single upper-case X is a letter of the name).
 */
export function familyPattern(raw: string): RegExp | null {
  if (!/\d/.test(raw) || !/[xX]/.test(raw)) return null;
  const upper = /\p{Lu}/u.test(raw.replace(/x/g, ''));
  let out = '';
  let placeholders = 0;
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k]!;
    const afterDigit = k > 0 && (/\d/.test(raw[k - 1]!) || out.endsWith('\\d'));
    const upperRun = c === 'X' && (raw[k + 1] === 'X' || raw[k - 1] === 'X');
    if (afterDigit && ((c === 'x' && upper) || upperRun)) {
      out += '\\d';
      placeholders++;
    } else out += c.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return placeholders > 0 ? new RegExp(`^${out}[a-z]{0,2}$`) : null;
}

/** Longest name, in tokens ("ESP-Module-Prog-SUB-01&04" has 6). */
const MAX_WINDOW = 7;
/** Confidence of each member of a family a text names ("UNO R4" for "UNO R4 Minima" and "UNO R4 WiFi"); an outright name wins over it. */
const FAMILY_CONFIDENCE = 0.7;
/** Weight of an occurrence by where it was seen: title/front matter, heading, body. */
const WHERE_WEIGHT = [5, 2, 1] as const;
/** Characters at the start of a document whose category words count fully. */
const INTRO_CHARS = 1500;
/** Minimum weighted occurrences for a member ("ROCK 5B+") to be accepted. */
const MIN_MEMBER_WEIGHT = 2;
/** Texts up to this many characters (headings, tab labels) have their mentions cached. */
const SHORT_TEXT = 160;
const SHORT_CACHE_SIZE = 5000;

export type ModelKind = 'product' | 'member' | 'variant';

/** One model of the vocabulary. */
export interface ModelEntry {
  /** Canonical name ("ROCK 5B+", "ESP32-S3-DevKitC-1 v1.1"). */
  name: string;
  /** Normalized key of the base name; variants add `@<revision>`. */
  key: string;
  kind: ModelKind;
  /** Base product of a variant, parent product of a member, null for a product. */
  parent: string | null;
  /** Revision number of a variant ("1.1"), else null. */
  revision: string | null;
  /** Documents whose identity is this model (variants and their base both count). */
  docCount: number;
}

/** Where a document's identity came from. */
export type IdentitySource = 'folder' | 'file' | 'title';

/** What a document is about, as far as the vocabulary can tell. */
export interface DocIdentity {
  /** Canonical model name (a variant when the document carries a revision). */
  model: string;
  /** The product the model belongs to (the model itself for products). */
  base: string;
  source: IdentitySource;
  /** Category learned from the document and its model's other documents, or null. */
  category: string | null;
}

/** A model named in a text. */
export interface ModelMention {
  /** The text as written. */
  text: string;
  start: number;
  end: number;
  /** Canonical model name (variant when a known revision follows). */
  model: string;
  /** 0..1: lower for short aliases written in lowercase ("x4" may be a PCIe lane count). */
  confidence: number;
  /** Revision written after the name, known or not. */
  revision: string | null;
  /**
   * True when the words name one member of a family the vocabulary knows by a pattern ("LM7812A"
   * for the "LM78XX" datasheet): they say more than the model they resolve to.
   */
  byPattern?: boolean;
}

export type ModelRelation = 'same' | 'revision' | 'member' | 'sibling' | 'none';

/** What the vocabulary needs from a document. */
export interface VocabularyDocInput {
  id: string;
  title: string;
  text: string;
  metadata?: Record<string, string>;
  headings?: string[];
  /** H1 heading texts. */
  h1Headings?: string[];
  /** H2 heading texts. */
  h2Headings?: string[];
  /** Lines the parser found outside the body text (metadata title/subject, running headers), read like the title. */
  facts?: string[];
  /** `plainText(text)`, when the caller already computed it (it is the costly part of learning). */
  plain?: string;
}

type Counts = [number, number, number];

/** Per-document observations: the only stored state (everything else is derived). */
interface DocObservation {
  id: string;
  dirs: string[];
  stemKey: string | null;
  stemRevision: string | null;
  /** key -> surface -> counts by where. Keys: folder keys, the stem key, and their extensions. */
  surfaces: Record<string, Record<string, Counts>>;
  /** key -> capitalized word written right before it -> count (series words like "Cubie"). */
  prev: Record<string, Record<string, number>>;
  /** key -> revisions written after it in the title or front matter. */
  revisions: Record<string, string[]>;
  /** Key of the extended surface -> the folder/stem key it extends. */
  extensions: Record<string, string>;
  /** Stripped title key, for folders whose names have no digits. */
  titleKey: string;
  titleModel: { surface: string; revisions: string[] } | null;
  /** Models that H1/H2 headings consist of ("# RAC-228B Service Manual" in a stitched manual). */
  headingModels: string[];
  categories: Record<string, number>;
}

const countsSchema = z.tuple([z.number(), z.number(), z.number()]);
const observationSchema = z.object({
  id: z.string(),
  dirs: z.array(z.string()),
  stemKey: z.string().nullable(),
  stemRevision: z.string().nullable(),
  surfaces: z.record(z.string(), z.record(z.string(), countsSchema)),
  prev: z.record(z.string(), z.record(z.string(), z.number())),
  revisions: z.record(z.string(), z.array(z.string())),
  extensions: z.record(z.string(), z.string()),
  titleKey: z.string(),
  titleModel: z.object({ surface: z.string(), revisions: z.array(z.string()) }).nullable(),
  headingModels: z.array(z.string()),
  categories: z.record(z.string(), z.number()),
});
const vocabularyJsonSchema = z.object({
  version: z.literal(1),
  vendors: z.array(z.string()),
  docs: z.array(observationSchema),
});

/** The stored form of a vocabulary. */
export type VocabularyJson = z.infer<typeof vocabularyJsonSchema>;

interface Derived {
  entries: Map<string, ModelEntry>;
  byKey: Map<string, ModelEntry>;
  aliases: Map<string, Set<string>>;
  variants: Map<string, Map<string, ModelEntry>>;
  identities: Map<string, DocIdentity>;
  categories: Map<string, string | null>;
  /** Folder path -> product name, for identities of documents not yet added. */
  folderProducts: Map<string, string>;
  /** Folder or file key -> product name. */
  productOfKey: Map<string, string>;
  /**
   * Every prefix of every key and alias: a window whose key is not in here can neither resolve
   * nor grow into a key that does, so mention matching stops extending it (most tokens stop at one).
   */
  keyPrefixes: Set<string>;
  /** Each product's name words without vendor words (for families and nesting), built on first use. */
  productWords?: Map<ModelEntry, string[]>;
  /** Mentions in short texts (headings repeat in every chunk of their section). */
  shortMentions: Map<string, ModelMention[]>;
  /** Family patterns of names with placeholder digits ("LM78XX", "CH32V30x"), see `familyPattern`. */
  patterns: { pattern: RegExp; name: string }[];
}

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

function isInput(doc: NormalizedDocument | VocabularyDocInput): doc is VocabularyDocInput {
  return !('blocks' in doc);
}

function bump<K extends string>(rec: Record<K, number>, key: K, by = 1): void {
  rec[key] = (rec[key] ?? 0) + by;
}

/**
 * Fewest models, other than the folder's own and its members, that documents under a folder must
 * be titled after for the folder to be a collection of products rather than one product's pages.
 */
const COLLECTION_MODELS = 2;
/**
 * Least share of a collection's documents titled after another model. A product's folder may hold
 * a few pages titled after the carrier boards it fits (radxa's CM3J folder: 4 of 23); a folder of
 * products has many (m5stack's: 16 of 45).
 */
const COLLECTION_SHARE = 0.25;

/**
 * A folder named like a product ("m5stack", a vendor's name with a digit) whose documents are
 * titled after other models ("M5Core2", "M5Paper") holds many products: signing all of them with
 * the folder's name would make every sibling look like the same model.
 */
function isCollection(folderKey: string, titleModels: ReadonlySet<string>, otherTitledShare: number): boolean {
  let others = 0;
  for (const k of titleModels) if (!k.startsWith(folderKey) && !folderKey.startsWith(k)) others++;
  return others >= COLLECTION_MODELS && otherTitledShare >= COLLECTION_SHARE;
}

/** Fewest product keys that must start with a prefix for it to be a series prefix (see `mergePrefixed`). */
const SERIES_PREFIX_MODELS = 3;

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

/** Revisions written right after token `end` ("v1.1", "V4", "v4/v4.1", "Kit v1.3"). */
function revisionsAfter(text: string, toks: readonly ModelToken[], end: number): string[] {
  const out: string[] = [];
  let k = end + 1;
  const next = toks[k];
  if (next && next.kind === 'word' && REVISION_FILLERS.has(next.norm) && joinable(text.slice(toks[k - 1]!.end, next.start))) k++;
  while (k < toks.length && toks[k]!.kind === 'rev') {
    const gap = text.slice(toks[k - 1]!.end, toks[k]!.start);
    if (!(joinable(gap) || /^\s*\/\s*$/.test(gap))) break;
    out.push(toks[k]!.norm);
    k++;
  }
  return out;
}

/** Records every window of `text` whose key is interesting (or extends one) into `obs`. */
function scan(
  text: string,
  where: 0 | 1 | 2,
  interesting: readonly string[],
  obs: DocObservation,
  vendorKeys: ReadonlySet<string>,
): void {
  const toks = modelTokens(text);
  for (let i = 0; i < toks.length; i++) {
    const first = toks[i]!;
    if (first.kind !== 'word') continue;
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
      if (exact || base !== null) record(text, toks, i, j, key, where, obs, vendorKeys);
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
    bump((obs.prev[key] ??= {}), word);
  } else bump((obs.prev[key] ??= {}), '');
  if (where === 0) {
    const revs = revisionsAfter(text, toks, b);
    if (revs.length > 0) {
      const list = (obs.revisions[key] ??= []);
      for (const r of revs) if (!list.includes(r)) list.push(r);
    }
  }
}

function observe(input: VocabularyDocInput, vendorKeys: ReadonlySet<string>): DocObservation {
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
  scan(body, 2, interesting, obs, vendorKeys);
  addCategoryHits(titleish, 5, obs.categories);
  addCategoryHits((input.headings ?? []).join('\n'), 2, obs.categories, false);
  // The opening of a document says what the product is; later text mentions everything else.
  addCategoryHits(body.slice(0, INTRO_CHARS), 1, obs.categories, false);
  return obs;
}

function weight(c: Counts): number {
  return c[0] * WHERE_WEIGHT[0] + c[1] * WHERE_WEIGHT[1] + c[2] * WHERE_WEIGHT[2];
}

/** The best written form: most weight, then with capitals, then shortest. */
function bestSurface(surfaces: ReadonlyMap<string, number>): string | null {
  let best: string | null = null;
  let bestScore = -1;
  for (const [s, w] of surfaces) {
    const score = w * (/\p{Lu}/u.test(s) ? 2 : 1);
    if (score > bestScore || (score === bestScore && best !== null && s.length < best.length)) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

/** Merges written forms that differ only in "Plus" vs "+" ("ROCK 4C Plus" -> "ROCK 4C+"). */
function displayForms(surfaces: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [s, w] of surfaces) {
    const shown = s.replace(/\s*\bplus\b(?=\s|$)/gi, '+');
    out.set(shown, (out.get(shown) ?? 0) + w);
  }
  return out;
}

function addSurfaces(into: Map<string, number>, rec: Record<string, Counts> | undefined): number {
  let total = 0;
  for (const [s, c] of Object.entries(rec ?? {})) {
    const w = weight(c);
    into.set(s, (into.get(s) ?? 0) + w);
    total += w;
  }
  return total;
}

/** A series word written before >= 30% of occurrences ("Cubie" A7A, "Orion" O6), else null. */
function seriesWord(prev: ReadonlyMap<string, number>): string | null {
  let total = 0;
  let best = '';
  let bestN = 0;
  for (const [w, n] of prev) {
    total += n;
    if (w && n > bestN) {
      best = w;
      bestN = n;
    }
  }
  return bestN >= 3 && bestN * 10 >= total * 3 ? best : null;
}

function revisionName(base: string, revision: string): string {
  return `${base} v${revision}`;
}

/** The learned vocabulary of one library; see the module comment for the rules. */
export class ModelVocabulary {
  private readonly docs = new Map<string, DocObservation>();
  private readonly vendors: string[];
  /** The vendor words given at creation (none by default), used while observing documents. */
  private readonly vendorKeys: Set<string>;
  /** Vendor words learned from the library's documents (see `VENDOR_MIN_PRODUCTS`), display form by key. */
  private learnedVendors = new Map<string, string>();
  private derived: Derived | null = null;

  private constructor(vendors: readonly string[]) {
    this.vendors = [...vendors];
    this.vendorKeys = new Set(this.vendors.map((v) => nameKey(v)).filter(Boolean));
  }

  /**
   * An empty vocabulary; `vendors` are words stripped from model names ("Radxa ROCK 5B") on top of
   * those it learns from the library itself.
   */
  static create(options: { vendors?: readonly string[] } = {}): ModelVocabulary {
    return new ModelVocabulary(options.vendors ?? []);
  }

  /** Learns from all documents at once (convenience for imports and tests). */
  static fromDocuments(docs: Iterable<NormalizedDocument | VocabularyDocInput>, options: { vendors?: readonly string[] } = {}): ModelVocabulary {
    const v = ModelVocabulary.create(options);
    for (const d of docs) v.addDocument(d);
    return v;
  }

  /** Restores a stored vocabulary; a damaged one is `corrupt`. */
  static fromJSON(json: unknown): Result<ModelVocabulary> {
    const parsed = vocabularyJsonSchema.safeParse(json);
    if (!parsed.success) return fail('corrupt', 'The stored model vocabulary is damaged and must be rebuilt.');
    const v = new ModelVocabulary(parsed.data.vendors);
    for (const o of parsed.data.docs) v.docs.set(o.id, o);
    return ok(v);
  }

  toJSON(): VocabularyJson {
    return { version: 1, vendors: [...this.vendors], docs: [...this.docs.values()] };
  }

  /** Adds or replaces a document's observations. */
  addDocument(doc: NormalizedDocument | VocabularyDocInput): void {
    const input = isInput(doc) ? doc : vocabularyInput(doc);
    this.docs.set(input.id, observe(input, this.vendorKeys));
    this.derived = null;
  }

  /** Forgets a document; returns whether it was known. */
  removeDocument(id: string): boolean {
    const had = this.docs.delete(id);
    if (had) this.derived = null;
    return had;
  }

  hasDocument(id: string): boolean {
    return this.docs.has(id);
  }

  get documentCount(): number {
    return this.docs.size;
  }

  /** All models, products first, in name order. */
  models(): ModelEntry[] {
    const kindOrder: Record<ModelKind, number> = { product: 0, member: 1, variant: 2 };
    return [...this.derive().entries.values()].sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind] || a.name.localeCompare(b.name));
  }

  /** The vendor words this vocabulary strips. */
  vendorWords(): readonly string[] {
    this.derive();
    return [...this.vendors, ...[...this.learnedVendors].filter(([k]) => !this.vendorKeys.has(k)).map(([, w]) => w)];
  }

  /** Whether a token key is a vendor word, given or learned. */
  private isVendorKey(key: string): boolean {
    return this.vendorKeys.has(key) || this.learnedVendors.has(key);
  }

  /**
   * Capitalized words that make up at least half of what is written right before each of at least
   * `VENDOR_MIN_PRODUCTS` different product keys ("Radxa" before ROCK 5B, CM5, E20C ...). Words
   * that merely stand before a name now and then ("Board", "Overview") never dominate.
   */
  private learnVendors(): void {
    const prevOf = new Map<string, Map<string, number>>();
    const display = new Map<string, string>();
    for (const o of this.docs.values()) {
      for (const [key, words] of Object.entries(o.prev)) {
        const counts = prevOf.get(key) ?? new Map<string, number>();
        for (const [w, n] of Object.entries(words)) {
          const k = nameKey(w);
          if (!k || /\d/.test(k) || GENERIC_WORDS.has(k)) continue;
          counts.set(k, (counts.get(k) ?? 0) + n);
          if (!display.has(k)) display.set(k, w);
        }
        prevOf.set(key, counts);
      }
    }
    const topOf = new Map<string, number>();
    for (const counts of prevOf.values()) {
      let best = '';
      let bestN = 0;
      let total = 0;
      for (const [k, n] of counts) {
        total += n;
        if (n > bestN) [best, bestN] = [k, n];
      }
      // The vendor's name is most of what stands before its products, not one word among many.
      if (best && bestN * 2 >= total) topOf.set(best, (topOf.get(best) ?? 0) + 1);
    }
    this.learnedVendors = new Map([...topOf].filter(([, n]) => n >= VENDOR_MIN_PRODUCTS).map(([k]) => [k, display.get(k)!]));
  }

  /**
   * What a document is about. Documents not added yet are judged from their own path, title and
   * text against the products already known.
   */
  identityOf(doc: string | NormalizedDocument | VocabularyDocInput): DocIdentity | null {
    const d = this.derive();
    if (typeof doc === 'string') return d.identities.get(doc) ?? null;
    const stored = d.identities.get(doc.id);
    if (stored && this.docs.has(doc.id)) return stored;
    const obs = observe(isInput(doc) ? doc : vocabularyInput(doc), this.vendorKeys);
    const hasFolder = this.folderProductOf(obs, d) !== null;
    const stemKey = obs.stemKey && d.productOfKey.has(obs.stemKey) && this.stemWins(obs, hasFolder) ? obs.stemKey : null;
    const known = this.identityFor(obs, d, stemKey, false);
    if (known) return known;
    // A model the library does not know yet: the document's own file name or title names it.
    const category = bestCategory(obs.categories);
    const own = obs.stemKey && !hasFolder ? bestSurface(displayForms(new Map(Object.entries(obs.surfaces[obs.stemKey] ?? {}).map(([s, c]) => [s, weight(c)])))) : null;
    if (own) {
      const base = this.stripVendor(own);
      const rev = obs.revisions[obs.stemKey!]?.[0] ?? obs.stemRevision;
      return { model: rev ? revisionName(base, rev) : base, base, source: 'file', category };
    }
    if (obs.titleModel && !hasFolder) {
      const base = this.stripVendor(obs.titleModel.surface);
      const rev = obs.titleModel.revisions[0] ?? obs.stemRevision;
      return { model: rev ? revisionName(base, rev) : base, base, source: 'title', category };
    }
    return null;
  }

  /** The entry for a canonical name, key or unambiguous alias; null when unknown. */
  lookup(name: string): ModelEntry | null {
    const d = this.derive();
    const direct = d.entries.get(name);
    if (direct) return direct;
    const toks = modelTokens(name);
    const rev = toks.find((t) => t.kind === 'rev')?.norm ?? null;
    const words = toks.filter((t) => t.kind === 'word' && !this.isVendorKey(t.norm));
    const key = words.map((t) => t.norm).join('');
    const entry = this.resolveKey(key, d);
    if (!entry) return null;
    if (rev !== null) return d.variants.get(entry.name)?.get(rev) ?? entry;
    return entry;
  }

  /** The learned category of a model (or of its base / parent), or null. */
  categoryOf(model: string): string | null {
    const d = this.derive();
    let e = this.lookup(model);
    while (e) {
      const c = d.categories.get(e.name);
      if (c) return c;
      e = e.parent ? (d.entries.get(e.parent) ?? null) : null;
    }
    return null;
  }

  /** How two models relate: same, revisions of one base, member of the other, siblings, none. */
  relation(a: string, b: string): ModelRelation {
    const ea = this.lookup(a);
    const eb = this.lookup(b);
    if (!ea || !eb) {
      const ka = nameKey(a);
      const kb = nameKey(b);
      if (ka === kb) return 'same';
      return 'none';
    }
    if (ea.name === eb.name) return 'same';
    const baseA = ea.kind === 'variant' ? ea.parent! : ea.name;
    const baseB = eb.kind === 'variant' ? eb.parent! : eb.name;
    if (baseA === baseB) return 'revision';
    const parentA = this.derive().entries.get(baseA)?.parent ?? null;
    const parentB = this.derive().entries.get(baseB)?.parent ?? null;
    if (parentA === baseB || parentB === baseA) return 'member';
    if (parentA !== null && parentA === parentB) return 'sibling';
    return 'none';
  }

  /** The model, its base, the base's revisions and its parent product (for soft matching). */
  familyOf(model: string): string[] {
    const d = this.derive();
    const e = this.lookup(model);
    if (!e) return [];
    const base = e.kind === 'variant' ? e.parent! : e.name;
    const out = new Set<string>([e.name, base]);
    for (const v of d.variants.get(base)?.values() ?? []) out.add(v.name);
    const parent = d.entries.get(base)?.parent;
    if (parent) out.add(parent);
    return [...out];
  }

  /**
   * Every model named in `text`, longest name first, tolerant of case, spacing, hyphens,
   * "plus"/"+", vendor words and revision suffixes. "ROCK 5B/5B+" names two models.
   */
  findMentions(text: string): ModelMention[] {
    const d = this.derive();
    if (d.entries.size === 0) return [];
    if (text.length > SHORT_TEXT) return this.scanMentions(text, d);
    let found = d.shortMentions.get(text);
    if (!found) {
      if (d.shortMentions.size >= SHORT_CACHE_SIZE) d.shortMentions.clear();
      found = this.scanMentions(text, d);
      d.shortMentions.set(text, found);
    }
    return found.map((m) => ({ ...m }));
  }

  private scanMentions(text: string, d: Derived): ModelMention[] {
    const toks = modelTokens(text);
    const out: ModelMention[] = [];
    const families: ModelMention[] = [];
    let i = 0;
    while (i < toks.length) {
      const first = toks[i]!;
      // Most words begin no name: `matchAt` and `familyAt` would both stop at this same test, after
      // allocating their windows (a third of the import's allocation was this scan's).
      if (first.kind !== 'word' || !d.keyPrefixes.has(first.norm)) {
        const member = this.patternMention(first, d);
        if (member) out.push(member);
        i++;
        continue;
      }
      const m = this.matchAt(text, toks, i, d, []);
      if (!m) {
        // Names may start inside a family's words ("Seeed XIAO nRF52840" holds "XIAO nRF52840"),
        // so the scan goes on at the next word.
        families.push(...(this.familyAt(text, toks, i, d) ?? []));
        const member = this.patternMention(toks[i]!, d);
        if (member) out.push(member);
        i++;
        continue;
      }
      out.push(m.mention);
      let end = m.end;
      // "ROCK 5B/5B+", "ZERO 3W/3E", "v4/v4.1": names after a slash reuse the series words before.
      while (end + 1 < toks.length && /^\s*\/\s*$/.test(text.slice(toks[end]!.end, toks[end + 1]!.start))) {
        const next = toks[end + 1]!;
        if (next.kind === 'rev') {
          const v = d.variants.get(m.base)?.get(next.norm);
          out.push({ text: next.raw, start: next.start, end: next.end, model: v?.name ?? m.base, confidence: v ? m.mention.confidence : 0.5, revision: next.norm });
          end++;
          continue;
        }
        const chained = this.matchAt(text, toks, end + 1, d, m.prefix);
        if (!chained) break;
        out.push(chained.mention);
        end = chained.end;
      }
      i = end + 1;
    }
    if (families.length === 0) return out;
    // A weaker mention inside a family's words is a piece of it ("R4" of "UNO R4"), not a name of
    // its own; the family stands in for a name only when the text names no model outright ("the
    // ESP-Prog-2's own ESP32-S3" is about the ESP-Prog-2, not every ESP32-S3 board).
    const named = out.filter((m) => m.confidence >= FAMILY_CONFIDENCE || !families.some((f) => m.start >= f.start && m.end <= f.end));
    if (named.some((m) => m.confidence >= FAMILY_CONFIDENCE)) return named;
    return [...named, ...families].sort((a, b) => a.start - b.start);
  }

  /**
   * Two or more words that begin the names of several products and end no name ("UNO R4" before
   * "UNO R4 Minima" and "UNO R4 WiFi"): the question names that family, so each member is a
   * mention, and the words inside it are not read again on their own ("R4" alone is another
   * product's short name). Needs a letter+digit code in the words, like an alias.
   */
  private familyAt(text: string, toks: readonly ModelToken[], i: number, d: Derived): ModelMention[] | null {
    const words: string[] = [];
    let best: { words: string[]; end: number } | null = null;
    for (let j = i; j < toks.length && j < i + MAX_WINDOW; j++) {
      const t = toks[j]!;
      if (t.kind !== 'word') break;
      if (j > i && !joinable(text.slice(toks[j - 1]!.end, t.start))) break;
      words.push(t.norm);
      if (!d.keyPrefixes.has(words.join(''))) break;
      // The family's last word is its code ("UNO R4"): "ESP32-S3 USB" is a chip and a word.
      if (j > i && /\p{L}/u.test(words.join('')) && /\d/.test(t.norm)) best = { words: [...words], end: j };
    }
    if (!best) return null;
    const family = best.words;
    // Members continue the family at a word boundary ("ESP32-S31-Korvo" is not of "ESP32-S3").
    const members = [...this.productWords(d)]
      .filter(([, name]) => name.length > family.length && family.every((w, k) => name[k] === w))
      .map(([e]) => e);
    if (members.length === 0) return null;
    const start = toks[i]!.start;
    const end = toks[best.end]!.end;
    return members.map((e) => ({ text: text.slice(start, end), start, end, model: e.name, confidence: FAMILY_CONFIDENCE, revision: null }));
  }

  /** A code the vocabulary does not know that fits exactly one family pattern ("LM7812A" -> "LM78XX"). */
  private patternMention(tok: ModelToken, d: Derived): ModelMention | null {
    if (d.patterns.length === 0 || tok.kind !== 'word' || !isCodeToken(tok.norm) || isUnitLike(tok.norm)) return null;
    const names = new Set(d.patterns.filter((p) => p.pattern.test(tok.norm)).map((p) => p.name));
    if (names.size !== 1) return null;
    return { text: tok.raw, start: tok.start, end: tok.end, model: [...names][0]!, confidence: 0.9, revision: null, byPattern: true };
  }

  private matchAt(
    text: string,
    toks: readonly ModelToken[],
    i: number,
    d: Derived,
    prefix: readonly string[],
  ): { mention: ModelMention; end: number; base: string; prefix: string[] } | null {
    const first = toks[i]!;
    if (first.kind !== 'word') return null;
    const keys: string[] = [];
    let key = prefix.join('');
    for (let j = i; j < toks.length && j < i + MAX_WINDOW; j++) {
      const t = toks[j]!;
      if (t.kind !== 'word') break;
      if (j > i && !joinable(text.slice(toks[j - 1]!.end, t.start))) break;
      key += t.norm;
      if (!d.keyPrefixes.has(key)) break;
      keys.push(key);
    }
    for (let L = keys.length; L >= 1; L--) {
      const entry = this.resolveKey(keys[L - 1]!, d);
      if (!entry) continue;
      const endTok = toks[i + L - 1]!;
      const surface = text.slice(first.start, endTok.end);
      const confidence = this.confidence(entry, surface, keys[L - 1]!, toks, i, text, prefix.length > 0);
      if (confidence <= 0) continue;
      let model = entry.name;
      let end = i + L - 1;
      let revision: string | null = null;
      let conf = confidence;
      let mentionEnd = endTok.end;
      const revs = revisionsAfter(text, toks, end);
      if (revs.length > 0) {
        revision = revs[0]!;
        const v = d.variants.get(entry.name)?.get(revision);
        if (v) model = v.name;
        else conf = Math.max(0.1, conf - 0.1);
        // Skip the filler word and the first revision; later ones are handled as a slash chain.
        while (end + 1 < toks.length && toks[end + 1]!.kind !== 'rev') end++;
        end++;
        mentionEnd = toks[end]!.end;
      }
      const windowToks = toks.slice(i, i + L).map((t) => t.norm);
      const seriesPrefix = [...prefix, ...windowToks.slice(0, -1)];
      return {
        mention: { text: text.slice(first.start, mentionEnd), start: first.start, end: mentionEnd, model, confidence: conf, revision },
        end,
        base: entry.name,
        prefix: seriesPrefix,
      };
    }
    return null;
  }

  private confidence(entry: ModelEntry, surface: string, key: string, toks: readonly ModelToken[], i: number, text: string, chained: boolean): number {
    const prevTok = toks[i - 1];
    const afterVendor = !!prevTok && prevTok.kind === 'word' && this.isVendorKey(prevTok.norm) && joinable(text.slice(prevTok.end, toks[i]!.start));
    const flat = (s: string): string => s.replace(/[\s\-_®™]+/g, '');
    const canonicalCase = flat(entry.name).endsWith(flat(surface));
    if (!/\d/.test(key)) {
      // Digit-free names ("ZERO", "AirBox") are ordinary words unless written the way the product is.
      if (key.length < 3) return 0;
      if (canonicalCase || afterVendor) return 0.8;
      if (key.length >= 6 || /[-_]/.test(surface)) return 0.5;
      return 0;
    }
    if (chained || afterVendor || key.length >= 4) return 1;
    // A two-character alias ("S0" for ROCK Pi S0, "O6" for Orion O6) is also a pin or part name.
    if (key !== entry.key && key.length <= 2) return 0.6;
    // Short codes also name other things: "PCIe 3.0 x4" is a lane count, not the Radxa X4.
    const before = toks
      .slice(Math.max(0, i - 3), i)
      .map((t) => t.norm)
      .join(' ');
    if (/\b(?:pcie|lanes?|gen\d?)\b/.test(before)) return 0.2;
    if (canonicalCase) return 0.8;
    return key.length <= 2 ? 0.4 : 0.6;
  }

  private resolveKey(key: string, d: Derived): ModelEntry | null {
    if (!key) return null;
    const e = d.byKey.get(key);
    if (e) return e;
    const names = d.aliases.get(key);
    if (names && names.size === 1) return d.entries.get([...names][0]!) ?? null;
    return null;
  }

  private derive(): Derived {
    if (this.derived) return this.derived;
    this.learnVendors();
    const d: Derived = {
      entries: new Map(),
      byKey: new Map(),
      aliases: new Map(),
      variants: new Map(),
      identities: new Map(),
      categories: new Map(),
      folderProducts: new Map(),
      productOfKey: new Map(),
      keyPrefixes: new Set(),
      shortMentions: new Map(),
      patterns: [],
    };
    // 1. Aggregate each folder's evidence over the documents under it.
    interface FolderAgg {
      key: string;
      surfaces: Map<string, number>;
      weight: number;
      prev: Map<string, number>;
      directTitleKeys: Set<string>;
      /** Keys of the models that documents under the folder are titled after ("M5Paper", "M5Core2"). */
      titleModels: Set<string>;
      /** Documents under the folder, and those of them titled after a model other than the folder's. */
      docs: number;
      otherTitled: number;
    }
    const folders = new Map<string, FolderAgg>();
    for (const o of this.docs.values()) {
      for (let depth = 0; depth < o.dirs.length; depth++) {
        const path = o.dirs.slice(0, depth + 1).join('/');
        const key = nameKey(o.dirs[depth]!);
        let agg = folders.get(path);
        if (!agg) {
          agg = { key, surfaces: new Map(), weight: 0, prev: new Map(), directTitleKeys: new Set(), titleModels: new Set(), docs: 0, otherTitled: 0 };
          folders.set(path, agg);
        }
        agg.weight += addSurfaces(agg.surfaces, o.surfaces[key]);
        for (const [w, n] of Object.entries(o.prev[key] ?? {})) agg.prev.set(w, (agg.prev.get(w) ?? 0) + n);
        if (depth === o.dirs.length - 1) agg.directTitleKeys.add(o.titleKey);
        agg.docs++;
        if (o.titleModel) {
          const k = nameKey(this.stripVendor(o.titleModel.surface));
          agg.titleModels.add(k);
          if (!k.startsWith(key) && !key.startsWith(k)) agg.otherTitled++;
        }
      }
    }
    // 2. Product folders: the folder name is written out in its documents.
    const productSurfaces = new Map<string, { surfaces: Map<string, number>; prev: Map<string, number> }>();
    const gather = (key: string, surfaces: Iterable<[string, number]>, prev: Iterable<[string, number]>): void => {
      const ps = productSurfaces.get(key) ?? { surfaces: new Map<string, number>(), prev: new Map<string, number>() };
      for (const [s, w] of surfaces) ps.surfaces.set(s, (ps.surfaces.get(s) ?? 0) + w);
      for (const [w, n] of prev) ps.prev.set(w, (ps.prev.get(w) ?? 0) + n);
      productSurfaces.set(key, ps);
    };
    const folderKeyOfPath = new Map<string, string>();
    for (const [path, agg] of folders) {
      if (agg.key.length < 2 || agg.weight === 0) continue;
      if (!/\d/.test(agg.key) && !(agg.key.length >= 3 && agg.directTitleKeys.has(agg.key))) continue;
      if (isCollection(agg.key, agg.titleModels, agg.otherTitled / agg.docs)) continue;
      folderKeyOfPath.set(path, agg.key);
      gather(agg.key, agg.surfaces, agg.prev);
    }
    const folderPathOf = (o: DocObservation): string | null => {
      for (let depth = o.dirs.length; depth >= 1; depth--) {
        const path = o.dirs.slice(0, depth).join('/');
        if (folderKeyOfPath.has(path)) return path;
      }
      return null;
    };
    // 3. Product files: named after a model written out in them, and winning over their folder.
    const stemOf = new Map<string, string>();
    for (const o of this.docs.values()) {
      if (!o.stemKey) continue;
      const rec = o.surfaces[o.stemKey];
      if (!rec || Object.keys(rec).length === 0) continue;
      if (!this.stemWins(o, folderPathOf(o) !== null)) continue;
      stemOf.set(o.id, o.stemKey);
      gather(o.stemKey, Object.entries(rec).map(([s, c]) => [s, weight(c)]), Object.entries(o.prev[o.stemKey] ?? {}));
    }
    const addEntry = (e: ModelEntry): ModelEntry => {
      const existing = d.entries.get(e.name) ?? d.byKey.get(e.key);
      if (existing) return existing;
      d.entries.set(e.name, e);
      d.byKey.set(e.key, e);
      return e;
    };
    for (const [pkey, ps] of productSurfaces) {
      let name = bestSurface(displayForms(ps.surfaces));
      if (!name) continue;
      const series = seriesWord(new Map([...ps.prev].filter(([w]) => !this.isVendorKey(nameKey(w)))));
      if (series && !nameKey(name).startsWith(nameKey(series))) name = `${series} ${name}`;
      name = this.stripVendor(name);
      const entry = addEntry({ name, key: this.entryKey(name), kind: 'product', parent: null, revision: null, docCount: 0 });
      d.productOfKey.set(pkey, entry.name);
      if (entry.key !== pkey) this.addAlias(d, pkey, entry.name);
    }
    for (const [path, key] of folderKeyOfPath) {
      const name = d.productOfKey.get(key);
      if (name) d.folderProducts.set(path, name);
    }
    // 4. Title models of documents without a product folder or file.
    for (const o of this.docs.values()) {
      if (!o.titleModel || stemOf.has(o.id) || this.folderProductOf(o, d)) continue;
      const name = this.stripVendor(o.titleModel.surface);
      addEntry({ name, key: this.entryKey(name), kind: 'product', parent: null, revision: null, docCount: 0 });
    }
    // 4b. Models that whole H1/H2 headings name (sub-documents of a stitched manual).
    for (const o of this.docs.values()) {
      for (const h of o.headingModels) {
        const name = this.stripVendor(h);
        addEntry({ name, key: this.entryKey(name), kind: 'product', parent: null, revision: null, docCount: 0 });
      }
    }
    // 4c. One model written with and without a series prefix ("M5Core2" and "Core2").
    this.mergePrefixed(d);
    // 5. Identities (and the variants they name).
    const catByBase = new Map<string, Record<string, number>>();
    for (const o of this.docs.values()) {
      const id = this.identityFor(o, d, stemOf.get(o.id) ?? null, true);
      if (!id) continue;
      d.identities.set(o.id, id);
      const rec = catByBase.get(id.base) ?? {};
      for (const [c, n] of Object.entries(o.categories)) bump(rec, c, n);
      catByBase.set(id.base, rec);
    }
    // 6. Members: extensions of a product's key written often enough in its documents.
    const memberAgg = new Map<string, { base: string; baseKey: string; surfaces: Map<string, number>; weight: number }>();
    for (const o of this.docs.values()) {
      for (const [extKey, baseKey] of Object.entries(o.extensions)) {
        const baseName = d.productOfKey.get(baseKey);
        if (!baseName) continue;
        const agg = memberAgg.get(extKey) ?? { base: baseName, baseKey, surfaces: new Map(), weight: 0 };
        // The longest product key any document extends wins ("ROCK 5B+" extends ROCK 5B, not the
        // ROCK 5 series), whichever document happened to be seen first.
        if (baseKey.length > agg.baseKey.length) {
          agg.base = baseName;
          agg.baseKey = baseKey;
        }
        agg.weight += addSurfaces(agg.surfaces, o.surfaces[extKey]);
        memberAgg.set(extKey, agg);
      }
    }
    for (const [extKey, agg] of memberAgg) {
      if (agg.weight < MIN_MEMBER_WEIGHT || d.byKey.has(extKey) || d.productOfKey.has(extKey)) continue;
      const surface = bestSurface(agg.surfaces);
      if (!surface) continue;
      const name = this.memberName(agg.base, surface, extKey);
      const e = addEntry({ name, key: this.entryKey(name), kind: 'member', parent: agg.base, revision: null, docCount: 0 });
      if (e.key !== extKey) this.addAlias(d, extKey, e.name);
    }
    // 6b. A product named as another product and further words without digits ("XIAO nRF52840
    // Sense" beside "XIAO nRF52840", learned from folders of their own) is that product's member.
    this.nestProducts(d);
    // 7. Aliases: names without their leading series/family tokens ("Cubie A7A" -> "A7A").
    for (const e of d.entries.values()) if (e.kind !== 'variant') this.addDerivedAliases(d, e);
    // 8. Categories per base product, then on identities (the model's, else the document's own).
    for (const e of d.entries.values()) {
      if (e.kind !== 'variant') d.categories.set(e.name, bestCategory(catByBase.get(e.name) ?? {}));
    }
    this.inheritSeriesCategories(d);
    for (const [docId, id] of d.identities) {
      id.category = d.categories.get(id.base) ?? bestCategory(this.docs.get(docId)?.categories ?? {});
    }
    for (const key of [...d.byKey.keys(), ...d.aliases.keys()]) {
      for (let n = 1; n <= key.length; n++) d.keyPrefixes.add(key.slice(0, n));
    }
    for (const e of d.entries.values()) {
      if (e.kind === 'variant') continue;
      for (const t of modelTokens(e.name)) {
        const pattern = t.kind === 'word' ? familyPattern(t.raw) : null;
        if (pattern) d.patterns.push({ pattern, name: e.name });
      }
    }
    this.derived = d;
    return d;
  }

  /**
   * A product whose own documents never name its family takes the family named by the pages
   * directly in an enclosing folder (the series page: "E Series - Network Computer").
   */
  private inheritSeriesCategories(d: Derived): void {
    const direct = new Map<string, Record<string, number>>();
    for (const o of this.docs.values()) {
      const path = o.dirs.join('/');
      const rec = direct.get(path) ?? {};
      for (const [c, n] of Object.entries(o.categories)) bump(rec, c, n);
      direct.set(path, rec);
    }
    for (const [docId, id] of d.identities) {
      if (d.categories.get(id.base)) continue;
      const dirs = this.docs.get(docId)?.dirs ?? [];
      for (let depth = dirs.length - 1; depth >= 1; depth--) {
        const c = bestCategory(direct.get(dirs.slice(0, depth).join('/')) ?? {});
        if (c) {
          d.categories.set(id.base, c);
          break;
        }
      }
    }
  }

  /** A product file beats its folder only with its own revision (a separate board's manual). */
  private stemWins(o: DocObservation, hasFolderProduct: boolean): boolean {
    return !hasFolderProduct || o.stemRevision !== null || (o.stemKey !== null && (o.revisions[o.stemKey]?.length ?? 0) > 0);
  }

  private folderProductOf(o: DocObservation, d: Derived): string | null {
    for (let depth = o.dirs.length; depth >= 1; depth--) {
      const p = d.folderProducts.get(o.dirs.slice(0, depth).join('/'));
      if (p) return p;
    }
    return null;
  }

  /** `commit`: count documents and register new variants (false for documents not added). */
  private identityFor(o: DocObservation, d: Derived, stemKey: string | null, commit: boolean): DocIdentity | null {
    const folderProduct = this.folderProductOf(o, d);
    let product: ModelEntry | null = null;
    let source: IdentitySource = 'folder';
    const stemName = stemKey ? d.productOfKey.get(stemKey) : undefined;
    if (stemName) {
      product = d.entries.get(stemName) ?? null;
      source = 'file';
    } else if (folderProduct) {
      product = d.entries.get(folderProduct) ?? null;
    } else if (o.titleModel) {
      product = this.resolveKey(this.entryKey(this.stripVendor(o.titleModel.surface)), d);
      source = 'title';
    }
    if (!product) return null;
    // The revision this document is written for: from its title, else from its file name.
    let revisions: string[] = [];
    for (const [k, name] of d.productOfKey) if (name === product.name && o.revisions[k]?.length) revisions = o.revisions[k]!;
    if (revisions.length === 0 && o.revisions[product.key]?.length) revisions = o.revisions[product.key]!;
    if (revisions.length === 0 && source === 'title' && o.titleModel) revisions = o.titleModel.revisions;
    if (revisions.length === 0 && o.stemRevision !== null) revisions = [o.stemRevision];
    let model = product.name;
    if (revisions.length > 0) {
      if (commit) {
        // Every revision the title names is a variant; the first is the document's own.
        const own = this.variant(d, product, revisions[0]!);
        for (const r of revisions.slice(1)) this.variant(d, product, r);
        own.docCount++;
        model = own.name;
      } else model = d.variants.get(product.name)?.get(revisions[0]!)?.name ?? revisionName(product.name, revisions[0]!);
    }
    if (commit) product.docCount++;
    const category = commit ? null : (d.categories.get(product.name) ?? bestCategory(o.categories));
    return { model, base: product.name, source, category };
  }

  private variant(d: Derived, base: ModelEntry, revision: string): ModelEntry {
    const byRev = d.variants.get(base.name) ?? new Map<string, ModelEntry>();
    d.variants.set(base.name, byRev);
    let v = byRev.get(revision);
    if (!v) {
      v = { name: revisionName(base.name, revision), key: `${base.key}@${revision}`, kind: 'variant', parent: base.name, revision, docCount: 0 };
      byRev.set(revision, v);
      d.entries.set(v.name, v);
    }
    return v;
  }

  /** "<parent><suffix as written>": "ROCK 5B" + "5B+" -> "ROCK 5B+", "ROCK 5T" + "Industrial" -> "ROCK 5T Industrial". */
  private memberName(parent: string, surface: string, extKey: string): string {
    const toks = modelTokens(surface).filter((t) => t.kind === 'word');
    const last = toks[toks.length - 1];
    const parentKey = this.entryKey(parent);
    if (!last) return this.stripVendor(surface);
    if (last.norm === '+') return `${parent}+`;
    for (let n = 1; n <= 3 && n < last.raw.length; n++) {
      const suffix = last.raw.slice(-n);
      if (`${parentKey}${suffix.toLowerCase()}` === extKey) return `${parent}${suffix}`;
    }
    if (SUFFIX_WORDS.has(last.norm) && `${parentKey}${last.norm}` === extKey) return `${parent} ${last.raw}`;
    return this.stripVendor(surface);
  }

  private stripVendor(name: string): string {
    const toks = modelTokens(name);
    const i = this.vendorLead(toks);
    return name.slice(toks[i]?.start ?? 0).replace(/[®™]/g, '').replace(/\s+/g, ' ').trim();
  }

  /**
   * How many leading tokens of a name are its vendor's: the vendor words, and the capitalised
   * words before one ("Seeed" of "Seeed Studio XIAO RP2350" when "Studio" is the learned vendor
   * word: a two-word vendor name whose first word stands before other words too).
   */
  private vendorLead(toks: readonly ModelToken[]): number {
    let lead = 0;
    for (let j = 0; j < toks.length - 1; j++) {
      const t = toks[j]!;
      if (t.kind !== 'word' || /\d/.test(t.norm) || !/^\p{Lu}/u.test(t.raw)) break;
      if (this.isVendorKey(t.norm)) lead = j + 1;
    }
    return lead;
  }

  private entryKey(name: string): string {
    const toks = modelTokens(name);
    return toks
      .slice(this.vendorLead(toks))
      .filter((t) => t.kind === 'word' && !this.isVendorKey(t.norm))
      .map((t) => t.norm)
      .join('');
  }

  /**
   * Merges products whose keys differ only by a leading series prefix that at least
   * `SERIES_PREFIX_MODELS` product keys start with ("m5" in "m5core2", "m5paper", "m5stickc"):
   * "Core2" (a folder) and "M5Core2" (a title) are then one model, the prefixed name canonical and
   * the bare one its alias. A prefix only a pair shares ("rock" in "rock5b" / "5b") is not enough.
   */
  private mergePrefixed(d: Derived): void {
    const products = [...d.entries.values()].filter((e) => e.kind === 'product');
    // Counted and indexed once instead of comparing every pair of keys, which grew with the square
    // of the vocabulary (4 s for a parts list of 3,000 codes, at every opening of its library).
    // How many keys start with each prefix of 2+ characters shorter than themselves:
    const startingWith = new Map<string, number>();
    for (const e of products) {
      for (let n = 2; n < e.key.length; n++) {
        const prefix = e.key.slice(0, n);
        startingWith.set(prefix, (startingWith.get(prefix) ?? 0) + 1);
      }
    }
    // For each key, the longer products ending with it after a prefix of 2+ characters, in entry
    // order: with `short` in entry order, the pairs come in the order a full comparison met them.
    const productKeys = new Set(products.map((e) => e.key));
    const longerEndingWith = new Map<string, ModelEntry[]>();
    for (const long of products) {
      for (let cut = 2; cut < long.key.length; cut++) {
        const suffix = long.key.slice(cut);
        if (!productKeys.has(suffix)) continue;
        const longs = longerEndingWith.get(suffix);
        if (longs) longs.push(long);
        else longerEndingWith.set(suffix, [long]);
      }
    }
    for (const short of products) {
      for (const long of longerEndingWith.get(short.key) ?? []) {
        if (!d.entries.has(short.name) || !d.entries.has(long.name)) continue;
        const prefix = long.key.slice(0, long.key.length - short.key.length);
        if ((startingWith.get(prefix) ?? 0) < SERIES_PREFIX_MODELS) continue;
        d.entries.delete(short.name);
        d.byKey.delete(short.key);
        for (const [k, name] of d.productOfKey) if (name === short.name) d.productOfKey.set(k, long.name);
        for (const [path, name] of d.folderProducts) if (name === short.name) d.folderProducts.set(path, long.name);
        for (const names of d.aliases.values()) if (names.delete(short.name)) names.add(long.name);
        this.addAlias(d, short.key, long.name);
      }
    }
  }

  /**
   * Sets each product's parent to the product whose name its own begins with, when what follows
   * has no digit ("XIAO nRF52840 Sense" of "XIAO nRF52840", "Timer Camera F" of "Timer Camera"):
   * the base's pages (a comparison table signed with the base) then count as the member's family.
   */
  private nestProducts(d: Derived): void {
    const named = [...this.productWords(d)].filter(([e]) => e.parent === null).map(([e, w]) => ({ e, w }));
    // The base is looked up by the long name's leading words, longest first, instead of comparing
    // every pair of products (which grew with the square of the vocabulary). Same base as that
    // comparison: the longest word sequence, and of equal ones the first in entry order.
    const firstWithWords = new Map<string, ModelEntry>();
    for (const { e, w } of named) {
      const words = w.join(' ');
      if (w.length > 0 && !firstWithWords.has(words)) firstWithWords.set(words, e);
    }
    for (const long of named) {
      for (let n = long.w.length - 1; n >= 1; n--) {
        if (long.w.slice(n).some((t) => /\d/.test(t))) break;
        const base = firstWithWords.get(long.w.slice(0, n).join(' '));
        if (base) {
          long.e.parent = base.name;
          break;
        }
      }
    }
  }

  /** Each product's name words without vendor words, in entry order (computed once per derivation). */
  private productWords(d: Derived): Map<ModelEntry, string[]> {
    if (!d.productWords) {
      d.productWords = new Map();
      for (const e of d.entries.values()) {
        if (e.kind !== 'product') continue;
        const words = modelTokens(e.name)
          .filter((t) => t.kind === 'word' && !this.isVendorKey(t.norm))
          .map((t) => t.norm);
        d.productWords.set(e, words);
      }
    }
    return d.productWords;
  }

  private addAlias(d: Derived, alias: string, name: string): void {
    if (!alias) return;
    const set = d.aliases.get(alias) ?? new Set<string>();
    set.add(name);
    d.aliases.set(alias, set);
  }

  private addDerivedAliases(d: Derived, e: ModelEntry): void {
    const toks = modelTokens(e.name).filter((t) => t.kind === 'word' && !this.isVendorKey(t.norm));
    const norms = toks.map((t) => t.norm);
    const variants: string[][] = [norms];
    // "ESP32-S3-DevKitC-1" is also written without its trailing board index ("S3 DevKitC").
    const gluedLast = toks.length >= 3 && /^\d+$/.test(norms[norms.length - 1]!) && /^[-_]$/.test(e.name.slice(toks[toks.length - 2]!.end, toks[toks.length - 1]!.start));
    if (gluedLast) variants.push(norms.slice(0, -1));
    // "CH32H417 Evaluation Board" is named "CH32H417", "CH592EVT" (an evaluation kit) "CH592".
    let core = norms;
    while (core.length > 1 && PRODUCT_TYPE_WORDS.has(core[core.length - 1]!)) core = core.slice(0, -1);
    if (core.length < norms.length) variants.push(core);
    const kit = core[core.length - 1]!.match(KIT_SUFFIX);
    if (kit) variants.push([...core.slice(0, -1), kit[1]!]);
    for (const v of variants) {
      for (let drop = 0; drop < v.length; drop++) {
        const rest = v.slice(drop);
        const alias = rest.join('');
        if (alias === e.key) continue;
        // An alias must still carry a letter+digit code, and a lone token must start with a letter:
        // "5B" or "3A" alone read as voltages and currents far more often than as models.
        // "Kaluga-1", "Note 10+": a board index after a distinctive word counts as a code too.
        const indexed = rest.length >= 2 && /^\d+\+?$/.test(rest[rest.length - 1]!) && /^\p{L}{4,}$/u.test(rest[rest.length - 2]!);
        const hasCode = indexed || rest.some((t) => isCodeToken(t) && !isUnitLike(t));
        if (!hasCode) continue;
        if (rest.length === 1 && !/^\p{L}/u.test(rest[0]!)) continue;
        this.addAlias(d, alias, e.name);
      }
    }
  }
}
