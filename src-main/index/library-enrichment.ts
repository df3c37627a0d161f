import type { Chunk, EnrichedChunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import { CodedError } from '../core/result';
import { createEnricher, type EnrichMode, type Enricher } from '../enrich/enricher';
import type { Llm } from '../models/types';
import { ModelVocabulary, vocabularyInput } from '../enrich/model-vocabulary';
import { plainText } from '../enrich/text.util';
import { indexedText, type PrefixOptions } from '../enrich/prefix';
import { analyzeQuery, modelMatch, type QueryAnalysis } from '../search/query-analysis';
import { createRestructurer, type RetrievalUnit } from '../enrich/restructure';
import { TermStats } from '../enrich/term-stats';
import type { ChunkHit, ChunkInput } from '../storage/chunk-store';
import { chunkId, chunkInputFrom } from '../storage/chunk-store';

/**
 * Glue between a library's index and the enrichment stage: the library's model vocabulary and
 * term statistics (persisted in enrichment.json), heuristic enrichment at import time, the
 * indexed-text prefix, optional key-based restructuring, query analysis and model-aware ranking.
 */

export type { QueryAnalysis };

export interface EnrichmentSettings {
  prefix: Required<PrefixOptions>;
  restructure: boolean;
}

interface Persisted {
  version: 1;
  vocabulary: unknown;
  terms: unknown;
}

/** Score weights by how a chunk's model relates to the model a question names. */
const MODEL_WEIGHT = { exact: 1, family: 0.85, unknown: 0.6, none: 0.3 } as const;
/** Extra share of score for a chunk naming every model of a multi-model question. */
const ALL_MODELS_BONUS = 0.3;
/** Extra share of score for a chunk of the page whose title names the question's model. */
const MODEL_PAGE_BONUS = 0.25;

export class LibraryEnrichment {
  private enricher: Enricher;

  private constructor(
    readonly vocabulary: ModelVocabulary,
    readonly terms: TermStats,
  ) {
    this.enricher = this.makeEnricher();
  }

  /** Restores stored state; damaged or missing state starts empty (the caller relearns). */
  static restore(state: unknown): LibraryEnrichment {
    const s = state as Partial<Persisted> | null;
    const vocabulary = s?.vocabulary ? ModelVocabulary.fromJSON(s.vocabulary) : null;
    const terms = s?.terms ? TermStats.fromJSON(s.terms) : null;
    return new LibraryEnrichment(vocabulary?.ok ? vocabulary.value : ModelVocabulary.create(), terms?.ok ? terms.value : TermStats.create());
  }

  private makeEnricher(): Enricher {
    const made = createEnricher('heuristic', { vocabulary: this.vocabulary, terms: this.terms });
    if (!made.ok) throw new CodedError(made.error.code, made.error.message);
    return made.value;
  }

  snapshot(): Persisted {
    return { version: 1, vocabulary: this.vocabulary.toJSON(), terms: this.terms.toJSON() };
  }

  /** Adds documents (replacing `previous` versions of the same ids) to the vocabulary and term statistics. */
  learn(docs: NormalizedDocument[], previous: NormalizedDocument[] = []): void {
    for (const old of previous) this.terms.removeDocument(old.text);
    for (const doc of docs) {
      // One plain-text pass serves both: it is most of what learning costs.
      const plain = plainText(doc.text);
      this.vocabulary.addDocument({ ...vocabularyInput(doc), plain });
      this.terms.addPlain(plain);
    }
  }

  forget(docs: NormalizedDocument[]): void {
    for (const doc of docs) {
      this.vocabulary.removeDocument(doc.id);
      this.terms.removeDocument(doc.text);
    }
  }

  /** Heuristic enrichment, optional restructuring and prefixing: the rows to store. */
  async enrich(doc: NormalizedDocument, chunks: Chunk[], settings: EnrichmentSettings, signal?: AbortSignal): Promise<ChunkInput[]> {
    const { chunks: enriched } = await this.enricher.enrichDocument(doc, chunks, signal ? { signal } : {});
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

  analyzeQuery(query: string): QueryAnalysis {
    return analyzeQuery(query, this.vocabulary);
  }

  /** Models a question's models may be stored under: the named models and their families. */
  filterModels(analysis: QueryAnalysis): string[] {
    return [...analysis.models, ...analysis.related];
  }

  /**
   * Model-aware ranking: when the question names a model, each hit's BM25 score is weighted by how
   * its chunk's model relates to the named one: the same model keeps its score, its family
   * (another revision, a "+" member, the series page) keeps most of it, chunks without a model
   * less, and chunks of a different model are demoted hard. A weight, not a strict tier, so a
   * strong passage on the series page still beats a passing mention on the exact model's page.
   * Two lighter signals follow the same idea:
   * - a question naming several models ("Can I plug a CM5 into the CM3 IO board?") is about how
   *   they relate, so chunks that name all of them are preferred;
   * - a page whose title names the model (its overview page in a docs site) is the model's
   *   reference, preferred over a page on another topic that mentions it in passing.
   * Without a named model, order is unchanged.
   */
  rank(hits: ChunkHit[], analysis: QueryAnalysis): ChunkHit[] {
    if (analysis.models.length === 0) return hits;
    const weight = (h: ChunkHit): number => {
      if (!h.record.model) return MODEL_WEIGHT.unknown;
      return MODEL_WEIGHT[modelMatch(analysis.models, h.record.model, this.vocabulary)];
    };
    const namesAll = (h: ChunkHit): boolean => {
      if (analysis.models.length < 2) return false;
      const named = new Set(this.vocabulary.findMentions(h.record.text).map((m) => m.model));
      return analysis.models.every((m) => named.has(m));
    };
    const titled = new Map<string, boolean>();
    const titleNamesModel = (h: ChunkHit): boolean => {
      let named = titled.get(h.record.docId);
      if (named === undefined) {
        named = this.vocabulary.findMentions(h.record.headingPath[0] ?? '').some((m) => analysis.models.includes(m.model));
        titled.set(h.record.docId, named);
      }
      return named;
    };
    return hits
      .map((h, i) => {
        const bonus = (namesAll(h) ? 1 + ALL_MODELS_BONUS : 1) * (titleNamesModel(h) ? 1 + MODEL_PAGE_BONUS : 1);
        return { h: { ...h, score: h.score * weight(h) * bonus }, i };
      })
      .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
      .map((x) => x.h);
  }
}

function unitInput(unit: RetrievalUnit, prefix: Required<PrefixOptions>): ChunkInput {
  const base = chunkInputFrom(unit as EnrichedChunk, indexedText(unit, prefix));
  if (unit.members.length <= 1) return base;
  return { ...base, id: `${chunkId(unit.docId, unit.ordinal)}+${unit.members.length}`, members: unit.members };
}
