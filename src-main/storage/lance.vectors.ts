/**
 * The vector column's lifecycle, and the reads and writes of background embedding (the store's
 * `listUnembedded`, `listEmbedded` and `updateVectors` delegate here). The dimension is fixed per
 * table; its embedder id is field metadata. A store is:
 * - opened without a dimension: no vector column is created; an existing one is kept as is;
 * - opened with a dimension on a table without vectors: the column is added in place (all rows
 *   null), and background embedding fills it with `listUnembedded` + `updateVectors`;
 * - opened with another dimension or another embedder id: 'model-mismatch', unless
 *   `onModelMismatch: 'reset'`, which drops the old vectors (text and FTS stay) so they can be
 *   recomputed, or the column holds no vector yet (then it is reset anyway).
 */

import type * as LanceModule from '@lancedb/lancedb';
import type { Table } from '@lancedb/lancedb';
import { CodedError } from '../core/result';
import type { ChunkRecord, EmbeddedChunk, UnembeddedChunk } from './chunk-store';
import { sqlIn } from './lance.filter';
import { EMBEDDER_KEY, VECTOR_COLUMN, fromRow, vectorField, vectorUpdateSchema, type TableShape } from './lance.schema';

/** Rows per merge call (vector updates): bounds the Arrow batch held in memory. */
const WRITE_BATCH = 8000;

/** Brings the stored vector column to the one wanted (see the module comment); returns the shape the store then has. */
export async function reconcileVectors(
  table: Table,
  stored: TableShape,
  wanted: number | null,
  embedderId: string | null,
  onMismatch: 'fail' | 'reset',
): Promise<TableShape> {
  if (wanted === null) return stored;
  if (stored.vectorDimension === null) {
    await table.addColumns(vectorField(wanted, embedderId));
    return { vectorDimension: wanted, embedderId };
  }
  const dimensionDiffers = stored.vectorDimension !== wanted;
  const embedderDiffers = embedderId !== null && stored.embedderId !== null && stored.embedderId !== embedderId;
  if (dimensionDiffers || embedderDiffers) {
    // A column without a single vector loses nothing when reset. That is what a kill leaves between
    // `setEmbedder`'s reset for a new model and the library saving it: refused, the library never
    // opened again, not even to switch its embedder back.
    if (onMismatch === 'fail' && (await table.countRows(`${VECTOR_COLUMN} IS NOT NULL`)) > 0) {
      const was = `${stored.embedderId ?? 'an embedder'} (${stored.vectorDimension} dimensions)`;
      const now = `${embedderId ?? 'the configured embedder'} (${wanted} dimensions)`;
      throw new CodedError(
        'model-mismatch',
        `This library's vectors were made by ${was}, but ${now} is configured. Switch back, or re-embed the library to use the new embedder.`,
      );
    }
    await table.dropColumns([VECTOR_COLUMN]);
    await table.addColumns(vectorField(wanted, embedderId));
    return { vectorDimension: wanted, embedderId };
  }
  if (embedderId !== null && stored.embedderId === null) {
    await table.updateFieldMetadata([{ path: VECTOR_COLUMN, metadata: { [EMBEDDER_KEY]: embedderId } }]);
    return { vectorDimension: wanted, embedderId };
  }
  return stored;
}

/** The columns an embedder's input is built from. */
const EMBED_INPUT_COLUMNS = ['id', 'indexed_text', 'text', 'category', 'nouns', 'model'] as const;

function embedInput(r: ChunkRecord): UnembeddedChunk {
  return { id: r.id, indexedText: r.indexedText, text: r.text, category: r.category, nouns: r.nouns, model: r.model };
}

/** Up to `limit` chunks without a vector, as an embedder's input. */
export async function readUnembedded(table: Table, limit: number): Promise<UnembeddedChunk[]> {
  const rows = await table.query().where(`${VECTOR_COLUMN} IS NULL`).select([...EMBED_INPUT_COLUMNS]).limit(limit).toArray();
  return rows.map((row) => embedInput(fromRow(row)));
}

/** The chunks among `ids` that have a vector, with it. */
export async function readEmbedded(table: Table, ids: readonly string[]): Promise<EmbeddedChunk[]> {
  const rows = await table
    .query()
    .where(`${sqlIn('id', ids)} AND ${VECTOR_COLUMN} IS NOT NULL`)
    .select([...EMBED_INPUT_COLUMNS, VECTOR_COLUMN])
    .toArray();
  return rows.map((row: Record<string, unknown>) => ({ ...embedInput(fromRow(row)), vector: Float32Array.from(row[VECTOR_COLUMN] as Iterable<number>) }));
}

/** Writes `rows` (id + vector of `dimension`) into the vector column, `WRITE_BATCH` rows a merge; returns the rows updated. */
export async function mergeVectors(lance: typeof LanceModule, table: Table, rows: readonly Record<string, unknown>[], dimension: number): Promise<number> {
  let updated = 0;
  for (let i = 0; i < rows.length; i += WRITE_BATCH) {
    // Only id + vector are written: the merge leaves every other column as it is.
    const batch = lance.makeArrowTable(rows.slice(i, i + WRITE_BATCH), { schema: vectorUpdateSchema(dimension) });
    const result = await table.mergeInsert('id').whenMatchedUpdateAll().execute(batch);
    updated += result.numUpdatedRows;
  }
  return updated;
}
