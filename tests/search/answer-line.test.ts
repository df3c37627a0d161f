import { describe, expect, it } from 'vitest';
import { askedDimensions, askedKind, asksForQuantity, asksForVersion, evidenceLines, lineLabel, lineWords, statesQuantity, weighByAnswerLine } from '../../src-main/search/stages/answer-line.stage';
import { PassageTermStats } from '../../src-main/enrich/passage-terms';
import type { ChunkHit, ChunkRecord } from '../../src-main/storage/chunk-store';
import { markdownDocument } from '../enrich/corpus.helper';
import { record } from '../storage/fixtures';

function hit(id: string, text: string, score: number): ChunkHit {
  return { record: { ...record(id, 0, text), id, modelKey: null, parentId: null } as ChunkRecord, score };
}
const order = (hits: ChunkHit[]) => hits.map((h) => h.record.id);
const flat = () => 1;

describe('what a question asks for and what a line states', () => {
  it('knows a question asking for a value', () => {
    expect(asksForQuantity('What charge current does it use?')).toBe(true);
    expect(asksForQuantity('How many RGB LEDs are on it?')).toBe(true);
    expect(asksForQuantity('RGB LED type and count')).toBe(true);
    expect(asksForQuantity('the number of ADC inputs')).toBe(true);
    expect(asksForQuantity('How do I pair the remote?')).toBe(false);
  });

  it('reads a number with a unit as a quantity, and a name with digits as none', () => {
    for (const line of ['5V @ 500mA', 'up to 3.3 V', '-20°C ~ 65°C', '16MB Flash', '2.4GHz', 'SK6812 3535 x 1', '| RGB LED | WS2812B x 25 |', 'Button ×2']) expect(statesQuantity(line), line).toBe(true);
    for (const line of ['I2C on GPIO21', 'ESP32-S3 module', 'Press the BOOT button', '| RGB Led | G27 |', 'resolution 0x76', 'see section 3.2', 'ESP-IDF 5.1']) expect(statesQuantity(line), line).toBe(false);
  });

  it('reads a version number as the value only of a question about versions', () => {
    expect(asksForVersion('Which arduino-pico core version do I need?')).toBe(true);
    expect(asksForVersion('What is the max current?')).toBe(false);
    for (const line of ['install version 4.2.0 or later', 'firmware v1.2']) expect(statesQuantity(line, true), line).toBe(true);
    // A section number or a date is no current.
    for (const line of ['Max current: see 4.2.1', 'Updated 2023.10.05']) expect(statesQuantity(line), line).toBe(false);
  });

  it('reads table rows and sentences as lines, never code', () => {
    const text = '## Power\n\n```c\n// charge current 100 mA\n```\n\n| Charging current | 100 mA<br>0.9 mA trickle |\n\n' + 'A'.repeat(250) + '. Second sentence about charging.';
    const lines = evidenceLines(text);
    expect(lines.some((l) => l.includes('// charge'))).toBe(false);
    expect(lines).toContain('| Charging current | 100 mA<br>0.9 mA trickle |');
    expect(lines).toContain('Second sentence about charging.');
  });
});

