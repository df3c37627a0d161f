import type { Data, Table as ArrowTable, Vector } from 'apache-arrow';

/**
 * The stub of every row (id, model, parent) by row address, held in memory so a search reads
 * nothing but row addresses and scores from LanceDB. Reading three small columns for the 30 rows
 * a full-text query returns costs that query a `take` of its own (~1.4 of ~4.6 ms of CPU at 100k
 * chunks on 2 cores, half of it fixed per call), a search runs three such queries, and a table
 * row view's parent needed a lookup by id besides (~4 ms): here a view's parent is known by
 * address, so it is read with the candidates.
 *
 * Sound without knowing the table's version because LanceDB never reuses a row address: rows
 * are appended in new fragments, deleted in place (a deleted row is never a hit), and moved only
 * by compaction into new fragments. An address this index lacks is a row written after it was
 * built: the store reads those rows' stubs. The store drops the index when it compacts (every
 * address changes then), and rebuilds it on a later search.
 *
 * Kept as the Arrow columns the scan returned (ids and models as UTF-8 bytes, ~80 bytes a row)
 * plus four integers a row; strings are made only for the rows a search returns. Each row's
 * document is kept too, each document id once (a row of a search then needs only its text and
 * result fields read: every column a read takes costs per row).
 */

/** What a light search knows of a row before its text is read. */
export interface RowStub {
  id: string;
  model: string | null;
  parentId: string | null;
  /** The row's document, when the scan read it (the rows a search reads then need no `doc_id`). */
  docId: string | null;
  /** The parent's stub and address, for a table row view whose parent the index holds. */
  parent: { id: string; model: string | null; docId: string | null; address: bigint } | null;
}

/** A row that is no table row view. */
const NO_PARENT = -1;
/** A view whose parent row the scan did not hold: its stub is read from the table instead. */
const UNKNOWN_PARENT = -2;

type Utf8Data = Data & { valueOffsets: Int32Array; values: Uint8Array };

/** Calls `visit(index, latin1 key)` for every non-null string of a UTF-8 column (the key keeps its bytes). */
function eachKey(vector: Vector, visit: (i: number, key: string) => void): void {
  let base = 0;
  for (const data of vector.data as Utf8Data[]) {
    const bytes = Buffer.from(data.values.buffer, data.values.byteOffset, data.values.byteLength);
    const offsets = data.valueOffsets;
    for (let i = 0; i < data.length; i++) {
      if (data.nullCount !== 0 && !data.getValid(i)) continue;
      visit(base + i, bytes.toString('latin1', offsets[i]!, offsets[i + 1]!));
    }
    base += data.length;
  }
}

/**
 * Most bytes of result columns (values and offsets) a stub index holds (see `holdResults`); a
 * larger library reads its results from disk as before. At 102,501 chunks (168k rows, prefixed
 * texts) they are 163 MB, and the process grows by ~265 MB: LanceDB's scan buffers hold ~1.6x
 * their data. That memory is what a search's row read of ~4 ms of CPU is traded for.
 */
export const RESULT_BYTES_BUDGET = 192 * 2 ** 20;

/** Bytes of the values and offsets of a scan's columns (what holding them keeps in memory). */
function columnBytes(table: ArrowTable, names: readonly string[]): number {
  let bytes = 0;
  for (const name of names) {
    for (const data of (table.getChild(name)?.data ?? []) as Utf8Data[]) bytes += (data.values?.byteLength ?? 0) + (data.valueOffsets?.byteLength ?? 0);
  }
  return bytes;
}

export class StubIndex {
  /** The result columns of every row, by row index (see `holdResults`), or null. */
  private results: { names: readonly string[]; columns: Vector[] } | null = null;

  private constructor(
    private readonly ids: Vector,
    private readonly models: Vector,
    /** Fragment id -> row offset -> row index + 1 (0: a row this index does not hold). */
    private readonly slots: Map<number, Int32Array>,
    /** Row index -> the row index of its parent, `NO_PARENT` or `UNKNOWN_PARENT`. */
    private readonly parents: Int32Array,
    /** Row index -> row address. */
    private readonly addresses: BigUint64Array,
    /** The distinct document ids, and row index -> its index there (-1: not read). */
    private readonly docs: readonly string[],
    private readonly docOf: Int32Array,
  ) {}

  /** Rows held. */
  get size(): number {
    return this.addresses.length;
  }

