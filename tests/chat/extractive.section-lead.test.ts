import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

// A settings section a PDF converter flattened: its menu path, the sentence that opens it, then
// the options' names run together over several lines (so no title), each run followed by what
// the option does.
const SECTION = [
  '## Configuring advanced sound settings',
  '',
  'You can personalize the sound quality by adjusting the following settings.',
  '',
  'Balance Try Now',
  'Equalizer Try Now',
  'Audio Format Try Now',
  '',
  'If your receiver does not support the format, you will hear no sound.',
  '',
  'Audio Delay Try Now',
  'Sound Mirroring',
  '',
  'When Sound Mirroring is on, your phone plays through the speakers.',
].join('\n');

describe('a run of names quoted from a settings section', () => {
  it('comes after the sentence that opens its section', () => {
    const a = answerExtractively('How do I configure audio delay?', [passage('tv/manual.md#1', SECTION)]);
    expect(quotedLines(a)[0]).toBe('- You can personalize the sound quality by adjusting the following settings. Audio Delay Try Now Sound Mirroring [1]');
  });

  it('takes that sentence once, for the first run of the section quoted', () => {
    const a = answerExtractively('Where are the equalizer and audio delay settings?', [passage('tv/manual.md#2', SECTION)]);
    const lines = quotedLines(a);
    expect(lines.filter((l) => l.includes('You can personalize')).length).toBe(1);
    expect(lines.some((l) => l.includes('Equalizer Try Now'))).toBe(true);
    expect(lines.some((l) => l.includes('Audio Delay Try Now'))).toBe(true);
  });

  it('stays alone when the section opens with the run itself', () => {
    const text = ['## Sound', '', 'Balance Try Now', 'Equalizer Try Now', '', 'Adjusts the sound to your room.'].join('\n');
    const a = answerExtractively('How do I change the equalizer?', [passage('tv/manual.md#3', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- Balance Try Now Equalizer/);
  });

  it('leaves a sentence that is no run of names as it is', () => {
    const a = answerExtractively('What happens if my receiver does not support the format?', [passage('tv/manual.md#4', SECTION)]);
    expect(quotedLines(a)[0]).toBe('- If your receiver does not support the format, you will hear no sound. [1]');
  });
});
