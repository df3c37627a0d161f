import { describe, expect, it } from 'vitest';
import { spaceRuns, wordPieces } from '../../src-main/chunking/span.util';
import { mulberry32 as rng } from '../helpers/prng';

/** Characters that are two UTF-16 units, or that belong with the one before them. */
const JOINED = ['😀', '👍🏽', '𝔸', 'é', 'n\u0303', '👩\u200D🔧', '\uFE0F'];

/** Half of a surrogate pair without the other half (what `String.prototype.isWellFormed` rejects). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const texts = (runs: { start: number; end: number }[], text: string) => runs.map((r) => text.slice(r.start, r.end));

describe('cutting a word longer than a chunk', () => {
  it('never cuts inside a surrogate pair or before a combining mark or joiner, and loses nothing', () => {
    expect('a\uD83D'.slice(0, 2)).toMatch(LONE_SURROGATE);
    expect('😀'.slice(1)).toMatch(LONE_SURROGATE);
    expect('a😀b').not.toMatch(LONE_SURROGATE);
    const random = rng(11);
    for (let round = 0; round < 200; round++) {
      const word = Array.from({ length: 40 + Math.floor(random() * 200) }, () => (random() < 0.5 ? 'x' : JOINED[Math.floor(random() * JOINED.length)]!)).join('');
      const max = 1 + Math.floor(random() * 30);
      const pieces = texts(wordPieces(word, 0, word.length, max), word);
      expect(pieces.join('')).toBe(word);
      pieces.forEach((piece, i) => {
        expect(piece.length).toBeGreaterThan(0);
        expect(piece).not.toMatch(LONE_SURROGATE);
        // (The word itself may open with a mark: the first piece then does too.)
        if (i > 0) expect(piece).not.toMatch(/^(?:\p{M}|\u200D)/u);
        // Within the max whenever there was room to move the cut back (a piece of one or two
        // characters runs on past the characters joined to its last one).
        if (max >= 8) expect(piece.length).toBeLessThanOrEqual(max);
      });
    }
  });

  it('cuts only the long word: the words before it keep their run and the next ones join its last piece', () => {
    const text = `ab cd ${'y'.repeat(25)} ef gh`;
    expect(texts(spaceRuns(text, 0, text.length, 10), text)).toEqual(['ab cd', 'yyyyyyyyyy', 'yyyyyyyyyy', 'yyyyy ef', 'gh']);
  });
});
