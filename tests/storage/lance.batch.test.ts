import { afterEach, describe, expect, it } from 'vitest';
import { chunkSchema, toRow } from '../../src-main/storage/lance.schema';
import { byTextSize, rowsToArrowTable } from '../../src-main/storage/lance.batch';
import { record, tempDir } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Records with every kind of value the columns hold: nulls, empty and non-ASCII strings, lists, members, vectors. */
function sample(dimension: number | null) {
  return [
    record('a.md', 0, 'Plain text.', { indexedText: '[Section: A]\nPlain text.', model: 'ROCK 5B', category: 'sbc', nouns: ['power', 'supply'] }),
    record('a.md', 1, 'Ünïcödé — 中文 text 🙂', { pageStart: null, pageEnd: null, continuous: true, key: 'k', keywords: ['ü', ''], title: 'T' }),
    record('a.md', 2, '', { headingPath: [], continuous: false, summary: 'S', questions: ['Why?'], relatedKeys: ['r1', 'r2'], entities: ['5V/3A'] }),
    record('b.md', 0, 'Merged', { members: [{ ordinal: 0, start: 0, end: 3, pageStart: null, pageEnd: 2 }], parentId: null, sectionType: 'skills' }),
    record('b.md', 1, 'View', { parentId: 'b.md#0', signatureSource: 'inherited' }),
  ].map((r, i) => ({ ...r, ...(dimension !== null ? { vector: i % 2 === 0 ? Array.from({ length: dimension }, (_, k) => (k + i) / 10) : null } : {}) }));
}

/** Every stored column of a table, rows in order, as plain JSON. */
async function dump(dir: string, rows: unknown): Promise<unknown[]> {
  const lancedb = await import('@lancedb/lancedb');
  const db = await lancedb.connect(dir);
  try {
    const schema = chunkSchema(3, 'e');
    const table = await db.createEmptyTable('chunks', schema);
    await table.add(rows as Record<string, unknown>[]);
    const out = await table.query().toArray();
    table.close();
    // Typed arrays and Arrow vectors become plain arrays, so rows compare as JSON.
    const plain = (_: string, v: unknown): unknown => (ArrayBuffer.isView(v) || (typeof v === 'object' && v !== null && 'toArray' in v) ? Array.from(v as unknown as Iterable<unknown>) : v);
    return out.map((r: Record<string, unknown>) => JSON.parse(JSON.stringify(r, plain)) as unknown);
  } finally {
    db.close();
  }
}

describe('Arrow batches built column by column', () => {
  it('store exactly what LanceDB stores for the same rows given as objects', async () => {
    const rows = sample(3).map((r) => toRow(r, 3));
    const schema = chunkSchema(3, 'e');
    const table = rowsToArrowTable(rows, schema);
    expect(table).not.toBeNull();
    expect(table!.numRows).toBe(rows.length);
    const a = await tempDir();
    const b = await tempDir();
    cleanups.push(a.cleanup, b.cleanup);
    const viaObjects = await dump(a.dir, rows);
    const viaColumns = await dump(b.dir, table);
    expect(viaColumns).toEqual(viaObjects);
    // The cases the sample is there for did reach the table.
    expect(viaColumns[1]).toMatchObject({ text: 'Ünïcödé — 中文 text 🙂', page_start: null, continuous: 1, keywords: ['ü', ''] });
    expect(viaColumns[1]).toMatchObject({ vector: null });
    expect(viaColumns[2]).toMatchObject({ text: '', heading_path: [], continuous: 0 });
  });

  it('declines a schema with a column type it does not build', async () => {
    const { Schema, Field, Float64 } = await import('apache-arrow');
    const odd = new Schema([new Field('id', new Float64(), false)]);
    expect(rowsToArrowTable([{ id: 1 }], odd as never)).toBeNull();
  });
});

describe('write batches', () => {
  const row = (id: string, chars: number) => toRow(record(id, 0, 'x'.repeat(chars)), null);

  it('groups rows in order up to a size of text, a longer row alone', () => {
    const rows = [row('a', 10), row('b', 10), row('c', 100), row('d', 5), row('e', 5)];
    // Each row's text counts three times: text, indexed text (empty here), search text.
    const groups = byTextSize(rows, 60);
    expect(groups.map((g) => g.map((r) => String(r.id)))).toEqual([['a#0', 'b#0'], ['c#0'], ['d#0', 'e#0']]);
    expect(byTextSize(rows).map((g) => g.length)).toEqual([5]);
    expect(byTextSize([])).toEqual([]);
  });
});
