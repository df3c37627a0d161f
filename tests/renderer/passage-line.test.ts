import { describe, expect, it } from 'vitest';
import { findLine, findLineItems, lineForms } from '../../src-renderer/src/viewer/passage';

/** The passage text `findLine` marks for `line`, or null. */
function marked(text: string, line: string): string | null {
  const r = findLine(text, line);
  return r ? text.slice(r.start, r.end) : null;
}

const TROUBLESHOOTING = [
  '## Troubleshooting',
  '',
  'If the unit does not start, work through the list below before calling service.',
  '',
  '- **No power:** check fuse F1 (5 A, slow-blow) and the *mains* cable.',
  '- The display shows \\-E4\\-: clean the air filter and restart.',
  '  1. Press the [reset button](#reset) for 3 s.',
  '> **Warning:** never open the housing while the plug is in.',
].join('\n');

describe('findLine (an answer’s quoted line inside its passage’s Markdown)', () => {
  it('marks a list item with bold, emphasis and a link, as the answer quoted it without them', () => {
    expect(marked(TROUBLESHOOTING, 'No power: check fuse F1 (5 A, slow-blow) and the mains cable.')).toBe(
      'No power:** check fuse F1 (5 A, slow-blow) and the *mains* cable.',
    );
    expect(marked(TROUBLESHOOTING, 'Press the reset button for 3 s.')).toBe('Press the [reset button](#reset) for 3 s.');
  });

  it('reads through Markdown escapes and a blockquote', () => {
    expect(marked(TROUBLESHOOTING, 'The display shows -E4-: clean the air filter and restart.')).toBe('The display shows \\-E4\\-: clean the air filter and restart.');
    expect(marked(TROUBLESHOOTING, 'Warning: never open the housing while the plug is in.')).toBe('Warning:** never open the housing while the plug is in.');
  });

  it('reads tags in code as the code shows them, and hides them in prose', () => {
    const text = ['Load the page with <b>care</b>:', '', '```js', 'const b = "<script>alert(1)</script>";', '#include <stdio.h>', '```', '', 'Use `vector<int>` for the list.'].join('\n');
    expect(marked(text, 'const b = "<script>alert(1)</script>";')).toBe('const b = "<script>alert(1)</script>";');
    expect(marked(text, '#include <stdio.h>')).toBe('#include <stdio.h>');
    expect(marked(text, 'Use vector<int> for the list.')).toBe('Use `vector<int>` for the list.');
    // In prose a tag is markup: the mark stops at the last word before it.
    expect(marked(text, 'Load the page with care:')).toBe('Load the page with <b>care');
  });

  it('marks a table row the answer read with its header, units after the values', () => {
    const table = [
      'Table 4.2: Recommended Power Operating Range',
      '',
      '| Pin Name | Min. | Typ | Max. | Unit |',
      '| --- | --- | --- | --- | --- |',
      '| AVDD33_1 | 2.1 | 3.3 | 3.63 | V |',
      '| AVDD33_2 | 2.0 | 3.3 | 3.6 | V |',
      '| DVDDIO_1 | 2.1 / 1.62 | 3.3 / 1.8 | 3.63 / 1.98 | V |',
    ].join('\n');
    expect(marked(table, 'Pin Name: AVDD33_2; Min.: 2.0 V; Typ: 3.3 V; Max.: 3.6 V')).toBe('AVDD33_2 | 2.0 | 3.3 | 3.6 | V');
    // The walk cannot resume for the last value alone: it is taken in beside the found ones.
    expect(marked(['| Pin Name | Min. | Typ | Max. | Unit |', '| --- | --- | --- | --- | --- |', '| VBUS | 4.5 | 5 | 5.5 | V |'].join('\n'), 'Pin Name: VBUS; Min.: 4.5 V; Typ: 5 V; Max.: 5.5 V')).toBe(
      'VBUS | 4.5 | 5 | 5.5 | V',
    );
    expect(marked(table, 'Pin Name: DVDDIO_1; Min.: 2.1 / 1.62; Typ: 3.3 / 1.8; Max.: 3.63 / 1.98; Unit: V')).toBe('DVDDIO_1 | 2.1 / 1.62 | 3.3 / 1.8 | 3.63 / 1.98 | V');
  });

  it('marks a two-column row quoted as "label: value" and a row quoted without header', () => {
    const specs = ['| Item | Value |', '| --- | --- |', '| Power | 5V/3A |', '| Weight | 120 g |'].join('\n');
    expect(marked(specs, 'Power: 5V/3A')).toBe('Power | 5V/3A');
    expect(marked(['| a | b | c |', '|---|---|---|', '| Fuse | T5A | 250V |'].join('\n'), 'Fuse · T5A · 250V')).toBe('Fuse | T5A | 250V');
  });

  it('marks the start of a long line the answer cut short', () => {
    const text = 'Intro.\n\nThe compressor starts after a three minute delay so that the refrigerant pressure can settle between cycles.';
    expect(marked(text, 'The compressor starts after a three minute delay so that…')).toBe('The compressor starts after a three minute delay so that');
  });

  it('finds nothing for a line the passage does not hold, so the viewer keeps the whole passage', () => {
    expect(findLine(TROUBLESHOOTING, 'Replace the compressor relay with part 4471.')).toBeNull();
    // A few shared words are not the line.
    expect(findLine(TROUBLESHOOTING, 'The unit needs a new filter and a new cable every year.')).toBeNull();
    expect(findLine('', 'anything')).toBeNull();
    expect(findLine(TROUBLESHOOTING, '')).toBeNull();
  });

  it('picks the occurrence of a repeated sentence whose paragraph the line quotes with it, else the first', () => {
    const text = ['Press the reset button. Hold it for 5 s to clear the codes.', '', 'Press the reset button. Release it at once to restart.'].join('\n');
    const second = findLine(text, 'Press the reset button. Release it at once to restart.')!;
    expect(text.slice(second.start, second.end)).toBe('Press the reset button. Release it at once to restart.');
    expect(second.start).toBe(text.lastIndexOf('Press'));
    expect(findLine(text, 'Press the reset button.')!.start).toBe(0);
  });

  it('marks a line from its start when it says its first phrase again later', () => {
    // A walk from the heading's "Schedule Timer" passed through the line's start as the line's second "You can set the start".
    const text = [
      '#### Managing the timer list',
      '',
      'Live TV Timers Schedules',
      '',
      'You can change timer information or cancel timers.',
      '',
      'You can schedule up to 30 timers at once using Schedule Timer and Schedule Viewing',
      '',
      'Setting the Schedule Timer Time',
      'Live TV Timers Schedules Edit',
      '',
      'You can set the start and end times for a schedule timer. You can set the start time up to 10 minutes before the program starts and the end time up to 10 minutes after the program ends.',
      '',
      'Canceling a schedule timer',
    ].join('\n');
    const line = 'You can set the start and end times for a schedule timer. You can set the start time up to 10 minutes before the program starts and the end time up to 10 minutes after the program ends.';
    expect(marked(text, line)).toBe(line);
  });

  it('does not join a stray phrase before the line to it', () => {
    const text = 'Use the filter. Other words come here and more of them follow after this, many words. Clean the filter every 200 hours.';
    expect(marked(text, 'Clean the filter every 200 hours.')).toBe('Clean the filter every 200 hours.');
  });
});

