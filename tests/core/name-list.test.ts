import { describe, expect, it } from 'vitest';
import { listNames, namesBesides, onceEach } from '../../src-main/core/name-list';

describe('listNames', () => {
  it('lists names as a sentence does, with "or" for a choice', () => {
    expect(listNames([])).toBe('');
    expect(listNames(['A'])).toBe('A');
    expect(listNames(['A', 'B'])).toBe('A and B');
    expect(listNames(['A', 'B', 'C'], 'or')).toBe('A, B or C');
  });
});

describe('onceEach', () => {
  it('keeps each name once whatever its case, as first written, in order', () => {
    const items = [
      { text: 'foo x2 lite', at: 0 },
      { text: 'Bar Z5', at: 1 },
      { text: 'Foo X2 Lite', at: 2 },
      { text: 'BAR z5', at: 3 },
      { text: 'Foo X3', at: 4 },
    ];
    expect(onceEach(items, (i) => i.text).map((i) => i.at)).toEqual([0, 1, 4]);
  });

  it('tells names apart that differ by more than case', () => {
    expect(onceEach(['Foo X2', 'Foo X2+', 'Foo  X2'], (n) => n)).toEqual(['Foo X2', 'Foo X2+', 'Foo  X2']);
  });
});

describe('namesBesides', () => {
  it('leaves out the names the others write, whatever their case, and keeps the rest in order', () => {
    expect(namesBesides(['Bar Z5', 'Foo X2 Lite', 'ZX-900'], ['bar z5'])).toEqual(['Foo X2 Lite', 'ZX-900']);
    expect(namesBesides(['Bar Z5'], [])).toEqual(['Bar Z5']);
  });
});
