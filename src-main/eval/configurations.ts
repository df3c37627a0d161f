import { ENRICH_MODES, type EnrichMode } from '../core/vocabulary';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { NO_PREFIX } from '../core/prefix';
import type { LibraryConfig } from '../storage/library.store';
import { LIBRARY_DEFAULTS } from '../storage/library.store';

/**
 * The named pipelines `eval` compares, named like the papers' tables, and the library settings
 * each one means. Baselines (naive, recursive, semantic) and the bare structure-aware chunkers
 * index the chunk text alone; the `+` names add one ingredient at a time, so a row's gain over the
 * row above it is that ingredient's gain.
 *
 * Every configuration gets the library's heuristic enrichment (the CNM model of each chunk), and
 * search ranks a question's named model first for all of them: that is the product's retriever,
 * not a property of the chunking. The prefix only changes what BM25 (and an embedder) see.
 */

/** The library settings a configuration fixes (enrichment is chosen separately). */
export type ConfigurationSettings = Pick<LibraryConfig, 'strategy' | 'prefix' | 'restructure'>;

export interface EvalConfiguration {
  /** What the papers call it. */
  describes: string;
  settings: ConfigurationSettings;
}


/** Configuration name -> what it is and the settings it maps to. */
export const EVAL_CONFIGURATIONS = {
  default: {
    describes: 'what a new library uses: the default chunking, prefix and ranking of the app',
    settings: { strategy: LIBRARY_DEFAULTS.strategy, prefix: LIBRARY_DEFAULTS.prefix, restructure: LIBRARY_DEFAULTS.restructure },
  },
  naive: { describes: 'Naive-500T: 500-token windows, 100-token overlap (CHOP baseline)', settings: { strategy: 'naive', prefix: NO_PREFIX, restructure: false } },
  recursive: {
    describes: 'LangChain recursive splitter, 1000 chars, 200 overlap (MDKeyChunker peer)',
    settings: { strategy: 'recursive', prefix: NO_PREFIX, restructure: false },
  },
  semantic: { describes: 'cosine chunking, threshold 0.35 (CHOP baseline; needs an embedder)', settings: { strategy: 'semantic', prefix: NO_PREFIX, restructure: false } },
  structure: { describes: 'structure-aware Markdown chunks, 100-3000 chars, no prefix', settings: { strategy: 'structure', prefix: NO_PREFIX, restructure: false } },
  'structure+path': {
    describes: 'structure chunks + heading-path prefix (MDKeyChunker follow-up)',
    settings: { strategy: 'structure', prefix: { ...NO_PREFIX, headingPath: true }, restructure: false },
  },
  'structure+cnm': {
    describes: 'structure chunks + CNM signature prefix (CHOP)',
    settings: { strategy: 'structure', prefix: { ...NO_PREFIX, signature: true }, restructure: false },
  },
  'structure+cnm+keys': {
    describes: 'structure chunks + CNM and key prefix, chunks sharing a key packed (MDKeyChunker)',
    settings: { strategy: 'structure', prefix: { signature: true, headingPath: false, keys: true }, restructure: true },
  },
  structural: { describes: 'structural chunks: typed sections, soft-merged paragraphs, no prefix', settings: { strategy: 'structural', prefix: NO_PREFIX, restructure: false } },
} as const satisfies Record<string, EvalConfiguration>;

export type ConfigurationName = keyof typeof EVAL_CONFIGURATIONS;
export const CONFIGURATION_NAMES = Object.keys(EVAL_CONFIGURATIONS) as ConfigurationName[];

export { RETRIEVERS, type Retriever } from '../core/vocabulary';
import { RETRIEVERS, type Retriever } from '../core/vocabulary';

/** Defaults when a list flag is absent: every configuration, heuristic enrichment, BM25. */
/** Every named configuration; `default` only when asked for, since it repeats one of them. */
export const DEFAULT_CONFIGURATIONS: readonly ConfigurationName[] = CONFIGURATION_NAMES.filter((n) => n !== 'default');
export const DEFAULT_ENRICH: readonly EnrichMode[] = ['heuristic'];
export const DEFAULT_RETRIEVERS: readonly Retriever[] = ['bm25'];

/** The settings to create an evaluation library with (a fresh copy; safe to mutate). */
export function librarySettings(name: ConfigurationName, enrich: EnrichMode): ConfigurationSettings & { enrich: EnrichMode } {
  const s = EVAL_CONFIGURATIONS[name].settings;
  return { strategy: s.strategy, prefix: { ...s.prefix }, restructure: s.restructure, enrich };
}

/**
 * Parses a comma-separated flag value against allowed names, keeping order and dropping repeats.
 * Absent -> the defaults; an unknown or empty entry -> 'invalid-input' naming it and the choices.
 */
export function parseNameList<T extends string>(value: string | undefined, allowed: readonly T[], defaults: readonly T[], flag: string): Result<T[]> {
  if (value === undefined) return ok([...defaults]);
  const names = value.split(',').map((s) => s.trim());
  const out: T[] = [];
  for (const n of names) {
    if (!(allowed as readonly string[]).includes(n)) {
      const what = n === '' ? 'an empty name' : `"${n}"`;
      return fail('invalid-input', `--${flag} has ${what}; choose from ${allowed.join(', ')}.`);
    }
    if (!out.includes(n as T)) out.push(n as T);
  }
  return ok(out);
}

export const parseConfigurations = (value: string | undefined) => parseNameList(value, CONFIGURATION_NAMES, DEFAULT_CONFIGURATIONS, 'strategies');
export const parseEnrichModes = (value: string | undefined) => parseNameList<EnrichMode>(value, ENRICH_MODES, DEFAULT_ENRICH, 'enrich');
export const parseRetrievers = (value: string | undefined) => parseNameList(value, RETRIEVERS, DEFAULT_RETRIEVERS, 'retrievers');
