import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { questionKind, restatesProblem } from '../../src-main/chat/question-kind';
import { terms } from '../../src-main/chat/sentences';
import { passage, quotedLines } from './fixtures';

// A troubleshooting table flattened to text: the problems come first, then what to do about them.
const TABLE = [
  '### The Fridge Is Noisy',
  '',
  'The fridge keeps making a clicking noise at night.',
  '',
  'The door does not close.',
  '',
  'The thermostat switches the compressor on and off, which may cause a clicking noise. This is normal.',
  '',
  'Level the cabinet with its front feet so that the door swings shut.',
].join('\n');

describe('a question about a problem', () => {
  it('is told by its cue: why, how to fix, what to do', () => {
    expect(questionKind('Why is my fridge making a clicking noise?').problem).toBe(true);
    expect(questionKind('How do I fix a door that does not close?').problem).toBe(true);
    expect(questionKind('The door does not close. What should I do?').problem).toBe(true);
    expect(questionKind('How do I level the fridge?').problem).toBe(false);
    expect(questionKind('What is the fixed shelf for?').problem).toBe(false);
  });

  it('does not lead with the line that only restates the problem: the line that explains it comes first', () => {
    const a = answerExtractively('Why is my fridge making a clicking noise?', [passage('fridge/manual.md#1', TABLE)]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toContain('The thermostat switches the compressor on and off');
    // The restatement is still quoted, below.
    expect(quoted.some((l) => l.includes('The fridge keeps making a clicking noise at night.'))).toBe(true);
  });

  it('leads with the same line when nothing asks about a problem', () => {
    const a = answerExtractively('Is the fridge making a clicking noise?', [passage('fridge/manual.md#1', TABLE)]);
    expect(quotedLines(a)[0]).toContain('The fridge keeps making a clicking noise at night.');
  });
});

describe('restatesProblem', () => {
  const asked = new Set(terms('Why is my fridge making a clicking noise?'));

  it('holds for a line whose own words are half or more the question', () => {
    const line = 'The fridge is making a clicking noise.';
    expect(restatesProblem(line, terms(line), asked, false)).toBe(true);
  });

  it('does not hold for a line that mostly says something new', () => {
    const line = 'The thermostat switches the compressor on and off, which may cause a clicking noise.';
    expect(restatesProblem(line, terms(line), asked, false)).toBe(false);
  });

  it('does not hold for a line that opens with the condition or cause that answers it', () => {
    const line = 'When the room is cold, the fridge makes a clicking noise.';
    expect(restatesProblem(line, terms(line), asked, false)).toBe(false);
  });

  it('does not hold for an instruction', () => {
    const line = 'Stop the clicking noise of the fridge.';
    expect(restatesProblem(line, terms(line), asked, true)).toBe(false);
  });
});

describe('a line restating the asked problem, quoted with the line after it', () => {
  // A troubleshooting table flattened to text: each problem is followed by the next one.
  const flattened = [
    '### The problem',
    '',
    'The fridge is making a clicking noise.',
    '',
    'The fridge is making a buzzing noise.',
    '',
    'The door does not close.',
    '',
    '### Try this',
    '',
    'A thermostat switching the compressor on and off may cause a clicking noise now and then.',
  ].join('\n');

  it('does not lead when that line is the next problem of a flattened table', () => {
    const a = answerExtractively('Why is my fridge making a clicking noise?', [passage('fridge/manual.md#1', flattened)]);
    expect(quotedLines(a)[0]).toContain('A thermostat switching the compressor');
  });

  it('leads when that line goes on from it', () => {
    const text = flattened.replace('The fridge is making a buzzing noise.', 'This is the thermostat and does no harm.');
    const a = answerExtractively('Why is my fridge making a clicking noise?', [passage('fridge/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('The fridge is making a clicking noise. This is the thermostat');
  });

  it('leads when that line is a step that fixes it', () => {
    const text = flattened.replace('The fridge is making a buzzing noise.', 'Turn the thermostat dial to 3.');
    const a = answerExtractively('Why is my fridge making a clicking noise?', [passage('fridge/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('The fridge is making a clicking noise. Turn the thermostat dial to 3.');
  });
});

// A troubleshooting table flattened to text under a section that opens with the kind of problem it
// takes up: the rows list the problems a user meets, and their solutions were lost with the table.
const SECTION = [
  '### The Washer Does Not Drain',
  '',
  'When the washer has trouble draining, these steps may help resolve the problem.',
  '',
  'The problem',
  '',
  'Try this!',
  '',
  'Water stays in the drum after the cycle ends.',
  '',
  'The washer stops during the spin.',
  '',
  '### Cleaning the Filter',
  '',
  'Clean the filter once a month.',
].join('\n');

describe('a question restating a problem of a flattened troubleshooting table', () => {
  it('leads with the line that opens the section taking that problem up', () => {
    const a = answerExtractively('Water stays in the drum after the cycle ends. What should I do?', [passage('washer/manual.md#1', SECTION)]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toMatch(/^- When the washer has trouble draining, these steps may help resolve the problem\./);
    expect(quoted.some((l) => l.includes('Water stays in the drum'))).toBe(true);
  });

  it('leaves a section that opens with no condition as it was', () => {
    const plain = SECTION.replace('When the washer has trouble draining, these steps may help resolve the problem.', 'These steps may help resolve problems with draining.');
    const a = answerExtractively('Water stays in the drum after the cycle ends. What should I do?', [passage('washer/manual.md#1', plain)]);
    expect(quotedLines(a)[0]).toMatch(/^- Water stays in the drum/);
  });

  it('quotes a question about no problem with its own line, without the troubleshooting opening', () => {
    const a = answerExtractively('Does water stay in the drum after the cycle ends?', [passage('washer/manual.md#1', SECTION)]);
    expect(quotedLines(a)[0]).toBe('- Water stays in the drum after the cycle ends. The washer stops during the spin. [1]');
  });
});
