import type { ImportFileResult, ImportSkipped, ImportSummary } from './api';

/**
 * An import's summary: its files' results and the counts they make. The engine reports an import
 * with it, and the import card counts files the engine never saw (refused by the bridge) with it.
 */
export function importSummary(results: ImportFileResult[], skipped: ImportSkipped[] = []): ImportSummary {
  const count = (s: ImportFileResult['status']) => results.filter((r) => r.status === s).length;
  return {
    results,
    skipped,
    summary: { imported: count('imported'), already: count('already'), replaced: count('replaced'), failed: count('failed'), cancelled: count('cancelled') },
  };
}