  /** Builds the index from a scan of `id`, `model`, `parent_id` and (optionally) `doc_id` with row addresses (`_rowid`). */
  static fromArrow(table: ArrowTable): StubIndex {
    const n = table.numRows;
    const ids = table.getChild('id')!;
    const addresses = new BigUint64Array(n);
    let at = 0;
    // A scan of no rows has no `_rowid` column at all (an empty library): then there is nothing to hold.
    for (const data of table.getChild('_rowid')?.data ?? []) {
      addresses.set(data.values as BigUint64Array, at);
      at += data.length;
    }
    const high = new Map<number, number>();
    const fragments = new Uint32Array(n);
    const offsets = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const a = addresses[i]!;
      const fragment = Number(a >> 32n);
      const offset = Number(a & 0xffffffffn);
      fragments[i] = fragment;
      offsets[i] = offset;
      if (offset >= (high.get(fragment) ?? -1)) high.set(fragment, offset);
    }
    const slots = new Map<number, Int32Array>();
    for (const [fragment, max] of high) slots.set(fragment, new Int32Array(max + 1));
    for (let i = 0; i < n; i++) slots.get(fragments[i]!)![offsets[i]!] = i + 1;
    // A view's parent by address: ids compared as their bytes (latin1 keys), for the parents only.
    const parentKeys = new Map<number, string>();
    const wanted = new Set<string>();
    eachKey(table.getChild('parent_id')!, (i, key) => {
      parentKeys.set(i, key);
      wanted.add(key);
    });
    const rowOf = new Map<string, number>();
    eachKey(ids, (i, key) => {
      if (wanted.has(key)) rowOf.set(key, i);
    });
    const parents = new Int32Array(n).fill(NO_PARENT);
    for (const [i, key] of parentKeys) parents[i] = rowOf.get(key) ?? UNKNOWN_PARENT;
    // Document ids repeat on every chunk of a document: each is kept once (~14k at 100k chunks).
    const docs: string[] = [];
    const docOf = new Int32Array(n).fill(-1);
    const docColumn = table.getChild('doc_id');
    if (docColumn) {
      const seen = new Map<string, number>();
      eachKey(docColumn, (i, key) => {
        let d = seen.get(key);
        if (d === undefined) {
          d = docs.push(Buffer.from(key, 'latin1').toString('utf8')) - 1;
          seen.set(key, d);
        }
        docOf[i] = d;
      });
    }
    return new StubIndex(ids, table.getChild('model')!, slots, parents, addresses, docs, docOf);
  }

  /**
   * Holds the result columns (`names`, e.g. text and the packed result fields) of every row, from
   * a scan of them with row addresses, so reading a search's rows needs no LanceDB call: that read
   * cost ~3.9 ms of CPU for a search's 40 rows at 100k chunks, more than any of its full-text
   * queries. Kept only when the scan saw the rows this index holds, in the same order (the same
   * table version), and its columns fit `budget` bytes; returns whether they were kept.
   */
  holdResults(scan: ArrowTable, names: readonly string[], budget = RESULT_BYTES_BUDGET): boolean {
    if (scan.numRows !== this.size || columnBytes(scan, names) > budget) return false;
    let at = 0;
    for (const data of scan.getChild('_rowid')?.data ?? []) {
      const addresses = data.values as BigUint64Array;
      for (let i = 0; i < data.length; i++) if (addresses[i] !== this.addresses[at + i]) return false;
      at += data.length;
    }
    const columns = names.map((n) => scan.getChild(n));
    if (columns.some((c) => c === null)) return false;
    this.results = { names, columns: columns as Vector[] };
    return true;
  }

  /** The held result columns of the row at `address` (column name -> value), or null when not held. */
  result(address: bigint): Record<string, unknown> | null {
    if (!this.results) return null;
    const row = this.rowAt(address);
    if (row < 0) return null;
    const out: Record<string, unknown> = {};
    this.results.names.forEach((name, i) => {
      out[name] = this.results!.columns[i]!.get(row);
    });
    return out;
  }

  /** The stub of the row at `address`, or null when this index does not hold that row. */
  lookup(address: bigint): RowStub | null {
    const row = this.rowAt(address);
    if (row < 0) return null;
    const p = this.parents[row]!;
    if (p === UNKNOWN_PARENT) return null;
    const parent = p === NO_PARENT ? null : { id: String(this.ids.get(p)), model: this.model(p), docId: this.doc(p), address: this.addresses[p]! };
    return { id: String(this.ids.get(row)), model: this.model(row), parentId: parent?.id ?? null, docId: this.doc(row), parent };
  }

  /** The index of the row at `address` in this index, or -1 when it holds no such row. */
  private rowAt(address: bigint): number {
    return (this.slots.get(Number(address >> 32n))?.[Number(address & 0xffffffffn)] ?? 0) - 1;
  }

  private doc(row: number): string | null {
    const d = this.docOf[row]!;
    return d < 0 ? null : this.docs[d]!;
  }

  private model(row: number): string | null {
    const m: unknown = this.models.get(row);
    return m == null ? null : String(m);
  }
}
