import type { Chunk, ChunkStrategy } from '../core/chunk';
import { CHUNK_STRATEGIES } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { Embedder } from '../models/types';
import { invalidOptions } from './chunker.result';
import { createNaiveChunker, naiveOptionsSchema } from './naive.chunker';
import { createRecursiveChunker, recursiveOptionsSchema } from './recursive.chunker';
import type { SectionSchema } from './section.schema';
import { loadSectionSchema, parseSectionSchema } from './section.schema';
import { createSemanticChunker, semanticOptionsSchema } from './semantic.chunker';
import { createStructuralChunker, structuralOptionsSchema } from './structural.chunker';
import { createStructureChunker, structureOptionsSchema } from './structure.chunker';
import type { CorpusStats } from './tfidf';

/**
 * The chunking stage: one small object per strategy, options validated once at construction by
 * `createChunker`, then `chunk(doc, ctx)` per document.
 */

/** What a chunker may use besides the document; everything is optional. */
export interface ChunkContext {
  /** Embedding model: required by `semantic`; used by `structural`'s soft merge (else TF-IDF). */
  embedder?: Embedder;
  signal?: AbortSignal;
  /** Document frequencies over the library for `structural`'s TF-IDF fallback (else per document). */
  corpus?: CorpusStats;
}

/**
 * A chunking strategy. `chunk` resolves to chunks with `text === doc.text.slice(start, end)`;
 * except for `naive` and `recursive` (overlapping windows) they tile `doc.text`: contiguous, the
 * first at 0, the last at `text.length`. A blank document yields no chunks. Expected failures
 * (missing model: 'unavailable', model error: 'model-failed', abort: 'cancelled') are values.
 */
export interface Chunker {
  readonly strategy: ChunkStrategy;
  /** The validated options with defaults filled in (for `structural`, `schema` is the schema id). */
  readonly options: Readonly<Record<string, unknown>>;
  chunk(doc: NormalizedDocument, ctx?: ChunkContext): Promise<Result<Chunk[]>>;
}

/** Option schemas per strategy (zod); the input type of each is what `createChunker` accepts. */
export const CHUNKER_OPTION_SCHEMAS = {
  structure: structureOptionsSchema,
  structural: structuralOptionsSchema,
  naive: naiveOptionsSchema,
  recursive: recursiveOptionsSchema,
  semantic: semanticOptionsSchema,
} as const;

/**
 * Builds a chunker, validating `options` once (unknown keys rejected, defaults filled):
 * structure {minChars 100, maxChars 3000}, naive {tokens 500, overlap 100}, recursive
 * {chunkSize 1000, chunkOverlap 200}, semantic {threshold 0.35, maxChars 2000}, structural
 * {schema 'manual' | 'resume' | path | object, mergeThreshold 0.85, minChars 100, maxChars 3000}.
 * Bad options -> 'invalid-input'; a schema path that does not exist -> 'not-found'.
 */
export function createChunker(strategy: ChunkStrategy, options: unknown = {}): Result<Chunker> {
  if (!(CHUNK_STRATEGIES as readonly string[]).includes(strategy)) {
    return fail('invalid-input', `Unknown chunking strategy "${String(strategy)}"; expected one of ${CHUNK_STRATEGIES.join(', ')}.`);
  }
  const input = options ?? {};
  switch (strategy) {
    case 'structure': {
      const p = structureOptionsSchema.safeParse(input);
      return p.success ? ok(createStructureChunker(p.data)) : invalidOptions(strategy, p.error);
    }
    case 'naive': {
      const p = naiveOptionsSchema.safeParse(input);
      return p.success ? ok(createNaiveChunker(p.data)) : invalidOptions(strategy, p.error);
    }
    case 'recursive': {
      const p = recursiveOptionsSchema.safeParse(input);
      return p.success ? ok(createRecursiveChunker(p.data)) : invalidOptions(strategy, p.error);
    }
    case 'semantic': {
      const p = semanticOptionsSchema.safeParse(input);
      return p.success ? ok(createSemanticChunker(p.data)) : invalidOptions(strategy, p.error);
    }
    case 'structural': {
      const p = structuralOptionsSchema.safeParse(input);
      if (!p.success) return invalidOptions(strategy, p.error);
      const schema: Result<SectionSchema> =
        typeof p.data.schema === 'string' ? loadSectionSchema(p.data.schema) : parseSectionSchema(p.data.schema);
      return schema.ok ? ok(createStructuralChunker(p.data, schema.value)) : schema;
    }
  }
}
