import path from 'node:path';
import type { Chunk, EnrichedChunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import { CodedError } from '../core/result';
import { createEnricher, type EnrichMode, type Enricher } from '../enrich/enricher';
import type { Llm } from '../models/types';
import { ModelVocabulary, vocabularyInput } from '../enrich/model-vocabulary';
import { learningExtract, type LearningExtract } from '../enrich/learning-extract';
import { indexedText, type PrefixOptions } from '../core/prefix';
import { createRestructurer, type RetrievalUnit } from '../enrich/restructure';
import { TermStats } from '../enrich/term-stats';
import { PassageTermStats } from '../enrich/passage-terms';
import type { ChunkInput } from '../storage/chunk-store';
import type { LibraryConfig } from '../storage/library.store';
import { chunkId, chunkInputFrom } from '../storage/chunk-store';
import { readJson, writeFileAtomic } from '../storage/atomic-file';

/**
 * Glue between a library's index and the enrichment stage: the library's model vocabulary, its
 * document and passage term statistics (persisted in enrichment.json), heuristic enrichment at import time, the
 * indexed-text prefix and optional key-based restructuring. Search reads the vocabulary it keeps.
 */

/** Where a library keeps its model vocabulary and term statistics (in its folder). */
export const ENRICHMENT_FILE = 'enrichment.json';

export interface EnrichmentSettings {
  prefix: Required<PrefixOptions>;
  restructure: boolean;
  /** Heuristic signatures with their nouns (`readsNouns`). */
  nouns: boolean;
}

/**
 * Whether anything reads the heuristic nouns of a library with these settings: the embedder's
 * input (CHOP's prefix is embedded with every chunk), a keyword prefix with the signature, or LLM
 * enrichment (its heuristic fallback is a signature as the model would give it). Nothing else
 * ranks by them: the scorecard is the same without them, and tagging them is ~20% of a heuristic
 * import's CPU (tests/bench/RESULTS.md, "what the heuristic nouns cost"). A library that reads none
 * stores its chunks without them (`LibraryConfig.nounsOmitted`) and is rebuilt with them before
 * an embedder is set (`libraries.configure`).
 */
export function readsNouns(config: Pick<LibraryConfig, 'embedder' | 'enrich' | 'prefix'>): boolean {
  return config.embedder !== null || config.enrich !== 'heuristic' || config.prefix.signature;
}

/** The enrichment settings of a library as configured; `nouns` overrides `readsNouns` (a rebuild that fills them in). */
export function enrichmentSettings(config: LibraryConfig, nouns = readsNouns(config)): EnrichmentSettings {
  return { prefix: config.prefix, restructure: config.restructure, nouns };
}

interface Persisted {
  version: 1;
  vocabulary: unknown;
  terms: unknown;
  /** Absent in libraries indexed before passage statistics (search then weighs every word alike). */
  passages?: unknown;
}

export class LibraryEnrichment {
  private enricher: Enricher;

  private constructor(
    readonly vocabulary: ModelVocabulary,
    readonly terms: TermStats,
    /** Passage frequencies of stemmed words, for search's in-document ranking. */
    readonly passages: PassageTermStats,
  ) {
    this.enricher = this.makeEnricher();
  }

  /** Restores stored state; damaged or missing state starts empty (the caller relearns). */
  static restore(state: unknown): LibraryEnrichment {
    const s = state as Partial<Persisted> | null;
    const vocabulary = s?.vocabulary ? ModelVocabulary.fromJSON(s.vocabulary) : null;
    const terms = s?.terms ? TermStats.fromJSON(s.terms) : null;
    const passages = s?.passages ? PassageTermStats.fromJSON(s.passages) : null;
    return new LibraryEnrichment(
      vocabulary?.ok ? vocabulary.value : ModelVocabulary.create(),
      terms?.ok ? terms.value : TermStats.create(),
      passages?.ok ? passages.value : PassageTermStats.create(),
    );
  }

  private makeEnricher(): Enricher {
    const made = createEnricher('heuristic', { vocabulary: this.vocabulary, terms: this.terms });
    if (!made.ok) throw new CodedError(made.error.code, made.error.message);
    return made.value;
  }

  /** The state last saved in `dir` (`save`); empty when there is none. */
  static async load(dir: string): Promise<LibraryEnrichment> {
    return LibraryEnrichment.restore(await readJson<unknown>(path.join(dir, ENRICHMENT_FILE), null));
  }

  /**
   * Writes the state to `ENRICHMENT_FILE` in `dir` (a library's folder, or a rebuilt index's before
   * its swap). Compact: nobody reads this file by eye, and indented it is about twice the size
   * (~1 MB for 660 documents).
   */
  async save(dir: string): Promise<void> {
    await writeFileAtomic(path.join(dir, ENRICHMENT_FILE), `${JSON.stringify(this.snapshot())}\n`);
  }

  /**
   * The state as stored; the same object until the next `learn` or `forget` (nothing else changes
   * the state). A batch prepared in workers sends it to them (`LibraryIndex.prepareAll`), and its
   * commit saves it: one copy of every table per batch, not two. Read-only.
   */
  snapshot(): Persisted {
    this.snapshotted ??= { version: 1, vocabulary: this.vocabulary.toJSON(), terms: this.terms.toJSON(), passages: this.passages.toJSON() };
    return this.snapshotted;
  }

  /** `snapshot`'s answer since the state last changed. */
  private snapshotted: Persisted | null = null;

  /** Adds documents (replacing `previous` versions of the same ids) to the vocabulary and term statistics. */
  learn(docs: NormalizedDocument[], previous: NormalizedDocument[] = [], extracts: readonly (LearningExtract | undefined)[] = []): void {
    this.snapshotted = null;
    for (const old of previous) {
      this.terms.removeDocument(old.text);
      this.passages.removeDocument(old);
    }
    docs.forEach((doc, k) => {
      // Made by the parse worker when it could (`learning-extract.ts`): the same sets, in the same order.
      const extract = extracts[k] ?? learningExtract(doc);
      this.passages.addPassages(extract.passages);
      this.vocabulary.addDocument({ ...vocabularyInput(doc), plain: extract.plain });
      this.terms.addTerms(extract.terms);
    });
  }

  forget(docs: NormalizedDocument[]): void {
    this.snapshotted = null;
    for (const doc of docs) {
      this.vocabulary.removeDocument(doc.id);
      this.terms.removeDocument(doc.text);
      this.passages.removeDocument(doc);
    }
  }

  /** Heuristic enrichment, optional restructuring and prefixing: the rows to store. */
  async enrich(doc: NormalizedDocument, chunks: Chunk[], settings: EnrichmentSettings, signal?: AbortSignal): Promise<ChunkInput[]> {
    const { chunks: enriched } = await this.enricher.enrichDocument(doc, chunks, { nouns: settings.nouns, ...(signal ? { signal } : {}) });
    return this.rows(doc, enriched, settings);
  }

  /**
   * LLM enrichment (CHOP's calls + MDKey's, or the single call) for the background upgrade;
   * unusable model output falls back to the heuristic per chunk, with the reason recorded.
   */
  async enrichWithLlm(
    doc: NormalizedDocument,
    chunks: Chunk[],
    settings: EnrichmentSettings,
    mode: Exclude<EnrichMode, 'heuristic'>,
    llm: Llm,
    signal?: AbortSignal,
  ): Promise<{ rows: ChunkInput[]; llmCalls: number; llmTokens: number }> {
    const made = createEnricher(mode, { llm, vocabulary: this.vocabulary, terms: this.terms });
    if (!made.ok) throw new CodedError(made.error.code, made.error.message);
    const { chunks: enriched, stats } = await made.value.enrichDocument(doc, chunks, signal ? { signal } : {});
    return { rows: this.rows(doc, enriched, settings), llmCalls: stats.llmCalls, llmTokens: stats.promptTokens + stats.outputTokens };
  }

  private rows(doc: NormalizedDocument, enriched: EnrichedChunk[], settings: EnrichmentSettings): ChunkInput[] {
    if (!settings.restructure) return enriched.map((c) => chunkInputFrom(c, indexedText(c, settings.prefix)));
    const units = createRestructurer().run(enriched, doc.title);
    return units.map((u) => unitInput(u, settings.prefix));
  }
}

function unitInput(unit: RetrievalUnit, prefix: Required<PrefixOptions>): ChunkInput {
  const base = chunkInputFrom(unit as EnrichedChunk, indexedText(unit, prefix));
  if (unit.members.length <= 1) return base;
  return { ...base, id: `${chunkId(unit.docId, unit.ordinal)}+${unit.members.length}`, members: unit.members };
}
