import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { unresolvedModelWords } from '../../src-main/chat/passages';
import { passage, quotedLines } from './fixtures';

describe('a product the question names that the vocabulary did not read as a model', () => {
  const text = [
    '## Description',
    '',
    'The pins 16 and 17 in Blaze are wired to the PSRAM by default, so keep them free when you stack other modules on it.',
    '',
    'The Blaze Kit is an upgrade of the Slate kit with a stronger base and many more hardware resources. It provides more memory: 16M Flash + 4M PSRAM, a larger battery and two more ports.',
  ].join('\n');

  it("is the chunk model of a passage all of whose words the question says", () => {
    const p = [passage('blaze.md#1', text, 'BLAZE'), passage('slate.md#1', 'The Slate has 520KB SRAM.', 'Slate Kit')];
    expect(unresolvedModelWords('How much PSRAM does the Blaze have?', p)).toEqual(['blaze']);
    // "Slate" alone does not name the "Slate Kit"; a passage of no model names nothing.
    expect(unresolvedModelWords('How much PSRAM does the Slate have?', p)).toEqual([]);
    expect(unresolvedModelWords('How much PSRAM does the Blaze have?', [passage('blaze.md#1', text, null)])).toEqual([]);
  });

  it('tells no line apart: the line with the amount leads, not the one that names the product', () => {
    const a = answerExtractively('How much PSRAM does the Blaze have?', [passage('blaze.md#1', text, 'BLAZE')]);
    expect(quotedLines(a)[0]).toContain('4M PSRAM');
  });

  it('counts as the question\'s own words when the chunk names another model', () => {
    const a = answerExtractively('How much PSRAM does the Blaze have?', [passage('blaze.md#1', text, 'Ember')]);
    expect(quotedLines(a)[0]).toContain('pins 16 and 17 in Blaze');
  });

  it('is left to the resolved models when the question resolved one', () => {
    const a = answerExtractively('How much PSRAM does the Blaze have?', [passage('blaze.md#1', text, 'BLAZE')], { models: ['Ember'] });
    expect(quotedLines(a)[0]).toContain('pins 16 and 17 in Blaze');
  });
});

describe('asked for a quantity, a line with no number', () => {
  const text = [
    'The Zeta AI Camera features machine vision with high energy efficiency and low cost for AI camera projects.',
    '',
    'Besides the image sensor, it has a speaker, an IPS screen, a 6-axis IMU, a 200mAh Li-po battery, and more.',
  ].join('\n');

  it('does not lead its passage over a line that states one', () => {
    const a = answerExtractively('How big is the battery in the Zeta AI camera?', [passage('zeta.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('200mAh');
  });

  it('still leads when the question asks no quantity', () => {
    const a = answerExtractively('Does the Zeta AI camera have a battery?', [passage('zeta.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('Zeta AI Camera features');
  });

  it('reads a digit inside a name as no number', () => {
    const named = text.replace('The Zeta AI Camera', 'The M5Zeta AI Camera');
    const a = answerExtractively('How big is the battery in this AI camera?', [passage('zeta.md#1', named)]);
    expect(quotedLines(a)[0]).toContain('200mAh');
  });
});
