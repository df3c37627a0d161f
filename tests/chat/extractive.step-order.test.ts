import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('a procedure written as "Step N" lines', () => {
  it('is quoted in order even when a later step answers best', () => {
    const text = [
      '## USB download',
      '',
      'Step 1: Open the ISP tool and select the chip model and the USB download method.',
      '',
      'Step 2: Connect the PB22 pin to GND without powering the board.',
      '',
      'Step 3: Click Download in the ISP tool and view the download result in the ISP tool record.',
    ].join('\n');
    const a = answerExtractively('How do I view the download result in the ISP tool?', [passage('evt/manual.md#1', text)]);
    const lines = quotedLines(a);
    const steps = lines.map((l) => /^- Step (\d)/.exec(l)?.[1]).filter((x): x is string => x !== undefined);
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps).toEqual([...steps].sort());
    expect(lines[0]).toMatch(/^- Step 1:/);
  });
});
