import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { Library } from '../storage/library.store';

/**
 * Who writes each library's index. Imports, removals and settings changes may overlap one another
 * (counted as writers); a rebuild replaces the whole index, so it runs alone: it starts only when
 * no writer runs and refuses new writers while it runs. Each check and its claim happen in the
 * same tick (no await between), so two callers can never both get in.
 */
export class WriterLock {
  private readonly writers = new Map<string, number>();
  private readonly rebuilding_ = new Set<string>();

  /** Whether the library is rebuilding its index now. */
  rebuilding(lib: Library): boolean {
    return this.rebuilding_.has(lib.config.id);
  }

  /** The refusal a writer gets while the library rebuilds. */
  busyRebuilding(lib: Library): Result<never> {
    return fail('busy', `"${lib.name}" is rebuilding its index. Search works meanwhile; try again when the rebuild has finished.`);
  }

  /** Claims a place among the library's writers; the returned function releases it (once). */
  claimWriter(lib: Library): Result<() => void> {
    const id = lib.config.id;
    if (this.rebuilding_.has(id)) return this.busyRebuilding(lib);
    this.writers.set(id, (this.writers.get(id) ?? 0) + 1);
    let released = false;
    return ok(() => {
      if (released) return;
      released = true;
      const left = (this.writers.get(id) ?? 1) - 1;
      if (left > 0) this.writers.set(id, left);
      else this.writers.delete(id);
    });
  }

  /** Claims the library for a rebuild, alone; the returned function releases it. */
  claimRebuild(lib: Library): Result<() => void> {
    const id = lib.config.id;
    if (this.rebuilding_.has(id)) return this.busyRebuilding(lib);
    if ((this.writers.get(id) ?? 0) > 0) {
      return fail('busy', `"${lib.name}" is importing, removing or reconfiguring documents. Rebuild its index when that has finished.`);
    }
    this.rebuilding_.add(id);
    return ok(() => this.rebuilding_.delete(id));
  }
}
