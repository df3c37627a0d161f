import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { splitSentences } from '../../src-main/chat/sentences';
import { passage } from './fixtures';

/** The lines of an answer that quote a passage (they carry a source number). */
function quotedLines(text: string): string[] {
  return text.split('\n').filter((l) => /\[\d+\]$/.test(l));
}

describe('a title right under another title', () => {
  // A manual converted from PDF: a section title, then the menu path to the setting, then the text.
  const manual = [
    'Establishing a wired connection',
    '',
    'Settings General Network Open Network Settings',
    '',
    'The connection starts when a LAN cable is plugged into the back of the set.',
    '',
    'Establishing a wireless connection',
    '',
    'Settings General Network Open Network Settings',
    '',
    'The connection starts when the password of the router has been entered.',
  ].join('\n');

  it('is its sub-title: the lines under both keep the first title as their heading too', () => {
    const units = splitSentences(manual);
    const line = units.find((u) => u.text.includes('password'))!;
    expect(line.heading).toBe('Establishing a wireless connection › Settings General Network Open Network Settings');
    // A title after quoted text starts a new section: the earlier section's title is not kept.
    expect(line.heading).not.toContain('wired connection');
  });

  it('so the line under the section the question names comes first, though both menu paths read alike', () => {
    const a = answerExtractively('How do I establish a wireless connection?', [passage('tv/manual.md#1', manual)]);
    expect(quotedLines(a.text)[0]).toBe('- The connection starts when the password of the router has been entered. [1]');
  });
});

describe('a short line with several values', () => {
  it('is a table row a PDF converter left as text, not a title', () => {
    const units = splitSentences(['Recommended operating range', '', 'VDDIO1, VDDIO2 2.97/1.62 3.3/1.8 3.63/1.98'].join('\n'));
    expect(units.map((u) => [u.text, u.title === true])).toEqual([
      ['Recommended operating range', true],
      ['VDDIO1, VDDIO2 2.97/1.62 3.3/1.8 3.63/1.98', false],
    ]);
  });
});

describe('a short unpunctuated instruction', () => {
  it('is quoted as a line, not read as a title (a troubleshooting table left as text)', () => {
    const units = splitSentences(['Unable to connect to the network', '', 'Check the DNS values in IP Settings', '', 'Restart the router and try again.'].join('\n'));
    expect(units.map((u) => [u.text, u.title === true])).toEqual([
      ['Unable to connect to the network', true],
      ['Check the DNS values in IP Settings', false],
      ['Restart the router and try again.', false],
    ]);
    const a = answerExtractively('How do I check the DNS values?', [passage('tv/manual.md#1', ['Unable to connect to the network', '', 'Check the DNS values in IP Settings'].join('\n'))]);
    expect(quotedLines(a.text)[0]).toBe('- Check the DNS values in IP Settings [1]');
  });
});

describe("a page's navigation bar", () => {
  it('is never quoted; a sentence with one link in it still is', () => {
    const text = [
      ':memo:**[Description](#Description)**&nbsp;&nbsp;:octocat:**[Example](#Example)**&nbsp; 🛒**[Purchase](https://shop.example.org/env)**',
      '',
      'The unit is built with a [DHT12](https://example.org/dht12) and a BMP280 sensor.',
    ].join('\n');
    expect(splitSentences(text).map((u) => u.text)).toEqual(['The unit is built with a DHT12 and a BMP280 sensor.']);
  });
});

describe('a lead that only labels its list', () => {
  const text = ['**Power on / off:**', '', '- Power on: click the reset button', '- Shutdown: double-click the reset button'].join('\n');

  it('heads the items without a source of its own, so the first quoted line is the first item', () => {
    const a = answerExtractively('How do I turn the stick on and off?', [passage('stick/manual.md#1', text)]);
    const lines = a.text.split('\n');
    const label = lines.indexOf('- **Power on / off:**');
    expect(label).toBeGreaterThanOrEqual(0);
    expect(lines.slice(label + 1, label + 3)).toEqual(['  - Power on: click the reset button [1]', '  - Shutdown: double-click the reset button [1]']);
    expect(quotedLines(a.text)[0]).toBe('  - Power on: click the reset button [1]');
  });

  it('keeps its source when it says something of its own', () => {
    const lead = ['Connect the board to the charger before you switch it on, then hold:', '', '- the reset button for two seconds'].join('\n');
    const a = answerExtractively('How do I switch the board on?', [passage('board/manual.md#1', lead)]);
    expect(quotedLines(a.text)[0]).toBe('- Connect the board to the charger before you switch it on, then hold: [1]');
  });
});

