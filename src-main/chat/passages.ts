import type { Citation, SearchHit } from '../contract/api';
import type { ChunkRecord } from '../storage/chunk-store';
import { terms } from './sentences';
import { pageRange } from '../core/chunk';

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
  return {
    n,
    chunkId: hit.chunkId,
    doc: hit.doc,
    title: hit.title,
    headingPath: [...hit.headingPath],
    pages: member ? member.pages : [...hit.pages],
    start: member ? member.start : hit.start,
    end: member ? member.end : hit.end,
    quote: member ? hit.text.slice(member.textStart, member.textEnd) : hit.text,
    model: hit.signature.model,
  };
}

/** A short "where" line for a passage: document title, section path and pages. */
export function passageSource(hit: SearchHit): string {
  const section = hit.headingPath.length > 0 ? hit.headingPath.join(' > ') : hit.title;
  const pages = hit.pages.length === 0 ? '' : hit.pages.length === 1 ? `, page ${hit.pages[0]}` : `, pages ${hit.pages[0]}-${hit.pages[hit.pages.length - 1]}`;
  return `${hit.doc} — ${section}${pages}`;
}
