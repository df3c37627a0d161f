import { describe, expect, it } from 'vitest';
import { spaceRuns, wordPieces } from '../../src-main/chunking/span.util';
import { mulberry32 as rng } from '../helpers/prng';

/** Characters that are two UTF-16 units, or that belong with the one before them. */
const JOINED = ['😀', '👍🏽', '𝔸', 'e\u0301', 'n\u0303', '👩\u200D🔧', '\uFE0F'];

/**
 * Half of a surrogate pair without the other half (what `String.prototype.isWellFormed` rejects):
 * with the `u` flag a whole pair is one code point, so only a lone half is `Cs` (as naive.chunker.ts reads it).
 */
const LONE_SURROGATE = /\p{Cs}/u;

const texts = (runs: { start: number; end: number }[], text: string) => runs.map((r) => text.slice(r.start, r.end));

describe('cutting a word longer than a chunk', () => {
  it('never cuts inside a surrogate pair or before a combining mark or joiner, and loses nothing', () => {
    expect('a\uD83D'.slice(0, 2)).toMatch(LONE_SURROGATE);
    expect('😀'.slice(1)).toMatch(LONE_SURROGATE);
    expect('a😀b').not.toMatch(LONE_SURROGATE);
    const random = rng(11);
    for (let round = 0; round < 200; round++) {
      const word = Array.from({ length: 40 + Math.floor(random() * 200) }, () => (random() < 0.5 ? 'x' : JOINED[Math.floor(random() * JOINED.length)]!)).join('');
      const max = 1 + Math.floor(random() * 60);
      const pieces = texts(wordPieces(word, 0, word.length, max), word);
      expect(pieces.join('')).toBe(word);
      pieces.forEach((piece, i) => {
        expect(piece.length).toBeGreaterThan(0);
        expect(piece).not.toMatch(LONE_SURROGATE);
        // With room to move a cut back past the longest joined run here (a few units), no piece
        // opens with a mark, a modifier or a joiner (the word itself may open with a mark: the
        // first piece then does too), none ends on a joiner, and each is within the max. With
        // less room a piece may run on, or a cut land inside a run: only pairs are kept whole.
        if (max >= 16) {
          if (i > 0) expect(piece).not.toMatch(/^(?:\p{M}|\p{Emoji_Modifier}|\u200D)/u);
          if (i < pieces.length - 1) expect(piece).not.toMatch(/\u200D$/u);
          expect(piece.length).toBeLessThanOrEqual(max);
        }
      });
    }
  });

  it('keeps a piece within twice the max under a run of marks, still never halving a surrogate pair', () => {
    const zalgo = `${'x'.repeat(10)}a${'\u0301'.repeat(50)}${'😀'.repeat(20)}`;
    const pieces = texts(wordPieces(zalgo, 0, zalgo.length, 20), zalgo);
    expect(pieces.join('')).toBe(zalgo);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(40);
      expect(piece).not.toMatch(LONE_SURROGATE);
    }
  });

  it('refuses a max with no room for a character', () => {
    expect(() => wordPieces('abc', 0, 3, 0)).toThrow(RangeError);
  });

  it('cuts only the long word: the words before it keep their run and the next ones join its last piece', () => {
    const text = `ab cd ${'y'.repeat(25)} ef gh`;
    expect(texts(spaceRuns(text, 0, text.length, 10), text)).toEqual(['ab cd', 'yyyyyyyyyy', 'yyyyyyyyyy', 'yyyyy ef', 'gh']);
  });
});
