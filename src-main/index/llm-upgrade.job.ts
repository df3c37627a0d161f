import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { sentence } from '../core/text';
import type { EnrichMode } from '../enrich/enricher';
import type { Llm, ModelInfo } from '../models/types';
import type { DocumentRecord } from '../storage/library.store';
import type { LibraryIndex } from './library-index';
import { enrichmentSettings } from './library-enrichment';
import { withViews } from './table-views';
import { ownTurn, type WriteTurn } from './write-turn';

/**
 * What chunking a document anew depends on besides its text, in words: the library's embedder
 * (`embedder`, its id; null: none) as the models folders hold it (`models`). Kept with a chunking
 * failure's mark (`DocumentRecord.upgradeFailed`), which lapses once this changes: the embedder
 * put back, replaced, or another one chosen.
 */
export function chunkingInputs(embedder: string | null, models: readonly ModelInfo[]): string {
  if (embedder === null) return 'no embedder';
  const found = models.find((m) => m.id === embedder);
  return found ? `embedder "${embedder}" (${found.format}, ${found.sizeBytes} bytes)` : `embedder "${embedder}" (not in the models folders)`;
}

/** `chunkingInputs` of a library now: its configured embedder as the models folders (`models.list`) hold it. */
export async function libraryChunkingInputs(config: { embedder?: { id: string } | null }, models: { list(): Promise<readonly ModelInfo[]> }): Promise<string> {
  return chunkingInputs(config.embedder?.id ?? null, await models.list());
}

/**
 * Whether an earlier run's mark (`DocumentRecord.upgradeFailed`) still passes this document by in
 * the upgrade to `mode`: made for that mode and, for a chunking failure, with the same chunking
 * inputs as now (`inputs`, see `chunkingInputs`; null: not looked up, such a mark counts as lapsed).
 * A mark without inputs (its text lost, or written before marks kept them) holds until the
 * document is imported again, the index rebuilt or the mode changed.
 */
export function markHolds(rec: DocumentRecord, mode: EnrichMode, inputs: string | null): boolean {
  const mark = rec.upgradeFailed;
  return mark?.mode === mode && (mark.inputs === undefined || mark.inputs === inputs);
}

/**
 * The chunking inputs now (`lookup`), or null when no mark among `records` kept any (`markHolds`
 * then needs none): looking them up scans the models folders, reading every GGUF's header, and at
 * the app's start every LLM library is asked.
 */
export async function inputsForMarks(records: readonly DocumentRecord[], lookup: () => Promise<string>): Promise<string | null> {
  return records.some((d) => d.upgradeFailed?.inputs !== undefined) ? lookup() : null;
}

/**
 * Whether the upgrade to `mode` has yet to reach this document: a ready one, with its text stored,
 * that an earlier run did not find unreachable (`markHolds`; `inputs`: see `chunkingInputs`).
 */
export function owesUpgrade(rec: DocumentRecord, mode: EnrichMode, inputs: string | null): boolean {
  return mode !== 'heuristic' && rec.status === 'ready' && !!rec.contentHash && rec.enrichedWith !== mode && !markHolds(rec, mode, inputs);
}

/** Why the upgrade passes a document by (`DocumentRecord.upgradeFailed`), in words. */
export const STORED_TEXT_LOST =
  'Its stored text is missing from the library folder or cannot be read, so the chat model cannot enrich it. It keeps its rule-based enrichment and stays searchable; import the file again to enrich it.';


/** Why the upgrade passes by a document it could not chunk anew (`DocumentRecord.upgradeFailed`), in words. */
export function chunkingFailed(error: string): string {
  return `Chunking it anew for the chat model failed: ${sentence(error)} It keeps its rule-based enrichment and stays searchable; ${unchunkedRetry(1)}`;
}

/**
 * When the upgrade tries again documents it could not chunk (`count` of them), in words: the
 * inputs their mark kept are compared when it next runs (after an import, at the app's start, on
 * another embedder chosen), so a model file put back meanwhile counts from then.
 */
export function unchunkedRetry(count: number): string {
  return count === 1
    ? "it is tried again once the library's embedding model is put back or changed (at the next import or start of the app), or when its file is imported again."
    : "they are tried again once the library's embedding model is put back or changed (at the next import or start of the app), or when their files are imported again.";
}

/**
 * What a run of the upgrade did: documents upgraded, and those it found it cannot reach and marked
 * (`upgradeFailed`): `passedBy`, their stored text lost; `unchunked`, chunking them failed (why).
 */
export interface UpgradeOutcome {
  upgraded: number;
  passedBy: string[];
  unchunked: { id: string; error: string }[];
}

/** The chat model, or how to load it: loaded when the first document the run can read is enriched. */
export type LlmSource = Llm | (() => Promise<Llm>);

/**
 * The background LLM upgrade: re-enriches every ready document not yet enriched with `mode`,
 * one document at a time, replacing its rows in place (search keeps working on the old rows
 * until then). Resumable: progress is recorded per document, so a cancelled run continues later.
 * The model works outside the library's lock; each document's write is one `turn`, which writes
 * it only if it is still the version the model read (another process may have replaced or removed
 * it meanwhile) and merges its record into the records as they are then. A document whose stored
 * text is lost, or that its chunker fails on (a failure its next run would meet again, unlike a
 * cancel or a busy lock), is marked (`upgradeFailed`) and passed by from then on (a chunking failure
 * until its `inputs`, see `chunkingInputs`, change); the model is
 * loaded only for a document the run can chunk. Progress counts every document dealt with, passed
 * by or not.
 */
