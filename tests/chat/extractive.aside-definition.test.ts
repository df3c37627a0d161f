import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

// The section the question names, retrieved first, and a troubleshooting section whose note
// mentions the subject in its first words.
const NOTES = ['## Connection notes for HDMI', '', 'Using a non-certified HDMI cable may result in a blank screen or a connection error.'].join('\n');
const remark = (line: string): string => ['## My computer will not connect', '', 'When the TV has difficulties connecting to a PC, these steps may help.', '', line].join('\n');

describe('a side remark on the asked subject', () => {
  it.each([
    'Note that the HDMI-to-DVI connection is only supported by the HDMI (DVI) port.',
    'Keep in mind that the HDMI connection notes apply only to the HDMI (DVI) port.',
  ])('does not define it, so its passage does not lead: %s', (line) => {
    const a = answerExtractively('What are the connection notes for HDMI?', [passage('tv/manual.md#1', NOTES), passage('tv/manual.md#2', remark(line))]);
    expect(quotedLines(a)[0]).toBe('- Using a non-certified HDMI cable may result in a blank screen or a connection error. [1]');
  });

  it('leaves a line that says what the subject is a definition', () => {
    const line = 'HDMI connection notes list the cables and ports that the TV supports.';
    const a = answerExtractively('What are the connection notes for HDMI?', [passage('tv/manual.md#1', NOTES), passage('tv/manual.md#2', remark(line))]);
    expect(quotedLines(a)[0]).toBe(`- ${line} [1]`);
  });
});
