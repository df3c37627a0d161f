import type { NormalizedDocument } from '../core/document';
import { prefixOf } from '../core/prefix';
import type { ChunkInput } from '../storage/chunk-store';

/**
 * Retrieval views ("small-to-big"): a long table is one atomic chunk, so BM25's length
 * normalization buries it under short chunks that merely repeat the question's words, even when
 * one of its rows is the answer (spec-table questions were the worst on dev.jsonl). Each long
 * table is therefore also indexed as views of a few rows under the table's header; a view stands
 * for its parent chunk in results, so what is shown and cited stays the whole, unsplit table
 * (`search/stages/table-views.stage.ts` resolves them at search time).
 */

export interface ViewOptions {
  /** Tables shorter than this (characters) are searched as part of their chunk only. */
  minTableChars: number;
  /** Rows are grouped into views of up to this many characters (a single longer row stays alone). */
  maxViewChars: number;
}

export const DEFAULT_VIEW_OPTIONS: ViewOptions = { minTableChars: 600, maxViewChars: 400 };

/** Row views of the long tables inside a chunk; none for merged units or chunks without tables. */
export function tableRowViews(doc: NormalizedDocument, chunk: ChunkInput, options: ViewOptions = DEFAULT_VIEW_OPTIONS): ChunkInput[] {
  return rowViews(doc, longTables(doc, options), chunk, options);
}

/** The document's table blocks of at least `minTableChars`, in document order. */
function longTables(doc: NormalizedDocument, options: ViewOptions): NormalizedDocument['blocks'] {
  return doc.blocks.filter((b) => b.kind === 'table' && b.end - b.start >= options.minTableChars);
}

/** `tableRowViews` with the document's long tables found once (`longTables`). */
function rowViews(doc: NormalizedDocument, tables: NormalizedDocument['blocks'], chunk: ChunkInput, options: ViewOptions): ChunkInput[] {
  if (chunk.members.length > 0 || chunk.parentId) return [];
  const prefix = prefixOf(chunk);
  const views: ChunkInput[] = [];
  for (const block of tables) {
    if (block.start < chunk.start || block.end > chunk.end) continue;
    const lines = lineSpans(doc.text, block.start, block.end);
    if (lines.length < 3) continue;
    const header = doc.text.slice(lines[0]!.start, lines[0]!.end);
    let group: { start: number; end: number }[] = [];
    const flush = () => {
      if (group.length === 0) return;
      const start = group[0]!.start;
      const end = group[group.length - 1]!.end;
      const rows = doc.text.slice(start, end);
      views.push({
        ...chunk,
        id: `${chunk.id}/r${views.length}`,
        parentId: chunk.id,
        text: rows,
        indexedText: `${prefix}${header}\n${rows}`,
        start,
        end,
        vector: null,
      });
      group = [];
    };
    // Line 0 is the header, line 1 the delimiter row; the rest are body rows.
    for (const row of lines.slice(2)) {
      const size = row.end - (group[0]?.start ?? row.start);
      if (group.length > 0 && size > options.maxViewChars) flush();
      group.push(row);
    }
    flush();
  }
  return views;
}

function lineSpans(text: string, start: number, end: number): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let s = start;
  while (s < end) {
    let e = text.indexOf('\n', s);
    if (e === -1 || e > end) e = end;
    if (text.slice(s, e).trim()) spans.push({ start: s, end: e });
    s = e + 1;
  }
  return spans;
}

/**
 * A document's rows followed by the row views of its long tables. The long tables are found once
 * per document: looking for them among all of the document's blocks again for each of its rows
 * grew with rows x blocks (a tenth of preparing radxa + esp on the import's thread).
 */
export function withViews(doc: NormalizedDocument, rows: ChunkInput[]): ChunkInput[] {
  const tables = longTables(doc, DEFAULT_VIEW_OPTIONS);
  if (tables.length === 0) return rows.slice();
  return [...rows, ...rows.flatMap((r) => rowViews(doc, tables, r, DEFAULT_VIEW_OPTIONS))];
}
