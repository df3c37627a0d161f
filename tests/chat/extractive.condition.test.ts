import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { conditionOf } from '../../src-main/chat/line-forms';
import { passage, quotedLines } from './fixtures';

/** A troubleshooting page: the problems a user meets, and the line that takes one up. */
const PROBLEMS = [
  '## Picture and broadcast problems',
  '',
  'The TV is not receiving broadcasts on the TV channels of the antenna cable connected to the wall outlet.',
  '',
  'Check the channel settings of the broadcasts you receive.',
  '',
  'When the TV has difficulties receiving broadcasts, these steps may help resolve the problem.',
  '',
  'The remote control does not work with the channel buttons.',
].join('\n');

describe('a line opening with the asked problem as its condition', () => {
  it('reads the condition up to its comma', () => {
    expect([...(conditionOf('When the TV has difficulties receiving broadcasts, these steps may help.') ?? [])]).toEqual(expect.arrayContaining(['tv', 'difficulti', 'receiv', 'broadcast']));
    expect(conditionOf('Check the cable when the TV has no picture.')).toBeNull();
    expect(conditionOf('If the picture is dark')).toBeNull();
  });

  it('leads the answer to a question about that problem', () => {
    const a = answerExtractively('What can I do if my TV is not receiving broadcasts?', [passage('tv/manual.md#1', PROBLEMS)]);
    expect(quotedLines(a)[0]).toMatch(/^- When the TV has difficulties receiving broadcasts, these steps may help resolve the problem\./);
  });

  it('does not lead a question that asks about no problem', () => {
    const a = answerExtractively('Is the TV receiving broadcasts on channels of the antenna cable?', [passage('tv/manual.md#1', PROBLEMS)]);
    expect(quotedLines(a)[0]).toMatch(/^- The TV is not receiving broadcasts on the TV channels/);
  });

  it('puts a later section of the manual that takes the problem up first', () => {
    const first = ['## Channel list', '', 'The channel list shows the broadcasts the TV is receiving on each channel.', '', 'Select a channel to watch it.'].join('\n');
    const later = ['## Broadcast problems', '', 'When the TV has difficulties receiving broadcasts, these steps may help resolve the problem.', '', 'Run Auto Program to search for channels.'].join('\n');
    const a = answerExtractively('What can I do if my TV is not receiving broadcasts?', [passage('tv/manual.md#1', first), passage('tv/manual.md#2', later)]);
    expect(quotedLines(a)[0]).toMatch(/^- When the TV has difficulties receiving broadcasts/);
  });
});
