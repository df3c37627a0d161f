import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src-main/core/memo';

describe('boundedMemo', () => {
  it('computes a text once while it is remembered, and again after the memory was dropped', () => {
    const calls: string[] = [];
    const upper = boundedMemo(2, (t: string) => {
      calls.push(t);
      return t.toUpperCase();
    });
    expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(calls).toEqual(['a', 'b']);
    upper('c'); // full at two: the memory is dropped, then holds only "c"
    expect(upper('a')).toBe('A');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
