import { describe, expect, it } from 'vitest';
import { pick, withMoreLines } from '../../src-main/chat/extractive.pick';
import type { Scored } from '../../src-main/chat/extractive.pick';
import type { Sentence } from '../../src-main/chat/sentences';

/**
 * `withMoreLines` when the lines that decided the order are not what `pick` picked (a compared
 * model's line took a place, or a procedure's skipped steps were filled in): the lines it adds stay
 * within the larger budget, and each passage's lines already picked count against its cap.
 */
const line = (passage: number, offset: number, score: number, para = offset): Scored => ({
  passage,
  score,
  sentence: { text: `Line ${passage}.${offset} of the manual.`, offset, length: 20, kind: 'prose', heading: null, block: -1, para } satisfies Sentence,
});

const texts = (xs: readonly Scored[]): string[] => xs.map((x) => x.sentence.text);

describe('more lines after a changed pick', () => {
  const a = line(0, 0, 10);
  const b = line(0, 100, 9);
  const c = line(1, 0, 8);
  const d = line(0, 200, 7);
  const e = line(1, 100, 6);
  const f = line(1, 200, 5);
  const scored = [a, b, c, d, e, f];

  it('adds no more lines than the larger budget has beyond the picked ones', () => {
    // pick(scored, 2, 4) is [a, b]; a compared model's line f took b's place.
    const more = withMoreLines([a, f], scored, 4, 4);
    expect(more).toHaveLength(4);
    expect(texts(more)).toEqual(texts([a, f, b, c]));
  });

  it('counts the lines a passage already has against its cap', () => {
    // Passage 0 has its 2 lines (a, d); b would be its third.
    const more = withMoreLines([a, d], scored, 4, 2);
    expect(texts(more)).toEqual(texts([a, d, c, e]));
    expect(more.filter((x) => x.passage === 0)).toHaveLength(2);
  });

  it('lets a sentence of a picked paragraph join it without taking a line', () => {
    const joined = line(0, 150, 8.5, 100);
    const more = withMoreLines([a, b], [...scored, joined], 3, 4);
    expect(texts(more)).toEqual(texts([a, b, joined, c]));
  });

  it('adds what the larger pick adds when the picked lines are its own', () => {
    expect(texts(withMoreLines(pick(scored, 3, 4), scored, 5, 4))).toEqual(texts(pick(scored, 5, 4)));
  });
});

describe('more lines that would open a list', () => {
  it('are passed over for the next line by score', () => {
    const a = line(0, 0, 10);
    const lead = { ...line(0, 100, 9), sentence: { ...line(0, 100, 9).sentence, text: 'The buttons do the following:', opens: 1 } };
    const c = line(1, 0, 8);
    const more = withMoreLines([a], [a, lead, c], 2, 4);
    expect(texts(more)).toEqual(texts([a, c]));
  });

  it('may still lead: pick itself quotes them among the lines that decide the order', () => {
    const a = line(0, 0, 10);
    const lead = { ...line(0, 100, 9), sentence: { ...line(0, 100, 9).sentence, text: 'The buttons do the following:', opens: 1 } };
    expect(texts(pick([a, lead], 2, 4))).toEqual(texts([a, lead]));
  });
});
