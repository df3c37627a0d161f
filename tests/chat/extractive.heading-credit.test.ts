import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

// A section whose heading holds the question's words and identifier, opening with a disclaimer
// that shares neither, and a section after it that answers in the question's words.
const IPV6 = ['## Setting up an Internet connection over IPv6', '', 'This function may not be supported depending on the model or geographical area.'].join('\n');
const STATUS = ['## Network status', '', 'You can check the Internet connection status over IPv6 on the Network Status screen.'].join('\n');

describe('heading credit', () => {
  it('goes to a line that shares a question word itself, not to a disclaimer under the heading', () => {
    const a = answerExtractively('Can I check the Internet connection set up over IPv6?', [passage('tv/manual.md#1', IPV6), passage('tv/manual.md#2', STATUS)]);
    expect(quotedLines(a)[0]).toBe('- You can check the Internet connection status over IPv6 on the Network Status screen. [1]');
  });
});
