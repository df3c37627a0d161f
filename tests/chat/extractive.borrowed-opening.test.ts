import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

// A troubleshooting table a converter flattened: its opening takes up one kind of trouble, its
// rows list problems without their solutions, one of them in the question's words.
const NETWORK = [
  '## Network troubleshooting',
  '',
  'When the player has difficulties connecting to the Internet, these steps may help resolve the problem.',
  '',
  'The problem',
  '',
  'Try this!',
  '',
  'The wireless signal is too weak.',
  '',
  'The network name is not listed.',
].join('\n');

// A later section of the same manual that opens with the asked problem as its own condition.
const RECEPTION = [
  '## Reception troubleshooting',
  '',
  'When the player shows a weak signal, these steps may help resolve the problem.',
  '',
  'Check that the antenna cable is connected firmly.',
].join('\n');

const QUESTION = 'What can I do if the signal is too weak?';

describe('a section opening that serves the asked problem only through a restated row', () => {
  it('yields the lead to a later section that opens with the problem as its condition', () => {
    const a = answerExtractively(QUESTION, [passage('player/manual.md#1', NETWORK), passage('player/manual.md#2', RECEPTION)]);
    expect(quotedLines(a)[0]).toMatch(/^- When the player shows a weak signal, these steps may help resolve the problem\./);
  });

  it('keeps the lead when that opening names the problem in its own words', () => {
    const own = NETWORK.replace('connecting to the Internet', 'keeping a weak wireless signal');
    const a = answerExtractively(QUESTION, [passage('player/manual.md#1', own), passage('player/manual.md#2', RECEPTION)]);
    expect(quotedLines(a)[0]).toMatch(/^- When the player has difficulties keeping a weak wireless signal, these steps may help resolve the problem\./);
  });
});
