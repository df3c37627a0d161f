import type { EmbedderSource } from '../models/types';
import type { Library } from '../storage/library.store';
import { LibraryIndex } from './library-index';

/** Open indexes, one per library, shared by every caller in the process. */
export class LibraryIndexes {
  private readonly open_ = new Map<string, Promise<LibraryIndex>>();

  /** `onOpened`: called once for each index this process opens, when it is open (not again until it is closed and opened anew). */
  constructor(
    private readonly embedders: EmbedderSource,
    private readonly onOpened: (library: Library, index: LibraryIndex) => void = () => undefined,
  ) {}

  /** The library's open index, opened (and recovered) on first use. */
  open(library: Library): Promise<LibraryIndex> {
    let p = this.open_.get(library.config.id);
    if (!p) {
      p = LibraryIndex.open(library, this.embedders);
      const opening = p;
      opening.then(
        (index) => {
          if (this.open_.get(library.config.id) === opening) this.onOpened(library, index);
        },
        () => this.open_.delete(library.config.id),
      );
      this.open_.set(library.config.id, opening);
    }
    return p;
  }

  /** The library's index if it is open (or opening), without opening it. */
  opened(library: Library): Promise<LibraryIndex> | undefined {
    return this.open_.get(library.config.id);
  }

  /** Closes one library's index (before it is deleted). */
  async close(library: Library): Promise<void> {
    const p = this.open_.get(library.config.id);
    this.open_.delete(library.config.id);
    if (p) await (await p.catch(() => null))?.close();
  }

  /** Closes every open index (shutdown). */
  async closeAll(): Promise<void> {
    const all = [...this.open_.values()];
    this.open_.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()));
  }
}
