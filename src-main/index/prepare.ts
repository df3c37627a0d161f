import type { NormalizedDocument } from '../core/document';
import type { Chunk } from '../core/chunk';
import { CodedError, ok } from '../core/result';
import type { ChunkContext, Chunker } from '../chunking/chunker';
import type { PreparedDocument } from '../ingest/import.job';
import type { EnrichmentSettings, LibraryEnrichment } from './library-enrichment';
import { withViews } from './table-views';

/**
 * Chunks, enriches and prefixes one document with the given vocabulary and chunker: the rows the
 * store receives. Pure CPU, no writes; the same code runs on the import's thread and in the
 * prepare workers (`prepare-pool.ts`), so both give the same rows.
 */
export async function prepareDocument(
  enrichment: LibraryEnrichment,
  chunker: Chunker,
  settings: EnrichmentSettings,
  doc: NormalizedDocument,
  context: ChunkContext,
  /** The document's chunks by this chunker when already made (an import's draft, see `LibraryIndex.draft`). */
  drafted?: Chunk[],
): Promise<PreparedDocument> {
  const chunks = drafted ? ok(drafted) : await chunker.chunk(doc, context);
  if (!chunks.ok) throw new CodedError(chunks.error.code, chunks.error.message);
  const rows = await enrichment.enrich(doc, chunks.value, settings, context.signal);
  const models = [...new Set(rows.map((r) => r.model).filter((m): m is string => m !== null))];
  return { doc, chunks: rows.length, models, rows: withViews(doc, rows) };
}
