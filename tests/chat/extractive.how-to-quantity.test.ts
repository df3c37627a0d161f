import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { questionKind } from '../../src-main/chat/question-kind';
import { passage, quotedLines } from './fixtures';

describe('a how-to question about a quantity noun', () => {
  it('asks for the way, not a value; "how big" and "what size" still ask a value', () => {
    expect(questionKind('How to change the size of the picture to 4:3?')).toMatchObject({ quantity: false, steps: true });
    expect(questionKind('How do I set the screen resolution?').quantity).toBe(false);
    expect(questionKind('How big is the battery?').quantity).toBe(true);
    expect(questionKind('What size is the screen?').quantity).toBe(true);
    expect(questionKind('What is the maximum current of the 5V pin?').quantity).toBe(true);
  });

  it('only when the question opens with a how-to phrase: a steps noun elsewhere names where a value is used', () => {
    for (const q of [
      'What temperature is used in the reflow process?',
      'What is the maximum current during the flashing procedure?',
      'What voltage does step 3 of the instructions need?',
      'Which baud rate do the steps use?',
    ]) {
      expect(questionKind(q).quantity, q).toBe(true);
    }
    expect(questionKind('How can you change the screen resolution?').quantity).toBe(false);
  });

  it('is answered by the line that says how, not by a line that only writes its number', () => {
    const text = [
      '## Changing the Picture Size',
      '',
      'You can change the size of the picture displayed on the TV screen.',
      '',
      '16:9 Standard Custom 4:3',
      '',
      'Do not watch your TV in 4:3 mode for extended periods of time. This can cause black bars on the screen in 4:3 mode.',
      '',
      'Supported picture sizes differ with the input signal.',
    ].join('\n');
    const a = answerExtractively('How to change the size of the picture to 4:3?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- You can change the size of the picture/);
  });
});
