import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

/**
 * The lines quoted beyond those that decide the answer's order (`moreSentences`, see
 * `withMoreLines`): a later passage's line whose label the question names leads the answer when it
 * is among the lines that decide the order (over a first passage with no line of the asked kind:
 * `passageOrder`), and is only quoted after them when it is not.
 */
const SETTING = passage('tv/manual.md#1', 'You can activate voice guides that describe the menu options aloud. To activate this function, set Voice Guide.');
const LABEL = passage('tv/manual.md#2', 'Voice Guide: This function works on every screen and speaks to identify items on screen.');
/** A first passage that says what voice guides are, but not whether or how they are turned on. */
const ABOUT = passage('tv/manual.md#1', 'Voice guides describe the menu options aloud for viewers with low vision.');
const QUESTION = 'Can I activate Voice Guide?';

describe('lines quoted after the answer order is decided', () => {
  it('a later passage whose named label is among the deciding lines leads (the rule they must not trigger)', () => {
    const a = answerExtractively(QUESTION, [ABOUT, LABEL], { maxSentences: 2, moreSentences: 0 });
    expect(quotedLines(a)[0]).toMatch(/^- Voice Guide: This function works/);
  });

  it('a first passage with a line of the asked kind keeps the lead over that label', () => {
    const a = answerExtractively(QUESTION, [SETTING, LABEL], { maxSentences: 2, moreSentences: 0 });
    expect(quotedLines(a)[0]).toMatch(/^- You can activate voice guides/);
  });

  it('are quoted, but do not move their passage first', () => {
    const a = answerExtractively(QUESTION, [SETTING, LABEL], { maxSentences: 1, moreSentences: 1 });
    const lines = quotedLines(a);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^- You can activate voice guides/);
    expect(lines[1]).toMatch(/^- Voice Guide: This function works/);
  });

  it('are none when moreSentences is 0', () => {
    const a = answerExtractively(QUESTION, [SETTING, LABEL], { maxSentences: 1, moreSentences: 0 });
    expect(quotedLines(a)).toHaveLength(1);
  });
});
