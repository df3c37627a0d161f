import type { ChunkDetail, DocumentSummary, LibrarySubscription, LibrarySummary, ModelSummary } from '../contract/api';
import { pageRange } from '../core/chunk';
import type { DocFormat, NormalizedDocument } from '../core/document';
import { FORMATS } from '../core/formats';
import { signaturePrefix } from '../core/prefix';
import type { ModelStatus } from '../models/runtime';
import type { ChunkRecord } from '../storage/chunk-store';
import { embeddingWaitsForNouns, type DocumentRecord, type Library, type SubscriptionState } from '../storage/library.store';

/** Engine records as the contract shows them (DTO mapping), in one place. */

/** A library as listed; `rebuilding` comes from the writer lock. */
export async function librarySummary(lib: Library, rebuilding: boolean): Promise<LibrarySummary> {
  const docs = await lib.documents();
  return {
    name: lib.name,
    documents: docs.length,
    chunks: docs.reduce((n, d) => n + (d.status === 'ready' ? d.chunks : 0), 0),
    strategy: lib.config.strategy,
    enrich: lib.config.enrich,
    embedder: lib.config.embedder?.id ?? null,
    createdAt: lib.config.createdAt,
    // An empty library has nothing built by older code.
    indexOutdated: lib.indexOutdated && docs.some((d) => d.status === 'ready'),
    rebuilding,
    // Held in the summary so a page opened after the engine's one report still shows it.
    waitsForNouns: embeddingWaitsForNouns(lib.config),
    ...(lib.config.subscription ? { subscription: subscriptionSummary(lib.config.subscription) } : {}),
  };
}

/** A subscribed library's state as the contract shows it (`newerAvailable` from the last look at the bucket). */
export function subscriptionSummary(state: SubscriptionState): LibrarySubscription {
  return { ...state, newerAvailable: state.latestVersion !== null && state.latestVersion > state.version };
}

/** A discovered model file as listed. */
export function modelSummary(m: ModelStatus): ModelSummary {
  return {
    id: m.id,
    format: m.format,
    kinds: m.kinds,
    sizeBytes: m.sizeBytes,
    source: m.source,
    state: m.state,
    ...(m.reason ? { reason: m.reason } : {}),
  };
}

/**
 * A document as listed. `markHolds`: whether its LLM upgrade's mark (`upgradeFailed`) still passes
 * it by (see `markHolds` in index/llm-upgrade.job.ts); a lapsed mark's reason is not said, since
 * the next upgrade tries the document again.
 */
export function documentSummary(d: DocumentRecord, markHolds: boolean): DocumentSummary {
  return {
    id: d.id,
    title: d.title,
    format: d.format,
    status: d.status,
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.status === 'failed' && d.code ? { code: d.code } : {}),
    sizeBytes: d.sizeBytes,
    pageCount: d.pageCount,
    chunks: d.chunks,
    models: d.models,
    importedAt: d.importedAt,
    ...(d.enrichedWith ? { enrichment: { mode: d.enrichedWith, llmCalls: d.llmCalls ?? 0, llmTokens: d.llmTokens ?? 0 } } : {}),
    ...(d.status === 'ready' && d.upgradeFailed && markHolds ? { notice: d.upgradeFailed.reason } : {}),
  };
}

/**
 * A stored chunk with its prefix, signature and offsets; `nounsOmitted` when its library stored
 * chunks without heuristic nouns (`LibraryConfig.nounsOmitted`).
 */
export function chunkDetail(r: ChunkRecord, nounsOmitted = false): ChunkDetail {
  return {
    id: r.id,
    ordinal: r.ordinal,
    text: r.text,
    indexedText: r.indexedText,
    prefix: signaturePrefix({ category: r.category, nouns: r.nouns, model: r.model }),
    headingPath: r.headingPath,
    pages: pageRange(r.pageStart, r.pageEnd),
    start: r.start,
    end: r.end,
    signature: { category: r.category, nouns: r.nouns, model: r.model },
    signatureSource: r.signatureSource,
    nounsOmitted: nounsOmitted && r.nouns.length === 0 && r.signatureSource !== null,
    continuous: r.continuous,
    sectionType: r.sectionType,
    key: r.key,
    keywords: r.keywords,
    entities: r.entities,
    members: r.members,
  };
}

/** Where each page starts in a document's normalized text (1-based pages; empty without pages). */
export function pageStarts(doc: NormalizedDocument): number[] {
  const starts: number[] = [];
  if (doc.pageCount) {
    for (let p = 1; p <= doc.pageCount; p++) {
      const first = doc.blocks.find((b) => b.page !== null && b.page >= p);
      starts.push(first && first.page === p ? first.start : (starts[p - 2] ?? 0));
    }
  }
  return starts;
}

/** The MIME type of a stored original, by its document's format (core's table). */
export function mimeOf(format: DocFormat | null): string {
  return FORMATS[format ?? 'txt']?.mime ?? 'application/octet-stream';
}
