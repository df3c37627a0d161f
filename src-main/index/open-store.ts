import type { ChunkStrategy } from '../core/chunk';
import { CodedError } from '../core/result';
import type { Chunker } from '../chunking/chunker';
import { createChunker } from '../chunking/chunker.registry';
import type { ChunkStore } from '../storage/chunk-store';
import { openLanceStore } from '../storage/lance.store';
import type { Library } from '../storage/library.store';

/** How a library's LanceDB store is opened: its embedder's dimension and id, when it has one. */
export type StoreOptions = { vectorDimension: number | null; embedderId: string | null };

/** The store options a library's settings call for. */
export function storeOptionsOf(library: Library): StoreOptions {
  const embedder = library.config.embedder;
  return { vectorDimension: embedder?.dimension ?? null, embedderId: embedder?.id ?? null };
}

/** Opens a store folder; a failure is a bug or a damaged folder, thrown as a coded error. */
export async function openStore(dir: string, options: StoreOptions): Promise<ChunkStore> {
  const opened = await openLanceStore(dir, options);
  if (!opened.ok) throw new CodedError(opened.error.code, opened.error.message);
  return opened.value;
}

/** The chunker of a strategy; an unknown strategy is a bug (settings are validated). */
export function chunkerFor(strategy: ChunkStrategy): Chunker {
  const made = createChunker(strategy, {});
  if (!made.ok) throw new CodedError(made.error.code, made.error.message);
  return made.value;
}
