import type { Chunk, ContinuityDecision, EnrichedChunk, EnrichStats, KeyFields, Signature } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { Llm } from '../models/types';
import type { ChunkView } from './chunk-view';
import { chooseModel, chunkView } from './chunk-view';
import type { DocumentFacts } from './cnm.heuristic';
import { createCnmHeuristic } from './cnm.heuristic';
import { createCnmLlm } from './cnm.llm';
import { createContinuityHeuristic } from './continuity.heuristic';
import { createKeysHeuristic } from './keys.heuristic';
import { createKeysLlm } from './keys.llm';
import { addStats, emptyStats } from './llm.util';
import type { ModelVocabulary } from './model-vocabulary';
import { RollingKeys } from './rolling-keys';
import { createSingleLlm } from './single.llm';
import { TermStats } from './term-stats';

/**
 * The enrichment stage: one interface, three backends.
 * - `heuristic`: no model; CNM, continuity and keys from rules and library statistics.
 * - `llm`: CHOP's continuity call + CNM call (only when not continuous) + MDKey's keys call.
 * - `llm-single`: one call per chunk returns continuity, CNM and keys together.
 * Any unusable LLM answer falls back to the heuristic result for that part, with the reason in
 * `fallbackReason`. Every chunk carries its LLM calls and token counts (`enrichStats`).
 */

export { ENRICH_MODES, type EnrichMode } from '../core/vocabulary';
import { ENRICH_MODES, type EnrichMode } from '../core/vocabulary';

export interface EnrichContext {
  signal?: AbortSignal;
  /** Called after each chunk with chunks done and the document's chunk count. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Heuristic signatures with their nouns (default true). False leaves them empty where nothing
   * reads them (see `readsNouns` in index/library-enrichment.ts): tagging them is the slowest step
   * of heuristic enrichment. LLM signatures always carry the model's own nouns.
   */
  nouns?: boolean;
}

export interface EnrichDocumentResult {
  chunks: EnrichedChunk[];
  /** Totals over the document's chunks. */
  stats: EnrichStats;
}

export interface Enricher {
  readonly mode: EnrichMode;
  /**
   * Enriches a document's chunks (in ordinal order). Cancellation rejects with the signal's
   * AbortError (mapped to `cancelled` at the boundary); model failures never reject.
   */
  enrichDocument(doc: NormalizedDocument, chunks: readonly Chunk[], ctx?: EnrichContext): Promise<EnrichDocumentResult>;
}

export interface EnricherOptions {
  /** Required for `llm` and `llm-single`. */
  llm?: Llm;
  /** The library's model vocabulary (documents should be added before they are enriched). */
  vocabulary: ModelVocabulary;
  /** Library term statistics for TF-IDF; without them each document is its own collection. */
  terms?: TermStats;
  /** Rolling key dictionary size (MDKeyChunker: 40). */
  rollingKeyCapacity?: number;
  /** Heuristic continuity: lexical overlap that continues across sections, 0..1. */
  minSimilarity?: number;
  /** Heuristic nouns: characters part-of-speech tagged per chunk. */
  maxTaggedChars?: number;
  /** LLM: extra attempts after unusable output, 0..2 (default 1). */
  retries?: number;
  /** LLM: characters of chunk text shown to the model (default per stage). */
  maxChunkChars?: number;
}

function copySignature(s: Signature): Signature {
  return { category: s.category, nouns: [...s.nouns], model: s.model };
}

function enriched(chunk: Chunk, signature: Signature, inherited: boolean, continuity: ContinuityDecision | null, keys: KeyFields, notes: string[], stats: EnrichStats): EnrichedChunk {
  // The same object as `{ ...chunk, headingPath: ..., ... }` (keys in that order), made with
  // Object.assign: V8 (Node 20) took ~10 µs per chunk for the spread with fields after it, 7% of
  // preparing radxa + esp, and ~1 µs this way.
  return Object.assign({}, chunk, {
    headingPath: [...chunk.headingPath],
    signature,
    signatureSource: inherited ? ('inherited' as const) : ('extracted' as const),
    continuity,
    keys,
    fallbackReason: notes.length > 0 ? notes.join('; ') : null,
    enrichStats: stats,
  });
}

