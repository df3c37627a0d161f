import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ChunkStrategy } from '../core/chunk';
import type { Result } from '../core/result';
import { CodedError, fail, ok } from '../core/result';
import type { ChunkInput, ChunkStore } from '../storage/chunk-store';
import { openLanceStore } from '../storage/lance.store';
import { readJson, writeJsonAtomic } from '../storage/atomic-file';
import { INDEX_VERSION, type DocumentRecord, type Library, type LibraryConfig } from '../storage/library.store';
import { carryVectors } from './embed.job';
import { documentCodes } from '../enrich/document-codes';
import { ENRICHMENT_FILE, LibraryEnrichment, readsNouns } from './library-enrichment';
import type { LibraryIndex } from './library-index';
import { chunkerFor, openStore, storeOptionsOf, type StoreOptions } from './open-store';

/** Rebuilding a library's index beside the live one, and the folder swap that puts it in place. */

/** What a rebuild did: documents and chunks indexed, and vectors kept from the previous index. */
export interface RebuildSummary {
  documents: number;
  chunks: number;
  vectorsKept: number;
}

/** Rows per write while rebuilding (each write is a table version). */
const REBUILD_WRITE_ROWS = 4096;
/** Beside the live index folder: the index being rebuilt, and the replaced one during the swap. */
const NEXT_SUFFIX = '.next';
const OLD_SUFFIX = '.old';

/**
 * In the rebuilt index folder until the writes that go with it are done: the documents' new
 * records and the settings it was built with (see `finishRebuild`); beside it, the rebuilt
 * vocabulary as `ENRICHMENT_FILE`.
 */
const FINISH_FILE = 'rebuild-finish.json';

/** What `FINISH_FILE` holds. */
interface RebuildFinish {
  documents: DocumentRecord[];
  config: Partial<LibraryConfig>;
}

const pathExists = (p: string): Promise<boolean> => fs.stat(p).then(() => true, () => false);

/** How long an opener waits for another process's swap to put a live index folder back. */
const SWAP_WAIT_MS = 10_000;

/**
 * Finishes or undoes an interrupted rebuild before the index is opened: a half-built `.next`
 * folder is discarded; if the swap stopped between its two renames (no live folder, an `.old` one)
 * the old index is put back; an `.old` folder beside a live one is what the swap replaced. Without
 * `repair` (another live process writes the library) both folders are that process's rebuild
 * under way and stay; between its swap's two renames the opener waits for the live folder rather
 * than open (and so create) an empty index there.
 */
