import { createRequire } from 'node:module';
import type * as ArrowModule from 'apache-arrow';
import type { ChunkRow } from './lance.schema';

/**
 * Rows (`toRow`'s output) as one Arrow record batch of the table's own schema, built column by
 * column. Handed plain objects, LanceDB converts them generically (it walks every row for every
 * column path and encodes each string through a builder), which took ~0.5 s of an import's main
 * thread for 8,000 rows on the 2-core test machine; here each string column is one buffer
 * written by Node's native UTF-8 encoder. Hand-written because apache-arrow's own builders are
 * the generic path; the column types are the few `lance.schema.ts` declares.
 */

// The CommonJS build, as LanceDB checks `instanceof` against it (see lance.schema.ts).
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof ArrowModule;

type Column = ArrowModule.Data;

/** Validity bitmap (bit set = value present) and null count of `n` values. */
function validity(n: number, present: (i: number) => boolean): { nullBitmap: Uint8Array | undefined; nullCount: number } {
  let nulls = 0;
  const bitmap = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) {
    if (present(i)) bitmap[i >> 3]! |= 1 << (i & 7);
    else nulls++;
  }
  return { nullBitmap: nulls > 0 ? bitmap : undefined, nullCount: nulls };
}

/**
 * Offsets of `values` in one UTF-8 buffer (`n + 1` entries; null and '' take no bytes). The two
 * loops of a column are two functions because V8 compiles a long-running loop while it runs
 * (on-stack replacement): with both loops in one function, that compiled code also held the
 * steps after the first loop, which had never run and so had no type feedback, and every later
 * column entered it and deoptimized there (23 times per import of radxa + esp; RESULTS.md).
 */
function utf8Offsets(values: readonly (string | null)[]): Int32Array {
  const offsets = new Int32Array(values.length + 1);
  let bytes = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v) bytes += Buffer.byteLength(v, 'utf8');
    offsets[i + 1] = bytes;
  }
  return offsets;
}

/** `values` encoded one after the other at `offsets` (`utf8Offsets`). */
function utf8Bytes(values: readonly (string | null)[], offsets: Int32Array): Uint8Array {
  const bytes = offsets[values.length]!;
  const data = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v) data.write(v, offsets[i]!, 'utf8');
  }
  return new Uint8Array(data.buffer, data.byteOffset, bytes);
}

/** A Utf8 column of `values` (null allowed where the field is nullable). */
function utf8(type: ArrowModule.Utf8, values: readonly (string | null)[]): ArrowModule.Data<ArrowModule.Utf8> {
  const offsets = utf8Offsets(values);
  const data = utf8Bytes(values, offsets);
  const { nullBitmap, nullCount } = validity(values.length, (i) => values[i] != null);
  return arrow.makeData({ type, length: values.length, nullCount, nullBitmap, valueOffsets: offsets, data });
}

/** A List<Utf8> column (lists are never null here; items are never null). */
function utf8List(type: ArrowModule.List<ArrowModule.Utf8>, values: readonly (readonly string[] | null)[]): Column {
  const n = values.length;
  const offsets = new Int32Array(n + 1);
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    for (const s of values[i] ?? []) items.push(s);
    offsets[i + 1] = items.length;
  }
  const child = utf8(type.children[0]!.type as ArrowModule.Utf8, items);
  const { nullBitmap, nullCount } = validity(n, (i) => values[i] != null);
  return arrow.makeData({ type, length: n, nullCount, nullBitmap, valueOffsets: offsets, child });
}

/** An Int32 or Int8 column. */
function ints(type: ArrowModule.Int32 | ArrowModule.Int8, values: readonly (number | null)[]): Column {
  const n = values.length;
  const { nullBitmap, nullCount } = validity(n, (i) => values[i] != null);
  if (type.bitWidth === 8) {
    const data = Int8Array.from(values, (v) => v ?? 0);
    return arrow.makeData({ type: type as ArrowModule.Int8, length: n, nullCount, nullBitmap, data });
  }
  const data = Int32Array.from(values, (v) => v ?? 0);
  return arrow.makeData({ type: type as ArrowModule.Int32, length: n, nullCount, nullBitmap, data });
}

