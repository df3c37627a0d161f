import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { questionKind, STEP_LINE } from '../../src-main/chat/question-kind';
import { passage, quotedLines } from './fixtures';

describe('a configuration line whose setting the question names', () => {
  const text = [
    '## Set up the project',
    '',
    'The toolkit is a build system for many kinds of controllers, and you can add one of your own.',
    '',
    'Open the project folder and find the board file named project.ini in the list of files.',
    '',
    'Replace its contents with the following:',
    '',
    '```ini',
    '[env:kb-40]',
    'platform = toolkit-arm',
    'board = kb-40-mini',
    'framework = native',
    '```',
  ].join('\n');

  it('leads: the value it sets is the name asked', () => {
    const a = answerExtractively('toolkit board name for the', [passage('kb/setup.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('board = kb-40-mini');
  });

  it('moves its passage first when another section of the manual only talks about the topic', () => {
    const intro = [
      '## Introduction',
      '',
      'The toolkit is a build system that integrates many kinds of boards and has good scalability. The code you write can use any board.',
      '',
      'In this guide we introduce how to install the toolkit and run the sample code on a board.',
    ].join('\n');
    const setup = ['## Configure', '', 'Copy this in the file:', '', '```ini', 'board = kb-40-mini', '```'].join('\n');
    const a = answerExtractively('toolkit board id for the', [passage('kb/setup.md#1', intro), passage('kb/setup.md#2', setup)]);
    expect(quotedLines(a)[0]).toContain('board = kb-40-mini');
  });

  it('is only a line of code that sets a value, and only for a setting the question names', () => {
    const code = ['## Example', '', 'Take one as below:', '', '```c', 'reading = read_sensor(A0);', '```', '', 'Each reading is taken every second and printed on the console.'].join('\n');
    const a = answerExtractively('How often is a reading taken?', [passage('kb/example.md#1', code)]);
    expect(quotedLines(a)[0]).toContain('every second');
  });
});

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