export async function upgradeEnrichment(
  index: LibraryIndex,
  mode: Exclude<EnrichMode, 'heuristic'>,
  llm: LlmSource,
  signal: AbortSignal,
  onProgress: (done: number, total: number) => void,
  /** The chunking inputs now (`chunkingInputs`), asked for only when a mark needs them: finding them scans the models folders. */
  chunkingInputsNow: () => Promise<string>,
  turn: WriteTurn = ownTurn,
): Promise<Result<UpgradeOutcome>> {
  const { library } = index;
  const cancelled = () => fail<never>('cancelled', 'Enrichment was cancelled; it resumes where it stopped.');
  const records = await library.documents();
  let inputs = await inputsForMarks(records, chunkingInputsNow);
  const inputsNow = async () => (inputs ??= await chunkingInputsNow());
  const todo = records.filter((d) => owesUpgrade(d, mode, inputs));
  let done = 0;
  let upgradedDocs = 0;
  const passedBy: string[] = [];
  const unchunked: UpgradeOutcome['unchunked'] = [];
  let model = typeof llm === 'function' ? null : llm;
  // Documents this run cannot re-enrich (stored text lost or damaged, chunking failed): their rows
  // stay as they are.
  const unreadable = new Set<string>();
  /**
   * Marks the document as passed by for `reason` (while `dependsOn`, when given, holds), unless it
   * was replaced or removed meanwhile (the new version is owed anew): whether it did.
   */
  const mark = (rec: DocumentRecord, reason: string, dependsOn?: string) =>
    turn(async () => {
      const current = await library.document(rec.id);
      if (current?.status !== 'ready' || current.contentHash !== rec.contentHash) return false;
      await library.putDocuments([{ ...current, upgradeFailed: { mode, reason, ...(dependsOn === undefined ? {} : { inputs: dependsOn }) } }]);
      return true;
    });
  onProgress(0, todo.length);
  for (const rec of todo) {
    if (signal.aborted) return cancelled();
    const doc = await library.loadNormalized(rec);
    if (!doc) {
      unreadable.add(rec.id);
      // No later run can do better until the file is imported again: marked, it is not read again
      // (nor the model loaded for it) at every start of the app, opening of the library and import.
      const marked = await mark(rec, STORED_TEXT_LOST);
      if (!marked.ok) return marked;
      if (marked.value) passedBy.push(rec.id);
      onProgress(++done, todo.length);
      continue;
    }
    const chunks = await index.chunker.chunk(doc, await index.chunkContext(signal));
    if (!chunks.ok) {
      if (signal.aborted || chunks.error.code === 'cancelled') return cancelled();
      unreadable.add(rec.id);
      // The same text, chunker and models fail the same way (semantic chunking whose embedder is
      // gone): every start, opening and import ran the upgrade again for it. Marked, it waits for
      // those inputs to change (the embedder put back or another chosen), a rebuild or a new
      // import, which chunk it anew.
      const marked = await mark(rec, chunkingFailed(chunks.error.message), await inputsNow());
      if (!marked.ok) return marked;
      if (marked.value) unchunked.push({ id: rec.id, error: chunks.error.message });
      onProgress(++done, todo.length);
      continue;
    }
    let upgraded;
    try {
      model ??= await (llm as () => Promise<Llm>)();
      upgraded = await index.enrichment.enrichWithLlm(doc, chunks.value, enrichmentSettings(library.config, true), mode, model, signal);
    } catch (err) {
      if (signal.aborted) return cancelled();
      throw err;
    }
    const wrote = await turn(async () => {
      const current = await library.document(doc.id);
      // Replaced or removed while the model worked: its rows stay as their writer left them.
      if (current?.status !== 'ready' || current.contentHash !== rec.contentHash) return false;
      // Its journal waits for a removal of the app that began during this turn (see `JournalTurns`).
      await index.journaled([doc.id], async () => {
        await index.store.replaceDocument(doc.id, withViews(doc, upgraded.rows));
        const { upgradeFailed: _passedBy, ...reached } = current;
        await library.putDocuments([{ ...reached, enrichedWith: mode, llmCalls: upgraded.llmCalls, llmTokens: upgraded.llmTokens, chunks: upgraded.rows.length }]);
      });
      return true;
    });
    if (!wrote.ok) return wrote;
    if (wrote.value) upgradedDocs++;
    onProgress(++done, todo.length);
  }
  const ended = await turn(async () => {
    await index.store.ensureIndexes();
    // Every document upgraded: every chunk has the model's nouns, or the heuristic's where the
    // model's answer was unusable (computed, since LLM enrichment reads them), so an embedder may
    // read them all (see `startEmbedding`). A document no run can re-enrich keeps its chunks without
    // nouns: waiting for it would hold the embedder back for good, so its chunks are embedded as
    // they are (their model and category are in the signature all the same).
    const reached = (d: DocumentRecord) => d.status !== 'ready' || d.enrichedWith === mode || markHolds(d, mode, inputs) || unreadable.has(d.id);
    if (library.config.nounsOmitted && (await library.documents()).every(reached)) {
      await library.saveConfig({ nounsOmitted: false });
    }
  });
  if (!ended.ok) return ended;
  return ok({ upgraded: upgradedDocs, passedBy, unchunked });
}
