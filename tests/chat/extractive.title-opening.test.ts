import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('a title line that names the question whole', () => {
  it('has the line that opens its section lead, quoted with it, over a later line sharing as many words', () => {
    const text = [
      '## Channels',
      '',
      'Sorting the channel list',
      '',
      'The channel list is sorted by name, number or favourite, as you choose on the list screen.',
      '',
      'The channel list can be sorted by number.',
    ].join('\n');
    const a = answerExtractively('Can I sort the channel list?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- Sorting the channel list: The channel list is sorted by name/);
  });
});