describe('lineForms', () => {
  it('adds the cells alone for a row read with its header, and keeps prose as it is', () => {
    expect(lineForms('Pin Name: AVDD33_1; Min.: 2.1 V')).toEqual([
      ['pin', 'name', 'avdd33', '1', 'min', '2', '1', 'v'],
      ['avdd33', '1', '2', '1', 'v'],
    ]);
    expect(lineForms('Pin Name: VBUS; Min.: 4.5 V; Max.: 5.5 V')).toEqual([
      ['pin', 'name', 'vbus', 'min', '4', '5', 'v', 'max', '5', '5', 'v'],
      ['vbus', '4', '5', 'v', '5', '5', 'v'],
      ['vbus', '4', '5', '5', '5', 'v'],
    ]);
    expect(lineForms('Power: 5V/3A')).toEqual([['power', '5v', '3a']]);
    expect(lineForms('Close the valve; then open the tap.')).toEqual([['close', 'the', 'valve', 'then', 'open', 'the', 'tap']]);
  });
});

describe('findLineItems (an answer’s line among a passage’s text items on a PDF page)', () => {
  it('marks the row’s cells, not the header above it', () => {
    const items = ['Table 4.2', 'Pin Name', ' ', 'Min.', ' ', 'Max.', ' ', 'Unit', 'AVDD33_1', ' ', '2.1', ' ', '3.63', ' ', 'V', 'AVDD33_2', ' ', '2.0', ' ', '3.6', ' ', 'V'];
    const r = findLineItems(items, 'Pin Name: AVDD33_2; Min.: 2.0 V; Max.: 3.6 V')!;
    expect(items.slice(r.first, r.last + 1).filter((s) => s.trim())).toEqual(['AVDD33_2', '2.0', '3.6', 'V']);
    expect(findLineItems(items, 'Clean the filter every 200 hours.')).toBeNull();
  });
});
