import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { purposeOf } from '../../src-main/chat/line-forms';
import { passage, quotedLines } from './fixtures';

// A purpose whose verb the stopword list drops ("use"), after a line sharing the question's words one by one.
const BIXBY = [
  '## Read before using Bixby',
  '',
  'You may be required to pay for some apps that the function offers.',
  '',
  'Bixby is available only when the TV is connected to the Internet.',
  '',
  'The optimal volume for voice commands is between 75 dB and 80 dB.',
  '',
  "To use the Bixby function, you must: agree to Smart Hub's Terms of Use.",
].join('\n');

describe('a purpose whose verb is a stopword', () => {
  it('still reads the verb', () => {
    expect(purposeOf('To use the Bixby function, you must:')?.verb).toBe('us');
  });

  it('leads the answer about that task', () => {
    const a = answerExtractively('What all things must be required to use the Bixby function?', [passage('tv/manual.md#1', BIXBY)]);
    expect(quotedLines(a)[0]).toMatch(/^- To use the Bixby function, you must:/);
  });

  it('does not lead when the word is the definition cue ("the use of")', () => {
    const shortcuts = [
      '## Accessibility Shortcuts menu',
      '',
      'To use the Accessibility Shortcuts menu, you will need to locate the Directional and Select buttons.',
      '',
      'The Accessibility Shortcuts provide easy access to the accessibility functions.',
      '',
      'Press and hold the VOL button on the remote.',
    ].join('\n');
    const a = answerExtractively('What is the use of accessibility shortcuts?', [passage('tv/manual.md#1', shortcuts)]);
    expect(quotedLines(a)[0]).toMatch(/^- The Accessibility Shortcuts provide easy access/);
  });
});

describe('a line that opens with "to" and no verb', () => {
  it.each(['To the right of the BOOT button on the board, the red LED shows power.', 'To a maximum of 8 devices, the hub shares one port.', 'To this end, the board has two buttons.'])('%s has no purpose', (text) => {
    expect(purposeOf(text)).toBeNull();
  });

  it('does not lead the answer about a task the question names', () => {
    const text = [
      '## Buttons',
      '',
      'To the right of the BOOT button on the board, the red LED shows power.',
      '',
      'Hold the BOOT button while you press RESET to enter download mode.',
    ].join('\n');
    const a = answerExtractively('How do I use the BOOT button on the board?', [passage('kit/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- Hold the BOOT button while you press RESET/);
  });
});
