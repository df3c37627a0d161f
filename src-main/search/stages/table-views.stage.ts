import type { ChunkHit, ChunkRecord } from '../../storage/chunk-store';
import type { RankStage } from './stage';

/**
 * Replaces view hits by their parent chunks, keeping each parent once at its best position, and
 * remembers which view matched (its rows make the snippet). The parent stands in as a record with
 * the view's ranking fields (same document, model and prefix) and the parent's id; callers fetch
 * whole records for the winners. (The views themselves are written by `index/table-views.ts`.)
 */
export function resolveViews(
  hits: ChunkHit[],
  tables: ReadonlyMap<string, ChunkRecord> = new Map(),
): { hits: ChunkHit[]; matchedView: Map<string, ChunkRecord> } {
  const out: ChunkHit[] = [];
  const seen = new Set<string>();
  const matchedView = new Map<string, ChunkRecord>();
  for (const h of hits) {
    const id = h.record.parentId ?? h.record.id;
    if (seen.has(id)) continue;
    seen.add(id);
    if (h.record.parentId) matchedView.set(id, h.record);
    // Later stages read the stand-in's lines: the whole table where it was read (a question's row
    // is often in another view of the same table than the one that matched), else the view.
    const whole = h.record.parentId ? tables.get(id) : undefined;
    out.push({ record: whole ?? { ...h.record, id, parentId: null }, score: h.score });
  }
  return { hits: out, matchedView };
}

/** A table found through one of its row views stands in results as the whole table, once. */
export const tableViewsStage: RankStage<'table-views'> = {
  name: 'table-views',
  describes: 'a matching table row view stands for its whole table, once',
  run(hits, ctx) {
    const resolved = resolveViews(hits, ctx.tables);
    for (const [id, view] of resolved.matchedView) ctx.matchedView.set(id, view);
    return resolved.hits;
  },
};