describe('answer-line ranking', () => {
  it('puts the row that states the asked value above a paragraph that talks about it', () => {
    const prose = hit('prose', 'Charging: the charge LED lights while the battery charges. The charge current depends on the cell; see the table.', 10);
    const row = hit('row', '| Item | Value |\n| --- | --- |\n| Charging current | 50 mA (fast) |', 6);
    expect(order(weighByAnswerLine([prose, row], 'What charge current does the board use?', flat))).toEqual(['row', 'prose']);
  });

  it('counts a thesaurus word of a how-to question\'s verb at part weight, and never for a value question', () => {
    // "remove" stands in the thesaurus group of "delete": the section the manual titles with its own verb wins.
    const other = hit('other', '##### Delete conversations\n\nTap Delete to remove your conversation history.', 10);
    const task = hit('task', '#### Remove an account\n\n1. From Settings, tap Accounts.\n2. Tap the account and then tap Remove account.', 9);
    expect(order(weighByAnswerLine([other, task], 'How to delete account?', flat))).toEqual(['task', 'other']);
    // Without the credit the question's own verb leads: the same lines for a question that asks no how-to.
    expect(order(weighByAnswerLine([other, task], 'delete account', flat))).toEqual(['other', 'task']);
    // "pins" is in the group of "gpio": for a question asking how many, a pin count is not a GPIO count.
    const score = (text: string, question: string) => weighByAnswerLine([hit('h', text, 10)], question, flat)[0]!.score;
    expect(score('The chip exposes its pins here.', 'How many GPIO does the chip have?')).toBe(score('The chip exposes its legs here.', 'How many GPIO does the chip have?'));
    expect(score('Solder the chip to the pins.', 'How do I solder the GPIO?')).toBeGreaterThan(score('Solder the chip to the legs.', 'How do I solder the GPIO?'));
  });

  it('prefers the line holding the rare words of the question', () => {
    const stats = PassageTermStats.create();
    stats.addDocument(markdownDocument('a.md', Array.from({ length: 20 }, (_, i) => `The board ${i} has a port.`).join('\n\n') + '\n\nThe fan header sits near the port.'));
    const common = hit('common', 'Each board has a port on the left.', 5);
    const rare = hit('rare', 'Connect the fan to the header.', 5);
    const ranked = weighByAnswerLine([common, rare], 'board fan header', (t) => stats.idf(t));
    expect(order(ranked)).toEqual(['rare', 'common']);
  });

  it('weighs a record again by its current text, and the same record alike each time', () => {
    const row = hit('row', '| Charging current | 50 mA |', 6);
    const prose = hit('prose', 'The charge LED lights while the battery charges.', 10);
    const question = 'What charge current does the board use?';
    const first = weighByAnswerLine([prose, row], question, flat).map((h) => [h.record.id, h.score]);
    expect(weighByAnswerLine([prose, row], question, flat).map((h) => [h.record.id, h.score])).toEqual(first);
    expect(first[0]![0]).toBe('row');
    // A record whose text changed is read again, not from what its old text said.
    (row.record as { text: string }).text = 'See the table on the next page.';
    expect(order(weighByAnswerLine([prose, row], question, flat))).toEqual(['prose', 'row']);
  });

  it('reads the label of a table row or a "Label: value" line, and of no other line', () => {
    expect(lineLabel('| Flash | 1536KB + 4MB Onboard |     |')).toBe('Flash');
    expect(lineLabel('|  | RGB LED | SK6812 x 1 |')).toBe('RGB LED');
    expect(lineLabel('- Detecting Range: 150cm')).toBe('Detecting Range');
    expect(lineLabel('- **Powerful CPU**: ARM Cortex-M33 @ 78MHz')).toBe('Powerful CPU');
    expect(lineLabel('Charging current：100 mA')).toBe('Charging current');
    expect(lineLabel('| Flash |')).toBeNull();
    expect(lineLabel('| --- | --- |')).toBeNull();
    expect(lineLabel('Press the button. Note that the LED turns red when the battery charges: it is normal.')).toBeNull();
    expect(lineLabel('The board sleeps.')).toBeNull();
  });

  it('puts the line whose whole label the question names above a sentence with the same words', () => {
    const sentence = hit('sentence', 'The detecting range of the sensor is up to 150cm when nothing blocks it.', 10);
    const labelled = hit('labelled', '- Detecting Range: 150cm\n- Delay time: 2s', 8);
    expect(order(weighByAnswerLine([sentence, labelled], 'how far is the detecting range?', flat))).toEqual(['labelled', 'sentence']);
    // A label the question names only in part is no answer to it.
    const other = hit('other', '- Detecting Angle: 100°\n- Delay time: 2s', 8);
    expect(order(weighByAnswerLine([sentence, other], 'how far is the detecting range?', flat))).toEqual(['sentence', 'other']);
  });

  it('reads a numbered signal as its kind and a dotted abbreviation as the question word it cuts', () => {
    const terms = ['gpio', 'boot', 'typic', 'low', 'power', 'maximum'];
    expect([...lineWords('| Boot | | GPIO28 | Enter Boot Mode |', terms)]).toEqual(expect.arrayContaining(['gpio28', 'gpio', 'boot']));
    expect(lineWords('| Low Power (Typ.) | 42.6μA@3.7V |', terms).has('typic')).toBe(true);
    expect(lineWords('- Max. current: 5V', terms).has('maximum')).toBe(true);
    // Without the dot a short word is a word of its own, not an abbreviation; in prose a dot ends a sentence.
    expect(lineWords('| the max jumper | J3 |', terms).has('maximum')).toBe(false);
    expect(lineWords('The board then enters sleep mode.', ['model', 'sleep']).has('model')).toBe(false);
    // A cut that begins two question words stands for neither.
    expect(lineWords('| Min. | 5 |', ['minimum', 'minut']).has('minimum')).toBe(false);
    expect(lineWords('ESP32 module', terms).has('es')).toBe(false);
    // An underscore parts words as a space does.
    expect([...lineWords('| SDA_PIN | GPIO_21 |', [])]).toEqual(expect.arrayContaining(['sda', 'pin', 'gpio', '21']));
    expect(lineWords('See page12 and Step2', ['page', 'step']).has('page')).toBe(false);
    expect(lineWords('See page12 and Step2', ['page', 'step']).has('step')).toBe(false);
  });

  it('finds the pin row for "which GPIO" and the abbreviated label for a spelled-out question', () => {
    const pins = hit('pins', '| D0 | Analog | GPIO1 | GPIO, ADC |\n| Boot | | GPIO28 | Enter Boot Mode |', 5);
    const spec = hit('spec', 'Hold the BOOT button while you plug in the cable.', 6);
    expect(order(weighByAnswerLine([spec, pins], 'Which GPIO is the BOOT button?', flat))).toEqual(['pins', 'spec']);
    const intro = hit('intro', 'With low-power modes (as low as 45μA), it is ideal for batteries.', 6);
    const table = hit('table', '| **Low Power (Typ.)** | `42.6μA@3.7V` |', 5);
    expect(order(weighByAnswerLine([intro, table], 'Typical low-power current?', flat))).toEqual(['table', 'intro']);
  });

  it('reads a value by its unit as the dimension it measures', () => {
    const terms = ['standbi', 'current'];
    // "5μA" is a current though the line never says the word; "5V" is none, and neither is a "5G" network.
    expect(lineWords('Standby power consumption is less than 5μA', terms, null, askedDimensions(terms)).has('current')).toBe(true);
    expect(lineWords('Standby power consumption is less than 5V', terms, null, askedDimensions(terms)).has('current')).toBe(false);
    expect(lineWords('Weighs about 5G', ['weight'], null, askedDimensions(['weight'])).has('weight')).toBe(false);
    expect(lineWords('Weighs about 5 g', ['weight'], null, askedDimensions(['weight'])).has('weight')).toBe(true);
    // A how-to question asks for steps, not for the value a unit measures.
    expect(askedDimensions(['set', 'clock'], 'How do I set the clock?')).toEqual([]);
    const steps = hit('steps', 'To set the clock, press Menu 3 times.', 10);
    const cpu = hit('cpu', 'The CPU runs at 240MHz.', 9);
    expect(order(weighByAnswerLine([cpu, steps], 'How do I set the clock?', flat))).toEqual(['steps', 'cpu']);
    const charging = hit('charging', '## Battery charging current\nThe charging current is 50mA or 100mA.', 10);
    const features = hit('features', '- Standby power consumption is less than 5μA\n- Bluetooth 5.0', 8);
    expect(order(weighByAnswerLine([charging, features], 'standby current', flat))).toEqual(['features', 'charging']);
    // "How far" asks for a distance, which a length states ("150cm"); a time or an angle is none.
    expect(lineWords('- Detecting Range: 150cm', ['far', 'detect'], null, askedDimensions(['far', 'detect'])).has('far')).toBe(true);
    expect(lineWords('- Delay time: 2s', ['far', 'detect'], null, askedDimensions(['far', 'detect'])).has('far')).toBe(false);
    const about = hit('about', 'The sensor detects infrared light from people and animals.', 10);
    const spec = hit('spec', '- Detecting Range: 150cm\n- Delay time: 2s', 8);
    expect(order(weighByAnswerLine([about, spec], 'How far can it detect?', flat))).toEqual(['spec', 'about']);
  });

  it('asks for a numbered signal only when the question names its kind as signals are written', () => {
    expect(askedKind('Which GPIO is the BOOT button?')).toBe('gpio');
    expect(askedKind('what UARTs does the tool use?')).toBe('uart');
    expect(askedKind('Which pin is the LED on?')).toBeNull();
    expect(askedKind('What charge current does it use?')).toBeNull();
    // An acronym that names no kind of signal, and a question in capitals throughout, ask for none.
    expect(askedKind('Which LED shows charging?')).toBeNull();
    expect(askedKind('Which USB port supports OTG?')).toBeNull();
    expect(askedKind('WHICH PIN IS THE LED ON?')).toBeNull();
    const led = hit('led', 'The red LED lights while the battery is charging.', 10);
    const row = hit('row', '| LED1 | GPIO2 | user LED |', 6);
    expect(order(weighByAnswerLine([row, led], 'Which LED shows charging?', flat))).toEqual(['led', 'row']);
    // The button's spec row names no GPIO: the pin row answers, though the spec row shares more words.
    const spec = hit('spec', '| Onboard Buttons | Reset / Boot Button |', 6);
    const pins = hit('pins', '| Boot | | GPIO28 | Enter Boot Mode |', 5);
    expect(order(weighByAnswerLine([spec, pins], 'Which GPIO is the BOOT button?', (t) => (t === 'gpio' ? 0.5 : 2)))).toEqual(['pins', 'spec']);
  });

  it('gives a label its whole weight when it names the question, and a share when it names a part', () => {
    // "Sound:" names one word of three; the section titled by two of them answers.
    const modes = hit('modes', '#### Sound mode\n- Sound: Use the sounds you chose for notifications and alerts.\n- Mute: No sounds.', 7);
    const section = hit('section', '#### Notification sound\nChoose a preset sound for all notification alerts.', 10);
    expect(order(weighByAnswerLine([modes, section], 'How can I setup notification sound?', flat))).toEqual(['section', 'modes']);
    // "Power off:" is all the question asks ("off" is a word here: it is what the technician wants done).
    const spec = hit('spec', '| Power | USB-C input |', 10);
    const howto = hit('howto', '* Power on: click the power button\n* Power off: double-click the power button', 9);
    expect(order(weighByAnswerLine([spec, howto], 'How do you power off the device?', flat))).toEqual(['howto', 'spec']);
  });

  it('leaves a question of stopwords alone', () => {
    const a = hit('a', 'x', 2);
    const b = hit('b', 'y', 1);
    expect(weighByAnswerLine([a, b], 'what is it', flat)).toEqual([a, b]);
  });
});
