import type { ParsedInput } from '../contract/api';
import { SEMANTIC_NEEDS_EMBEDDER } from '../chunking/semantic.chunker';
import { DEFAULT_PREFIX_OPTIONS } from '../core/prefix';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { LibraryConfig } from '../storage/library.store';

/** What a new library may be created with (the rest is identity: id, name, dates, version). */
export type NewLibrarySettings = Partial<Pick<LibraryConfig, 'strategy' | 'enrich' | 'embedder' | 'prefix' | 'restructure'>>;

/**
 * The settings a `libraries.create` call asks for, checked before anything is written: semantic
 * chunking needs an embedder (refused up front, as `libraries.configure` does, rather than failing
 * every import), an embedder is loaded once for the dimension its vectors will have, and prefix
 * parts left out take the default (none).
 */
export async function newLibrarySettings(
  input: ParsedInput<'libraries.create'>,
  embedders: { embedder(id: string): Promise<{ dimension: number }> },
): Promise<Result<NewLibrarySettings>> {
  const { strategy, enrich, embedder, prefix, restructure } = input;
  if (strategy === 'semantic' && !embedder) return fail('unavailable', SEMANTIC_NEEDS_EMBEDDER);
  const settings: NewLibrarySettings = {
    ...(strategy ? { strategy } : {}),
    ...(enrich ? { enrich } : {}),
    ...(prefix ? { prefix: { ...DEFAULT_PREFIX_OPTIONS, ...prefix } } : {}),
    ...(restructure !== undefined ? { restructure } : {}),
  };
  if (embedder) {
    const loaded = await loadEmbedder(embedders, embedder);
    if (!loaded.ok) return loaded;
    settings.embedder = { id: embedder, dimension: loaded.value.dimension };
  }
  return ok(settings);
}

/** Loads an embedder a library is about to use, or says in words why it could not (`model-failed`). */
export async function loadEmbedder<E>(embedders: { embedder(id: string): Promise<E> }, id: string): Promise<Result<E>> {
  try {
    return ok(await embedders.embedder(id));
  } catch (err) {
    return fail('model-failed', `The embedding model "${id}" could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
}
