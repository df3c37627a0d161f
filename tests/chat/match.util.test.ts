import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { containsId, unitAfter } from '../../src-main/chat/match.util';
import { escapeRe } from '../../src-main/core/text';
import { passage } from './fixtures';

describe('a number of the question', () => {
  it('meets a value in a line only with the unit the question writes after it', () => {
    expect(unitAfter('Which pin takes the 3.3 V rail?', '3.3')).toBe('v');
    expect(unitAfter('What does error 5 mean?', '5')).toBeNull();
    expect(containsId('hold the button for 5s to reset.', '5', unitAfter('What does error 5 mean?', '5'))).toBe(false);
    expect(containsId('fit a 3a fuse.', '3', unitAfter('What is on pin 3?', '3'))).toBe(false);
    expect(containsId('pin 7 takes the 3.3v rail.', '3.3', 'v')).toBe(true);
    expect(containsId('pin 7 takes the 3.3 v rail.', '3.3', 'v')).toBe(true);
    // The unit must be the question's: 5 V asked does not meet 5 s.
    expect(containsId('hold for 5s.', '5', 'v')).toBe(false);
    // A value glued to its unit meets it with a space, and a bare number still meets itself.
    expect(containsId('input: 12 v dc', '12v')).toBe(true);
    expect(containsId('error 5: the lamp failed.', '5')).toBe(true);
  });

  it('so "error 5" and "pin 3" lead with their own lines, not with "5s" or a "3A" fuse', () => {
    const first = (question: string, lines: string[]): string | undefined =>
      answerExtractively(question, [passage('unit/manual.md#1', lines.join('\n\n'))])
        .text.split('\n')
        .filter((l) => /\[\d+\]$/.test(l))[0];
    expect(first('When do I see error 5?', ['- The error lamp blinks for 5s after a reset.', '- Code 5 appears when the lamp has failed.'])).toBe('- Code 5 appears when the lamp has failed. [1]');
    expect(first('Which part sits on pin 3?', ['- A 3A fuse sits on the supply part of the board.', '- Pin 3 carries the sensor signal.'])).toBe('- Pin 3 carries the sensor signal. [1]');
  });

  it('units are the search\'s vocabulary: milliamp-hours and percent', () => {
    expect(unitAfter('Is the battery 1200 mAh?', '1200')).toBe('mah');
    expect(containsId('battery: 1200mah', '1200', 'mah')).toBe(true);
  });
});

describe('escapeRe', () => {
  it('makes every regular expression character literal', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(new RegExp(`^${escapeRe(text)}$`).test(text)).toBe(true);
    expect(new RegExp(escapeRe('a.b')).test('axb')).toBe(false);
  });
});
