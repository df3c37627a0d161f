import type { PreparedDocument } from '../ingest/import.job';
import type { LibraryIndex } from './library-index';

/**
 * Repairs an interrupted commit: rows of journaled documents are dropped, then documents that
 * documents.json lists as ready are re-indexed from their stored normalized text. Documents left
 * mid-import (neither ready nor failed) are marked failed with a reason.
 */
export async function recoverJournal(index: LibraryIndex): Promise<void> {
  const { library } = index;
  const docs = await library.documents();
  const interrupted = docs.filter((d) => d.status !== 'ready' && d.status !== 'failed');
  if (interrupted.length > 0) {
    await library.putDocuments(
      interrupted.map((d) => ({ ...d, status: 'failed' as const, code: 'cancelled' as const, reason: 'The import was interrupted; import the file again.' })),
    );
  }
  await repairJournaled(index);
}

/** Drops the rows of the journaled documents and indexes again those listed as ready, then clears the journal. */
async function repairJournaled(index: LibraryIndex): Promise<void> {
  const { library, store } = index;
  const journal = await library.journal();
  if (journal.length === 0) return;
  await store.deleteDocuments(journal);
  const byId = new Map((await library.documents()).map((d) => [d.id, d]));
  const redo: PreparedDocument[] = [];
  for (const id of journal) {
    const rec = byId.get(id);
    if (rec?.status !== 'ready' || !rec.contentHash) continue;
    const doc = await library.loadNormalized(rec);
    if (doc) redo.push(await index.prepare(doc, new AbortController().signal));
  }
  if (redo.length > 0) await store.addChunks(redo.flatMap((p) => p.rows));
  await store.ensureIndexes();
  await library.setJournal([]);
}

/** A turn of `JournalTurns.hold`: the journal named as the holder's documents change, then released. */
export interface HeldJournalTurn {
  journal(docIds: readonly string[]): Promise<void>;
  release(): void;
}

/**
 * The writes of one open index that name their documents in the library's journal (an import's
 * commit, a removal, a step of the LLM upgrade), one at a time. journal.json holds one write's
 * documents: a removal that ran during an import's commit wrote its own over the import's, and a
 * kill then left the import's rows under no listed document (or a removed document listed with no
 * rows), which the next open could no longer repair. Between processes the library's lock file
 * keeps writers apart; inside one, the import queue lets removals and settings changes run beside
 * an import, so the journaled part of each write waits here for the one before it, and so does
 * `followDisk`'s reopening and repair (`between`).
 */
export class JournalTurns {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly index: LibraryIndex) {}

  /**
   * Runs `work` with `docIds` journaled, after every write before it; the journal is cleared when
   * `work` succeeds and left for repair when it throws. A journal a failed write left (whose own
   * repair failed too, a full disk) is repaired first rather than written over.
   */
  async write<T>(docIds: readonly string[], work: () => Promise<T>): Promise<T> {
    const turn = await this.hold();
    try {
      await turn.journal(docIds);
      const value = await work();
      await turn.journal([]);
      return value;
    } finally {
      turn.release();
    }
  }

  /**
   * A turn held over several steps (an import's rows written ahead of its commit, while the rest of
   * its batch is prepared): resolves after every write before it, with a journal a failed write
   * left repaired; the holder names its documents as they change and must `release` the turn.
   */
  hold(): Promise<HeldJournalTurn> {
    const { library } = this.index;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const start = this.tail.then(() => repairJournaled(this.index));
    this.tail = start.then(
      () => released,
      () => release(),
    );
    return start.then(() => ({ journal: (docIds) => library.setJournal([...docIds]), release }));
  }

  /** `recoverJournal` in its turn: a write that failed part-way is repaired before the next one journals. */
  recover(): Promise<void> {
    return this.turn(() => recoverJournal(this.index));
  }

  /**
   * Runs `work` in a turn of its own, naming and repairing nothing itself: `followDisk`, which
   * reopens the store and repairs a journal it finds left, waits for a write of this index under
   * way (whose store it would close under it, and whose journal it would take for a killed
   * process's, dropping the write's rows and clearing its journal mid-write), and the next write
   * waits for it.
   */
  between<T>(work: () => Promise<T>): Promise<T> {
    return this.turn(work);
  }

  private turn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
