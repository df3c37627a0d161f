import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('a quoted line that opens by pointing back', () => {
  it('joins the quoted line it points back at', () => {
    const text = [
      '## Game Motion Plus',
      '',
      'You can configure the Game Motion Plus settings to smooth fast games.',
      '',
      'This function may not be supported depending on the model or geographical area.',
      '',
      'Game Motion Plus reduces blur and judder in fast-moving game scenes on supported models.',
    ].join('\n');
    const a = answerExtractively('Can I configure Game Motion Plus on every model?', [passage('tv/manual.md#1', text)]);
    const lines = quotedLines(a);
    expect(lines.some((l) => l.startsWith('- This function'))).toBe(false);
    expect(lines.join('\n')).toContain('You can configure the Game Motion Plus settings to smooth fast games. This function may not be supported depending on the model or geographical area.');
  });

  it('stays a line of its own when the line before it is under another heading', () => {
    const text = ['## Digital channels', '', 'Digital channels show the programme guide.', '', '## Notes', '', 'This function works only on digital channels.'].join('\n');
    const a = answerExtractively('Does the programme guide work on digital channels?', [passage('tv/manual.md#2', text)]);
    const lines = quotedLines(a);
    expect(lines).toContain('- Digital channels show the programme guide. [1]');
    expect(lines).toContain('- This function works only on digital channels. [1]');
  });
});