describe('the words of the model asked about', () => {
  it('tell no line apart: a line that only repeats the model name does not lead', () => {
    const text = [
      'The CH-9 evaluation board comes with the following resources.',
      '',
      'DCDC circuit: the buck converter chip is XR2003, which converts the 5V input into the 3.3V supply.',
    ].join('\n');
    const a = answerExtractively('Which chip makes the 3.3 V supply on the evaluation board?', [passage('evb/ch9.pdf#1', text)], { models: ['CH-9 Evaluation Board'], modelNamed: true });
    expect(quotedLines(a.text)[0]).toBe('- DCDC circuit: the buck converter chip is XR2003, which converts the 5V input into the 3.3V supply. [1]');
  });
});

describe('a value and its unit', () => {
  it('meet whether or not a space separates them, in the question or in the line', () => {
    const text = ['- Pin 4 takes the 5V rail of the header.', '- Pin 7 takes the 3.3V rail of the header.', '- Pin 9 takes the 12 V rail of the header.'].join('\n');
    const first = (question: string): string | undefined => quotedLines(answerExtractively(question, [passage('board/pins.md#1', text)]).text)[0];
    expect(first('Which pin takes the 3.3 V rail?')).toBe('- Pin 7 takes the 3.3V rail of the header. [1]');
    expect(first('Which pin takes the 12V rail?')).toBe('- Pin 9 takes the 12 V rail of the header. [1]');
  });
});

describe('what kind of line leads, by what the question asks', () => {
  const feature = ['### Super steady', '', 'Super steady applies stabilization to your video for a smooth look, even in heavy motion.', '', '- From Camera, swipe to Video.', '- Tap Super steady.'].join('\n');

  it('asked what a feature is, the line that says what it does comes before the step that turns it on', () => {
    for (const question of ['What is super steady?', 'What is the feature of super steady?']) {
      const a = answerExtractively(question, [passage('phone/manual.md#1', feature)]);
      expect(quotedLines(a.text)[0]).toBe('- Super steady applies stabilization to your video for a smooth look, even in heavy motion. [1]');
    }
  });

  it('asked for the steps, the instruction comes first, also when it opens with what it is for ("To delete ..., go to ...")', () => {
    const text = [
      'Recorded programs are kept in the list of Recordings until you delete them.',
      '',
      'To delete a recorded program, go to the list of Recordings and press Select.',
    ].join('\n');
    for (const question of ['How do I delete a recorded program?', 'What are the steps to delete a recorded program?']) {
      const a = answerExtractively(question, [passage('tv/manual.md#1', text)]);
      expect(quotedLines(a.text)[0]).toBe('- To delete a recorded program, go to the list of Recordings and press Select. [1]');
    }
  });
});

describe('a short title that opens with a word also used as a step verb', () => {
  it('stays a title when no object follows the word; a verb with its object is an instruction', () => {
    const titles = ['Power Supply Requirements', 'Set Up Guide', 'Use and Care', 'Power Button'];
    const first = (line: string): [string, boolean] => {
      const u = splitSentences([line, '', 'The unit needs a 24 V supply.'].join('\n'))[0]!;
      return [u.text, u.title === true];
    };
    for (const title of titles) expect(first(title)).toEqual([title, true]);
    for (const instruction of ['Check the DNS values in IP Settings', 'Make sure the cable is plugged in', 'Turn off the router', 'Try restarting the router']) {
      expect(first(instruction)).toEqual([instruction, false]);
    }
  });

  it('is not glued in front of the line under it', () => {
    const text = ['Power Supply Requirements', '', 'The controller needs a 24 V supply rated 2 A.'].join('\n');
    const a = answerExtractively('What are the power supply requirements?', [passage('ctl/manual.pdf#1', text)]);
    expect(quotedLines(a.text)[0]).toBe('- The controller needs a 24 V supply rated 2 A. [1]');
  });
});

describe('a run of short lines', () => {
  it('is a heading with one sub-title at most, never a chain (a legend left as text)', () => {
    const legend = ['## Remote control', '', 'Volume Up', '', 'Volume Down', '', 'Input Select', '', 'Menu Key', '', 'Remote Sensor', '', 'Point the remote at the sensor on the front of the set.'].join('\n');
    const line = splitSentences(legend).find((u) => u.text.startsWith('Point'))!;
    expect(line.heading).toBe('Remote control › Remote Sensor');
    const bare = splitSentences(legend.replace('## Remote control\n\n', '')).find((u) => u.text.startsWith('Point'))!;
    expect(bare.heading).toBe('Volume Up › Remote Sensor');
  });
});

describe('a question that asks for instructions, a procedure or the way to do something', () => {
  it('is a steps question, though it opens with "what are" or "what is"', () => {
    const text = [
      'Recorded programs are kept in the list of Recordings until you delete them.',
      '',
      'To delete a recorded program, go to the list of Recordings and press Select.',
    ].join('\n');
    for (const question of ['What are the instructions to delete a recorded program?', 'What is the procedure to delete a recorded program?', 'What is the way to delete a recorded program?']) {
      const a = answerExtractively(question, [passage('tv/manual.md#1', text)]);
      expect(quotedLines(a.text)[0]).toBe('- To delete a recorded program, go to the list of Recordings and press Select. [1]');
    }
  });
});

