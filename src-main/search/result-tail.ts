import type { ChunkHit, ChunkRecord, ChunkStore } from '../storage/chunk-store';

/** A result as the searcher shows it: the record, its score, and the table row view that matched (its rows make the snippet). */
export interface ShownResult {
  record: ChunkRecord;
  score: number;
  view?: ChunkRecord;
}

/**
 * The results below the ranked pool, for a top-k longer than that list: the candidates of a
 * deeper first-stage search that the ranked list does not show, in their (model-weighted) first
 * stage order, read only as far as `need`. The deeper search has a fixed depth too, so the tail
 * is the same list whatever k asks, and asking for fewer results still returns the first ones of
 * a longer list. The ranking stages do not run on it: ranked, it would be a deeper pool whose
 * order differs from the fixed one above it. A table row view stands as its whole table, once,
 * when `asTables` (the table-views stage ran on the list above).
 */
export async function resultTail(store: ChunkStore, deep: readonly ChunkHit[], shown: ReadonlySet<string>, need: number, asTables: boolean): Promise<ShownResult[]> {
  const seen = new Set(shown);
  const picked: ChunkHit[] = [];
  for (const h of deep) {
    if (picked.length >= need) break;
    const id = asTables ? (h.record.parentId ?? h.record.id) : h.record.id;
    if (seen.has(id)) continue;
    seen.add(id);
    picked.push(h);
  }
  if (picked.length === 0) return [];
  const { hydrated, tables } = await readWithTables(store, picked, asTables);
  const whole = new Map(tables.map((t) => [t.id, t]));
  return hydrated.flatMap((h) => {
    if (!asTables || !h.record.parentId) return [{ record: h.record, score: h.score }];
    const table = whole.get(h.record.parentId);
    return table ? [{ record: table, score: h.score, view: h.record }] : [];
  });
}

/**
 * Reads the hits (see `ChunkStore.hydrate`) and, when `withTables`, the whole tables of the table
 * row views among them: in the same read when the store gave every view its parent's row address
 * (one read instead of two: each costs ~1-2 ms of CPU however few rows it returns), else by id
 * beside it.
 */
export async function readWithTables(store: ChunkStore, hits: ChunkHit[], withTables: boolean): Promise<{ hydrated: ChunkHit[]; tables: ChunkRecord[] }> {
  const views = withTables ? hits.filter((h) => h.record.parentId) : [];
  const tableIds = new Set(views.map((h) => h.record.parentId!));
  if (!views.every((h) => h.parent)) {
    const [hydrated, tables] = await Promise.all([store.hydrate(hits), store.getChunks([...tableIds], { light: true })]);
    return { hydrated, tables };
  }
  const ids = new Set(hits.map((h) => h.record.id));
  const parents = new Map<string, ChunkHit>();
  for (const v of views) if (!ids.has(v.parent!.record.id)) parents.set(v.parent!.record.id, v.parent!);
  const read = await store.hydrate([...hits, ...parents.values()]);
  return { hydrated: read.filter((h) => ids.has(h.record.id)), tables: read.filter((h) => tableIds.has(h.record.id)).map((h) => h.record) };
}
