import { promises as fs } from 'node:fs';
import { LibraryEnrichment } from './library-enrichment';
import type { LibraryIndex } from './library-index';
import type { Library } from '../storage/library.store';
import { recoverJournal, type JournalTurns } from './journal';
import { chunkerFor, openStore, storeOptionsOf } from './open-store';
import { settleRebuild } from './rebuild';

/**
 * An open index beside other processes writing its library (a CLI import or reindex while the
 * app runs): what it last read of the library, and how it takes in what changed since.
 */

/** A library as an open index last read it: `Library.outsideWrites` then, and its index folder (a rebuild puts another in place). */
export interface Seen {
  writes: number;
  folder: string | null;
}

/** The index folder's identity (inode and birth time), or null while there is none (between a swap's renames). */
export async function folderStamp(library: Library): Promise<string | null> {
  const st = await fs.stat(library.indexDir).catch(() => null);
  return st ? `${st.ino}:${st.birthtimeMs}` : null;
}

/** What an index opened now reads of the library (taken before it opens: a write meanwhile is noticed later). */
export async function seenNow(library: Library): Promise<Seen> {
  return { writes: library.outsideWrites, folder: await folderStamp(library) };
}

/**
 * Takes in what another process wrote to the library since `index` read it (`seen`): a LanceDB
 * table opened before then does not see that process's rows (nor deletes them), a rebuild there
 * replaced the folder the table reads, and the vocabulary is in enrichment.json, which the
 * index's next commit would write over. When the library's records or settings changed
 * (`Library.outsideWrites`) or its index folder is another one, the store and the vocabulary are
 * opened again as a fresh open would, finishing an interrupted rebuild or commit unless another
 * live process writes the library. With `repairLeft` (a writer that has just taken the library's
 * lock file) also when a commit's journal is left: a process killed mid-commit may have written
 * rows and no records. Three file stats when nothing changed. Returns what the index now read,
 * or null when nothing changed. The reopening and the repair take a turn among the index's
 * journaled writes (`turns`): a write of this process under way is not a killed one's, and its
 * store is not closed under it.
 */
export async function followDisk(
  index: LibraryIndex,
  seen: Seen,
  turns: JournalTurns,
  { repairLeft = false }: { repairLeft?: boolean } = {},
): Promise<Seen | null> {
  const { library } = index;
  await library.reloadIfChangedOnDisk();
  const now = await seenNow(library);
  const changed = now.writes !== seen.writes || now.folder !== seen.folder;
  if (!changed && !(repairLeft && (await library.journal()).length > 0)) return null;
  return turns.between(() =>
    library.withRepair(async (repair) => {
      await settleRebuild(library, repair);
      const read = await seenNow(library);
      const dir = await library.storeDir();
      const enrichment = await LibraryEnrichment.load(library.dir);
      await index.swapStore(async (current) => {
        const store = await openStore(dir, storeOptionsOf(library));
        await current.close();
        // Another process's rebuild may have brought a new strategy; the same one keeps its chunker (and the drafts made with it).
        index.adopt(enrichment, index.chunker.strategy === library.config.strategy ? index.chunker : chunkerFor(library.config.strategy));
        return store;
      });
      // In the turn already: `index.recover()` would wait for this one.
      if (repair) await recoverJournal(index);
      return read;
    }),
  );
}
