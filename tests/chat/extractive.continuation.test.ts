import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('a line a PDF converter broke before its last words', () => {
  it('is quoted with them when the name they make is written whole in the passage', () => {
    const text = [
      '## Testing the picture',
      '',
      'Start Picture Test displays a high definition picture you can examine for flaws.',
      '',
      'If the color on your TV screen is not correct or the black and white colors are off, run Start',
      '',
      'Picture Test',
      '',
      'Call the service centre if the test picture shows flaws.',
    ].join('\n');
    const a = answerExtractively('The black and white colors on my TV are off, what do I do?', [passage('tv/manual.md#1', text)]);
    const line = quotedLines(a).find((l) => l.includes('run Start'));
    expect(line).toContain('run Start Picture Test');
  });

  it('is left as it is when the next line only follows it', () => {
    const text = [
      '## Motion',
      '',
      'When LED Clear Motion is set to On, the screen appears darker than when it is Off',
      '',
      'Local Dimming',
      '',
      'Local Dimming adjusts the brightness of areas of the screen for the best contrast.',
    ].join('\n');
    const a = answerExtractively('Why does the screen appear darker with LED Clear Motion?', [passage('tv/manual.md#2', text)]);
    const line = quotedLines(a).find((l) => l.includes('appears darker'));
    expect(line).toBeDefined();
    expect(line).not.toContain('Off Local Dimming');
  });
});
