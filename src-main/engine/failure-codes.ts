import type { ImportSummary } from '../contract/api';
import type { Library } from '../storage/library.store';
// The format by name only (no parser loads): the one failure an import reports without listing it.
import { formatFor } from '../ingest/parsers/choose';

/**
 * An import's summary with each failed file's kind (`code`), so a caller can tell a failure that
 * another try may get past (a disk error) from one it never can (a damaged file): the import lists
 * a failed file with its code, except a format it does not read, which it reports without listing.
 * A failure whose kind is not known (its listing could not be written, or a new version failed and
 * the previous one stays) keeps no code.
 */
export async function withFailureCodes(lib: Library, summary: ImportSummary): Promise<ImportSummary> {
  if (!summary.results.some((r) => r.status === 'failed')) return summary;
  const listed = new Map((await lib.documents().catch(() => [])).map((d) => [d.id, d]));
  const results = summary.results.map((r) => {
    if (r.status !== 'failed') return r;
    const record = listed.get(r.file);
    const unread = formatFor(r.file);
    const code = record ? (record.status === 'failed' ? record.code : undefined) : !unread.ok ? unread.code : undefined;
    return code ? { ...r, code } : r;
  });
  return { ...summary, results };
}
