import { describe, expect, it } from 'vitest';
import { weighByAnswerLine } from '../../src-main/search/stages/answer-line.stage';
import { resolveViews } from '../../src-main/search/stages/table-views.stage';
import type { ChunkHit, ChunkRecord } from '../../src-main/storage/chunk-store';
import { record } from '../storage/fixtures';

const TABLE = '| Item | Value |\n| --- | --- |\n| Dimensions | 21 x 17.8 mm |\n| Flash | 1536KB + 4MB |';

function chunk(id: string, text: string, parentId: string | null = null): ChunkRecord {
  return { ...record('board.md', 0, text), id, modelKey: null, parentId } as ChunkRecord;
}
const hit = (r: ChunkRecord, score: number): ChunkHit => ({ record: r, score });

describe('table views', () => {
  it('stands a matched row view in for its table once, as the whole table when it was read', () => {
    const whole = chunk('board.md#3', TABLE);
    const views = [chunk('board.md#3/r1', '| Dimensions | 21 x 17.8 mm |', 'board.md#3'), chunk('board.md#3/r0', '| Flash | 1536KB + 4MB |', 'board.md#3')];
    const { hits, matchedView } = resolveViews([hit(views[0]!, 6), hit(views[1]!, 5)], new Map([[whole.id, whole]]));
    expect(hits).toHaveLength(1);
    expect(hits[0]!.record.id).toBe('board.md#3');
    expect(hits[0]!.record.text).toBe(TABLE);
    expect(hits[0]!.score).toBe(6);
    expect(matchedView.get('board.md#3')?.id).toBe('board.md#3/r1');
  });

  it('lets later stages read every row of the table, not only the view that matched', () => {
    // The size question matched the table through its "Dimensions" view; the flash row is in
    // another view. The line evidence must still see it, or a prose line about flash wins.
    const whole = chunk('board.md#3', TABLE);
    const view = chunk('board.md#3/r1', '| Dimensions | 21 x 17.8 mm |', 'board.md#3');
    const prose = chunk('board.md#2', 'Your sketches are kept in the flash memory of the board.');
    const { hits } = resolveViews([hit(view, 5), hit(prose, 5)], new Map([[whole.id, whole]]));
    const ranked = weighByAnswerLine(hits, 'flash size', () => 1);
    expect(ranked[0]!.record.id).toBe('board.md#3');
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('keeps the view as stand-in when its table was not read', () => {
    const view = chunk('board.md#3/r0', '| Flash | 1536KB + 4MB |', 'board.md#3');
    const { hits } = resolveViews([hit(view, 5)]);
    expect(hits[0]!.record).toMatchObject({ id: 'board.md#3', parentId: null, text: '| Flash | 1536KB + 4MB |' });
  });
});
