import type { Chunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { DocIdentity, ModelMention, ModelVocabulary } from './model-vocabulary';
import { patternEntities } from './keys.heuristic';
import { termCounts } from './term-stats';
import { contentTerms, plainText } from './text.util';

/**
 * What the heuristic stages read from one chunk, computed once: its prose, its content terms and
 * the models it names, split by where (section headings and tab labels vs body text).
 */

export interface ChunkView {
  chunk: Chunk;
  /** Readable prose of the chunk (no markup). */
  plain: string;
  /** How often each content term of `plain` that keywords weigh occurs (`termCounts`), for TF-IDF. */
  termCounts: Map<string, number>;
  /** Distinct content terms, for lexical similarity. */
  terms: Set<string>;
  /** Entities found by pattern in `plain`, in order (`patternEntities`). */
  entities: string[];
  /** Models named by the enclosing heading path below the document title, outermost first. */
  pathMentions: ModelMention[];
  /** Models named by headings, tab labels or the opening caption line inside the chunk, in order. */
  localMentions: ModelMention[];
  /** Models named in body text (confident mentions only). */
  bodyMentions: ModelMention[];
  /** Headings that start inside the chunk, with their level. */
  headings: { level: number; text: string }[];
  /** Heading path in force at the chunk's end (its start path is `chunk.headingPath`). */
  endPath: string[];
}

/** Mentions below this confidence are ignored in chunks ("x4" lanes, lowercase "zero"). */
export const CHUNK_MENTION_MIN_CONFIDENCE = 0.8;

/** An ATX Markdown heading line: its hashes (the level) and its text, closing hashes left out. */
export const HEADING_LINE = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/gm;

/** One line as a heading (`HEADING_LINE` without its global flags, for one line at a time: `exec` and `test` keep no state). */
export const HEADING_ONE_LINE = new RegExp(HEADING_LINE.source);

/** Heading path of the last heading block starting before `end` (blocks are sorted). */
function pathAt(doc: NormalizedDocument | null, end: number, fallback: string[]): string[] {
  if (!doc) return fallback;
  let lo = 0;
  let hi = doc.blocks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (doc.blocks[mid]!.start < end) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 ? doc.blocks[found]!.headingPath : fallback;
}

/**
 * An element of JSX/MDX or HTML components that labels what it holds: a capitalized tag with a
 * `label` or `value` attribute (a tab panel of a docs site, `<Tab label="Windows">`), closed by the
 * same tag name. Written for the tag shape, not for any one site generator.
 */
const LABELLED_EDGE = /<([A-Z][\w.]*)\b[^>]*?\b(?:label|value)=["']([^"']+)["'][^>]*>|<\/([A-Z][\w.]*)>/g;

interface LabelledRegion {
  start: number;
  end: number;
  label: string;
}

/** The labelled regions of a document, innermost last; cached (documents are immutable once normalized). */
const regionsOf = new WeakMap<NormalizedDocument, LabelledRegion[]>();

function labelledRegions(doc: NormalizedDocument): LabelledRegion[] {
  let regions = regionsOf.get(doc);
  if (regions) return regions;
  regions = [];
  const open: { tag: string; label: string; start: number }[] = [];
  for (const m of doc.text.matchAll(LABELLED_EDGE)) {
    if (m[1] !== undefined) open.push({ tag: m[1], label: m[2]!, start: m.index });
    else {
      const k = open.map((o) => o.tag).lastIndexOf(m[3]!);
      if (k < 0) continue;
      const o = open.splice(k)[0]!;
      regions.push({ start: o.start, end: m.index, label: o.label });
    }
  }
  regionsOf.set(doc, regions);
  return regions;
}

/** Label of the labelled element still open at `offset`: the chunk starts inside it. */
function openTabAt(doc: NormalizedDocument | null, offset: number): string | null {
  if (!doc || offset <= 0) return null;
  let best: LabelledRegion | null = null;
  for (const r of labelledRegions(doc)) if (r.start < offset && r.end >= offset && (!best || r.start > best.start)) best = r;
  return best ? best.label : null;
}

/**
 * The tab labels a chunk's text falls under, by share of characters: the dominant tab alone when it
 * covers >= 60% of the chunk, else every tab covering >= 15% (a chunk that starts inside a tab
 * counts that tab even though its opening tag is in the previous chunk).
 */
function tabLabels(chunk: Chunk, doc: NormalizedDocument | null): string[] {
  const share = new Map<string, number>();
  let current = openTabAt(doc, chunk.start);
  let last = 0;
  const add = (upTo: number): void => {
    if (current !== null) share.set(current, (share.get(current) ?? 0) + (upTo - last));
  };
  for (const m of chunk.text.matchAll(LABELLED_EDGE)) {
    add(m.index);
    current = m[2] ?? null;
    if (current !== null && !share.has(current)) share.set(current, 0);
    last = m.index + m[0].length;
  }
  add(chunk.text.length);
  const total = Math.max(1, chunk.text.length);
  const ranked = [...share].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return [];
  if (ranked[0]![1] >= 0.6 * total) return [ranked[0]![0]];
  const some = ranked.filter(([, n]) => n >= 0.15 * total).map(([l]) => l);
  return some.length > 0 ? some : ranked.map(([l]) => l);
}

/** A line that is bold as a whole ("**CM4 IO Board**", "__CM4 IO Board__"). */
const BOLD_LINE = /^(\*\*|__)(\S(?:.*\S)?)\1$/;
/**
 * Caption text: up to 40 characters, not a list item, heading, table row, tag or number, nor a
 * Markdown link "[ROCK 5B](…)", image "![CM5 IO](…)" or admonition marker ":::tip".
 */
const CAPTION_TEXT = /^[^\s#|<>\-*+\d[!:][^|<>]{0,39}$/;

/** Longest opening line worth testing: a caption's 40 characters plus bold markers. */
const CAPTION_LINE_MAX = 44;

/**
 * A short line that opens a chunk as a paragraph of its own, without sentence punctuation: a
 * caption for what follows. The Markdown parser leaves a Docusaurus tab's label as such a line
 * ("CM4 IO Board" above the IO board's specification table, after the module's own table), and
 * PDFs and HTML pages label tables and figures the same way (HTML→Markdown often bolds them:
 * "**CM4 IO Board**"). Like a heading, it is section evidence for the chunk's model; the chunks
 * that continue it inherit that model (CHOP).
 *
 * Returns the caption opening `text` (its first line, followed by a blank line or nothing),
 * without bold markers, or null. Plain string scanning: a regex for "first line, then a blank one" went
 * quadratic on the long space-padded rows of Markdown tables (half a second per import).
 */
export function leadingCaption(text: string): string | null {
  const nl = text.indexOf('\n');
  const line = (nl < 0 ? text : text.slice(0, nl)).trimEnd();
  if (line.length > CAPTION_LINE_MAX) return null;
  if (nl >= 0) {
    const end = text.indexOf('\n', nl + 1);
    if (text.slice(nl + 1, end < 0 ? text.length : end).trim() !== '') return null;
  }
  const bold = BOLD_LINE.exec(line);
  const caption = bold ? bold[2]! : line;
  if (bold && caption.includes(bold[1]!)) return null;
  if (!CAPTION_TEXT.test(caption) || caption.includes('](') || /[.,:;!?]$/.test(caption)) return null;
  return caption;
}

/**
 * What a chunk's view takes from its text and document alone, before any vocabulary: the same
 * for every vocabulary, so an import computes it for documents already learned while it waits
 * for the next file's parse (`draftChunkText`), and the view reads it back.
 */
export interface ChunkText {
  /** The document it was read against (a view for another document, or for none, reads it again). */
  doc: NormalizedDocument | null;
  plain: string;
  termCounts: Map<string, number>;
  terms: Set<string>;
  entities: string[];
  headings: { level: number; text: string }[];
  /** The heading path below the document title, where path mentions are looked for. */
  path: string[];
  /** Headings, tab labels and the caption inside the chunk, where local mentions are looked for. */
  local: string[];
  endPath: string[];
}

/** Chunk texts drafted ahead of their view, by chunk (chunks are immutable once made). */
const drafted = new WeakMap<Chunk, ChunkText>();

/** Reads what the chunk's view needs from its text alone (see `ChunkText`). */
export function chunkText(chunk: Chunk, doc: NormalizedDocument | null = null): ChunkText {
  const headings: { level: number; text: string }[] = [];
  const local: string[] = [];
  // The document's own title already decided its identity; it is not section evidence.
  const isTitle = (level: number, text: string): boolean => level === 1 && doc !== null && text === doc.title;
  for (const m of chunk.text.matchAll(HEADING_LINE)) {
    const text = plainText(m[2]!);
    headings.push({ level: m[1]!.length, text });
    if (!isTitle(m[1]!.length, text)) local.push(text);
  }
  const path = doc !== null && chunk.headingPath[0] === doc.title ? chunk.headingPath.slice(1) : chunk.headingPath;
  local.push(...tabLabels(chunk, doc));
  const caption = leadingCaption(chunk.text);
  if (caption) local.push(caption);
  const plain = plainText(chunk.text);
  const termList = contentTerms(plain);
  return {
    doc,
    plain,
    termCounts: termCounts(termList),
    terms: new Set(termList),
    entities: patternEntities(plain),
    headings,
    path,
    local,
    endPath: pathAt(doc, chunk.end, chunk.headingPath),
  };
}

/** Computes the chunk's text part now and keeps it for its view (`chunkView` with the same `doc`). */
export function draftChunkText(chunk: Chunk, doc: NormalizedDocument): ChunkText {
  const text = chunkText(chunk, doc);
  drafted.set(chunk, text);
  return text;
}

/** Builds the view of a chunk against the library's vocabulary (`doc` gives the end path and open tabs). */
export function chunkView(chunk: Chunk, vocabulary: ModelVocabulary, doc: NormalizedDocument | null = null): ChunkView {
  const confident = (ms: ModelMention[]): ModelMention[] => ms.filter((m) => m.confidence >= CHUNK_MENTION_MIN_CONFIDENCE);
  const early = drafted.get(chunk);
  const { plain, termCounts, terms, entities, headings, path, local, endPath } = early?.doc === doc ? early : chunkText(chunk, doc);
  return {
    chunk,
    plain,
    termCounts,
    terms,
    entities,
    pathMentions: confident(path.flatMap((h) => vocabulary.findMentions(h))),
    localMentions: confident(local.flatMap((h) => vocabulary.findMentions(h))),
    bodyMentions: confident(vocabulary.findMentions(plain)),
    headings,
    endPath,
  };
}

/** A model decision with the evidence that made it. */
export interface ModelChoice {
  model: string | null;
  reason: string;
}

function distinct(ms: readonly ModelMention[]): string[] {
  return [...new Set(ms.map((m) => m.model))];
}

/**
 * The chunk's model: a model named by its own headings/tab labels, else by its section path, when
 * that model is not the document's own family; else the document's identity, refined to one member
 * or revision the chunk names ("ROCK 4" -> "ROCK 4SE"); without identity, the most named model.
 */
export function chooseModel(view: ChunkView, identity: DocIdentity | null, vocabulary: ModelVocabulary): ModelChoice {
  const related = (m: string): boolean => identity !== null && vocabulary.relation(m, identity.model) !== 'none' && vocabulary.relation(m, identity.model) !== 'sibling';
  const local = distinct(view.localMentions);
  const path = distinct(view.pathMentions);
  // Section-level evidence: the chunk's own headings and tab labels, then its heading path (deepest).
  const section = local.length > 0 ? local : path.length > 0 ? [path[path.length - 1]!] : [];
  if (section.length > 0) {
    const where = local.length > 0 ? 'heading/tab in chunk' : 'heading path';
    if (identity && section.includes(identity.model)) return { model: identity.model, reason: `${where} names the document's model` };
    if (section.length === 1) return { model: section[0]!, reason: `${where} names ${section[0]}` };
    if (!identity) return { model: section[0]!, reason: `${where} names ${section.join(', ')}` };
    if (section.every(related)) return { model: identity.model, reason: `${where} names ${section.length} models of ${identity.base}` };
    return { model: section[0]!, reason: `${where} names ${section.join(', ')}` };
  }
  const body = distinct(view.bodyMentions);
  if (identity) {
    const members = body.filter((m) => related(m) && m !== identity.model && m !== identity.base);
    const namesOwn = body.includes(identity.model) || body.includes(identity.base);
    if (!namesOwn && members.length === 1) return { model: members[0]!, reason: `text names only ${members[0]} of ${identity.base}` };
    return { model: identity.model, reason: `document identity (${identity.source})` };
  }
  if (body.length === 0) return { model: null, reason: 'no model named and no document identity' };
  const counts = new Map<string, number>();
  for (const m of view.bodyMentions) counts.set(m.model, (counts.get(m.model) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return { model: best[0], reason: `text names ${best[0]} ${best[1]}x` };
}
