import type { Chunk, ChunkStrategy } from '../core/chunk';
import type { Block, NormalizedDocument } from '../core/document';
import { ATOMIC_BLOCK_KINDS } from '../core/document';

/**
 * Shared span arithmetic for every chunker: units (blocks or sentence pieces of a paragraph),
 * block lookup by offset, and assembly of contiguous chunks that cover `doc.text` exactly.
 */

/** A unit of text the unit-based chunkers group: a whole block or a sentence run of a paragraph. */
export interface Unit {
  /** Offset of the unit's first character in `doc.text`. */
  start: number;
  /** End of the unit's content (exclusive): the text up to the next unit minus trailing whitespace. */
  end: number;
  block: Block;
  /** True when the unit is only part of its block (a long paragraph split at sentences). */
  piece: boolean;
}

/** Inclusive page range; both null for formats without pages. */
export interface PageRange {
  pageStart: number | null;
  pageEnd: number | null;
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** True when the block kind must never be split (headings, lists, tables, code, quotes, front matter). */
export function isAtomic(block: Block): boolean {
  return ATOMIC_BLOCK_KINDS.has(block.kind);
}

/** Offset just after the last non-whitespace character of `text[start, end)`, or `start` if none. */
export function trimEndOffset(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1]!)) e--;
  return e;
}

/**
 * Sentence spans of `text[start, end)` by ICU sentence rules (Intl.Segmenter: handles `。！？` and
 * line breaks, which a hand-written regex would not). Spans are trimmed at the end, never empty.
 */
export function sentenceSpans(text: string, start: number, end: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const seg of sentenceSegmenter.segment(text.slice(start, end))) {
    let s = start + seg.index;
    const segEnd = s + seg.segment.length;
    while (s < segEnd && /\s/.test(text[s]!)) s++;
    const e = trimEndOffset(text, s, segEnd);
    if (e > s) out.push({ start: s, end: e });
  }
  return out;
}

/**
 * `text[start, end)` cut at whitespace into runs of at most `max` characters, each trimmed; a word
 * longer than `max` (a base64 blob, markup noise with no space) is cut into pieces of at most
 * `max` (`wordPieces`), the last of which the next words may join.
 */