describe('a label heading rows of several models', () => {
  const modelIn = (text: string): string | null => ['ROCK 5B+', 'ROCK 5B'].find((m) => text.includes(m)) ?? null;

  it('is shown above its rows in each model\'s group, never left alone without a source', () => {
    const text = ['**Supply:**', '', '| Board | Adapter |', '| --- | --- |', '| ROCK 5B | PD 30W charger |', '| ROCK 5B+ | 12V DC charger |'].join('\n');
    const a = answerExtractively('Which supply adapter?', [passage('b/power.md#1', text)], { modelIn });
    const lines = a.text.split('\n');
    for (const model of ['ROCK 5B', 'ROCK 5B+']) {
      const at = lines.indexOf(`${model}:`);
      expect(at).toBeGreaterThan(-1);
      expect(lines[at + 1]).toBe('- **Supply:**');
      expect(lines[at + 2]).toMatch(new RegExp(`^  - ${model.replace('+', '\\+')}: .* \\[\\d\\]$`));
    }
    expect(a.text).not.toContain('Any model');
    expect(a.text).toContain('Which model: ROCK 5B, ROCK 5B+?');
  });
});

describe('a heading that no title has', () => {
  it('an equation or numbered entries set as a heading by a PDF converter are quoted as text', () => {
    const text = ['### VO = 1.25 V (1 + R2 / R1)', '', 'Figure 7. Typical application.', '', '### TO-220', '', '# 1. Adj 2. Output 3. Input', '', '## 1. Introduction', '', 'The regulator is adjustable.'].join('\n');
    const units = splitSentences(text);
    expect(units.find((u) => u.text.startsWith('VO = 1.25 V'))?.kind).toBe('prose');
    expect(units.some((u) => u.text.includes('Adj 2.'))).toBe(true);
    // A numbered title stays a heading.
    expect(units.find((u) => u.text === 'The regulator is adjustable.')?.heading).toBe('1. Introduction');
    const a = answerExtractively('What is the formula for the output voltage VO?', [passage('reg/lm.md#1', text)]);
    expect(quotedLines(a.text)[0]).toBe('- VO = 1.25 V (1 + R2 / R1) [1]');
  });
});

describe('a full stop after a bare number', () => {
  it('is an entry number, not a sentence end: numbered entries on one line stay one unit with their numbers', () => {
    const units = splitSentences('Pins of the TO-220 package: 1. Adj 2. Output 3. Input\n\nPress Reset. Then release the Boot button.');
    expect(units.map((u) => u.text)).toEqual(['Pins of the TO-220 package: 1. Adj 2. Output 3. Input', 'Press Reset.', 'Then release the Boot button.']);
  });
});

describe('a value says what it measures by its unit', () => {
  const text = [
    '## Power',
    '',
    'For power supply pins: the built-in converter turns the 5V input into 3.3V to power the board pins.',
    '',
    'For general I/O pins: the working voltage of the MCU is 3.3V.',
    '',
    '| Item | Value |',
    '| --- | --- |',
    '| Max Output | 5V@500mA 3.3V@200mA |',
    '| Flash | 256KB |',
  ].join('\n');

  it('"200mA" answers a question about current that the row never names', () => {
    const a = answerExtractively('How much current can the 3V3 pin supply?', [passage('board/spec.md#1', text)]);
    expect(quotedLines(a.text)).toContain('- Max Output: 5V@500mA 3.3V@200mA [1]');
  });

  it('but not a how-to question, which asks for steps, not a value', () => {
    const steps = ['## Clock', '', 'Clock: 240MHz', '', 'Open Settings and tap Date and time to set the clock.'].join('\n');
    const a = answerExtractively('How do I set the clock speed?', [passage('board/clock.md#1', steps)]);
    expect(quotedLines(a.text)[0]).toBe('- Open Settings and tap Date and time to set the clock. [1]');
  });
});

describe('"how big"', () => {
  it('asks a size or a capacity: the line with the measure answers, not the one naming the thing', () => {
    const text = ['## Overview', '', 'The Cubie board is a pocket-sized computer for edge AI projects.', '', 'It comes in an ultra-compact 51 × 51 mm form factor.'].join('\n');
    expect(quotedLines(answerExtractively('How big is the Cubie board?', [passage('cubie/overview.md#1', text)]).text)[0]).toBe('- It comes in an ultra-compact 51 × 51 mm form factor. [1]');
    const battery = ['## Battery', '', 'The battery sits under the back cover of the camera.', '', 'Battery: 200mAh Li-po'].join('\n');
    expect(quotedLines(answerExtractively('How big is the battery?', [passage('cam/spec.md#1', battery)]).text)[0]).toBe('- Battery: 200mAh Li-po [1]');
  });
});
