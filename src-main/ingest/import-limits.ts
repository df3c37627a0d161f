import type { DocFormat } from '../core/document';

/**
 * The bounds one file's import runs within. A file that cannot be handled inside them fails alone
 * with 'too-large' and a sentence naming the limit; the batch goes on.
 */
export interface ImportLimits {
  /** Heap (V8 old generation) of one parse worker, in MB; a parse that needs more fails alone. */
  workerMemoryMb: number;
  /** CPU seconds a parse may use before it is stopped: `cpuSecondsBase + cpuSecondsPerMb * size in MB`. */
  cpuSecondsBase: number;
  cpuSecondsPerMb: number;
  /**
   * Largest text-format file (Markdown, HTML, plain text), in bytes. Text is parsed whole, and the
   * whole pipeline holds several copies of it (a 200 MB text took the heap past 5 GB), so larger
   * text files fail before they are read rather than import by streaming.
   */
  maxTextFileBytes: number;
  /** Longest normalized text a parser may return, in characters (what chunking and enrichment hold). */
  maxTextChars: number;
}

/** Largest file an import accepts by default (any format; text formats are bounded further). */
export const DEFAULT_MAX_FILE_BYTES = 500 * 1024 * 1024;

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  workerMemoryMb: 1024,
  cpuSecondsBase: 60,
  cpuSecondsPerMb: 5,
  maxTextFileBytes: 32 * 1024 * 1024,
  maxTextChars: 32 * 1024 * 1024,
};

/** Formats read as one text (no pages): their size bounds the text the pipeline holds. */
const TEXT_FORMATS: ReadonlySet<DocFormat> = new Set<DocFormat>(['markdown', 'html', 'txt']);

/** The largest file of `format` accepted, in bytes, given the import's overall limit. */
export function maxFileBytesFor(format: DocFormat, overall: number, limits: ImportLimits): number {
  return TEXT_FORMATS.has(format) ? Math.min(overall, limits.maxTextFileBytes) : overall;
}

/** "32 MB", "32.1 MB", "70 KB": a size in words, for messages; one decimal below 100. */
export function megabytes(bytes: number): string {
  const round = (n: number) => (n >= 100 ? Math.round(n) : Math.round(n * 10) / 10);
  return bytes >= 1024 * 1024 ? `${round(bytes / 1024 / 1024)} MB` : `${round(bytes / 1024)} KB`;
}

/** A size over `limit` in words: never the limit's own words ("it is 32 MB" for a limit of 32 MB). */
export function sizeOver(bytes: number, limit: number): string {
  const size = megabytes(bytes);
  return size === megabytes(limit) ? `just over ${size}` : size;
}

/** The sentence for a file over a size limit. */
export function tooLargeReason(what: string, limit: string): string {
  return `The file is too large to import (limit ${limit}): ${what}.`;
}
