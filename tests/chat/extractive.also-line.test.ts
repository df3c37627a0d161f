import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { addsAnother } from '../../src-main/chat/line-forms';
import { passage, quotedLines } from './fixtures';

describe('a line that adds another way ("You can also ...")', () => {
  it('is read by its wording', () => {
    expect(addsAnother('You can also view information by scanning the QR code of your TV.')).toBe(true);
    expect(addsAnother('In the Guide, you can also record a program.')).toBe(true);
    expect(addsAnother('You can view information about your TV.')).toBe(false);
  });

  it('does not lead the line it adds to', () => {
    const text = [
      '## About This TV',
      '',
      'You can also view information about your TV by its code.',
      '',
      'You can view information about your TV such as its model.',
    ].join('\n');
    const a = answerExtractively('How do I get information about the TV?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- You can view information about your TV such as its model/);
  });
});
