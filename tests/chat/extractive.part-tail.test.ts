import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { questionKind } from '../../src-main/chat/question-kind';
import { passage, quotedLines } from './fixtures';

describe('a question written as a search, a name then a component', () => {
  it('asks which component that is', () => {
    expect(questionKind('CAM-2 image sensor').part).toBe(true);
    expect(questionKind('Doorbell kit amplifier').part).toBe(true);
  });

  it('does not when it is a question, an instruction, or asks a quantity', () => {
    expect(questionKind('How do I clean the image sensor?').part).toBe(false);
    expect(questionKind('Remove the old regulator').part).toBe(false);
    expect(questionKind('Max charging current of the shield with battery management chip').part).toBe(false);
  });

  it('leads with the line that names the part number', () => {
    const text = [
      '## Description',
      '',
      'The image sensor sits behind glass.',
      '',
      'The camera is equipped with an OV5640 image sensor.',
    ].join('\n');
    const a = answerExtractively('XR-7 image sensor', [passage('xr/xr-7.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('OV5640');
  });
});
