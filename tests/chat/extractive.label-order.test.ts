import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('a line whose label the question names, when the question names no model the library knows', () => {
  const first = passage('cam/cam-x.md#1', 'The CAM X is a camera module with a built-in 140mAh battery and a status LED.', null);
  const table = ['| Item | Battery pack |', '| --- | --- |', '| Battery capacity | 190mAh |', '| Output | 5V |'].join('\n');

  it("does not put another document's passage before the search's first", () => {
    const a = answerExtractively('CAM X battery capacity', [first, passage('pack/battery-pack.md#1', table, 'Battery pack')]);
    expect(a.citations[0]!.chunkId).toBe('cam/cam-x.md#1');
  });

  it("still puts a later passage of the first one's document first", () => {
    const a = answerExtractively('CAM X battery capacity', [first, passage('cam/cam-x.md#2', table, null)]);
    expect(a.citations[0]!.chunkId).toBe('cam/cam-x.md#2');
  });
});

describe('lines of several models and of pages of no model, when the question names none', () => {
  it("keep the search's order: the first passage's lines come first, also when its page has no model", () => {
    const a = answerExtractively('CAM X battery capacity', [
      passage('cam/cam-x.md#1', 'The CAM X is a camera module with a built-in 140mAh battery and a status LED.', null),
      passage('pack/pack-1.md#1', 'The Pack 1 holds a 190mAh battery for its camera.', 'Pack 1'),
      passage('pack/pack-2.md#1', 'The Pack 2 holds a 270mAh battery for its camera.', 'Pack 2'),
    ]);
    const text = a.text;
    expect(quotedLines(a)[0]).toContain('140mAh');
    expect(text.indexOf('Any model:')).toBeLessThan(text.indexOf('Pack 1:'));
    // Still asks back which model, as with several models and none asked.
    expect(text).toContain('Which model: Pack 1, Pack 2?');
  });
});
