import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EnrichMode, LibrarySummary } from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { RANK_STAGE_NAMES, type RankStageName } from '../core/vocabulary';
import { createEngine, type EngineDoor } from '../engine/engine';
import { importAndWait } from '../engine/contract-jobs';
import type { ConfigurationName, Retriever } from './configurations';
import { librarySettings } from './configurations';
import type { Metrics } from './metrics';
import { meanMetrics, pageCorrect, questionMetrics, relevantRanks } from './metrics';
import type { Question } from './questions';
import type { PreparedAnswers } from './relevance';
import { coveredAnswers, coveredByNormalized, normalizeForRelevance, prepareAnswers } from './relevance';

/**
 * Runs the evaluation: for each configuration × enrichment backend, a fresh library in a
 * temporary data folder imports the corpora (timed), then every retriever answers every question
 * and each question is scored against its gold answers. Configurations that cannot run here (no
 * embedder, no LLM) are reported as skipped with the reason, never as a crash.
 */

export interface EvalOptions {
  /** Corpus folders; document ids are paths relative to each folder's parent. */
  corpora: string[];
  questions: Question[];
  configurations: ConfigurationName[];
  enrich: EnrichMode[];
  retrievers: Retriever[];
  /** Results asked for per question (≥ 1); metrics at 10 see only these. */
  topK: number;
  /** Models shipped with the app (default: the app's `models/`). */
  bundledModelsDir?: string;
  /** The user's own models folder (`<data dir>/models`), made visible to the temporary engine. */
  userModelsDir?: string;
  /** Cap for native model runtime threads (default: the runtimes' own cap). */
  threads?: number;
  /** Also run every question with each ranking stage left out, one at a time (BM25 only). */
  ablate?: boolean;
  /** Parent of the temporary data folder (default: the OS temp folder). */
  tempRoot?: string;
  /** Human progress, one line per call. */
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
}

/** One evaluated configuration, in the `--json` shape of the eval issue (plus two diagnostics). */
export interface EvalResult {
  strategy: ConfigurationName;
  enrich: EnrichMode;
  retriever: Retriever;
  queries: number;
  metrics: Metrics;
  /** The ranking stage left out (the scorecard's ablation), null for the full ranking. */
  stage_off: RankStageName | null;
  /** Wall time of the import (parse, chunk, enrich, prefix, index), in seconds. */
  index_seconds: number;
  /** Stored retrieval units (chunks, or packed units with restructuring). */
  chunks: number;
  llm_calls: number;
  /** Prompt + output tokens spent on enrichment (model tokenizer). */
  llm_tokens: number;
  /** Fraction of questions with at least one relevant stored chunk: the ceiling of Hit@k. */
  answerable: number;
  /** Corpus files that failed to import (their questions cannot be answered). */
  failed_documents: number;
  /**
   * Share of the questions with gold pages whose first relevant result cites a gold page (see
   * `pageCorrect`); null when no question has pages or none was found.
   */
  page_accuracy: number | null;
  /** Questions that page accuracy counts: a gold page and a relevant result in the top K. */
  page_questions: number;
}

/** A configuration that could not run, and why, in words. */
export interface SkippedConfiguration {
  strategy: ConfigurationName;
  enrich: EnrichMode;
  retriever: Retriever;
  reason: string;
}

/** One question under one configuration (a line of `ranks.jsonl`). */
export interface QuestionRank {
  strategy: ConfigurationName;
  enrich: EnrichMode;
  retriever: Retriever;
  id: string;
  kind: string | null;
  /** 1-based rank of the first relevant result, null when none is in the top K. */
  rank: number | null;
  /** 1-based ranks of every relevant result. */
  relevant_ranks: number[];
  /** Number of gold answers. */
  answers: number;
  'ndcg@10': number;
  'recall@5': number;
  /** Stored chunks relevant to some gold answer; 0 means no ranking could have found one. */
  relevant_chunks: number;
  /** The first three results: document and chunk id. */
  top: { doc: string; chunk: string }[];
  /** Whether the first relevant result cites a gold page; null without pages or without a relevant result. */
  page_correct: boolean | null;
}

