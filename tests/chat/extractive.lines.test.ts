import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import type { Scored } from '../../src-main/chat/extractive.pick';
import { passageOrder } from '../../src-main/chat/extractive.pick';
import { namesPart } from '../../src-main/chat/match.util';
import { splitSentences, terms } from '../../src-main/chat/sentences';
import { passage, quotedLines, quotedLinesWithItems } from './fixtures';

/** A retrieved passage of one chunk (no merged members), of a model-less page. */
describe('a sentence and the rest of its paragraph', () => {
  it('are quoted on one line, so the instruction after a full stop stays with the sentence that names the topic', () => {
    const text = ['### Enlarge', '', 'You can enlarge the font of menus and subtitles for easier reading. To activate, set Enlarge to On.', '', 'Only a limited number of fonts are supported.'].join('\n');
    const a = answerExtractively('How do I make the font larger?', [passage('tv/manual.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted.find((l) => l.includes('You can enlarge'))).toBe('- You can enlarge the font of menus and subtitles for easier reading. To activate, set Enlarge to On. [1]');
    // Each sentence is quoted once.
    expect(quoted.filter((l) => l.includes('To activate')).length).toBe(1);
  });

  it('keep a line short: a long paragraph adds only what fits, and a sentence is never repeated', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `Inspection note ${i + 1} records the pressure, the temperature and the vibration of the pump in the log.`);
    const text = ['Clean the inlet strainer every week.', ...filler].join(' ');
    const a = answerExtractively('How often must the inlet strainer be cleaned?', [passage('pump/manual.md#1', text)]);
    const first = quotedLines(a)[0]!;
    expect(first.startsWith('- Clean the inlet strainer every week. Inspection note 1 ')).toBe(true);
    expect(first.length).toBeLessThan(450);
    expect(first).not.toContain('Inspection note 12 ');
  });
});

describe('words the enrichment drops as no topic but a question asks with', () => {
  it('keeps "support", "new", "notes" and counts as question words, and still drops "use"', () => {
    expect(terms('What are the connection notes for audio devices?')).toContain('note');
    expect(terms('Which crystal frequencies does it support?')).toContain('support');
    expect(terms('How to create a new account for the first time?')).toEqual(expect.arrayContaining(['new', 'first']));
    expect(terms('How do I use the remote?')).not.toContain('use');
  });

  it('leads with the line saying what the chip supports', () => {
    // A datasheet's clock section, as the PDF converter leaves its two columns.
    const text = [
      '1.7 Clock',
      '',
      '- Support XTAL 24/32/38.4/40MHz',
      '- Internal System PLL',
      '- Internal RC 32kHz oscillator',
      '- XTAL 32kHz',
      '',
      'The CPU runs at up to 192MHz clock frequency, which can be dynamically configured to change the frequency of the crystal-derived clock.',
    ].join('\n');
    const a = answerExtractively('Which crystal frequencies does the chip support for its main clock?', [passage('chip/ds.md#4', text)]);
    expect(quotedLines(a)[0]).toBe('- Support XTAL 24/32/38.4/40MHz [1]');
  });
});

describe('titles and side remarks', () => {
  it('a note does not lead its passage: the line it qualifies comes first, and the note is still quoted', () => {
    const text = ['## Power button', '', 'Note: What the power button does when pressed can be changed in the Power Button Behavior setting.', '', 'When the board runs, press the power button and the system sleeps.'].join('\n');
    const a = answerExtractively('What happens when I press the power button?', [passage('board/power.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- When the board runs, press the power button and the system sleeps. [1]');
    expect(quoted.some((l) => l.startsWith('- Note: What the power button does'))).toBe(true);
  });

  it('a warning or tip box ("!>", "?>") does not lead either, whatever its first word', () => {
    const text = [
      '### USB mode',
      '',
      '> After the driver installation is complete, it will automatically enter the UIFlow Desktop IDE and automatically pop up the configuration box. At this time, connect the M5 device to the computer through the Type-C data cable.',
      '',
      '!> Using UIFlow Desktop IDE requires M5 device with UIFlow firmware and enter ** USB programming mode **.',
      '',
      '> Click the power button on the left side of the device to restart, after entering the menu, quickly click the right button to select **USB mode**.',
    ].join('\n');
    const a = answerExtractively('How to put the stick into USB mode for UIFlow Desktop IDE', [passage('stick/uiflow.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- Click the power button on the left side of the device to restart, after entering the menu, quickly click the right button to select **USB mode**. [1]');
    expect(quoted.some((l) => l.includes('Using UIFlow Desktop IDE requires'))).toBe(true);
    // The box's marks are not shown.
    expect(quoted.some((l) => /[?!]>/.test(l))).toBe(false);
  });

  it('a box leads with nothing but its opening remark: the facts after it may answer', () => {
    const text = '?>Warning: Do not expose the screen to sunlight. To shut the device down, press the reset button on the back; on USB power it cannot be shut down.';
    const units = splitSentences(text);
    expect(units.map((u) => [u.text, u.aside ?? false])).toEqual([
      ['Warning: Do not expose the screen to sunlight.', true],
      ['To shut the device down, press the reset button on the back; on USB power it cannot be shut down.', false],
    ]);
    const a = answerExtractively('Why will it not shut down on USB power?', [passage('paper/paper.md#1', text)]);
    expect(quotedLines(a)[0]).toContain('cannot be shut down');
    // Inside a quote or a list item, the marks are not shown either.
    expect(splitSentences('> ?> Tip: keep spares.\n\n- !>Note: unplug first.').map((u) => u.text)).toEqual(['Tip: keep spares.', 'Note: unplug first.']);
  });

  it('a title or a bold label does not lead its passage either', () => {
    const question = 'Where is the blue port of the board?';
    const lead = (first: string, answer: string): string | undefined =>
      quotedLines(answerExtractively(question, [passage('board/ports.md#1', [first, '', answer].join('\n'))]))[0];
    // The title heads the line under it (see extractive.title-body.test.ts); it is not a line of its own.
    expect(lead('Blue port of the board and grove socket', 'The port sits next to the USB socket.')).toBe('- Blue port of the board and grove socket: The port sits next to the USB socket. [1]');
    expect(lead('**Blue port of the board and grove socket**', 'The blue port of the board sits next to the USB socket.')).toBe('- The blue port of the board sits next to the USB socket. [1]');
  });
});

describe('a lead sentence whose list has one item', () => {
  it("brings the step's text that goes on after the list, up to the code", () => {
    const text = [
      '### How to avoid bricking',
      '',
      'To avoid bricking your board while using Deep Sleep mode, follow these steps:',
      '',
      '1. Use the Escape Pin (PC1)',
      '',
      'The board has a built-in escape mechanism to prevent bricking. If PC1 is pulled LOW during reset, the device enters an infinite loop, allowing you to upload a new sketch.',
      '',
      '- Connect PC1 to GND before resetting the device.',
      '- After resetting, upload your sketch while the device is in the loop.',
      '',
      '```cpp',
      'pinMode(USER_SW, INPUT_PULLUP);',
      '```',
    ].join('\n');
    const a = answerExtractively('The board seems bricked after deep sleep, how do I avoid bricking it?', [passage('board/sleep.md#1', text)]);
    const quoted = quotedLinesWithItems(a);
    const at = quoted.indexOf('- To avoid bricking your board while using Deep Sleep mode, follow these steps: [1]');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(quoted.slice(at + 1, at + 3)).toEqual(['  - Use the Escape Pin (PC1) [1]', '  - The board has a built-in escape mechanism to prevent bricking. [1]']);
    expect(quoted).toContain('  - Connect PC1 to GND before resetting the device. [1]');
    expect(quoted.some((l) => l.includes('pinMode'))).toBe(false);
  });
});

describe('a table under a caption that names the asked quantity', () => {
  it("quotes the rows that give its values, though they share no word with the question", () => {
    // A datasheet table as a PDF converter leaves it: the row label spans two rows of values.
    const text = [
      '### 7.2.4 Temperature sensor characteristics',
      '',
      'Table 7.5: Recommended Temperature Operating Range',
      '',
      '| Item | Min. | Max. Unit |',
      '| --- | --- | --- |',
      '| Main Die | -40 | 85 |',
      '| Temperature |  | °C |',
      '| Multi-Die SiP | -40 | 85 |',
    ].join('\n');
    const a = answerExtractively('What is the operating temperature range?', [passage('ds/chip.pdf#83', text)]);
    const quoted = quotedLinesWithItems(a);
    expect(quoted).toContain('- Item: Main Die; Min.: -40; Max. Unit: 85 [1]');
    expect(quoted).toContain('- Item: Multi-Die SiP; Min.: -40; Max. Unit: 85 [1]');
  });
});

describe('a lead sentence followed by a numbered section', () => {
  it('does not take a list numbered from past 1 for the list it announces', () => {
    // A PDF page's text: the lead's figure is gone, and section 4 follows as "4. ...".
    const text = [
      '### 3.3.1 BLE Peripheral Routine',
      '',
      'Enter the pairing code, select the PIN code and click OK to pair, as follows:',
      '',
      '4. ISP (take CH592 as example)',
      '',
      'To program CH59x, both serial port and USB interface are available.',
      '',
      'Default pin to download boot: PB22;',
    ].join('\n');
    const a = answerExtractively('How do I enter the pairing code?', [passage('evt/ch592.md#1', text)]);
    const quoted = quotedLinesWithItems(a);
    expect(quoted[0]).toBe('- Enter the pairing code, select the PIN code and click OK to pair, as follows: [1]');
    // Nothing of section 4 is quoted as the lead's steps.
    expect(quoted.filter((l) => l.startsWith('  - '))).toEqual([]);
  });
});

describe('a sentence that points at a code block', () => {
  it('brings the code after it when it points forward', () => {
    const text = ['You need to copy the following code into the platform.ini file', '', '```', '[env:xb2]', 'platform = local', 'board = xb-2-board', '```'].join('\n');
    const a = answerExtractively('What do I copy into the platform.ini file?', [passage('xb/pio.md#1', text)]);
    const quoted = quotedLinesWithItems(a);
    expect(quoted[0]).toBe('- You need to copy the following code into the platform.ini file [1]');
    expect(quoted.slice(1)).toEqual(['  - `[env:xb2]` [1]', '  - `platform = local` [1]', '  - `board = xb-2-board` [1]']);
  });

  it('brings the list after it when it points forward without a colon', () => {
    const text = [
      '## Old boards',
      '',
      'If the readings of the sensor are unstable, you have the old board; following will teach you how to fix the board.',
      '',
      '- Open the case and look at the board.',
      '- If it is the old one, take off the two transistors and wire the data lines straight to the sensor.',
    ].join('\n');
    const a = answerExtractively('The sensor readings are unstable, how do I fix the old board?', [passage('unit/sensor.md#1', text)]);
    const quoted = quotedLinesWithItems(a);
    expect(quoted).toContain('  - If it is the old one, take off the two transistors and wire the data lines straight to the sensor. [1]');
  });

  it('brings the code before it when it points back, and quotes it first, as the manual reads', () => {
    const text = ['To install the board:', '', '```', 'https://example.org/package_index.json', '```', '', '1. Add the above board manager URL to the preferences of your IDE.'].join('\n');
    const a = answerExtractively('Where do I add the board manager URL?', [passage('xb/ide.md#1', text)]);
    const quoted = quotedLinesWithItems(a);
    const at = quoted.indexOf('- Add the above board manager URL to the preferences of your IDE. [1]');
    expect(at).toBeGreaterThanOrEqual(1);
    // "the above URL" is the line just above it, not one below.
    expect(quoted[at - 1]).toBe('- `https://example.org/package_index.json` [1]');
  });
});

describe('the particle of a phrasal verb', () => {
  it('tells "power off" from "power input", so the line for the action asked about comes first', () => {
    const text = ['- Power input: 5V @ 500mA from the USB port', '- Power on: press the red power button once', '- Power off: quickly double-click the red power button'].join('\n');
    const a = answerExtractively('How do I power off the board?', [passage('core/power.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Power off: quickly double-click the red power button [1]');
  });
});

describe('before and after', () => {
  it('tell a hold time from a setup time: the line on the side of the event the question asks about comes first', () => {
    const text = [
      '- Setup time: the boot pin level must be stable before RESET is released; minimum 1 ms',
      '- Hold time: the boot pin level must be kept after RESET is released; minimum 2 ms',
    ].join('\n');
    const a = answerExtractively('How long must the boot pin level stay after RESET is released?', [passage('mcu/timing.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Hold time: the boot pin level must be kept after RESET is released; minimum 2 ms [1]');
  });
});

describe('passage order inside one manual', () => {
  const question = 'What is the battery capacity of the camera?';
  const passing = 'The camera housing also holds the battery.';
  const answer = 'The battery capacity of the camera is 140 mAh, enough for a day of timed shots.';

  it('puts a later section of the same manual first when its best line answers clearly better', () => {
    const a = answerExtractively(question, [passage('cam/manual.md#1', passing), passage('cam/manual.md#7', answer)]);
    expect(quotedLines(a)[0]).toBe(`- ${answer} [1]`);
    expect(a.citations[0]!.chunkId).toBe('cam/manual.md#7');
  });

  it("keeps the search's order when a later section's best line is better, but not clearly", () => {
    const used = [passage('cam/manual.md#1', passing), passage('cam/manual.md#7', answer)];
    const scored = (later: number): Scored[] => used.map((p, i) => ({ passage: i, sentence: splitSentences(p.hit.text)[0]!, score: i === 0 ? 1 : later }));
    // Three times the first passage's best line: a long section's stray line, not the answer.
    expect(passageOrder(scored(3), new Set(), used, []).rank(1)).toBeGreaterThan(0);
    expect(passageOrder(scored(5), new Set(), used, []).rank(1)).toBeLessThan(0);
  });

  it("keeps the search's order across documents", () => {
    const a = answerExtractively(question, [passage('cam/manual.md#1', passing), passage('other/manual.md#7', answer)]);
    expect(a.citations[0]!.chunkId).toBe('cam/manual.md#1');
  });
});

describe('a later section of the manual with the line of the asked kind', () => {
  // A board page: the power notes talk about the 3V3 pin, the spec table gives its current.
  const notes = [
    '### Power Pins',
    '',
    'For general I/O pins:',
    'Working voltage of MCU is 3.3V. Voltage input connected to general I/O pins may cause chip damage if it is higher than 3.3V.',
    '',
    'For power supply pins:',
    'The built-in DC-DC converter circuit able to change 5V voltage into 3.3V allows to power the device with a 5V supply via VIN-PIN and 5V-PIN.',
  ].join('\n');
  const specs = ['| Item | Value |', '|---|---|', '| **Power** | Input voltage (Type-C): 5V |', '| **Max Output** | 5V@500mA<br/>3.3V@200mA |', '| **Interface** | GPIO Pin x14 Digital Pin x11 I2C x1 UART x1 |'].join('\n');
  it('leads with the value in the unit of the asked quantity when the first section gives none', () => {
    const a = answerExtractively('How much current can the 3V3 pin supply?', [passage('board/guide.md#3', notes), passage('board/guide.md#1', specs)]);
    expect(quotedLines(a)[0]).toContain('3.3V@200mA');
    expect(a.citations[0]!.chunkId).toBe('board/guide.md#1');
  });

  it("keeps the search's order when the first section states the asked quantity itself", () => {
    const withCurrent = `${notes}\nThe 3.3V output can supply up to 200mA to external parts.`;
    const a = answerExtractively('How much current can the 3V3 pin supply?', [passage('board/guide.md#3', withCurrent), passage('board/guide.md#1', specs)]);
    expect(a.citations[0]!.chunkId).toBe('board/guide.md#3');
    expect(quotedLines(a)[0]).toContain('200mA');
  });

  it("keeps the search's order across documents", () => {
    const a = answerExtractively('How much current can the 3V3 pin supply?', [passage('board/guide.md#3', notes), passage('other/board.md#1', specs)]);
    expect(a.citations[0]!.chunkId).toBe('board/guide.md#3');
  });

  it('leads a "which version" question with the line giving a version number', () => {
    const intro = ['# XIAO RP2350 with Arduino', '', 'The XIAO RP2350 board now supports programming via Arduino, thanks to the arduino-pico core. This guide will help you set up and begin using Arduino on your RP2350 board.'].join('\n');
    const setup = ['### 2. Add RP2350 Board Support', '', '5. In the Boards Manager, search for **pico** and click **Install**.', '', ':::note', 'Ensure you install version 4.2.0 or later for full support of the XIAO RP2350 board.', ':::'].join('\n');
    const question = 'Which arduino-pico core version do I need for the xiao rp2350?';
    const a = answerExtractively(question, [passage('xiao/arduino.md#1', intro), passage('xiao/arduino.md#2', setup)]);
    expect(quotedLines(a)[0]).toBe('- Ensure you install version 4.2.0 or later for full support of the XIAO RP2350 board. [1]');
    // A question that asks no version keeps the search's order.
    const b = answerExtractively('Which core does the xiao rp2350 use with Arduino?', [passage('xiao/arduino.md#1', intro), passage('xiao/arduino.md#2', setup)]);
    expect(b.citations[0]!.chunkId).toBe('xiao/arduino.md#1');
  });

  it('leads a "what is" question with the line that says what it is, not with how to use it', () => {
    const use = [
      '### Use Samsung Pay',
      '',
      "Use Samsung Pay by opening the app and holding your device over the store's card reader.",
      '',
      '- From Apps, tap Samsung folder > Samsung Pay, select a card to pay with and authorize payments by scanning your finger.',
    ].join('\n');
    const about = ['### Samsung Pay', '', 'Samsung Pay lets you make payments with your device. It is accepted almost anywhere you can swipe or tap your credit card.', '', '- From Apps, tap Samsung folder > Samsung Pay, and tap Get started.'].join('\n');
    const a = answerExtractively('What is Samsung Pay?', [passage('phone/manual.md#40', use), passage('phone/manual.md#39', about)]);
    expect(quotedLines(a)[0]).toBe('- Samsung Pay lets you make payments with your device. It is accepted almost anywhere you can swipe or tap your credit card. [1]');
    expect(a.citations[0]!.chunkId).toBe('phone/manual.md#39');
  });

  it('leads an address question with the line of hexadecimal addresses, over a line of its section that shares more words', () => {
    const about = '**ENV II** is an environment sensor which can sense temperature, humidity and atmospheric pressure. It is built with SHT30, BMP280 and BMM150 sensors, it is programmed over I2C.';
    const table = ['## Specification', '', '- 1x ENV II HAT', '', '| Resources | Parameter |', '|---|---|', '| Communication protocol | I2C：SHT30(0x44),BMP280(0x76),BMM150(0x10) |'].join('\n');
    const a = answerExtractively('ENV II HAT I2C addresses of its sensors', [passage('hat/env.md#1', about), passage('hat/env.md#2', table)]);
    expect(quotedLines(a)[0]).toContain('SHT30(0x44),BMP280(0x76),BMM150(0x10)');
    expect(a.citations[0]!.chunkId).toBe('hat/env.md#2');
  });
});

describe('a how-to question and a line whose label it names', () => {
  it('keeps the passage with the step first: the label line says what the option is, not how to reach it', () => {
    const step = passage('phone/manual.md#1', 'From Settings, tap Privacy > Permission manager.\n\nTap a category, then tap an app to allow or deny it.');
    const label = passage('phone/manual.md#2', '- Permission manager: Control which apps have permissions to use certain features.');
    const howTo = answerExtractively('How can I open the permission manager?', [step, label]);
    expect(howTo.citations[0]!.chunkId).toBe('phone/manual.md#1');
    // Asked what it is, the label line still leads.
    const what = answerExtractively('What does the permission manager control?', [step, label]);
    expect(what.citations[0]!.chunkId).toBe('phone/manual.md#2');
  });
});

describe('the line budget', () => {
  it('counts lines, not sentences: a sentence that joins its paragraph leaves room for another line', () => {
    const text = ['The fuse rating is 5 A slow-blow. The rating label sits on the fuse cover.', '', 'Replace a blown fuse with one of the same rating, never with a stronger one.'].join('\n');
    const a = answerExtractively('What fuse rating?', [passage('pump/manual.md#1', text)], { maxSentences: 2 });
    const quoted = quotedLines(a);
    expect(quoted).toEqual(['- The fuse rating is 5 A slow-blow. The rating label sits on the fuse cover. [1]', '- Replace a blown fuse with one of the same rating, never with a stronger one. [1]']);
  });
});

describe('script a page embeds outside code blocks', () => {
  it('is never quoted', () => {
    const text = ["var purchase_link = 'https://shop.example.org/products/pir-unit';", '', 'This unit plugs into port B of the core.'].join('\n');
    const a = answerExtractively('Which port does the unit plug into? Where is the purchase link?', [passage('unit/pir.md#1', text)]);
    expect(a.text).not.toContain('var purchase_link');
    expect(a.text).toContain('This unit plugs into port B of the core.');
  });

  it('drops an inline script or style element with its content, and keeps the text around it', () => {
    const text = "Vendor markup: <script>alert('xss1')</script> and end. The fuse is rated T10A <style>body{display:none}</style>250V.";
    const a = answerExtractively('What is the fuse rating?', [passage('zx/fuse.md#1', text)]);
    expect(a.text).not.toMatch(/alert|display:none/);
    expect(a.text).toContain('T10A 250V');
  });
});

describe('a label the question names whole', () => {
  it('leads its passage over a label it names only in part', () => {
    const bridge = '- USB-to-UART Bridge Chip: CP2102N is a single USB-to-UART bridge chip connected to UART0. It provides transfer rates up to 3 Mbps for firmware downloading and debugging work.';
    const text = ['- USB-to-UART Port: a Type-C port wired to the USB-to-UART bridge chip of the board.', bridge].join('\n');
    const a = answerExtractively('Which USB-to-UART bridge chip is on the board?', [passage('kit/guide.md#1', text)]);
    expect(quotedLines(a)[0]).toBe(`${bridge} [1]`);
  });
});

describe('a value question', () => {
  const first = (question: string, text: string): string | undefined => quotedLines(answerExtractively(question, [passage('kit/flash.md#1', text)]))[0];

  it('leads with the line that gives a number with its unit, not one whose number is an address or a name', () => {
    const text = ['## Storing a file', '', 'The stored file size is checked at address 0x1FFFF000 of the stored file area.', '', 'The stored file must be 512 bytes in size.'].join('\n');
    expect(first('What size must the stored file be?', text)).toBe('- The stored file must be 512 bytes in size. [1]');
  });

  it('lets a side remark that gives the value lead: the note is where the manual states the limit', () => {
    const text = ['## LED panel', '', 'The LED panel shows the brightness setting of your program.', '', 'Note: keep the brightness setting at 20% or below to protect the panel.'].join('\n');
    expect(first('What is the maximum brightness setting for the LED panel?', text)).toBe('- Note: keep the brightness setting at 20% or below to protect the panel. [1]');
  });

  it('is also one asking "how low" or "how hot": the line with the measured value leads', () => {
    const text = ['## Power modes', '', 'The chip stays in deep sleep and wakes from deep sleep on a timer.', '', 'Current in deep sleep is 15 μA.'].join('\n');
    expect(first('How low does the board go in deep sleep?', text)).toBe('- Current in deep sleep is 15 μA. [1]');
  });

  it('still reads a bare number in code as a value, since code writes values without units', () => {
    const text = ['## Serial monitor', '', '```', 'Serial.println("serial monitor baud rate");', 'Serial.begin(115200); // serial monitor baud rate', '```'].join('\n');
    expect(first('Which baud rate does the serial monitor use?', text)).toBe('- `Serial.begin(115200); // serial monitor baud rate` [1]');
  });
});

describe('a lead sentence under the heading the question names', () => {
  it('is quoted with its list although it shares no word with the question: the steps are the answer', () => {
    const text = [
      '## Enter bootloader mode',
      '',
      'Sometimes the port disappears when uploading fails.',
      'We can solve this problem by the following operation:',
      '',
      '- Long press the B button.',
      '- Connect the board to your computer.',
      '',
      'At this point, the chip enters bootloader mode and a disk appears.',
    ].join('\n');
    const a = answerExtractively('enter bootloader to copy a uf2 file', [passage('kit/boot.md#1', text)]);
    const quoted = quotedLinesWithItems(a);
    expect(quoted).toContain('  - Long press the B button. [1]');
    expect(quoted).toContain('  - Connect the board to your computer. [1]');
  });
});

describe('a "what is" question', () => {
  it('leads with the line that has the asked thing as its subject, not one that names it in passing', () => {
    const text = [
      '## Getting support',
      '',
      'When the device fails, a technician may need Remote Support.',
      '',
      'Remote Support offers you one-on-one help from a technician who can diagnose your device.',
    ].join('\n');
    const a = answerExtractively('What is the function of Remote Support?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Remote Support offers you one-on-one help from a technician who can diagnose your device. [1]');
  });
});

describe('a procedure written as numbered steps', () => {
  it('is quoted without a gap: the step between two quoted steps comes too, in its place', () => {
    const text = [
      '## USB download',
      '',
      'Step 1: Open the flashing tool and select USB download mode for the chip.',
      '',
      'Step 2: Hold down the Boot button while you plug in the cable.',
      '',
      'Step 3: Connect the board to the computer by USB and click Download in the flashing tool.',
      '',
      'Step 4: The flashing tool shows the USB download result for the chip.',
    ].join('\n');
    const a = answerExtractively('How do I flash the chip by USB download with the flashing tool?', [passage('kit/flash.md#1', text)]);
    const quoted = quotedLines(a);
    const at = (step: string): number => quoted.findIndex((l) => l.startsWith(`- ${step}:`));
    expect(at('Step 2')).toBeGreaterThan(-1);
    expect(at('Step 1')).toBeLessThan(at('Step 2'));
    expect(at('Step 2')).toBeLessThan(at('Step 3'));
  });
});

describe('a how-to question and a later section with the instruction', () => {
  it('puts the passage with the instruction first when the first passage only describes the option', () => {
    const describing = passage('phone/manual.md#1', ['## Sound settings', '', 'You can change the notification sound for alerts of your apps in the sound settings.'].join('\n'));
    const instructing = passage('phone/manual.md#2', ['## Notification sound', '', 'From Settings, tap Sounds > Notification sound.'].join('\n'));
    const a = answerExtractively('How can I set the notification sound?', [describing, instructing]);
    expect(quotedLines(a)[0]).toBe('- From Settings, tap Sounds > Notification sound. [1]');
    expect(a.citations[0]!.chunkId).toBe('phone/manual.md#2');
  });

  it('keeps the search order when the first passage has an instruction of its own', () => {
    const first = passage(
      'phone/manual.md#1',
      ['## Sound settings', '', 'You can change the notification sound for alerts of your apps in the sound settings.', '', 'To set the notification sound, tap Notification sound and pick a sound.'].join('\n'),
    );
    const later = passage('phone/manual.md#2', ['## Notification sound', '', 'From Settings, tap Sounds > Notification sound.'].join('\n'));
    const a = answerExtractively('How can I set the notification sound?', [first, later]);
    expect(a.citations[0]!.chunkId).toBe('phone/manual.md#1');
  });
});

describe('a question asking which pin', () => {
  it('weighs a line naming a pin, not one naming the chip: "ESP32" is no pin, "IO16" is', () => {
    // A camera unit's pin map: its tables, then a note that names the chip.
    const text = [
      '## PinMap',
      '',
      '**Camera Interface PinMap**',
      '',
      '| *Interface* | *OV2640 Pin* | *Camera* |',
      '| :---: | :---: | :---: |',
      '| SCCB Clock | SIOC | IO23 |',
      '| SCCB Data | SIOD | IO25 |',
      '| Camera Reset | RESET | IO15 |',
      '',
      '**LED Interface**',
      '',
      '| *LED* | *Camera* |',
      '| :---: | :---: |',
      '| LED_Pin | IO16 |',
      '',
      '**NOTE:**',
      '',
      '1. **Camera Power Down** pin does not need to be connected to ESP32 GPIO. Instead it may be pulled down to ground with 10 kOhm resistor.',
    ].join('\n');
    const a = answerExtractively('Which GPIO drives the LED on the camera unit?', [passage('unit/cam.md#1', text)]);
    // The row leads under its caption, which heads it without a source of its own.
    const cited = quotedLinesWithItems(a).filter((l) => /\[\d+\]$/.test(l));
    expect(cited[0]).toBe('  - LED_Pin: IO16 [1]');
    expect(quotedLines(a)[0]).toBe('- **LED Interface**');
  });
});

describe('a question asking which component', () => {
  it('leads with the line that names a part number', () => {
    const text = ['## Board resources', '', 'A chip regulates the board supply and the supply of the port.', '', 'The AMS1117 chip regulates the supply of the board.'].join('\n');
    const a = answerExtractively('Which chip regulates the board supply?', [passage('kit/board.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- The AMS1117 chip regulates the supply of the board. [1]');
  });
});

describe('a menu path under the heading that names the task', () => {
  const text = ['## Reset the network', '', 'Settings General Network Reset Network', '', 'Restore the network settings to the factory default.'].join('\n');

  it('leads a how-to answer: it is the way to the option', () => {
    const a = answerExtractively('How do I reset the network?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Settings General Network Reset Network [1]');
  });

  it('does not lead when the question asks what the option does', () => {
    const a = answerExtractively('What does reset network do?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Restore the network settings to the factory default. [1]');
  });
});

describe('a how-to question and the section that names the task', () => {
  it('quotes the instruction under that heading before lines that only talk about the topic', () => {
    const text = [
      '## Adding a favorite channel',
      '',
      'Each favorite channel you add comes first in the channel list, with a star.',
      '',
      'You can add five favorite channel lists.',
      '',
      'A favorite channel stays a favorite channel when the TV turns off.',
      '',
      'Press Select to add the channel.',
    ].join('\n');
    const a = answerExtractively('How do I add a favorite channel?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Press Select to add the channel. [1]');
  });
});

describe('the steps added between two quoted steps', () => {
  it('stay within the line budget however long the procedure', () => {
    const steps = Array.from({ length: 12 }, (_, i) => `Step ${i + 1}: Turn dial ${i + 1} of the pump.`);
    steps[0] = 'Step 1: Open the pump calibration menu on the pump.';
    steps[11] = 'Step 12: Save the pump calibration and close the menu.';
    const text = ['## Pump calibration', '', ...steps.flatMap((s) => [s, ''])].join('\n');
    const a = answerExtractively('How do I do the pump calibration?', [passage('pump/manual.md#1', text)], { maxSentences: 3 });
    const quoted = quotedLines(a);
    expect(quoted.some((l) => l.startsWith('- Step 1:'))).toBe(true);
    expect(quoted.some((l) => l.startsWith('- Step 12:'))).toBe(true);
    // The picked lines and at most as many again: the ten steps between are not all quoted.
    expect(quoted.length).toBeLessThanOrEqual(6);
  });

  it('come from the procedure of the quoted steps, never from another one under the same heading', () => {
    const text = [
      '## Bluetooth',
      '',
      'Step 1: Open the phone Bluetooth settings.',
      '',
      'Step 2: Tap Scan.',
      '',
      'Step 3: Tap the name of the headset in the list.',
      '',
      'To pair a speaker instead:',
      '',
      'Step 1: Hold the pairing button for three seconds.',
      '',
      'Step 2: Wait for the blinking light.',
      '',
      'Step 3: Pick the speaker in the phone Bluetooth settings.',
    ].join('\n');
    const a = answerExtractively('How do I pick the speaker in phone Bluetooth settings?', [passage('phone/manual.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted).toContain('- Step 3: Pick the speaker in the phone Bluetooth settings. [1]');
    expect(quoted).toContain('- Step 1: Open the phone Bluetooth settings. [1]');
    // Neither step 2 lies between these two in one procedure.
    expect(quoted.filter((l) => l.startsWith('- Step 2:'))).toEqual([]);
  });
});

describe('"below" before a list', () => {
  const leds = ['- Green light: the board is powered.', '- Red light: the battery is charging.'];

  it('as a place ("below the USB port") does not take the list after it as its own', () => {
    const text = ['## Buttons', '', 'The reset button is below the USB port.', '', ...leds].join('\n');
    const a = answerExtractively('Where is the reset button?', [passage('board/buttons.md#1', text)]);
    const quoted = quotedLinesWithItems(a);
    expect(quoted[0]).toBe('- The reset button is below the USB port. [1]');
    expect(quoted.filter((l) => l.startsWith('  - '))).toEqual([]);
    expect(splitSentences(text).find((u) => u.text.startsWith('The reset button'))!.opens).toBeUndefined();
  });

  it('as a pointer ("are listed below.", "the steps below") still brings the list', () => {
    for (const lead of ['The states of the status light are listed below.', 'The table below gives the states of the status light', 'The status light shows the following states']) {
      const units = splitSentences(['## Status light', '', lead, '', ...leds].join('\n'));
      expect(units[0]!.opens, lead).toBe(units[1]!.block);
    }
  });

  it('still brings the code after it, which a sentence points at with "below" alone', () => {
    const units = splitSentences(['Run the command below in a terminal', '', '```', 'make flash', '```'].join('\n'));
    expect(units[0]!.opens).toBe(units[1]!.block);
  });
});

describe('a part number', () => {
  it('is a word mixing digits and capitals, also with small letters inside or first', () => {
    for (const part of ['AMS1117', 'OV2640', 'ST7735S', 'ATmega328P', 'nRF52840', 'CP2102N', 'ESP32-S3', 'BME280']) expect(namesPart(`The ${part} does it.`), part).toBe(true);
  });

  it('is not a pin, port, bus, grade or standard name, nor a line of dashes', () => {
    for (const name of ['GPIO14', 'USB3', 'HDMI2', 'IP67', 'DDR4', 'UART0', 'COM3', 'PA12', 'ISO9001', 'IEC 62368', 'GPIO3_A4', '-'.repeat(4000)])
      expect(namesPart(`Connect it to ${name} first.`), name).toBe(false);
  });
});

describe('a question asking which component', () => {
  it('is one asking which or what component: the line with the part number leads, not the one with a pin name', () => {
    const text = ['## Display', '', 'The display runs from GPIO14 of the chip.', '', 'The display runs on an ATmega328P chip.'].join('\n');
    const a = answerExtractively('Which chip runs the display?', [passage('kit/display.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- The display runs on an ATmega328P chip. [1]');
  });

  it('is not one that only mentions a component: a part number gives a line no weight then', () => {
    const text = ['## Camera', '', 'The sensor window of the small camera faces the lens.', '', 'The sensor window of the OV2640 camera faces the lens.'].join('\n');
    const a = answerExtractively('Does the camera sensor window face the lens?', [passage('cam/care.md#1', text)]);
    // Two lines alike but for the part number: reading order decides.
    expect(quotedLines(a)[0]!.startsWith('- The sensor window of the small camera')).toBe(true);
    const asked = answerExtractively('Which camera sensor faces the lens?', [passage('cam/care.md#1', text)]);
    expect(quotedLines(asked)[0]!.startsWith('- The sensor window of the OV2640 camera')).toBe(true);
  });
});

describe('a quantity the question asks for without naming it', () => {
  it('"how far" is answered by the line that labels a range or distance, before a description of the part', () => {
    const text = [
      '## Description',
      '',
      'The motion sensor is a passive infrared detector: it can detect a warm body moving in front of it and then sets its output high.',
      '',
      '## Features',
      '',
      '- Detecting range: 150cm',
      '- Delay time: 2s',
    ].join('\n');
    const a = answerExtractively('How far can the motion sensor detect?', [passage('pir/hat.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Detecting range: 150cm [1]');
  });

  it('"how heavy" is answered by the weight, not the size', () => {
    const text = ['- Size: 48 x 25 x 13mm', '- Weight: 16g', '- Screen: 0.96 inch'].join('\n');
    const a = answerExtractively('How heavy is the stick?', [passage('stick/spec.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Weight: 16g [1]');
  });
});

describe('an address the question asks for', () => {
  it('is answered first by the line that gives it in hexadecimal, not by one that only names the parts', () => {
    const text = ['The hat carries a temperature sensor and a pressure sensor, both on the I2C bus.', '', '- I2C: SHT30 (0x44), BMP280 (0x76)'].join('\n');
    const a = answerExtractively('What are the I2C addresses of the sensors on the hat?', [passage('hat/env.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- I2C: SHT30 (0x44), BMP280 (0x76) [1]');
    // The description is still quoted, after it.
    expect(quoted[1]).toBe('- The hat carries a temperature sensor and a pressure sensor, both on the I2C bus. [1]');
  });
});

describe('a "how low" or "how far" question', () => {
  it('reads the adjective as asking for a value: a line sharing only that word is not quoted', () => {
    const text = [
      '## Specifications',
      '',
      '| Item | Board |',
      '|---|---|',
      '| Processor | Dual-core processor at 160 MHz |',
      '| Wireless | Bluetooth Low Energy 5.0 |',
      '| Power consumption | Modem sleep: 30 mA, light sleep: 3.1 mA, deep sleep: 15 μA |',
      '| Flash | 4 MB |',
      '',
      'The board enters deep sleep when the timer is set and wakes when the button is pressed.',
      '',
      'In deep sleep only the timer keeps running, and the board restarts when it wakes.',
    ].join('\n');
    const a = answerExtractively('How low does the board go in deep sleep?', [passage('board/specs.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- Power consumption: Modem sleep: 30 mA, light sleep: 3.1 mA, deep sleep: 15 μA [1]');
    expect(quoted.some((l) => l.includes('Bluetooth Low Energy'))).toBe(false);
  });
});

describe('one long passage', () => {
  it('gives four of its lines to the answer: a 3000-character chunk holds two sections of the old size', () => {
    const steps = ['Press the pairing button on the speaker.', 'Open the speaker pairing menu on the remote.', 'Select the speaker in the pairing list.', 'Confirm the pairing code on the speaker.'];
    const text = steps.flatMap((s) => [s, '']).join('\n');
    const a = answerExtractively('How do I start pairing the speaker?', [passage('speaker/manual.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted).toHaveLength(4);
  });
});

describe('a question asking yes or no', () => {
  it('is answered first by the sentence that says so, not by a table row sharing its words', () => {
    const text = [
      'Both USB and serial download are supported. The QFN68 package (XY417WEU) does not support the BOOT function. Please refer to the table below for details:',
      '',
      '| Model | Package | USB |',
      '|---|---|---|',
      '| XY417WEU | QFN68 | - |',
      '| XY417QEU | QFN128 | PA11 |',
    ].join('\n');
    const first = (question: string): string | undefined => quotedLines(answerExtractively(question, [passage('xy/download.md#1', text)]))[0];
    expect(first('The tool cannot put my XY417WEU (QFN68) into BOOT mode. Is BOOT supported on that package?')).toMatch(/^- The QFN68 package \(XY417WEU\) does not support the BOOT function\./);
    // Asked which package, the row is the answer and may lead.
    expect(first('Which package is the XY417WEU in, QFN68?')).toBe('- Model: XY417WEU; Package: QFN68; USB: - [1]');
  });
});

describe('a list item that only restates the question', () => {
  it('names the topic of the lines after it, as a title does, and does not lead', () => {
    const text = [
      '- Dual-core chip download mode',
      '',
      '0x08010000 for the V5 core configuration of the starting address. Configuration completed click download.',
      '',
      'Compile the V3 project to generate the target file, select the download address 0x08000000 in the download configuration.',
      '',
      'The V5 project is downloaded after the V3 project, to its own address.',
      '',
      'The download address of each project is set in the download configuration.',
      '',
      'Click download to write the project to the flash.',
    ].join('\n');
    const a = answerExtractively('Dual-core chip: at which flash address do I download the V5 project?', [passage('evb/download.md#1', text)]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- 0x08010000 for the V5 core configuration of the starting address. Configuration completed click download. [1]');
    // Still quoted: it says which procedure the line belongs to.
    expect(quoted).toContain('- Dual-core chip download mode [1]');
  });
});
