import { describe, expect, it } from 'vitest';
import type { Citation } from '../../src-main/contract/api';
import { missCause } from './answer-causes';

function citation(n: number, chunkId: string, quote: string): Citation {
  return { n, chunkId, doc: chunkId.split('#')[0]!, title: 'Manual', headingPath: [], pages: [1], start: 0, end: quote.length, quote, model: null };
}

const gold = [{ doc: 'tv/manual.md', contains: 'Hold time is 2 ms' }];
const goldPassage = 'Setup time is 1 ms.\n\nHold time is 2 ms.\n\nOther text.';

describe('why the first quoted line misses', () => {
  it('a later line of the same passage', () => {
    const lines = [{ text: 'Setup time is 1 ms.', cites: [1] }, { text: 'Hold time is 2 ms.', cites: [1] }];
    expect(missCause(lines, [citation(1, 'tv/manual.md#1', goldPassage)], gold)).toBe('wrongLine');
  });

  it('a later line of another passage, told apart by whether the first passage holds the gold too', () => {
    const lines = [{ text: 'Setup time is 1 ms.', cites: [1] }, { text: 'Hold time is 2 ms.', cites: [2] }];
    expect(missCause(lines, [citation(1, 'tv/manual.md#1', 'Setup time is 1 ms.'), citation(2, 'tv/manual.md#2', goldPassage)], gold)).toBe('otherPassage');
    expect(missCause(lines, [citation(1, 'tv/manual.md#1', goldPassage), citation(2, 'tv/manual.md#2', goldPassage)], gold)).toBe('otherPassageToo');
  });

  it('a cited passage whose gold sentence is not quoted, or spans two sentences, or is in none (a heading)', () => {
    const lines = [{ text: 'Setup time is 1 ms.', cites: [1] }];
    expect(missCause(lines, [citation(1, 'tv/manual.md#1', goldPassage)], gold)).toBe('notQuoted');
    const across = [{ doc: 'tv/manual.md', contains: 'is 1 ms. Hold time' }];
    expect(missCause(lines, [citation(1, 'tv/manual.md#1', goldPassage)], across)).toBe('split');
    // A heading is never a quoted sentence.
    const inHeading = [{ doc: 'tv/manual.md', contains: 'Power-on timing' }];
    expect(missCause(lines, [citation(1, 'tv/manual.md#1', `### Power-on timing\n\n${goldPassage}`)], inHeading)).toBe('lost');
  });

  it('no cited passage, or a gold string cited from another document', () => {
    const lines = [{ text: 'Hold time is 2 ms.', cites: [1] }];
    expect(missCause(lines, [citation(1, 'other/manual.md#1', goldPassage)], gold)).toBe('uncited');
  });
});