export function spaceRuns(text: string, start: number, end: number, max: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const word = /\S+/g;
  word.lastIndex = start;
  let cur: { start: number; end: number } | null = null;
  for (let m = word.exec(text); m !== null && m.index < end; m = word.exec(text)) {
    const w = { start: m.index, end: Math.min(m.index + m[0].length, end) };
    if (cur && w.end - cur.start <= max) cur.end = w.end;
    else {
      if (cur) out.push(cur);
      const pieces = w.end - w.start > max ? wordPieces(text, w.start, w.end, max) : [w];
      cur = pieces.pop()!;
      out.push(...pieces);
    }
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * A character a cut must not come before: the second half of a surrogate pair, a combining mark
 * (an accent, a variation selector), a skin-tone modifier, a zero-width joiner; nor after a joiner.
 */
const JOINS_PREVIOUS = /^(?:[\uDC00-\uDFFF]|\p{M}|\p{Emoji_Modifier}|\u200D)/u;

/** Whether a cut at `at` would split a character or an emoji sequence (`JOINS_PREVIOUS`). */
function joinedAt(text: string, at: number): boolean {
  return text.charCodeAt(at - 1) === 0x200d || JOINS_PREVIOUS.test(text.slice(at, at + 2));
}

/**
 * `text[start, end)`, one word, cut into pieces of at most `max` characters (`max` >= 1). A cut
 * is not put inside a surrogate pair, before a combining mark or a skin-tone modifier, or on
 * either side of a zero-width joiner (`joinedAt`): it moves back, at most to half a piece; with
 * less room, forward, at most another `max` characters, and past that (a letter under dozens of
 * marks) it only keeps surrogate pairs whole. Flags (pairs of regional indicators) and Hangul
 * jamo are not kept together. Hand-written: `Intl.Segmenter` would segment every grapheme of a
 * word that may be megabytes long, to place a cut every few thousand characters.
 */
export function wordPieces(text: string, start: number, end: number, max: number): { start: number; end: number }[] {
  if (!(max >= 1)) throw new RangeError(`A word piece needs room for a character (max ${max}).`);
  const out: { start: number; end: number }[] = [];
  let s = start;
  while (end - s > max) {
    let cut = s + max;
    const floor = s + Math.max(1, Math.floor(max / 2));
    while (cut > floor && joinedAt(text, cut)) cut--;
    if (joinedAt(text, cut)) {
      const limit = Math.min(end, s + 2 * max);
      cut = s + max;
      while (cut < limit && joinedAt(text, cut)) cut++;
      // Still inside a run of marks: cut at the max, but never between the halves of a surrogate
      // pair (before the pair, or after it when the piece would be empty).
      if (cut < end && joinedAt(text, cut)) {
        cut = s + max;
        if (/[\uDC00-\uDFFF]/.test(text[cut]!)) cut += cut - 1 > s ? -1 : 1;
      }
    }
    if (cut >= end) break;
    out.push({ start: s, end: cut });
    s = cut;
  }
  out.push({ start: s, end });
  return out;
}

/**
 * The units of a document in order. Paragraphs longer than `splitParagraphsAbove` characters become
 * runs of whole sentences packed up to that length; with `sentences: true` every paragraph sentence
 * is its own unit. Either way a sentence longer than `splitParagraphsAbove` is cut at spaces
 * (`spaceRuns`; a word longer than that into pieces). Other blocks are never split.
 * Each unit's `end` reaches the next unit's start minus whitespace, so nothing between blocks is lost.
 */
export function documentUnits(
  doc: NormalizedDocument,
  opts: { splitParagraphsAbove?: number; sentences?: boolean } = {},
): Unit[] {
  const units: Unit[] = [];
  const { text } = doc;
  for (const block of blocksOrWhole(doc)) {
    const long = opts.splitParagraphsAbove !== undefined && block.end - block.start > opts.splitParagraphsAbove;
    if (block.kind !== 'paragraph' || !(opts.sentences || long)) {
      units.push({ start: block.start, end: block.end, block, piece: false });
      continue;
    }
    let sentences = sentenceSpans(text, block.start, block.end);
    // A "sentence" longer than a chunk is no sentence (a list of part codes, text without stops):
    // it is cut at spaces, so that no chunk holds a whole such paragraph (60,000 codes made one
    // 937 KB chunk, read whole by every search that found it).
    const max = opts.splitParagraphsAbove;
    if (max !== undefined) sentences = sentences.flatMap((sp) => (sp.end - sp.start > max ? spaceRuns(text, sp.start, sp.end, max) : [sp]));
    if (sentences.length <= 1) {
      units.push({ start: block.start, end: block.end, block, piece: false });
      continue;
    }
    if (opts.sentences) {
      for (const s of sentences) units.push({ start: s.start, end: s.end, block, piece: true });
      continue;
    }
    let cur: { start: number; end: number } | null = null;
    for (const s of sentences) {
      if (cur && s.end - cur.start <= max!) cur.end = s.end;
      else {
        if (cur) units.push({ ...cur, block, piece: true });
        cur = { start: s.start, end: s.end };
      }
    }
    if (cur) units.push({ ...cur, block, piece: true });
  }
  for (let i = 0; i < units.length; i++) {
    const next = units[i + 1];
    const limit = next ? next.start : text.length;
    units[i]!.end = trimEndOffset(text, units[i]!.start, limit);
  }
  return units;
}

/**
 * The document's blocks, or one synthetic paragraph over the whole visible text when the parser
 * found none (e.g. a file of link definitions only), so every non-blank document can be covered.
 */
function blocksOrWhole(doc: NormalizedDocument): readonly Block[] {
  if (doc.blocks.length > 0 || isBlank(doc)) return doc.blocks;
  const start = doc.text.length - doc.text.trimStart().length;
  const end = trimEndOffset(doc.text, start, doc.text.length);
  const page = doc.pageCount ? 1 : null;
  return [{ kind: 'paragraph', headingPath: [], page, pageEnd: doc.pageCount ?? null, start, end }];
}

/** Content length of a run of units in characters: first unit start to last unit end. */
export function unitsLength(units: readonly Unit[]): number {
  if (units.length === 0) return 0;
  return units[units.length - 1]!.end - units[0]!.start;
}

/** Index of the first block whose end is after `offset` (blocks.length when none). */
function firstBlockEndingAfter(blocks: readonly Block[], offset: number): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid]!.end > offset) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Heading path and pages of the character range `[start, end)` from the blocks it overlaps: the
 * heading path of the first overlapped block, pages from the first to the last. A range lying in
 * whitespace between blocks takes the preceding block's metadata.
 */
