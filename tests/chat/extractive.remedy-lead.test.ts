import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

// A troubleshooting section a PDF converter flattened: the sentence that opens it names the
// trouble it takes up and says the lines after it remedy it; the table's column heads and rows
// follow as lines of their own.
const SECTION = [
  '## There is a problem with the reception',
  '',
  'When the receiver has difficulties picking up stations, these steps may help resolve the problem.',
  '',
  'The problem',
  '',
  'Try this!',
  '',
  'Weak or No Signal is displayed in radio mode.',
  '',
  'The display flickers.',
  '',
  'Check that the antenna cable is connected.',
].join('\n');

describe('the opening of a troubleshooting section', () => {
  it('comes before the problem line that leads its passage', () => {
    const a = answerExtractively('How do I fix a weak or no signal issue?', [passage('radio/manual.md#1', SECTION)]);
    expect(quotedLines(a)[0]).toBe('- When the receiver has difficulties picking up stations, these steps may help resolve the problem. Weak or No Signal is displayed in radio mode. [1]');
  });

  it('is quoted once, not again before a later line of its passage', () => {
    const a = answerExtractively('Weak signal and flickering display: what can I do?', [passage('radio/manual.md#2', SECTION)]);
    expect(quotedLines(a).filter((l) => l.includes('these steps may help')).length).toBe(1);
  });

  it('does not come before an instruction, which answers by itself', () => {
    const a = answerExtractively('Should I check the antenna cable?', [passage('radio/manual.md#3', SECTION)]);
    expect(quotedLines(a)[0]).toBe('- Check that the antenna cable is connected. [1]');
  });

  it('is not a condition whose main clause states a fact of its own', () => {
    const text = SECTION.replace('these steps may help resolve the problem.', 'the station list appears.');
    const a = answerExtractively('How do I fix a weak or no signal issue?', [passage('radio/manual.md#4', text)]);
    expect(quotedLines(a)[0]).toBe('- Weak or No Signal is displayed in radio mode. [1]');
  });

  it('holds for a board guide written in Markdown', () => {
    const text = [
      '## Board not recognized',
      '',
      'If your computer does not detect the board, the following may solve it.',
      '',
      '**Symptoms**',
      '',
      'The serial port does not appear in the IDE.',
      '',
      'Hold the BOOT button while plugging in the cable.',
    ].join('\n');
    const a = answerExtractively('The serial port is missing in the IDE', [passage('board/guide.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- If your computer does not detect the board, the following may solve it\. The serial port does not appear in the IDE\./);
  });
});