/** Builds an enricher; options are checked once here (`invalid-input`, `model-missing`). */
export function createEnricher(mode: EnrichMode, options: EnricherOptions): Result<Enricher> {
  if (!ENRICH_MODES.includes(mode)) return fail('invalid-input', `Unknown enrichment mode "${String(mode)}".`);
  if (mode !== 'heuristic' && !options.llm) return fail('model-missing', `The "${mode}" enrichment needs a language model; none is loaded.`);
  const llm = options.llm;
  let stages;
  try {
    const stageOpts = {
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
      ...(options.maxChunkChars !== undefined ? { maxChunkChars: options.maxChunkChars } : {}),
    };
    stages = {
      cnm: createCnmHeuristic(options.maxTaggedChars !== undefined ? { maxTaggedChars: options.maxTaggedChars } : {}),
      continuity: createContinuityHeuristic(options.minSimilarity !== undefined ? { minSimilarity: options.minSimilarity } : {}),
      keys: createKeysHeuristic(),
      cnmLlm: llm && mode === 'llm' ? createCnmLlm(llm, stageOpts) : null,
      keysLlm: llm && mode === 'llm' ? createKeysLlm(llm, stageOpts) : null,
      singleLlm: llm && mode === 'llm-single' ? createSingleLlm(llm, stageOpts) : null,
    };
    new RollingKeys(options.rollingKeyCapacity ?? 40);
  } catch (err) {
    return fail('invalid-input', `Invalid enrichment options: ${err instanceof Error ? err.message : String(err)}.`);
  }
  const { vocabulary } = options;
  const capacity = options.rollingKeyCapacity ?? 40;

  return ok({
    mode,
    async enrichDocument(doc, chunks, ctx = {}) {
      const signal = ctx.signal;
      const cnmOptions = { nouns: ctx.nouns ?? true };
      const ordered = [...chunks].sort((a, b) => a.ordinal - b.ordinal);
      const facts: DocumentFacts = {
        doc,
        identity: vocabulary.identityOf(doc),
        vocabulary,
        terms: options.terms ?? TermStats.fromTexts(ordered.map((c) => c.text)),
      };
      // The rolling key dictionary lives for one document (MDKeyChunker resets it per document).
      const rolling = new RollingKeys(capacity);
      const total = emptyStats();
      const out: EnrichedChunk[] = [];
      let prevView: ChunkView | null = null;
      let prevSig: Signature | null = null;

      for (let i = 0; i < ordered.length; i++) {
        signal?.throwIfAborted();
        const chunk = ordered[i]!;
        const view = chunkView(chunk, vocabulary, doc);
        const stats = emptyStats();
        const notes: string[] = [];
        let continuity: ContinuityDecision | null = null;
        let signature: Signature;
        let inherited = false;
        let keys: KeyFields;

        const heuristicDecision = (): ContinuityDecision => stages.continuity.decide(prevView!, prevSig!, view, doc, vocabulary);

        if (mode === 'heuristic' || !llm) {
          if (prevView && prevSig) continuity = heuristicDecision();
          inherited = continuity?.continuous === true;
          signature = inherited ? copySignature(prevSig!) : stages.cnm.extract(view, facts, cnmOptions).signature;
          keys = stages.keys.extract(view, facts);
        } else if (mode === 'llm') {
          if (prevView && prevSig) {
            const r = await stages.cnmLlm!.decide(prevView, prevSig, view, facts, stats, signal);
            if (r.ok) continuity = r.value;
            else {
              const h = heuristicDecision();
              continuity = { continuous: h.continuous, reason: `heuristic: ${h.reason}` };
              notes.push(`continuity: ${r.reason}`);
            }
          }
          inherited = continuity?.continuous === true;
          if (inherited) signature = copySignature(prevSig!);
          else {
            const h = stages.cnm.extract(view, facts, cnmOptions).signature;
            const r = await stages.cnmLlm!.extract(view, facts, h.model, stats, signal);
            if (r.ok) {
              signature = r.value;
              if (r.note) notes.push(`cnm: ${r.note}`);
            } else {
              signature = h;
              notes.push(`cnm: ${r.reason}`);
            }
          }
          const k = await stages.keysLlm!.extract(view, facts, rolling, stats, signal);
          if (k.ok) keys = k.value;
          else {
            keys = stages.keys.extract(view, facts);
            notes.push(`keys: ${k.reason}`);
          }
        } else {
          const fallbackModel = chooseModel(view, facts.identity, vocabulary).model;
          const prev = prevView && prevSig ? { view: prevView, signature: prevSig } : null;
          const r = await stages.singleLlm!.run(prev, view, facts, rolling, fallbackModel, stats, signal);
          if (r.ok) {
            continuity = r.value.continuity;
            inherited = continuity?.continuous === true;
            signature = inherited ? copySignature(prevSig!) : r.value.signature;
            keys = r.value.keys;
            if (r.note) notes.push(`cnm: ${r.note}`);
          } else {
            if (prevView && prevSig) {
              const h = heuristicDecision();
              continuity = { continuous: h.continuous, reason: `heuristic: ${h.reason}` };
            }
            inherited = continuity?.continuous === true;
            signature = inherited ? copySignature(prevSig!) : stages.cnm.extract(view, facts, cnmOptions).signature;
            keys = stages.keys.extract(view, facts);
            notes.push(`single: ${r.reason}`);
          }
        }
        if (keys.key) rolling.use(keys.key);
        out.push(enriched(chunk, signature, inherited, continuity, keys, notes, stats));
        addStats(total, stats);
        prevView = view;
        prevSig = signature;
        ctx.onProgress?.(i + 1, ordered.length);
      }
      return { chunks: out, stats: total };
    },
  });
}
