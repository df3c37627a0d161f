import type { Chunk, EnrichedChunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { ChunkHit, ChunkInput } from '../storage/chunk-store';
import { chunkInputFrom } from '../storage/chunk-store';

/**
 * Glue between the library index and the enrichment stage: learns the library's vocabulary,
 * enriches and prefixes chunks, analyzes queries and ranks hits. Persisted in enrichment.json.
 */
export interface QueryAnalysis {
  models: string[];
}

export class LibraryEnrichment {
  static restore(_state: unknown): LibraryEnrichment {
    return new LibraryEnrichment();
  }

  snapshot(): unknown {
    return { version: 0 };
  }

  learn(_docs: NormalizedDocument[]): void {}

  forget(_docIds: string[]): void {}

  enrich(_doc: NormalizedDocument, chunks: Chunk[]): ChunkInput[] {
    return chunks.map((c) => {
      const enriched: EnrichedChunk = {
        ...c,
        signature: { category: null, nouns: [], model: null },
        signatureSource: 'extracted',
        continuity: null,
        keys: { title: null, summary: null, keywords: [], entities: [], questions: [], key: null, relatedKeys: [] },
      };
      return chunkInputFrom(enriched, [...c.headingPath, ''].join('\n') + c.text);
    });
  }

  analyzeQuery(_query: string): QueryAnalysis {
    return { models: [] };
  }

  rank(hits: ChunkHit[], _analysis: QueryAnalysis): ChunkHit[] {
    return hits;
  }
}
