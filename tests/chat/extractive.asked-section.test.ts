import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('the section whose heading names the question whole', () => {
  it('is quoted from its lines even when they share no word with the question', () => {
    const text = [
      '## Using the remote',
      '',
      'You can hold the remote in either hand.',
      '',
      '## Requirements for pairing the remote',
      '',
      'The TV must stand within one meter of you.',
      '',
      'Fresh batteries are needed.',
    ].join('\n');
    const a = answerExtractively('What are the requirements for pairing the remote?', [passage('tv/manual.md#1', text)]);
    const lines = quotedLines(a);
    expect(lines[0]).toContain('The TV must stand within one meter of you.');
    expect(lines.some((l) => l.includes('Fresh batteries are needed.'))).toBe(true);
  });

  it('does not lift lines under a heading that names the question only in part', () => {
    const text = ['## Using the remote', '', 'You can hold the remote in either hand.', '', '## Pairing', '', 'The TV must be within 30 cm.'].join('\n');
    const a = answerExtractively('What are the requirements for pairing the remote?', [passage('tv/manual.md#2', text)]);
    expect(quotedLines(a)[0]).toContain('You can hold the remote');
  });
});
