import type { Citation, SearchHit } from '../contract/api';
import type { ChunkRecord } from '../storage/chunk-store';
import { terms } from './sentences';
import { pageRange } from '../core/chunk';
import { rangeMeta } from '../chunking/span.util';
import type { Block } from '../core/document';

/**
 * Retrieved passages and the citations that point into them. A passage is a search hit; when the
 * hit is a merged retrieval unit (MDKey restructuring), its members' spans inside the unit text
 * are kept so a citation resolves to the member chunk that holds the quoted words, with that
 * member's own offsets and pages.
 */

/** One member chunk of a merged unit, located inside the unit's text. */
export interface PassageMember {
  /** Span in the unit's `text` (members are joined by a blank line). */
  textStart: number;
  textEnd: number;
  /** Offsets in the document's normalized text, end exclusive. */
  start: number;
  end: number;
  pages: number[];
}

export interface Passage {
  hit: SearchHit;
  /** Members of a merged unit in text order; empty for a plain chunk. */
  members: PassageMember[];
  /**
   * The pages a span of the passage text lies on (ascending), from its document's page
   * boundaries; [] when they are not known. Absent: the passage's own pages are cited.
   */
  pagesAt?: (textStart: number, textEnd: number) => number[];
}

/** A document's text and its blocks: what `pageLocator` reads (a `NormalizedDocument` fits). */
export interface PagedText {
  text: string;
  blocks: readonly Block[];
}

/**
 * The `pagesAt` of a passage: a span of its text mapped to the document's offsets (through the
 * member that holds it, for a merged unit), then to the pages of the blocks it overlaps, as the
 * chunker reads a chunk's pages (`rangeMeta`). A block is the finest unit with a page, so a span
 * inside a block that crosses a page break gets both.
 */
export function pageLocator(hit: SearchHit, members: readonly PassageMember[], doc: PagedText): (textStart: number, textEnd: number) => number[] {
  // A plain chunk's text is its slice of the document; if not (an older index), nothing is known.
  const plain = members.length === 0 && doc.text.slice(hit.start, hit.end) === hit.text;
  return (textStart, textEnd) => {
    let from: number;
    let to: number;
    if (members.length > 0) {
      const m = members.find((x) => textStart >= x.textStart && textStart < x.textEnd);
      if (!m) return [];
      from = m.start + (textStart - m.textStart);
      to = Math.min(m.end, m.start + (textEnd - m.textStart));
    } else if (plain) {
      from = hit.start + textStart;
      to = Math.min(hit.end, hit.start + textEnd);
    } else return [];
    const { pageStart, pageEnd } = rangeMeta(doc.blocks, from, Math.max(to, from + 1));
    return pageRange(pageStart, pageEnd);
  };
}

/** Separator between members in a merged unit's text (restructure.ts `UNIT_SEPARATOR`). */
const MEMBER_SEPARATOR = '\n\n';

/**
 * Members of a stored unit located in its text. Returns [] for a plain chunk, or when the
 * members' lengths do not add up to the text (then the whole unit is cited).
 */
export function locateMembers(record: Pick<ChunkRecord, 'text' | 'members'>): PassageMember[] {
  if (record.members.length <= 1) return [];
  const out: PassageMember[] = [];
  let at = 0;
  for (const m of record.members) {
    const len = m.end - m.start;
    if (len < 0) return [];
    out.push({ textStart: at, textEnd: at + len, start: m.start, end: m.end, pages: pageRange(m.pageStart, m.pageEnd) });
    at += len;
    if (out.length < record.members.length) {
      if (record.text.slice(at, at + MEMBER_SEPARATOR.length) !== MEMBER_SEPARATOR) return [];
      at += MEMBER_SEPARATOR.length;
    }
  }
  return at === record.text.length ? out : [];
}

/** What narrows a merged unit to one member: an offset in its text, or words, tried in order. */
export interface CitationEvidence {
  /** Offset of the quoted sentence in the passage text. */
  offset?: number;
  /** Length of the quoted text at `offset`: its pages lead the citation's. */
  length?: number;
  /** Texts whose words locate the member (the answer's words before [n], then the question). */
  texts?: readonly string[];
}

