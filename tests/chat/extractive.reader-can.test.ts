import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { tellsReaderCan } from '../../src-main/chat/line-forms';
import { passage, quotedLines } from './fixtures';

// Two lines of about the same score for the question's words: a side fact first, then the
// manual's word to the reader on what they can do.
const PICTURE = [
  '## Picture size',
  '',
  'The picture size changes back to the default when the channel changes.',
  '',
  'You can change the picture size of the channel you are watching.',
  '',
  'Zoom and Position: Moves the picture on the screen.',
].join('\n');

describe('a line telling the reader what they can do', () => {
  it('is read as such, and not when it says what they cannot do', () => {
    expect(tellsReaderCan('You can change the picture size.')).toBe(true);
    expect(tellsReaderCan('In the browser screen, you can select content.')).toBe(true);
    expect(tellsReaderCan("You can't change the picture size on analog channels.")).toBe(false);
    expect(tellsReaderCan('You can not change it.')).toBe(false);
    expect(tellsReaderCan('You cannot change it.')).toBe(false);
    expect(tellsReaderCan('A pelican can fly.')).toBe(false);
  });

  it('leads its passage over a side fact of about the same score', () => {
    for (const question of ['Can I change the picture size of a channel?', 'How do I change the picture size of a channel?']) {
      const a = answerExtractively(question, [passage('tv/manual.md#1', PICTURE)]);
      expect(quotedLines(a)[0]).toMatch(/^- You can change the picture size of the channel you are watching\./);
    }
  });

  it('does not lead by it, asked how, in a passage that gives an instruction', () => {
    const speaker = ['### Connect a speaker', '', 'You can connect a speaker to the TV to play its sound louder.', '', '1. Open Settings > Sound > Speaker list.'].join('\n');
    const a = answerExtractively('How do I connect a speaker?', [passage('tv/manual.md#1', speaker)]);
    expect(quotedLines(a)[0]).toBe('- Open Settings > Sound > Speaker list. [1]');
  });

  it('does not lead by it when the question asks what something is', () => {
    const game = ['## Picture', '', 'You can reduce the delay in Game Mode.', '', 'Game Mode optimizes the TV screen for playing games.'].join('\n');
    const a = answerExtractively('What is Game Mode?', [passage('tv/manual.md#1', game)]);
    expect(quotedLines(a)[0]).toMatch(/^- Game Mode optimizes the TV screen for playing games\./);
  });
});
