import type { PreparedDocument } from '../ingest/import.job';
import type { LibraryIndex } from './library-index';

/**
 * Repairs an interrupted commit: rows of journaled documents are dropped, then documents that
 * documents.json lists as ready are re-indexed from their stored normalized text. Documents left
 * mid-import (neither ready nor failed) are marked failed with a reason.
 */
export async function recoverJournal(index: LibraryIndex): Promise<void> {
  const { library, store } = index;
  const journal = await library.journal();
  const docs = await library.documents();
  const interrupted = docs.filter((d) => d.status !== 'ready' && d.status !== 'failed');
  if (interrupted.length > 0) {
    await library.putDocuments(
      interrupted.map((d) => ({ ...d, status: 'failed' as const, code: 'cancelled' as const, reason: 'The import was interrupted; import the file again.' })),
    );
  }
  if (journal.length === 0) return;
  for (const id of journal) await store.deleteDocument(id);
  const byId = new Map(docs.map((d) => [d.id, d]));
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
