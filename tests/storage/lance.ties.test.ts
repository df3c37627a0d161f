import { afterEach, describe, expect, it } from 'vitest';
import { inScoreOrder } from '../../src-main/storage/lance.query';
import { axis, record, storeScope } from './fixtures';

/**
 * Rows of equal score come back from LanceDB in no fixed order (its search runs on several
 * threads); the store puts them in reading order, so the same question always gets the same
 * passages, in the same order, and so the same answer.
 */

const scope = storeScope();
afterEach(() => scope.closeAll());

const ids = (hits: { record: { id: string } }[]) => hits.map((h) => h.record.id);

describe('search rows of equal score', () => {
  it('come in document and ordinal order (ordinals as numbers), after the higher scores', () => {
    const rows = [
      { id: 'b.pdf#2', s: 1 },
      { id: 'a.pdf#10', s: 1 },
      { id: 'c.pdf#0', s: 5 },
      { id: 'a.pdf#9', s: 1 },
    ];
    expect(inScoreOrder(rows, (r) => Number(r.s)).map((r) => r.id)).toEqual(['c.pdf#0', 'a.pdf#9', 'a.pdf#10', 'b.pdf#2']);
  });

  it('are ranked the same way by every full-text, vector and hybrid search', async () => {
    const { store } = await scope.open({ vectorDimension: 4 });
    // Twelve identical tables (a datasheet's per-variant tables), written out of order, and one better match.
    const table = 'Ripple rejection f = 120Hz minimum 62 dB typical 73 dB';
    await store.addChunks([
      ...[7, 3, 11, 1, 12, 5, 9, 2, 10, 4, 8, 6].map((n) => record('datasheet.pdf', n, table, { vector: axis(4, 0) })),
      record('datasheet.pdf', 20, `${table}. Ripple rejection of the 12 V part.`, { vector: axis(4, 1) }),
    ]);
    await store.ensureIndexes();
    const expected = ['datasheet.pdf#20', ...Array.from({ length: 12 }, (_, i) => `datasheet.pdf#${i + 1}`)];
    for (let run = 0; run < 5; run++) {
      expect(ids(await store.searchBm25('ripple rejection', { limit: 20 }))).toEqual(expected);
      expect(ids(await store.searchVector(axis(4, 0), { limit: 12 }))).toEqual(expected.slice(1));
      const hybrid = ids(await store.searchHybrid('ripple rejection', axis(4, 0), { limit: 20 }));
      expect(hybrid).toHaveLength(13);
      expect(hybrid.filter((id) => id !== 'datasheet.pdf#20')).toEqual(expected.slice(1));
    }
  });
});
