import type { Result } from '../core/result';
import { ok } from '../core/result';

/**
 * Runs one write step of a background job (the LLM upgrade's write of one document, embedding's
 * read or write of a batch, folding the indexes) while no other writer writes the library: the
 * engine holds the library's lock file for the step (`WriterLock.holdWhenFree`), which keeps other
 * processes out and waits for this engine's own imports, removals and settings changes (the step's
 * check of what it writes over must still hold when it writes; a journal the step names takes its
 * turn among the index's journaled writes all the same, `JournalTurns`), and, when another process
 * wrote since it last held it, reads the library's records, settings and index again first, so the
 * step writes over nothing it has not seen. Between steps the lock is let go: a CLI import waits at
 * most one step, and a job whose turn is taken waits for that import to finish. Resolves with
 * `work`'s value, or fails with `cancelled` when the job was stopped while waiting.
 */
export type WriteTurn = <T>(work: () => Promise<T>) => Promise<Result<T>>;

/** The turn of a caller that already has the library to itself (a test, a process holding its lock). */
export const ownTurn: WriteTurn = async (work) => ok(await work());
