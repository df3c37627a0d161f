import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { quotedLinesOf } from '../../src-main/chat/extractive.lines';
import { splitSentences } from '../../src-main/chat/sentences';
import { passage, quotedLines } from './fixtures';

/**
 * A paragraph whose last sentence only restates the question ("You can also turn Remote Access on
 * and off."): what it is said of is the sentence before it, and the unit after it is quoted with
 * it as an echo's follower.
 */
const SECTION = [
  '### Remote Access',
  '',
  'After agreeing to the service terms, you can use Remote Access to let a technician check the heater, correct faults and update its firmware over the web. You can also turn Remote Access on and off.',
  '',
  'You can also start this function by holding the power button for 5 or more seconds.',
].join('\n');

describe('a line that only restates the question', () => {
  it('is quoted with the sentences before it in its paragraph, as well as with its follower', () => {
    const units = splitSentences(SECTION);
    const echo = units.find((u) => u.text === 'You can also turn Remote Access on and off.')!;
    const lines = quotedLinesOf([{ passage: 0, sentence: echo, score: 1 }], [units], new Set([echo]), () => null, 5);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.before.map((u) => u.text)).toEqual(['After agreeing to the service terms, you can use Remote Access to let a technician check the heater, correct faults and update its firmware over the web.']);
    expect(lines[0]!.after.map((u) => u.text)).toEqual(['You can also start this function by holding the power button for 5 or more seconds.']);
  });

  it('leads the answer with what it is said of, on one line, each sentence quoted once', () => {
    const lines = quotedLines(answerExtractively('How do I turn Remote Access on and off?', [passage('heater/manual.md#1', SECTION)]));
    expect(lines[0]).toBe(
      '- After agreeing to the service terms, you can use Remote Access to let a technician check the heater, correct faults and update its firmware over the web. You can also turn Remote Access on and off. You can also start this function by holding the power button for 5 or more seconds. [1]',
    );
    expect(lines.filter((l) => l.includes('After agreeing'))).toHaveLength(1);
  });

  it('inside its paragraph, with its follower there, leads its line alone', () => {
    const text = 'Both USB and serial download are supported. The QFN68 package does not support the BOOT function. Please refer to the table below for details.';
    const units = splitSentences(text);
    const echo = units[1]!;
    const lines = quotedLinesOf([{ passage: 0, sentence: echo, score: 1 }], [units], new Set([echo]), () => null, 5);
    expect(lines[0]!.before).toEqual([]);
    expect(lines[0]!.after.map((u) => u.text)).toEqual(['Please refer to the table below for details.']);
  });
});
