import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('a title line a converter left as text, quoted', () => {
  it('comes with the first line under it', () => {
    const text = [
      '## Network problems',
      '',
      'No network cable found',
      '',
      'Make sure that the LAN cable is plugged in on both ends.',
      '',
      'Unable to connect to a wireless router',
      '',
      'Check if the router is turned on.',
    ].join('\n');
    const a = answerExtractively('Unable to connect to a wireless router', [passage('tv/manual.md#1', text)]);
    const line = quotedLines(a).find((l) => l.includes('Unable to connect'));
    expect(line).toBe('- Unable to connect to a wireless router: Check if the router is turned on. [1]');
  });

  it('brings its first line when that line shares no word with the question', () => {
    const text = ['## Network problems', '', 'Unable to connect to a wireless router', '', 'Check that it is turned on.'].join('\n');
    const a = answerExtractively('Unable to connect to a wireless router', [passage('tv/manual.md#3', text)]);
    expect(quotedLines(a)).toEqual(['- Unable to connect to a wireless router: Check that it is turned on. [1]']);
  });

  it('stays as it is when it is a menu path', () => {
    const text = ['## Caption', '', 'Settings General Accessibility Caption Settings', '', 'You can watch TV broadcasts with captions.'].join('\n');
    const a = answerExtractively('Where are the accessibility caption settings?', [passage('tv/manual.md#2', text)]);
    expect(quotedLines(a).join('\n')).not.toContain('Caption Settings:');
  });
});
