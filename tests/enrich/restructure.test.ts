import { describe, expect, it } from 'vitest';
import type { EnrichedChunk } from '../../src-main/core/chunk';
import { createRestructurer, UNIT_SEPARATOR } from '../../src-main/enrich/restructure';

let offset = 0;
function chunk(ordinal: number, key: string | null, length: number, model: string | null = 'E52C', headingPath = ['Doc', 'Power']): EnrichedChunk {
  const start = offset;
  offset += length + 2;
  return {
    docId: 'doc.md',
    ordinal,
    text: String.fromCharCode(97 + (ordinal % 26)).repeat(length),
    start,
    end: start + length,
    headingPath,
    pageStart: ordinal + 1,
    pageEnd: ordinal + 1,
    strategy: 'structure',
    signature: { category: null, nouns: [], model },
    signatureSource: 'extracted',
    continuity: null,
    keys: { title: null, summary: null, keywords: [`kw${ordinal}`], entities: [], questions: [], key, relatedKeys: [] },
  };
}

describe('restructure (key-based bin packing)', () => {
  const restructure = createRestructurer();

  it('packs chunks that share a key, first fit, never over 3000 characters', () => {
    const chunks = [chunk(0, 'power', 1200), chunk(1, 'gpio', 800), chunk(2, 'power', 1500), chunk(3, 'power', 1400), chunk(4, 'power', 200), chunk(5, 'gpio', 900)];
    const units = restructure.run(chunks);
    for (const u of units) {
      expect(u.members.length === 1 || u.text.length <= 3000).toBe(true);
      expect(u.text).toBe(u.members.map((m) => chunks[m.ordinal]!.text).join(UNIT_SEPARATOR));
    }
    // power: [0,2] fills 2702 chars; 3 (1400) opens a bin; 4 (200) still fits the first bin.
    expect(units.map((u) => u.members.map((m) => m.ordinal))).toEqual([[0, 2, 4], [1, 5], [3]]);
    expect(units.map((u) => u.ordinal)).toEqual([0, 1, 2]);
    // Every chunk lands in exactly one unit.
    expect(units.flatMap((u) => u.members.map((m) => m.ordinal)).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('keeps each member’s own ordinal, offsets and pages for citations', () => {
    const chunks = [chunk(0, 'power', 100), chunk(1, 'power', 100)];
    const [unit] = restructure.run(chunks);
    expect(unit!.members).toEqual(chunks.map((c) => ({ ordinal: c.ordinal, start: c.start, end: c.end, pageStart: c.pageStart, pageEnd: c.pageEnd })));
    expect(unit!.pageStart).toBe(1);
    expect(unit!.pageEnd).toBe(2);
    expect(unit!.start).toBe(chunks[0]!.start);
    expect(unit!.end).toBe(chunks[1]!.end);
    expect(unit!.keys.keywords).toEqual(['kw0', 'kw1']);
  });

  it('leaves an oversized chunk whole and alone', () => {
    const units = restructure.run([chunk(0, 'power', 3500), chunk(1, 'power', 100)]);
    expect(units.map((u) => u.members.length)).toEqual([1, 1]);
    expect(units[0]!.text.length).toBe(3500);
  });

  it('never merges passages of different models under one key', () => {
    const units = restructure.run([chunk(0, 'power', 100, 'E20C'), chunk(1, 'power', 100, 'E52C')]);
    expect(units).toHaveLength(2);
  });

  it('gives small keyless chunks their section path as context, and large ones none', () => {
    const units = restructure.run([chunk(0, null, 120, null, ['Quick start', 'Login']), chunk(1, null, 900), chunk(2, null, 50, null, [])], 'E52C manual');
    expect(units.map((u) => u.context)).toEqual(['Quick start > Login', null, 'E52C manual']);
    expect(units.every((u) => u.members.length === 1)).toBe(true);
  });

  it('validates its options once', () => {
    expect(() => createRestructurer({ maxChars: 0 })).toThrow(RangeError);
    expect(createRestructurer({ maxChars: 500 }).options).toEqual({ maxChars: 500, orphanContextBelow: 300 });
  });
});