export interface EvalReport {
  results: EvalResult[];
  skipped: SkippedConfiguration[];
  ranks: QuestionRank[];
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** How long to wait for background LLM enrichment to report that it started before calling it absent, in ms. */
const ENRICH_START_TIMEOUT_MS = 15_000;

/** The models the evaluation libraries use, chosen once per run from the model folders. */
interface RunModels {
  /** Embedder id for dense/hybrid search and semantic chunking; null when none is installed or loads. */
  embedder: string | null;
  /** Chat model for LLM enrichment; null when none is installed. */
  chatModel: string | null;
}

async function chooseModels(engine: EngineDoor, options: EvalOptions): Promise<RunModels> {
  const needEmbedder = options.retrievers.some((r) => r !== 'bm25') || options.configurations.includes('semantic');
  const needLlm = options.enrich.some((e) => e !== 'heuristic');
  if (!needEmbedder && !needLlm) return { embedder: null, chatModel: null };
  const listed = await engine.api['models.list']({});
  const models = listed.ok ? listed.value : [];
  // A dedicated embedder beats a chat GGUF that can also embed.
  const candidate = needEmbedder ? models.filter((m) => m.kinds.includes('embedder')).sort((a, b) => a.kinds.length - b.kinds.length)[0] : undefined;
  const chat = needLlm ? models.find((m) => m.format === 'gguf' && m.kinds.includes('llm')) : undefined;
  return { embedder: candidate?.id ?? null, chatModel: chat?.id ?? null };
}

/**
 * Creates an evaluation library through the contract with the configuration's settings and the
 * run's embedder. An embedder that does not load is reported once and dropped for the rest of the
 * run (BM25 still runs; dense and hybrid are skipped with the reason).
 */
async function createLibrary(
  engine: EngineDoor,
  name: string,
  config: ConfigurationName,
  enrich: EnrichMode,
  models: RunModels,
  progress: (line: string) => void,
): Promise<Result<LibrarySummary>> {
  const create = () => engine.api['libraries.create']({ name, ...librarySettings(config, enrich), embedder: models.embedder });
  const created = await create();
  if (created.ok || created.error.code !== 'model-failed' || models.embedder === null) return created;
  progress(created.error.message);
  models.embedder = null;
  return create();
}

/** Runs every configuration; fails only when cancelled or when the temporary folder cannot be made. */
export async function runEvaluation(options: EvalOptions): Promise<Result<EvalReport>> {
  const progress = options.onProgress ?? (() => undefined);
  const signal = options.signal ?? new AbortController().signal;
  const tempRoot = options.tempRoot ?? os.tmpdir();
  let dataDir: string;
  try {
    dataDir = await fs.mkdtemp(path.join(tempRoot, 'manualmate-eval-'));
  } catch (err) {
    return fail('unreadable', `Cannot create a temporary folder in ${tempRoot}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
  if (options.userModelsDir) {
    // The temporary engine looks for user models in `<its data dir>/models`: point that at the
    // user's folder so an installed embedder or LLM is found; without it, nothing is lost.
    await fs.symlink(path.resolve(options.userModelsDir), path.join(dataDir, 'models'), 'junction').catch(() => undefined);
  }
  // Only the contract and the lifecycle: every call goes through `dispatch`, like the app's.
  const engine: EngineDoor = createEngine({
    dataDir,
    ...(options.bundledModelsDir ? { bundledModelsDir: options.bundledModelsDir } : {}),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    log: (m) => progress(m),
  });
  const report: EvalReport = { results: [], skipped: [], ranks: [] };
  const prepared = options.questions.map((q) => prepareAnswers(q.answers));
  try {
    const models = await chooseModels(engine, options);
    if (models.embedder) progress(`embedder for dense/hybrid search: ${models.embedder}`);
    if (models.chatModel) {
      const set = await engine.api['settings.update']({ chatModel: models.chatModel });
      if (set.ok) progress(`chat model for LLM enrichment: ${models.chatModel}`);
      else models.chatModel = null;
    }
    let n = 0;
    for (const config of options.configurations) {
      for (const enrich of options.enrich) {
        if (signal.aborted) return fail('cancelled', 'Cancelled.');
        const name = `eval ${++n} ${config} ${enrich}`;
        const outcome = await evaluateLibrary(engine, name, config, enrich, models, options, prepared, signal, progress);
        report.results.push(...outcome.results);
        report.skipped.push(...outcome.skipped);
        report.ranks.push(...outcome.ranks);
        await engine.api['libraries.delete']({ library: name });
      }
    }
    if (signal.aborted) return fail('cancelled', 'Cancelled.');
    return ok(report);
  } finally {
    await engine.dispose();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function evaluateLibrary(
  engine: EngineDoor,
  name: string,
  config: ConfigurationName,
  enrich: EnrichMode,
  models: RunModels,
  options: EvalOptions,
  prepared: PreparedAnswers[],
  signal: AbortSignal,
  progress: (line: string) => void,
): Promise<EvalReport> {
  const tag = `[${config} / ${enrich}]`;
  const out: EvalReport = { results: [], skipped: [], ranks: [] };
  const skipAll = (reason: string) => {
    progress(`${tag} skipped: ${reason}`);
    for (const retriever of options.retrievers) out.skipped.push({ strategy: config, enrich, retriever, reason });
    return out;
  };
  if (enrich !== 'heuristic' && !models.chatModel) return skipAll(`"${enrich}" enrichment needs a chat model (a GGUF file in models/); none was found.`);

  const created = await createLibrary(engine, name, config, enrich, models, progress);
  if (!created.ok) return skipAll(created.error.message);

  // Background work (LLM enrichment, embedding) reports through events; its errors become skip reasons.
  const background: { task: string; error?: string }[] = [];
  let enrichStarted: () => void = () => undefined;
  const enrichingSeen = new Promise<void>((resolve) => (enrichStarted = resolve));
  const marks = new Map<string, number>();
  const unsubscribe = engine.subscribe((e) => {
    if (e.type !== 'index.progress' || e.library !== name) return;
    background.push({ task: e.task, ...(e.error ? { error: e.error } : {}) });
    if (e.task === 'enriching') enrichStarted();
    if (e.error) progress(`${tag}   ${e.task}: ${e.error}`);
    else if (e.total > 0 && e.done / e.total >= (marks.get(e.task) ?? 0)) {
      progress(`${tag}   ${e.task} ${e.done}/${e.total}`);
      marks.set(e.task, Math.floor((e.done / e.total) * 4 + 1) / 4);
    }
  });

  progress(`${tag} importing ${options.corpora.map((c) => path.basename(c)).join(' + ')}`);
  let nextMark = 0.25;
  const started = performance.now();
  let imported;
  try {
    imported = await importAndWait(engine, name, options.corpora, {
      signal,
      onProgress: (p) => {
        if (p.total > 0 && p.done / p.total >= nextMark && p.done < p.total) {
          progress(`${tag}   ${p.done}/${p.total} files`);
          while (p.done / p.total >= nextMark) nextMark += 0.25;
        }
      },
    });
    if (imported.ok && enrich !== 'heuristic') {
      // The LLM upgrade starts in the background after the import; wait for its first word.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ENRICH_START_TIMEOUT_MS)));
      const first = await Promise.race([enrichingSeen.then(() => 'started' as const), timeout]);
      clearTimeout(timer);
      if (first === 'timeout') {
        return skipAll(`"${enrich}" enrichment did not start after the import; this version only runs the heuristic backend at import.`);
      }
    }
    // Enrichment, then embedding (queued when enrichment ends): each wait covers the jobs running then.
    await engine.idle();
    await engine.idle();
  } finally {
    unsubscribe();
  }
  const indexSeconds = (performance.now() - started) / 1000;
  if (signal.aborted) return out;
  if (!imported.ok) return skipAll(imported.error.message);
  const failed = imported.value.results.filter((r) => r.status === 'failed');
  if (imported.value.summary.imported === 0) {
    const reason = failed[0]?.reason?.replace(/^Could not index this document: /, '') ?? 'no file could be imported';
    return skipAll(failed.length > 0 ? `every file failed to import: ${reason}` : 'the corpus folders hold no supported files');
  }
  if (failed.length > 0) {
    progress(`${tag} ${failed.length} file(s) failed to import, e.g. ${failed[0]!.file}: ${failed[0]!.reason ?? ''}`);
  }
  const listed = await engine.api['documents.list']({ library: name });
  if (!listed.ok) return skipAll(listed.error.message);
  const records = listed.value.filter((d) => d.status === 'ready');
  if (enrich !== 'heuristic') {
    const upgraded = records.filter((d) => d.enrichment?.mode === enrich).length;
    const error = background.find((b) => b.task === 'enriching' && b.error)?.error;
    if (upgraded === 0) return skipAll(error ?? `no document was enriched with "${enrich}".`);
    if (upgraded < records.length) progress(`${tag} only ${upgraded} of ${records.length} documents were enriched with "${enrich}"${error ? `: ${error}` : ''}`);
  }
  const embedError = background.find((b) => b.task === 'embedding' && b.error)?.error;
  const chunks = records.reduce((s, d) => s + d.chunks, 0);
  const llmCalls = records.reduce((s, d) => s + (d.enrichment?.llmCalls ?? 0), 0);
  const llmTokens = records.reduce((s, d) => s + (d.enrichment?.llmTokens ?? 0), 0);
  progress(`${tag} indexed ${imported.value.summary.imported} files, ${chunks} chunks in ${indexSeconds.toFixed(1)} s`);

  const relevantChunks = await storedRelevance(engine, name, options.questions, prepared);

  // The full ranking, then (with `ablate`) the same questions with each ranking stage left out.
  const variants: (RankStageName | null)[] = [null, ...(options.ablate ? RANK_STAGE_NAMES : [])];
  for (const retriever of options.retrievers) {
    for (const off of variants) {
      const stages = off ? RANK_STAGE_NAMES.filter((n) => n !== off) : undefined;
      if (signal.aborted) return out;
      if (off && retriever !== 'bm25') continue;
      if (retriever !== 'bm25' && embedError) {
        progress(`${tag} ${retriever} skipped: ${embedError}`);
        out.skipped.push({ strategy: config, enrich, retriever, reason: `embedding failed: ${embedError}` });
        continue;
      }
      const metrics: Metrics[] = [];
      const pageScores: number[] = [];
      const ranks: QuestionRank[] = [];
      let skipped: string | null = null;
      for (let i = 0; i < options.questions.length; i++) {
        if (signal.aborted) return out;
        const q = options.questions[i]!;
        const res = await engine.api['search.query']({ library: name, query: q.query, topK: options.topK, retriever, ...(stages ? { stages } : {}) });
        if (!res.ok) {
          skipped = res.error.code === 'unavailable' ? res.error.message : `search failed on question ${q.id}: ${res.error.message}`;
          break;
        }
        const coverage = res.value.results.map((h) => coveredAnswers(h, prepared[i]!));
        const m = questionMetrics(coverage, q.answers.length);
        metrics.push(m);
        const onPage = pageCorrect(
          coverage,
          res.value.results.map((h) => h.pages),
          q.answers,
        );
        if (onPage !== null) pageScores.push(onPage ? 1 : 0);
        const relevant = relevantRanks(coverage);
        ranks.push({
          strategy: config,
          enrich,
          retriever,
          id: q.id,
          kind: q.kind ?? null,
          rank: relevant[0] ?? null,
          relevant_ranks: relevant,
          answers: q.answers.length,
          'ndcg@10': round(m['ndcg@10'], 4),
          'recall@5': round(m['recall@5'], 4),
          relevant_chunks: relevantChunks[i]!,
          top: res.value.results.slice(0, 3).map((h) => ({ doc: h.doc, chunk: h.chunkId })),
          page_correct: onPage,
        });
      }
      if (skipped !== null) {
        progress(`${tag} ${retriever} skipped: ${skipped}`);
        out.skipped.push({ strategy: config, enrich, retriever, reason: skipped });
        continue;
      }
      const mean = meanMetrics(metrics);
      out.results.push({
        strategy: config,
        enrich,
        retriever,
        stage_off: off,
        queries: metrics.length,
        metrics: Object.fromEntries(Object.entries(mean).map(([k, v]) => [k, round(v, 4)])) as Metrics,
        index_seconds: round(indexSeconds, 2),
        chunks,
        llm_calls: llmCalls,
        llm_tokens: llmTokens,
        answerable: round(relevantChunks.filter((c) => c > 0).length / Math.max(1, relevantChunks.length), 4),
        failed_documents: failed.length,
        page_accuracy: pageScores.length > 0 ? round(pageScores.reduce((a, b) => a + b, 0) / pageScores.length, 4) : null,
        page_questions: pageScores.length,
      });
      if (!off) out.ranks.push(...ranks);
      progress(`${tag} ${retriever}${off ? ` without ${off}` : ''}: Hit@1 ${mean['hit@1'].toFixed(3)}  NDCG@10 ${mean['ndcg@10'].toFixed(3)}`);
    }
  }
  return out;
}

/** For each question, how many stored chunks of its gold documents are relevant to some answer. */
async function storedRelevance(engine: EngineDoor, library: string, questions: Question[], prepared: PreparedAnswers[]): Promise<number[]> {
  const byDoc = new Map<string, string[]>();
  const normalizedChunks = async (doc: string): Promise<string[]> => {
    let texts = byDoc.get(doc);
    if (!texts) {
      const chunks = await engine.api['documents.chunks']({ library, id: doc });
      texts = chunks.ok ? chunks.value.map((c) => normalizeForRelevance(c.text)) : [];
      byDoc.set(doc, texts);
    }
    return texts;
  };
  const counts: number[] = [];
  for (let i = 0; i < questions.length; i++) {
    let count = 0;
    for (const doc of new Set(questions[i]!.answers.map((a) => a.doc))) {
      for (const text of await normalizedChunks(doc)) if (coveredByNormalized(doc, text, prepared[i]!).length > 0) count++;
    }
    counts.push(count);
  }
  return counts;
}