export function rangeMeta(blocks: readonly Block[], start: number, end: number): PageRange & { headingPath: string[] } {
  let i = firstBlockEndingAfter(blocks, start);
  const first = blocks[i];
  if (!first || first.start >= end) {
    const prev = blocks[i - 1] ?? first;
    if (!prev) return { headingPath: [], pageStart: null, pageEnd: null };
    return { headingPath: [...prev.headingPath], pageStart: prev.pageEnd ?? prev.page, pageEnd: prev.pageEnd ?? prev.page };
  }
  let pageStart: number | null = null;
  let pageEnd: number | null = null;
  for (; i < blocks.length && blocks[i]!.start < end; i++) {
    const b = blocks[i]!;
    if (b.page !== null && (pageStart === null || b.page < pageStart)) pageStart = b.page;
    const last = b.pageEnd ?? b.page;
    if (last !== null && (pageEnd === null || last > pageEnd)) pageEnd = last;
  }
  return { headingPath: [...first.headingPath], pageStart, pageEnd };
}

/** Page range of a run of units: a split paragraph's pieces report the whole paragraph's pages. */
export function unitsPages(units: readonly Unit[]): PageRange {
  let pageStart: number | null = null;
  let pageEnd: number | null = null;
  for (const u of units) {
    const p = u.block.page;
    const q = u.block.pageEnd ?? u.block.page;
    if (p !== null && (pageStart === null || p < pageStart)) pageStart = p;
    if (q !== null && (pageEnd === null || q > pageEnd)) pageEnd = q;
  }
  return { pageStart, pageEnd };
}

/**
 * Turns ordered, non-empty groups of units into chunks that tile `doc.text`: the first chunk starts
 * at 0, each chunk ends where the next group starts (whitespace between groups goes to the
 * preceding chunk), and the last chunk ends at `text.length`.
 */
export function assembleGroups(
  doc: NormalizedDocument,
  groups: readonly (readonly Unit[])[],
  strategy: ChunkStrategy,
  sectionTypes?: readonly string[],
): Chunk[] {
  return groups.map((group, k) => {
    const start = k === 0 ? 0 : group[0]!.start;
    const next = groups[k + 1];
    const end = next ? next[0]!.start : doc.text.length;
    return {
      docId: doc.id,
      ordinal: k,
      text: doc.text.slice(start, end),
      start,
      end,
      headingPath: [...group[0]!.block.headingPath],
      ...unitsPages(group),
      strategy,
      sectionType: sectionTypes?.[k] ?? null,
    };
  });
}

/** A chunk for an arbitrary range (overlapping strategies), with metadata from the blocks it touches. */
export function rangeChunk(doc: NormalizedDocument, ordinal: number, start: number, end: number, strategy: ChunkStrategy): Chunk {
  return {
    docId: doc.id,
    ordinal,
    text: doc.text.slice(start, end),
    start,
    end,
    ...rangeMeta(doc.blocks, start, end),
    strategy,
    sectionType: null,
  };
}

/** True when the document has nothing to index (empty or whitespace only). */
export function isBlank(doc: NormalizedDocument): boolean {
  return doc.text.trim().length === 0;
}
