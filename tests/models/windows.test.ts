import { describe, expect, it } from 'vitest';
import { joinWindows, l2Normalize, planWindows, textsDone } from '../../src-main/models/windows';
import type { WindowSpec } from '../../src-main/models/windows';

/** A word-count "tokenizer": enough to check the cutting and joining logic without a model. */
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
const spec = (maxTokens: number): WindowSpec => ({ maxTokens, countTokens: words });

const sentence = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

describe('planWindows', () => {
  it('keeps texts that fit whole, in order, one piece each', async () => {
    const texts = ['short text', '', sentence(8, 'w')];
    const plan = await planWindows(texts, spec(8));
    expect(plan.pieces).toEqual(texts);
    expect(plan.owners).toEqual([0, 1, 2]);
  });

  it('cuts a longer text into windows that fit, keeping every word in order', async () => {
    const long = `${sentence(12, 'a')}\n\n${sentence(9, 'b')}\n${sentence(30, 'c')}`;
    const plan = await planWindows(['before', long, 'after'], spec(10));
    const owned = plan.pieces.filter((_, i) => plan.owners[i] === 1);
    expect(owned.length).toBeGreaterThanOrEqual(6);
    for (const piece of owned) expect(words(piece)).toBeLessThanOrEqual(10);
    expect(owned.join(' ').split(/\s+/)).toEqual(long.split(/\s+/));
    expect(plan.owners).toEqual([0, ...owned.map(() => 1), 2]);
    expect(plan.pieces[0]).toBe('before');
    expect(plan.pieces.at(-1)).toBe('after');
  });

  it('cuts at a paragraph break before a line break or a space when it can', async () => {
    const long = `${sentence(6, 'a')}\n\n${sentence(6, 'b')}`;
    const plan = await planWindows([long], spec(8));
    expect(plan.pieces).toEqual([sentence(6, 'a'), sentence(6, 'b')]);
  });
});

describe('joinWindows', () => {
  const v = (...xs: number[]) => Float32Array.from(xs);

  it('gives a text of one window that window\'s vector unchanged', () => {
    const vec = v(0.6, 0.8);
    const [out] = joinWindows({ pieces: ['x'], owners: [0] }, [vec], 1);
    expect(out).toBe(vec);
  });

  it('averages several windows weighted by their length and normalizes the result', () => {
    const plan = { pieces: ['aaa', 'b', 'only'], owners: [0, 0, 1] };
    const [joined, single] = joinWindows(plan, [v(1, 0), v(0, 1), v(0, 1)], 2);
    // 3 * (1, 0) + 1 * (0, 1), normalized.
    const n = Math.hypot(3, 1);
    expect(joined?.[0]).toBeCloseTo(3 / n, 6);
    expect(joined?.[1]).toBeCloseTo(1 / n, 6);
    expect(Array.from(single ?? [])).toEqual([0, 1]);
  });

  it('does not change the windows\' own vectors', () => {
    const first = v(1, 0);
    joinWindows({ pieces: ['a', 'b'], owners: [0, 0] }, [first, v(0, 1)], 1);
    expect(Array.from(first)).toEqual([1, 0]);
  });

  it('refuses a plan that left a text without any window', () => {
    expect(() => joinWindows({ pieces: ['a'], owners: [0] }, [v(1, 0)], 2)).toThrow(/text 1/);
  });
});

describe('textsDone and l2Normalize', () => {
  it('counts a text done only when its last window is', () => {
    const plan = { pieces: ['a', 'b1', 'b2', 'b3', 'c'], owners: [0, 1, 1, 1, 2] };
    expect([0, 1, 2, 3, 4, 5].map((n) => textsDone(plan, n))).toEqual([0, 1, 1, 1, 2, 3]);
  });

  it('returns a unit-length copy, and zeros for a zero vector', () => {
    const v = [3, 4];
    expect(Array.from(l2Normalize(v))).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(v).toEqual([3, 4]);
    expect(Array.from(l2Normalize(new Float32Array(2)))).toEqual([0, 0]);
  });
});
