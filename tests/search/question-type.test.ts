import { describe, expect, it } from 'vitest';
import { asksForValue, statesValues, weighByQuestionType } from '../../src-main/search/stages/question-type.stage';
import type { ChunkHit } from '../../src-main/storage/chunk-store';

const hit = (id: string, headingPath: string[], score: number) => ({ score, record: { id, docId: 'a.md', headingPath, text: '' } }) as unknown as ChunkHit;

describe('question-type stage', () => {
  it('tells a question asking for a value from one asking how to do something', () => {
    expect(asksForValue('Working temperature range of the board?')).toBe(true);
    expect(asksForValue('How much flash and SRAM does it have?')).toBe(true);
    expect(asksForValue('battery mAh')).toBe(true);
    expect(asksForValue('How do I take a screenshot?')).toBe(false);
    expect(asksForValue('Put the board into bootloader mode')).toBe(false);
  });

  it('recognises a value heading anywhere in the heading path, case- and punctuation-free', () => {
    expect(statesValues(hit('a', ['Board', 'Introduction', 'Specification'], 1))).toBe(true);
    expect(statesValues(hit('b', ['Electrical Characteristics:'], 1))).toBe(true);
    expect(statesValues(hit('c', ['Board', 'Installing the heat sink'], 1))).toBe(false);
  });

  it('lifts the specification section over prose for a value question only', () => {
    const hits = [hit('prose', ['Board', 'Installing the heat sink'], 10), hit('spec', ['Board', 'Specifications'], 9)];
    expect(weighByQuestionType(hits, 'working temperature range').map((h) => h.record.id)).toEqual(['spec', 'prose']);
    expect(weighByQuestionType(hits, 'how do I install the heat sink').map((h) => h.record.id)).toEqual(['prose', 'spec']);
  });
});
