import { describe, expect, it } from 'vitest';
import type { Citation } from '../../src-main/contract/api';
import { missCause, saysGold } from './answer-causes';

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

describe('a quoted line that says the gold in nearly its words', () => {
  const bixby = [{ doc: 'tv/manual.md', contains: 'You can learn the voice commands that let you use Bixby in various situations.' }];
  const cited = [citation(1, 'tv/manual.md#4', 'x'), citation(2, 'tv/other.md#1', 'x')];

  it('counts the gold itself and a copy of it with a word or two changed, from the gold document', () => {
    expect(saysGold({ text: 'You can learn the voice commands that let you use Bixby in various situations.', cites: [1] }, cited, bixby)).toBe(true);
    expect(saysGold({ text: 'You can learn the voice commands to use the Bixby in various situations.', cites: [1] }, cited, bixby)).toBe(true);
  });

  it('counts neither the copy from another document nor a line sharing only some of its words', () => {
    expect(saysGold({ text: 'You can learn the voice commands to use the Bixby in various situations.', cites: [2] }, cited, bixby)).toBe(false);
    expect(saysGold({ text: 'You can use Bixby with voice commands.', cites: [1] }, cited, bixby)).toBe(false);
  });
});
