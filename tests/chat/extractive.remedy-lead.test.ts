import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { withRemedyLead, type RemedyAsk } from '../../src-main/chat/extractive.along';
import type { Line } from '../../src-main/chat/extractive.render';
import { HOW_MEASURE, questionKind, YES_NO } from '../../src-main/chat/question-kind';
import { splitSentences, terms, type Sentence } from '../../src-main/chat/sentences';
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

/**
 * What a question asks of a troubleshooting section, read as the answerer reads it (its `asked`:
 * the question's words without a how-much cue). The answerer also leaves out the words of the
 * models the question names; these questions name none, and no passage is read here to find them.
 */
const remedyAsk = (question: string): RemedyAsk => ({
  problem: questionKind(question).problem,
  yesNo: YES_NO.test(question.trim()),
  words: new Set(terms(question.toLowerCase().replace(HOW_MEASURE, ' '))),
});

describe('the opening of a troubleshooting section', () => {
  it('comes before the problem line that leads its passage', () => {
    const a = answerExtractively('How do I fix a weak or no signal issue?', [passage('radio/manual.md#1', SECTION)]);
    expect(quotedLines(a)[0]).toBe('- When the receiver has difficulties picking up stations, these steps may help resolve the problem. Weak or No Signal is displayed in radio mode. [1]');
  });

  // A guard: the opening is picked as a line of its own here too, so this holds without the lead.
  it('guard: is quoted once, not again before a later line of its passage', () => {
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

  it('is no condition whose main clause is an instruction with "fix" in it', () => {
    const text = [
      '## Mounting the TV on a wall',
      '',
      'If the wall is made of plasterboard, fix the bracket to a stud with the screws supplied.',
      '',
      'The TV weighs 12 kg without the stand.',
      '',
      'Keep the vents clear.',
    ].join('\n');
    const a = answerExtractively('How heavy is the TV?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- The TV weighs 12 kg without the stand. [1]');
  });

  it('leads a line only for a question about that problem, once the question is known', () => {
    const units = splitSentences(SECTION);
    const problemLine = units.find((u) => u.text.startsWith('Weak or No Signal'))!;
    const lead = (question: string): string[] => {
      const line: Line = { passage: 0, sentence: problemLine, model: null, sub: false, before: [], after: [] };
      withRemedyLead(line, units, new Set<Sentence>([problemLine]), remedyAsk(question));
      return [...line.before, line.sentence].map((u) => u.text);
    };
    const opening = 'When the receiver has difficulties picking up stations, these steps may help resolve the problem.';
    expect(lead('How do I fix a weak or no signal issue?')).toEqual([opening, problemLine.text]);
    // Stated as the problem, with no question word: the section takes it up.
    expect(lead('Weak or no signal is displayed in radio mode')).toEqual([opening, problemLine.text]);
    // Asked about something else, or whether it is so: the line answers alone.
    expect(lead('Which modes does the display show?')).toEqual([problemLine.text]);
    expect(lead('Is weak or no signal displayed in radio mode?')).toEqual([problemLine.text]);
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
