import path from 'node:path';
import type { DocumentRecord } from '../storage/library.store';

/**
 * The marks file managers and browsers add to a copy's name: macOS "x copy.pdf" and "x copy 2.pdf",
 * Windows "x - Copy.pdf" and "x - Copy (2).pdf", a download's or a drop's "x (1).pdf".
 */
const COPY_MARK = /(?: copy(?: \d+)?| - copy(?: \(\d+\))?| \(\d+\))$/i;

/** A document id without its copy mark, for comparing ("docs/x copy.pdf" -> "docs/x.pdf"), letter case aside. */
function uncopied(id: string): string {
  const ext = path.posix.extname(id);
  return (id.slice(0, id.length - ext.length).replace(COPY_MARK, '') + ext).toLowerCase();
}

/**
 * Which file a new file of an import is a copy of: the same bytes as a document already listed in
 * the library, or as a file of the same import read before it, under the same name but for a copy
 * mark ("manual (1).pdf", "manual copy.pdf" beside "manual.pdf"). It is reported as already there,
 * not imported twice: its passages would otherwise come twice in every search and its title twice
 * in the list. The same bytes under another name or folder are imported: vendors publish one page
 * for sibling models ("rock2a/…/hdmi.md" and "rock2f/…/hdmi.md"), and the name is what tells
 * which model it is for.
 *
 * Only for a file with no record of its own: a new version of a listed file, or another try of a
 * failed one, imports as before. A listed document counts only when this import does not also
 * bring a new version of it (its content may be going away). Synchronous, so files claim their
 * content in the order they are read: the candidates' order for every file read whole at once.
 */
export class SameContent {
  /** Content hash -> ids of the ready listed documents this import does not replace. */
  private readonly listed = new Map<string, string[]>();
  /** Ids with a record, whatever its status. */
  private readonly known = new Set<string>();
  /** Content hash -> ids of the new files of this import that had it and were not copies. */
  private readonly claimed = new Map<string, string[]>();

  constructor(records: readonly DocumentRecord[], importing: ReadonlySet<string>) {
    for (const r of records) {
      this.known.add(r.id);
      if (r.status === 'ready' && r.contentHash && !importing.has(r.id)) this.listed.set(r.contentHash, [...(this.listed.get(r.contentHash) ?? []), r.id]);
    }
  }

  /** The document or earlier file `id`'s content (`contentHash`) already came as, or null (and `id` now owns that content). */
  twinOf(id: string, contentHash: string): string | null {
    if (this.known.has(id)) return null;
    const name = uncopied(id);
    const twin = [...(this.listed.get(contentHash) ?? []), ...(this.claimed.get(contentHash) ?? [])].find((other) => uncopied(other) === name);
    if (twin !== undefined) return twin;
    this.claimed.set(contentHash, [...(this.claimed.get(contentHash) ?? []), id]);
    return null;
  }
}
