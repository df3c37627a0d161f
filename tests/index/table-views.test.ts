import { describe, expect, it } from 'vitest';
import { tableRowViews, withViews } from '../../src-main/index/table-views';
import { markdownDocument } from '../enrich/corpus.helper';
import { record } from '../storage/fixtures';

/** A Markdown table of `rows` body rows, each ~60 characters: 20 rows make a long table (>= 600 characters). */
function table(name: string, rows: number): string {
  const body = Array.from({ length: rows }, (_, i) => `| ${name} pin ${String(i).padStart(2, '0')} | GPIO${i} | 3.3 V logic level, pulled up |`);
  return ['| Pin | Function | Notes |', '| --- | --- | --- |', ...body].join('\n');
}

const markdown = [
  '# Board',
  '## Header pins',
  table('Left', 20),
  'A short table follows.',
  table('Small', 2),
  '## Power pins',
  table('Right', 20),
  '## Notes',
  'Nothing tabular here.',
].join('\n\n');
const doc = markdownDocument('board.md', markdown);
const at = (text: string) => doc.text.indexOf(text);
// Three chunks: the first holds the left and the small table, the second the right table, the
// third starts inside the right table (so it holds no whole table).
const first = record('board.md', 0, '', { start: 0, end: at('## Power pins') });
const second = record('board.md', 1, '', { start: at('## Power pins'), end: at('## Notes') });
const third = record('board.md', 2, '', { start: at('| Right pin 10'), end: doc.text.length });

describe('table row views', () => {
  it('makes views of the long tables wholly inside a chunk, a few rows each under the header, in document order', () => {
    const rows = withViews(doc, [first, second, third]);
    expect(rows.slice(0, 3)).toEqual([first, second, third]);
    const views = rows.slice(3);
    expect(views.length).toBeGreaterThan(4);
    expect(new Set(views.map((v) => v.parentId))).toEqual(new Set(['board.md#0', 'board.md#1']));
    // The small table (two rows) has none; every view is rows of one long table under its header.
    expect(views.some((v) => v.text.includes('Small pin'))).toBe(false);
    for (const v of views) {
      expect(v.indexedText.startsWith('| Pin | Function | Notes |\n')).toBe(true);
      expect(v.text.length).toBeLessThanOrEqual(400);
      expect(doc.text.slice(v.start, v.end)).toBe(v.text);
    }
    const left = views.filter((v) => v.parentId === 'board.md#0');
    expect(left.map((v) => v.id)).toEqual(left.map((_, i) => `board.md#0/r${i}`));
    expect(left.map((v) => v.text).join('\n')).toBe(table('Left', 20).split('\n').slice(2).join('\n'));
  });

  it('gives each chunk the same views as asking for that chunk alone', () => {
    const rows = withViews(doc, [first, second, third]);
    expect(rows.slice(3)).toEqual([first, second, third].flatMap((c) => tableRowViews(doc, c)));
  });

  it('returns the rows alone, as a new list, for a document without long tables', () => {
    const plain = markdownDocument('plain.md', '# Plain\n\nNo tables at all.\n');
    const rows = [record('plain.md', 0, 'No tables at all.', { start: 0, end: plain.text.length })];
    const out = withViews(plain, rows);
    expect(out).toEqual(rows);
    expect(out).not.toBe(rows);
  });
});
