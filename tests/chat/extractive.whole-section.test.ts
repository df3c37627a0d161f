import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

/** One passage spanning two sections: a broad task, then the narrower one a question may name whole. */
const ACCOUNTS = [
  '## Creating a new account',
  '',
  'To create a new account, follow the instructions on the screen.',
  '',
  'You can also create an account on the maker website.',
  '',
  '## Creating an account using a mail address',
  '',
  'Enter your mail address and a password, and then select Done.',
  '',
  'A confirmation message is sent to that mail address.',
].join('\n');

describe('the section whose heading names the question whole', () => {
  it('leads its passage over a line of a sibling section that shares more words', () => {
    const a = answerExtractively('How to create an account using a mail address?', [passage('tv/manual.md#1', ACCOUNTS)]);
    expect(quotedLines(a)[0]).toMatch(/^- Enter your mail address and a password/);
  });

  it('gives no lead where both headings name the question alike', () => {
    const a = answerExtractively('How do I create an account?', [passage('tv/manual.md#1', ACCOUNTS)]);
    expect(quotedLines(a)[0]).toMatch(/^- To create a new account, follow the instructions/);
  });
});