export async function settleRebuild(library: Library, repair: boolean): Promise<void> {
  const indexDir = library.indexDir;
  const old = `${indexDir}${OLD_SUFFIX}`;
  if (!repair) {
    for (let waited = 0; waited < SWAP_WAIT_MS && !(await pathExists(indexDir)) && (await pathExists(old)); waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return;
  }
  if (!(await pathExists(indexDir)) && (await pathExists(old))) await fs.rename(old, indexDir);
  await fs.rm(`${indexDir}${NEXT_SUFFIX}`, { recursive: true, force: true });
  await fs.rm(old, { recursive: true, force: true });
  await finishRebuild(library);
}

/**
 * Writes what goes with a rebuilt index once it is the live one (its vocabulary, the documents'
 * records, the settings it was built with), from the files the rebuild put in its folder before
 * the swap, then removes them. Run after the swap, and again on the next open when a kill came
 * between the two: the library then lists its documents as the new index holds them (a document
 * whose text was lost had stayed listed as ready with no rows), instead of the previous index's
 * records beside the new rows. Each step can run twice.
 */
async function finishRebuild(library: Library): Promise<void> {
  const file = path.join(library.indexDir, FINISH_FILE);
  const finish = await readJson<RebuildFinish | null>(file, null);
  if (!finish) return;
  await fs.rename(path.join(library.indexDir, ENRICHMENT_FILE), path.join(library.dir, ENRICHMENT_FILE)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await library.putDocuments(finish.documents);
  await library.saveConfig(finish.config);
  await fs.rm(file, { force: true });
}

/**
 * Rebuilds the whole index from the stored normalized documents with the current code and
 * settings (or `options.strategy`, saved only once the new index is in place): the vocabulary
 * and term statistics are learned again from every document, each document is chunked, enriched
 * and written into a new LanceDB folder beside the live one, and that folder replaces the live
 * one only when complete. Search keeps using the old index until the swap. Cancelled, failed or
 * crashed before the swap, the library keeps its previous index as it was (a leftover folder is
 * discarded on the next open); after it, the next open finishes writing the metadata that goes
 * with the new index (`finishRebuild`). A chunk whose embedder input did not change keeps its
 * vector; the others, and LLM enrichment, wait for the background work the caller starts
 * afterwards. The caller keeps every other writer of this library out while it runs. Progress
 * reaches done == total only when the new index is in place.
 */
export async function rebuildIndex(
  index: LibraryIndex,
  signal: AbortSignal,
  onProgress: (done: number, total: number) => void,
  /** `nouns`: rebuild with heuristic nouns whatever the library reads (before an embedder is set). */
  options: { strategy?: ChunkStrategy; nouns?: boolean } = {},
): Promise<Result<RebuildSummary>> {
  const { library } = index;
  const cancelled = () => fail<never>('cancelled', 'The rebuild was cancelled; the library keeps its previous index.');
  const records = (await library.documents()).filter((d) => d.status === 'ready' && d.contentHash);
  const total = records.length;
  const report = (done: number) => onProgress(Math.min(done, Math.max(0, total - 1)), total);
  report(0);
  // Two passes over the stored texts, one document in memory at a time: the vocabulary must know
  // every document before the first is enriched, and a library can hold gigabytes of text.
  const enrichment = LibraryEnrichment.restore(null);
  const lost = new Set<string>();
  for (const rec of records) {
    if (signal.aborted) return cancelled();
    const doc = await library.loadNormalized(rec);
    if (doc) enrichment.learn([doc]);
    else lost.add(rec.id);
  }
  const chunker = chunkerFor(options.strategy ?? library.config.strategy);
  const nouns = options.nouns ?? readsNouns(library.config);
  const staging = `${library.indexDir}${NEXT_SUFFIX}`;
  await fs.rm(staging, { recursive: true, force: true });
  const storeOptions = storeOptionsOf(library);
  const opened = await openLanceStore(staging, storeOptions);
  if (!opened.ok) return opened;
  const next = opened.value;
  const prepared = new Map<string, { chunks: number; models: string[]; codes: string[] }>();
  let kept = 0;
  const discard = async () => {
    await next.close();
    await fs.rm(staging, { recursive: true, force: true });
  };
  try {
    let pending: ChunkInput[] = [];
    const flush = async () => {
      kept += await carryVectors(index.store, library.config.embedder, pending);
      await next.addChunks(pending);
      pending = [];
    };
    for (const rec of records) {
      if (signal.aborted) break;
      if (lost.has(rec.id)) continue;
      const doc = await library.loadNormalized(rec);
      if (!doc) {
        lost.add(rec.id);
        continue;
      }
      const p = await index.prepareWith(enrichment, chunker, doc, signal, nouns);
      prepared.set(doc.id, { chunks: p.chunks, models: p.models, codes: documentCodes(doc) });
      pending.push(...p.rows);
      // Fewer, larger writes: each write is a new table version.
      if (pending.length >= REBUILD_WRITE_ROWS) await flush();
      report(prepared.size + lost.size);
    }
    if (!signal.aborted) {
      if (pending.length > 0) await flush();
      await next.ensureIndexes();
    }
  } catch (err) {
    await discard();
    if (signal.aborted) return cancelled();
    // A document the current settings cannot chunk (e.g. `semantic` without its embedder) stops
    // the rebuild with that reason; the previous index stays.
    if (err instanceof CodedError) return fail(err.code, `${err.message} The library keeps its previous index.`);
    throw err;
  }
  if (signal.aborted) {
    await discard();
    return cancelled();
  }
  await next.close();
  const current = await library.documents();
  const finish: RebuildFinish = {
    documents: current.flatMap((d) => {
      const p = prepared.get(d.id);
      if (p) {
        // The LLM upgrade, when the library asks for one, runs again over the new chunks; a mark
        // that its stored text was lost goes too, since the rebuild has just read that text.
        const { enrichedWith: _enrichedWith, llmCalls: _llmCalls, llmTokens: _llmTokens, codes: _codes, upgradeFailed: _upgradeFailed, ...rest } = d;
        return [{ ...rest, chunks: p.chunks, models: p.models, ...(p.codes.length > 0 ? { codes: p.codes } : {}) }];
      }
      if (!lost.has(d.id)) return [];
      // 'unreadable', not 'corrupt': the file itself was fine, so importing it again (Retry) restores it.
      return [{ ...d, status: 'failed' as const, code: 'unreadable' as const, chunks: 0, reason: 'Its stored text could not be read while rebuilding the index; import the file again.' }];
    }),
    config: { ...(options.strategy ? { strategy: options.strategy } : {}), indexVersion: INDEX_VERSION, nounsOmitted: !nouns && prepared.size > 0 },
  };
  // Written into the new folder before the swap: whatever moment a kill comes, the library has
  // either the previous index with its metadata or the new one with what to write beside it.
  await enrichment.save(staging);
  await writeJsonAtomic(path.join(staging, FINISH_FILE), finish);
  const swapped = await swapIn(index, staging, storeOptions);
  if (!swapped.ok) {
    await fs.rm(staging, { recursive: true, force: true });
    return swapped;
  }
  index.adopt(enrichment, chunker);
  await finishRebuild(library);
  onProgress(total, total);
  return ok({ documents: prepared.size, chunks: [...prepared.values()].reduce((n, p) => n + p.chunks, 0), vectorsKept: kept });
}

/**
 * Replaces the live index folder by `staging` with two renames, each atomic (`settleRebuild`
 * finishes or undoes them after a crash), while no read runs. When a rename or the reopen
 * fails, the previous folder is put back and reopened, so the library keeps working.
 */
async function swapIn(index: LibraryIndex, staging: string, storeOptions: StoreOptions): Promise<Result<void>> {
  const live = index.library.indexDir;
  const old = `${live}${OLD_SUFFIX}`;
  let failure: unknown = null;
  await index.swapStore(async (current): Promise<ChunkStore> => {
    await current.close();
    try {
      await fs.rm(old, { recursive: true, force: true });
      await fs.rename(live, old).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      await fs.rename(staging, live);
      return await openStore(live, storeOptions);
    } catch (err) {
      failure = err;
      if (!(await pathExists(live)) && (await pathExists(old))) await fs.rename(old, live);
      return openStore(live, storeOptions);
    }
  });
  if (failure !== null) {
    const message = failure instanceof Error ? failure.message : String(failure);
    return fail('internal', `The rebuilt index could not replace the current one (${message}). The library keeps its previous index.`);
  }
  await fs.rm(old, { recursive: true, force: true });
  return ok(undefined);
}
