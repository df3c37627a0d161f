import type { PreparedDocument } from '../ingest/import.job';
import { INDEX_VERSION, type DocumentRecord } from '../storage/library.store';
import type { HeldJournalTurn, JournalTurns } from './journal';
import { readsNouns } from './library-enrichment';
import type { LibraryIndex } from './library-index';

/**
 * An import batch's write into the index, in one turn of the library's journal: the rows of new
 * documents prepared early go out while the rest of the batch is prepared (`ahead`), the others at
 * `commit`. LanceDB writes on its own threads, so the import's thread goes on preparing instead of
 * waiting for the whole batch's write at the end, and the second core, idle once the last file is
 * parsed, does that write (radxa + esp: the import's thread waited ~0.1 s less of a ~1.2 s tail).
 * The turn is taken at the first early write, so a removal meanwhile waits rather than journaling
 * over the documents written.
 */
export class BatchWrite {
  /** Documents whose rows `ahead` wrote (or is writing). */
  private readonly written = new Set<string>();
  private writing: Promise<void> = Promise.resolve();
  private readonly turn: Promise<HeldJournalTurn>;

  constructor(
    private readonly index: LibraryIndex,
    journal: JournalTurns,
  ) {
    this.turn = journal.hold();
    // Met by `commit` or `drop`; not an unhandled rejection meanwhile.
    this.turn.catch(() => undefined);
  }

  /** Whether `ahead` wrote (or is writing) this document's rows: a search leaves them out until the commit lists it. */
  wrote(docId: string): boolean {
    return this.written.has(docId);
  }

  /**
   * Writes prepared documents' rows before the commit. Only documents with no rows yet: a new
   * version's rows replace its previous ones at the commit, in one merge. The journal names them
   * first, so a crash before the commit drops their rows on the next open.
   */
  ahead(prepared: readonly PreparedDocument[]): void {
    this.writing = this.writing.then(async () => {
      const turn = await this.turn;
      // Looked up one by one: listing every record (sorted) for each group cost more in a large library.
      const fresh: PreparedDocument[] = [];
      for (const p of prepared) {
        const rec = await this.index.library.document(p.doc.id);
        if (!(rec && hasRows(rec)) && !this.written.has(p.doc.id)) fresh.push(p);
      }
      if (fresh.length === 0) return;
      for (const p of fresh) this.written.add(p.doc.id);
      await turn.journal([...this.written]);
      await this.index.store.addChunks(fresh.flatMap((p) => p.rows));
    });
    this.writing.catch(() => undefined);
  }

  /** Writes the rest of `batch` and lists it (`persist`); documents written ahead and left out of the batch lose their rows. */
  async commit(batch: readonly PreparedDocument[], persist: () => Promise<readonly string[] | void>): Promise<void> {
    const turn = await this.turn;
    try {
      // A failed early write fails the commit, its documents still journaled for the repair.
      await this.writing;
      const ids = new Set(batch.map((p) => p.doc.id));
      const strays = [...this.written].filter((id) => !ids.has(id));
      await turn.journal([...ids, ...strays]);
      await this.index.store.deleteDocuments(strays);
      await commitRows(this.index, batch, this.written, persist);
      await turn.journal([]);
    } finally {
      turn.release();
    }
  }

  /** Drops what `ahead` wrote: the batch will not be committed (cancelled). */
  async drop(): Promise<void> {
    const turn = await this.turn.catch(() => null);
    if (!turn) return;
    try {
      await this.writing.catch(() => undefined);
      await this.index.store.deleteDocuments([...this.written]);
      await turn.journal([]);
    } finally {
      turn.release();
    }
  }
}

/** Whether a listed document has rows in the index (ready, or listed with chunks). */
const hasRows = (d: DocumentRecord): boolean => d.chunks > 0 || d.status === 'ready';

/** Documents with rows in the index. */
async function listedIds(index: LibraryIndex): Promise<Set<string>> {
  return new Set((await index.library.documents()).filter(hasRows).map((d) => d.id));
}

/**
 * The body of a commit, its documents journaled by the caller: the rows of `batch` not already
 * `written`, the vocabulary, then `persist` (which lists the documents and returns those that
 * failed after their rows were written, whose rows are dropped).
 */
export async function commitRows(
  index: LibraryIndex,
  batch: readonly PreparedDocument[],
  written: ReadonlySet<string>,
  persist: () => Promise<readonly string[] | void>,
): Promise<void> {
  const { library, store } = index;
  const existing = await listedIds(index);
  // The first documents of a library written before index versioning are built by this code.
  if (existing.size === 0 && library.indexOutdated) await library.saveConfig({ indexVersion: INDEX_VERSION });
  // Said before the rows are written: a crash after them never leaves chunks without nouns unmarked.
  if (!readsNouns(library.config) && !library.config.nounsOmitted) await library.saveConfig({ nounsOmitted: true });
  // The vocabulary file is written while LanceDB writes the rows: a crash leaves the same states
  // as writing it after them (vocabulary ahead of documents.json, which recovery tolerates).
  const writes = await Promise.allSettled([
    index.saveEnrichment(),
    (async () => {
      // A new version's rows replace its previous version's in one write per few hundred
      // documents: a search meanwhile finds the old version or the new one, never neither.
      const replaced = batch.filter((p) => existing.has(p.doc.id) && !written.has(p.doc.id));
      if (replaced.length > 0) await store.replaceDocuments(replaced.map((p) => p.doc.id), replaced.flatMap((p) => p.rows));
      await store.addChunks(batch.flatMap((p) => (existing.has(p.doc.id) || written.has(p.doc.id) ? [] : p.rows)));
    })(),
  ]);
  for (const w of writes) if (w.status === 'rejected') throw w.reason;
  // New rows are searchable at once: folding them into the indexes is `optimizeIndexes`, run as
  // background work after the import, and a full-text search before it folds them itself.
  const dropped = (await persist()) ?? [];
  // Still journaled: a crash before these deletions drops the rows on the next open.
  await store.deleteDocuments(dropped);
}
