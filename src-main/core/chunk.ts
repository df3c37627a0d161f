/**
 * Chunks: contiguous slices of a normalized document, plus the enrichment later stages attach.
 *
 * Invariants: `text === doc.text.slice(start, end)`; for strategies without overlap the chunks of
 * a document are sorted, contiguous and cover `doc.text` exactly (concatenation restores it).
 */

export const CHUNK_STRATEGIES = ['structure', 'structural', 'naive', 'recursive', 'semantic'] as const;
export type ChunkStrategy = (typeof CHUNK_STRATEGIES)[number];

export interface Chunk {
  docId: string;
  /** 0-based position of the chunk in its document. */
  ordinal: number;
  /** Exact slice of the normalized text that is shown and cited. */
  text: string;
  /** Character offsets into `NormalizedDocument.text`, end exclusive. */
  start: number;
  end: number;
  /** Heading path in force at the chunk's first block, outermost first. */
  headingPath: string[];
  /** First and last page the chunk touches; null for formats without pages. */
  pageStart: number | null;
  pageEnd: number | null;
  strategy: ChunkStrategy;
  /** Section type from the `structural` strategy (e.g. `specifications`), null otherwise. */
  sectionType?: string | null;
}

/** Category–Noun–Model signature from CHOP; null fields mean absent or ambiguous. */
export interface Signature {
  category: string | null;
  /** One or two key nouns. */
  nouns: string[];
  model: string | null;
}

export type SignatureSource = 'extracted' | 'inherited';

/** MDKeyChunker fields; the heuristic backend leaves what it cannot know empty. */
export interface KeyFields {
  title: string | null;
  summary: string | null;
  keywords: string[];
  entities: string[];
  questions: string[];
  /** Semantic key (normalized topic tag) or null for keyless chunks. */
  key: string | null;
  relatedKeys: string[];
}

export interface ContinuityDecision {
  /** True when this chunk continues the previous one's topical flow. */
  continuous: boolean;
  /** Short reason (evidence for heuristic, model's rationale or fallback reason for LLM). */
  reason: string;
}

export interface EnrichedChunk extends Chunk {
  signature: Signature;
  signatureSource: SignatureSource;
  /** Decision against the previous chunk; null for a document's first chunk. */
  continuity: ContinuityDecision | null;
  keys: KeyFields;
  /** Set when the LLM output was unusable and the heuristic result was used instead. */
  fallbackReason?: string | null;
  /** LLM work spent on this chunk (all zero for the heuristic backend). */
  enrichStats?: EnrichStats;
}

/** LLM calls and tokens (model tokenizer) spent on enrichment. */
export interface EnrichStats {
  llmCalls: number;
  promptTokens: number;
  outputTokens: number;
}

/** Every page from `pageStart` to `pageEnd` inclusive (`pageEnd` null: one page); [] without pages. */
export function pageRange(pageStart: number | null, pageEnd: number | null): number[] {
  if (pageStart === null) return [];
  const pages: number[] = [];
  for (let p = pageStart; p <= (pageEnd ?? pageStart); p++) pages.push(p);
  return pages;
}
