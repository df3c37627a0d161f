import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { questionKind, STEP_LINE } from '../../src-main/chat/question-kind';
import { passage, quotedLines } from './fixtures';

describe('a menu option whose label opens with a step verb', () => {
  const text = [
    '## Certificates',
    '',
    '- Install from storage: Install a new certificate from storage.',
    '- View certificates: See the certificates installed on your phone.',
  ].join('\n');

  it('names an option, it gives no instruction, so it does not lead a how-to answer for that', () => {
    const a = answerExtractively('How can I see which certificates are installed?', [passage('phone/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('View certificates');
  });

  it('a step with a colon in it is still an instruction', () => {
    expect(STEP_LINE.test('Tap Settings: the menu opens.')).toBe(true);
    expect(STEP_LINE.test('From Settings, tap Security.')).toBe(true);
    expect(STEP_LINE.test('Step 2: Press the reset button.')).toBe(true);
  });
});

describe('the instruction test for questions and lines alike', () => {
  it('reads a search-style question opening with an instruction as no part question', () => {
    expect(questionKind('From the kit, remove the regulator').part).toBe(false);
    expect(questionKind('Step 1: remove the regulator').part).toBe(false);
    expect(questionKind('KB-40 regulator').part).toBe(true);
  });
});
