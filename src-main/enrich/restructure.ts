import type { EnrichedChunk, EnrichStats } from '../core/chunk';

/**
 * MDKeyChunker stage 3, key-based restructuring: chunks of one document that share a key are
 * packed, in document order, into retrieval units of at most `maxChars` characters (first-fit bin
 * packing; a chunk larger than that stays alone and whole). Only chunks with the same signature
 * model share a unit, so a stitched manual never mixes two models' passages. Keyless chunks stay
 * alone; small ones get their section path as `context` (indexed, never shown). Every unit keeps
 * its members' own ordinal, offsets and pages so a citation resolves to the member it quotes.
 */

export interface RestructureOptions {
  /** Upper bound on a merged unit's `text` length in characters (members joined by a blank line). */
  maxChars?: number;
  /** Keyless chunks shorter than this (characters) get section context. */
  orphanContextBelow?: number;
}

/** One member chunk of a unit (same shape as the store's `MemberRef`). */
export interface UnitMember {
  ordinal: number;
  start: number;
  end: number;
  pageStart: number | null;
  pageEnd: number | null;
}

/**
 * A retrieval unit. For a single-member unit every field equals its chunk's. For a merged unit
 * `text` is the members' texts joined by "\n\n" (not a slice of the document), `start`/`end` span
 * all members, pages are the min/max, signature and continuity are the first member's, and the
 * key lists are the members' unions.
 */
export interface RetrievalUnit extends EnrichedChunk {
  /** Position of the unit in its document (units are ordered by their first member). */
  ordinal: number;
  members: UnitMember[];
  /** Section context for small keyless chunks ("Hardware > Power"), else null. */
  context: string | null;
}

export const UNIT_SEPARATOR = '\n\n';

export interface Restructurer {
  readonly name: 'restructure';
  readonly options: Readonly<Required<RestructureOptions>>;
  run(chunks: readonly EnrichedChunk[], docTitle?: string): RetrievalUnit[];
}

function union(lists: readonly (readonly string[])[], max: number): string[] {
  const out: string[] = [];
  for (const l of lists) for (const v of l) if (!out.includes(v) && out.length < max) out.push(v);
  return out;
}

function member(c: EnrichedChunk): UnitMember {
  return { ordinal: c.ordinal, start: c.start, end: c.end, pageStart: c.pageStart, pageEnd: c.pageEnd };
}

function sumStats(chunks: readonly EnrichedChunk[]): EnrichStats {
  const s: EnrichStats = { llmCalls: 0, promptTokens: 0, outputTokens: 0 };
  for (const c of chunks) {
    s.llmCalls += c.enrichStats?.llmCalls ?? 0;
    s.promptTokens += c.enrichStats?.promptTokens ?? 0;
    s.outputTokens += c.enrichStats?.outputTokens ?? 0;
  }
  return s;
}

function minPage(values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null);
  return v.length > 0 ? Math.min(...v) : null;
}

function maxPage(values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null);
  return v.length > 0 ? Math.max(...v) : null;
}

function mergeUnit(members: readonly EnrichedChunk[], context: string | null): RetrievalUnit {
  const first = members[0]!;
  if (members.length === 1) return { ...first, members: [member(first)], context };
  return {
    ...first,
    text: members.map((m) => m.text).join(UNIT_SEPARATOR),
    start: first.start,
    end: members[members.length - 1]!.end,
    pageStart: minPage(members.map((m) => m.pageStart)),
    pageEnd: maxPage(members.map((m) => m.pageEnd)),
    keys: {
      ...first.keys,
      keywords: union(members.map((m) => m.keys.keywords), 12),
      entities: union(members.map((m) => m.keys.entities), 20),
      questions: union(members.map((m) => m.keys.questions), 6),
      relatedKeys: union(members.map((m) => m.keys.relatedKeys), 6),
    },
    fallbackReason: members.map((m) => m.fallbackReason).find((r) => r) ?? null,
    enrichStats: sumStats(members),
    members: members.map(member),
    context,
  };
}

/** Creates the restructuring stage; defaults: 3000 characters per unit, context below 300. */
export function createRestructurer(options: RestructureOptions = {}): Restructurer {
  const maxChars = options.maxChars ?? 3000;
  const orphanContextBelow = options.orphanContextBelow ?? 300;
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError('maxChars must be an integer >= 1');
  if (!Number.isInteger(orphanContextBelow) || orphanContextBelow < 0) throw new RangeError('orphanContextBelow must be an integer >= 0');
  return {
    name: 'restructure',
    options: { maxChars, orphanContextBelow },
    run(chunks, docTitle) {
      const ordered = [...chunks].sort((a, b) => a.ordinal - b.ordinal);
      const bins: { pack: string | null; members: EnrichedChunk[]; size: number }[] = [];
      for (const c of ordered) {
        const pack = c.keys.key === null ? null : `${c.keys.key}\u0000${c.signature.model ?? ''}`;
        const bin =
          pack === null
            ? undefined
            : bins.find((b) => b.pack === pack && b.size + UNIT_SEPARATOR.length + c.text.length <= maxChars);
        if (bin) {
          bin.members.push(c);
          bin.size += UNIT_SEPARATOR.length + c.text.length;
        } else bins.push({ pack, members: [c], size: c.text.length });
      }
      return bins
        .map((b) => {
          const first = b.members[0]!;
          const needsContext = b.pack === null && first.text.length < orphanContextBelow;
          const path = first.headingPath.length > 0 ? first.headingPath.join(' > ') : (docTitle ?? '');
          return mergeUnit(b.members, needsContext && path ? path : null);
        })
        .sort((a, b) => a.members[0]!.ordinal - b.members[0]!.ordinal)
        .map((u, i) => ({ ...u, ordinal: i }));
    },
  };
}
