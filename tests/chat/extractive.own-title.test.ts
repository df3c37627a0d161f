import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { quotedLinesOf } from '../../src-main/chat/extractive.lines';
import { splitSentences } from '../../src-main/chat/sentences';
import { passage, quotedLines } from './fixtures';

/** Two sections under title lines a converter left as text: the question names the second whole. */
const HOME = [
  '## Home Screen',
  '',
  'Moving an item on the Home Screen',
  '',
  'Move the focus to the item you want to move, and then select Move.',
  '',
  'Removing an item on the Home Screen',
  '',
  'Move the focus to the item you want to remove from the Home Screen, and then select Remove. The item is removed from the Home Screen.',
].join('\n');
const QUESTION = 'Is it possible to remove an item from the home screen?';

describe('the title of the section a quoted line opens', () => {
  it('heads that line when the line came as the start of another quoted line’s paragraph', () => {
    // Quoted first is "The item is removed ...", with the section's first line before it; the
    // title, quoted next (and naming no question), heads that line instead of taking one of its own.
    const units = splitSentences(HOME);
    const title = units.find((u) => u.text === 'Removing an item on the Home Screen')!;
    const last = units.find((u) => u.text === 'The item is removed from the Home Screen.')!;
    const picked = [
      { passage: 0, sentence: last, score: 2 },
      { passage: 0, sentence: title, score: 1 },
    ];
    const lines = quotedLinesOf(picked, [units], new Set(), () => null, 5);
    expect(lines).toHaveLength(1);
    expect([...lines[0]!.before, lines[0]!.sentence].map((u) => u.text)).toEqual([
      'Removing an item on the Home Screen:',
      'Move the focus to the item you want to remove from the Home Screen, and then select Remove.',
      'The item is removed from the Home Screen.',
    ]);
  });

  it('heads its first line in the answer, quoted once', () => {
    const lines = quotedLines(answerExtractively(QUESTION, [passage('tv/manual.md#1', HOME)], { maxSentences: 3 }));
    expect(lines[0]).toBe('- Removing an item on the Home Screen: Move the focus to the item you want to remove from the Home Screen, and then select Remove. The item is removed from the Home Screen. [1]');
    expect(lines.filter((l) => l.includes('Removing an item'))).toHaveLength(1);
  });

  it('comes with the line when it names the question, though the answer has no room for it', () => {
    const a = answerExtractively(QUESTION, [passage('tv/manual.md#1', HOME)], { maxSentences: 1 });
    expect(quotedLines(a)[0]).toMatch(/^- Removing an item on the Home Screen: Move the focus to the item you want to remove/);
  });

  it('stays away when it does not name the question', () => {
    const a = answerExtractively('When do I select Move?', [passage('tv/manual.md#1', HOME)], { maxSentences: 1, moreSentences: 0 });
    expect(quotedLines(a)).toEqual(['- Move the focus to the item you want to move, and then select Move. [1]']);
  });
});
