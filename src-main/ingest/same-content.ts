import type { DocumentRecord } from '../storage/library.store';

/**
 * Which file a new file of an import is a byte-for-byte copy of: a document already listed in
 * the library, or a file of the same import read before it. A copy under another name ("manual
 * (1).pdf" beside "manual.pdf") is reported as already there, not imported twice: its passages
 * would otherwise come twice in every search and its title twice in the list.
 *
 * Only for a file with no record of its own: a new version of a listed file, or another try of a
 * failed one, imports as before. A listed document counts only when this import does not also
 * bring a new version of it (its content may be going away). Synchronous, so files claim their
 * content in the order they are read: the candidates' order for every file read whole at once.
 */
export class SameContent {
  /** Content hash -> id of a ready listed document this import does not replace. */
  private readonly listed = new Map<string, string>();
  /** Ids with a record, whatever its status. */
  private readonly known = new Set<string>();
  /** Content hash -> id of the first new file of this import that had it. */
  private readonly claimed = new Map<string, string>();

  constructor(records: readonly DocumentRecord[], importing: ReadonlySet<string>) {
    for (const r of records) {
      this.known.add(r.id);
      if (r.status === 'ready' && r.contentHash && !importing.has(r.id) && !this.listed.has(r.contentHash)) this.listed.set(r.contentHash, r.id);
    }
  }

  /** The document or earlier file `id`'s content (`contentHash`) already came as, or null (and `id` now owns that content). */
  twinOf(id: string, contentHash: string): string | null {
    if (this.known.has(id)) return null;
    const twin = this.listed.get(contentHash) ?? this.claimed.get(contentHash);
    if (twin !== undefined && twin !== id) return twin;
    this.claimed.set(contentHash, id);
    return null;
  }
}