/** A FixedSizeList<Float32> column (vectors; null until embedded). */
function vectors(type: ArrowModule.FixedSizeList<ArrowModule.Float32>, values: readonly (Float32Array | null)[]): Column {
  const n = values.length;
  const dim = type.listSize;
  const data = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v) data.set(v, i * dim);
  }
  const child = arrow.makeData({ type: type.children[0]!.type as ArrowModule.Float32, length: n * dim, nullCount: 0, data });
  const { nullBitmap, nullCount } = validity(n, (i) => values[i] != null);
  return arrow.makeData({ type, length: n, nullCount, nullBitmap, child });
}

/** One column of `rows`, or null for a column type this module does not build. */
function column(field: ArrowModule.Field, rows: readonly ChunkRow[]): Column | null {
  const t = field.type as ArrowModule.DataType;
  const values = rows.map((r) => r[field.name] ?? null);
  if (arrow.DataType.isUtf8(t)) return utf8(t, values as (string | null)[]);
  if (arrow.DataType.isInt(t) && (t.bitWidth === 32 || t.bitWidth === 8) && t.isSigned) return ints(t as ArrowModule.Int32, values as (number | null)[]);
  if (arrow.DataType.isList(t) && arrow.DataType.isUtf8(t.children[0]!.type)) return utf8List(t as ArrowModule.List<ArrowModule.Utf8>, values as (string[] | null)[]);
  if (arrow.DataType.isFixedSizeList(t) && arrow.DataType.isFloat(t.children[0]!.type) && t.children[0]!.type.precision === arrow.Precision.SINGLE) {
    return vectors(t as ArrowModule.FixedSizeList<ArrowModule.Float32>, values as (Float32Array | null)[]);
  }
  return null;
}

/**
 * `rows` as an Arrow table of `schema` (the table's own), or null when a column has a type not
 * built here (the caller then hands LanceDB the rows). Every value must already have its
 * column's type: `toRow` checked and converted them.
 */
export function rowsToArrowTable(rows: readonly ChunkRow[], schema: ArrowModule.Schema): ArrowModule.Table | null {
  const children: Column[] = [];
  for (const field of schema.fields) {
    const c = column(field, rows);
    if (!c) return null;
    children.push(c);
  }
  const struct = arrow.makeData({ type: new arrow.Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new arrow.Table(schema, [new arrow.RecordBatch(schema, struct)]);
}

/**
 * Text per `add`: bounds the Arrow batch held in memory. By size rather than by rows, so an
 * import's batch of small chunks is one write (one table version, no small trailing fragment:
 * 8,004 rows of radxa + esp were two adds, the second of 4 rows).
 */
export const ADD_BATCH_CHARS = 32 * 1024 * 1024;

/** `rows` in consecutive groups of at most `ADD_BATCH_CHARS` of text each (a longer row alone). */
export function byTextSize(rows: readonly ChunkRow[], maxChars = ADD_BATCH_CHARS): ChunkRow[][] {
  const groups: ChunkRow[][] = [];
  let group: ChunkRow[] = [];
  let chars = 0;
  for (const row of rows) {
    const size = String(row.text).length + String(row.indexed_text).length + String(row.search_text).length;
    if (group.length > 0 && chars + size > maxChars) {
      groups.push(group);
      group = [];
      chars = 0;
    }
    group.push(row);
    chars += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * A query's result as plain objects, read column by column. LanceDB's `toArray()` gives a proxy
 * per row whose every field access goes through Arrow's visitor, and the store spreads its rows:
 * ~1 ms of a search's main thread for its ~100 result rows. The values are the ones those
 * proxies return (strings, numbers, bigints, nested vectors, null).
 */
export function plainRows(table: ArrowModule.Table): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const batch of table.batches) {
    const start = rows.length;
    for (let i = 0; i < batch.numRows; i++) rows.push({});
    for (const field of batch.schema.fields) {
      const column = batch.getChild(field.name)!;
      for (let i = 0; i < batch.numRows; i++) rows[start + i]![field.name] = column.get(i);
    }
  }
  return rows;
}
