import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { EnrichMode } from '../enrich/enricher';
import type { Llm } from '../models/types';
import type { DocumentRecord } from '../storage/library.store';
import type { LibraryIndex } from './library-index';
import { enrichmentSettings } from './library-enrichment';
import { withViews } from './table-views';
import { ownTurn, type WriteTurn } from './write-turn';

/** Whether the upgrade to `mode` has yet to reach this document (a ready one, with its text stored). */
export function owesUpgrade(rec: DocumentRecord, mode: EnrichMode): boolean {
  return mode !== 'heuristic' && rec.status === 'ready' && !!rec.contentHash && rec.enrichedWith !== mode;
}

/**
 * The background LLM upgrade: re-enriches every ready document not yet enriched with `mode`,
 * one document at a time, replacing its rows in place (search keeps working on the old rows
 * until then). Resumable: progress is recorded per document, so a cancelled run continues later.
 * The model works outside the library's lock; each document's write is one `turn`, which writes
 * it only if it is still the version the model read (another process may have replaced or removed
 * it meanwhile) and merges its record into the records as they are then.
 */
export async function upgradeEnrichment(
  index: LibraryIndex,
  mode: Exclude<EnrichMode, 'heuristic'>,
  llm: Llm,
  signal: AbortSignal,
  onProgress: (done: number, total: number) => void,
  turn: WriteTurn = ownTurn,
): Promise<Result<number>> {
  const { library } = index;
  const cancelled = () => fail<never>('cancelled', 'Enrichment was cancelled; it resumes where it stopped.');
  const todo = (await library.documents()).filter((d) => owesUpgrade(d, mode));
  let done = 0;
  // Documents this run cannot re-enrich (stored text lost or damaged, chunking failed): their rows
  // stay as they are, and no later run can do better until they are imported again.
  const unreadable = new Set<string>();
  onProgress(0, todo.length);
  for (const rec of todo) {
    if (signal.aborted) return cancelled();
    const doc = await library.loadNormalized(rec);
    if (!doc) {
      unreadable.add(rec.id);
      continue;
    }
    const chunks = await index.chunker.chunk(doc, await index.chunkContext(signal));
    if (!chunks.ok) {
      unreadable.add(rec.id);
      continue;
    }
    let upgraded;
    try {
      upgraded = await index.enrichment.enrichWithLlm(doc, chunks.value, enrichmentSettings(library.config, true), mode, llm, signal);
    } catch (err) {
      if (signal.aborted) return cancelled();
      throw err;
    }
    const wrote = await turn(async () => {
      const current = await library.document(doc.id);
      // Replaced or removed while the model worked: its rows stay as their writer left them.
      if (current?.status !== 'ready' || current.contentHash !== rec.contentHash) return;
      // Its journal waits for a removal of the app that began during this turn (see `JournalTurns`).
      await index.journaled([doc.id], async () => {
        await index.store.replaceDocument(doc.id, withViews(doc, upgraded.rows));
        await library.putDocuments([{ ...current, enrichedWith: mode, llmCalls: upgraded.llmCalls, llmTokens: upgraded.llmTokens, chunks: upgraded.rows.length }]);
      });
    });
    if (!wrote.ok) return wrote;
    onProgress(++done, todo.length);
  }
  const ended = await turn(async () => {
    await index.store.ensureIndexes();
    // Every document upgraded: every chunk has the model's nouns, or the heuristic's where the
    // model's answer was unusable (computed, since LLM enrichment reads them), so an embedder may
    // read them all (see `startEmbedding`). A document no run can re-enrich keeps its chunks without
    // nouns: waiting for it would hold the embedder back for good, so its chunks are embedded as
    // they are (their model and category are in the signature all the same).
    if (library.config.nounsOmitted && (await library.documents()).every((d) => d.status !== 'ready' || d.enrichedWith === mode || unreadable.has(d.id))) {
      await library.saveConfig({ nounsOmitted: false });
    }
  });
  if (!ended.ok) return ended;
  return ok(done);
}