/** The member whose span holds the offset or a verbatim text, else whose words best match a text. */
function memberFor(passage: Passage, evidence: CitationEvidence): PassageMember | null {
  const { members, hit } = passage;
  if (members.length === 0) return null;
  const texts = (evidence.texts ?? []).filter((t) => t.trim() !== '');
  const offsets = [evidence.offset, ...texts.map((t) => hit.text.indexOf(t))].filter((o): o is number => o !== undefined && o >= 0);
  for (const offset of offsets) {
    const inside = members.find((m) => offset >= m.textStart && offset < m.textEnd);
    if (inside) return inside;
  }
  const memberTerms = members.map((m) => new Set(terms(hit.text.slice(m.textStart, m.textEnd))));
  for (const text of texts) {
    let best: PassageMember | null = null;
    let bestScore = 0;
    const wanted = new Set(terms(text));
    members.forEach((m, i) => {
      let score = 0;
      for (const t of wanted) if (memberTerms[i]!.has(t)) score++;
      if (score > bestScore) {
        best = m;
        bestScore = score;
      }
    });
    if (best) return best;
  }
  return null;
}

/**
 * The citation numbered `n` for a passage. `evidence` narrows a merged unit to one member (its
 * offsets, pages and text); without a match the whole unit is cited. The citation's `chunkId`
 * stays the stored unit's id so it always resolves to a stored record.
 */
export function citationFor(passage: Passage, n: number, evidence: CitationEvidence = {}): Citation {
  const { hit } = passage;
  const member = memberFor(passage, evidence);
  const quoted = quotePages(passage, evidence);
  return {
    n,
    chunkId: hit.chunkId,
    doc: hit.doc,
    title: hit.title,
    headingPath: [...hit.headingPath],
    pages: quoted.length > 0 ? quoted : member ? member.pages : [...hit.pages],
    start: member ? member.start : hit.start,
    end: member ? member.end : hit.end,
    quote: member ? hit.text.slice(member.textStart, member.textEnd) : hit.text,
    model: hit.signature.model,
  };
}

/**
 * The pages of the quoted text, so a viewer opens the page the line is on, not the passage's
 * first: at the evidence's offset, else where one of its texts occurs verbatim; [] if unknown.
 */
export function quotePages(passage: Passage, evidence: CitationEvidence): number[] {
  if (!passage.pagesAt) return [];
  if (evidence.offset !== undefined) return passage.pagesAt(evidence.offset, evidence.offset + (evidence.length ?? 1));
  for (const t of evidence.texts ?? []) {
    const at = t.trim() === '' ? -1 : passage.hit.text.indexOf(t);
    if (at >= 0) return passage.pagesAt(at, at + t.length);
  }
  return [];
}

/** A short "where" line for a passage: document title, section path and pages. */
export function passageSource(hit: SearchHit): string {
  const section = hit.headingPath.length > 0 ? hit.headingPath.join(' > ') : hit.title;
  const pages = hit.pages.length === 0 ? '' : hit.pages.length === 1 ? `, page ${hit.pages[0]}` : `, pages ${hit.pages[0]}-${hit.pages[hit.pages.length - 1]}`;
  return `${hit.doc} — ${section}${pages}`;
}

/**
 * The words of a product the question names but the library's vocabulary did not read as a model
 * ("How much PSRAM does the Fire have?": a name without digits): the chunk model of a quoted
 * passage all of whose words the question says. Like a resolved model's name, they tell the
 * passage's lines apart no better than "the", and lifted "The GPIO 16 / 17 in Fire is connected to
 * the PSRAM" over "It provides more hardware resources: 16M Flash + 4M PSRAM". Measured on all six
 * sets: m5stack +1 first line, no other question moved (smart-tv's chunks name no model).
 */
export function unresolvedModelWords(question: string, passages: readonly Passage[]): string[] {
  const said = new Set(terms(question));
  const out = new Set<string>();
  for (const p of passages) {
    const words = p.hit.signature.model ? terms(p.hit.signature.model) : [];
    if (words.length > 0 && words.every((t) => said.has(t))) for (const t of words) out.add(t);
  }
  return [...out];
}
