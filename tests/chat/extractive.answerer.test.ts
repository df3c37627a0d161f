import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../src-main/contract/api';
import { answerExtractively, EXTRACTED_LABEL } from '../../src-main/chat/extractive.answerer';
import { questionKind } from '../../src-main/chat/question-kind';
import type { Passage } from '../../src-main/chat/passages';
import { citationFor, locateMembers } from '../../src-main/chat/passages';
import { splitSentences, stem, terms } from '../../src-main/chat/sentences';
import { passageTerms } from '../../src-main/enrich/passage-terms';
import { quotedLines } from './fixtures';

function hit(id: string, text: string, extra: Partial<SearchHit> = {}): SearchHit {
  return {
    chunkId: id,
    doc: `${id.split('#')[0]}`,
    title: 'Power',
    text,
    score: 1,
    pages: [2],
    headingPath: ['Manual', 'Power'],
    start: 100,
    end: 100 + text.length,
    signature: { category: null, nouns: [], model: 'E52C' },
    snippet: '',
    ...extra,
  };
}

const POWER = [
  '## Power supply',
  '',
  'The E52C is a compact router. It supports a fixed voltage of 5V/3A over USB Type-C. Other voltages are not supported!',
  '',
  '| Item | Value |',
  '| :-: | :---: |',
  '| Power input | 5V/3A |',
  '| Weight | 120 g |',
  '',
  '- Use the official adapter.',
  '- Check the cable before powering on.',
  '',
  '```bash',
  'sudo rsetup',
  '```',
].join('\n');

describe('sentence splitting', () => {
  it('cuts prose, list items, table rows (with their header) and code lines, in passage order', () => {
    const s = splitSentences(POWER);
    expect(s.map((x) => x.text)).toEqual([
      'The E52C is a compact router.',
      'It supports a fixed voltage of 5V/3A over USB Type-C.',
      'Other voltages are not supported!',
      'Power input: 5V/3A',
      'Weight: 120 g',
      'Use the official adapter.',
      'Check the cable before powering on.',
      '`sudo rsetup`',
    ]);
    expect(s.map((x) => x.kind)).toEqual(['prose', 'prose', 'prose', 'row', 'row', 'item', 'item', 'code']);
    for (const x of s) {
      expect(x.offset).toBeGreaterThanOrEqual(0);
      expect(POWER.slice(x.offset, x.offset + x.length).length).toBe(x.length);
    }
    // Offsets point at the source of each unit.
    expect(POWER.slice(s[1]!.offset).startsWith('It supports')).toBe(true);
    expect(POWER.slice(s[3]!.offset).startsWith('| Power input')).toBe(true);
  });

  it('reads a numbered table row with its header so the value keeps its label', () => {
    const s = splitSentences('| PIN | PIN definition |\n| :-: | :-: |\n| 1 | GND |\n| 2 | GPIOAO-11 |');
    expect(s.map((x) => x.text)).toEqual(['PIN: 1; PIN definition: GND', 'PIN: 2; PIN definition: GPIOAO-11']);
  });

  it("writes a datasheet row's unit after each of its numbers, so the line states values", () => {
    const table = ['| Symbol | Parameter | Min. | Typ. | Max. | Unit |', '| --- | --- | --- | --- | --- | --- |', '| VO | Output Voltage | 4.8 | 5.0 | 5.2 | V |', '| VDDIO | Supply | 2.1/1.62 | – | 3.63/1.98 | V |', '| IQ | Quiescent Current | – | 5 | 8 | |'].join('\n');
    expect(splitSentences(table).map((x) => x.text)).toEqual([
      'Symbol: VO; Parameter: Output Voltage; Min.: 4.8 V; Typ.: 5.0 V; Max.: 5.2 V',
      'Symbol: VDDIO; Parameter: Supply; Min.: 2.1/1.62 V; Typ.: –; Max.: 3.63/1.98 V',
      'Symbol: IQ; Parameter: Quiescent Current; Min.: –; Typ.: 5; Max.: 8',
    ]);
    const row = (head: string, cells: string) => splitSentences([head, head.replace(/[^|]+/g, ' --- '), cells].join('\n'))[0]!.text;
    // Only value columns take a unit, each its nearest unit column's; a first column or a cell
    // that is no unit ("Indoor unit", a count) is not one.
    expect(row('| No. | Parameter | Min | Max | Unit |', '| 1 | Supply | 3.0 | 3.6 | V |')).toBe('No.: 1; Parameter: Supply; Min: 3.0 V; Max: 3.6 V');
    expect(row('| Value | Unit | Value | Unit |', '| 500 | V | 2 | mA |')).toBe('Value: 500 V; Value: 2 mA');
    expect(row('| Unit | Net weight (kg) | Gross weight (kg) |', '| Indoor unit | 10 | 12 |')).toBe('Unit: Indoor unit; Net weight (kg): 10; Gross weight (kg): 12');
    expect(row('| Part No. | Description | Units |', '| 12 | Screw | 4 |')).toBe('Part No.: 12; Description: Screw; Units: 4');
  });

  it('drops images, link targets, HTML tags and blockquote marks from what it shows', () => {
    const s = splitSentences('> See the [power guide](/docs/power) for <b>details</b>. ![diagram](/img/a.png)');
    expect(s.map((x) => x.text)).toEqual(['See the power guide for details.']);
  });

  it('reads a link whose emphasis closes before its target as the link, without the raw URL', () => {
    const s = splitSentences('- **[Arduino core documentation]**(https://example.org/install.html) lists the versions.\n- See __[the guide]__(/docs/guide).');
    expect(s.map((x) => x.text)).toEqual(['**Arduino core documentation** lists the versions.', 'See __the guide__.']);
    // A bracket followed by emphasis and a parenthesis that is no link target stays as written.
    expect(splitSentences('Press **[OK]**(twice) to confirm.').map((x) => x.text)).toEqual(['Press **[OK]**(twice) to confirm.']);
  });

  it('stems word forms alike and splits compounds into their parts too', () => {
    expect(stem('changed')).toBe(stem('change'));
    expect(stem('flashing')).toBe(stem('flash'));
    expect(stem('supplies')).toBe(stem('supply'));
    expect(terms('Quad-core Cortex-A76')).toEqual(expect.arrayContaining([stem('quad-core'), 'core', 'cortex-a76', 'cortex']));
  });

  it('stems a doubled consonant before "-ing" or "-ed" as the stem itself, as the search does', () => {
    // A plain suffix cut left "resett" and "stopp", which never met "reset" or "stop".
    expect(stem('resetting')).toBe(stem('reset'));
    expect(stem('stopped')).toBe(stem('stop'));
    expect(stem('plugged')).toBe(stem('plug'));
    // The same stems as the search's passage statistics, so chat and search read a word alike.
    expect(terms('Resetting the network')).toEqual(passageTerms('Resetting the network'));
    // A code with digits is kept as written.
    expect(stem('GPIO14')).toBe('gpio14');
  });
});

describe('extractive answers', () => {
  const passages: Passage[] = [
    { hit: hit('e52c/power.md#1', POWER), members: [] },
    { hit: hit('e52c/faq.md#4', 'Can the E52C be powered over PoE? No. The E52C needs 5V/3A on its USB Type-C port.'), members: [] },
    { hit: hit('e52c/leds.md#2', 'The status LED blinks during boot. The LED turns solid when the system is ready.'), members: [] },
  ];

  it('labels the answer as extracted and cites every sentence, with [1] for the best passage', () => {
    const a = answerExtractively('What power supply voltage and current does it need?', passages);
    const [label, , model, ...lines] = a.text.split('\n');
    expect(label).toBe(EXTRACTED_LABEL);
    // Every passage is the E52C's: the model is said once, above the quoted lines.
    expect(model).toBe('For E52C:');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^- .+ \[\d+\]$/);
    expect(lines[0]).toMatch(/\[1\]$/);
    expect(a.citations[0]!.chunkId).toBe('e52c/power.md#1');
    expect(a.citations.map((c) => c.n)).toEqual(a.citations.map((_, i) => i + 1));
    const cited = new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
    expect([...cited].sort()).toEqual(a.citations.map((c) => c.n));
  });

  it('prefers sentences carrying the question’s numbers and units and quotes them verbatim', () => {
    const a = answerExtractively('Is 5V/3A enough?', passages);
    expect(a.text).toContain('It supports a fixed voltage of 5V/3A over USB Type-C.');
    expect(a.text).not.toContain('status LED');
  });

  it('never cites a passage twice under different numbers and quotes at most `perPassage` sentences per passage', () => {
    const a = answerExtractively('power supply 5V/3A USB Type-C', passages, { perPassage: 2 });
    expect(new Set(a.citations.map((c) => c.chunkId)).size).toBe(a.citations.length);
    for (const c of a.citations) {
      const lines = a.text.split('\n').filter((l) => l.endsWith(`[${c.n}]`));
      expect(lines.length).toBeLessThanOrEqual(2);
    }
  });
});

describe('citations into merged units', () => {
  const members = ['Replace the seal kit every 2000 hours.', 'Clean the inlet strainer every week.', 'Grease the bearings every month.'];
  const text = members.join('\n\n');
  const record = {
    text,
    members: [
      { ordinal: 4, start: 1000, end: 1000 + members[0]!.length, pageStart: 2, pageEnd: 2 },
      { ordinal: 5, start: 1500, end: 1500 + members[1]!.length, pageStart: 3, pageEnd: 3 },
      { ordinal: 6, start: 2000, end: 2000 + members[2]!.length, pageStart: 4, pageEnd: 5 },
    ],
  };

  it('locates each member inside the unit text', () => {
    const located = locateMembers(record);
    expect(located.map((m) => text.slice(m.textStart, m.textEnd))).toEqual(members);
  });

  it('cites the member holding the quoted sentence, with that member’s offsets and pages', () => {
    const passage: Passage = { hit: hit('pump.pdf#1+3', text, { pages: [2, 3, 4, 5], start: 1000, end: 2000 + members[2]!.length }), members: locateMembers(record) };
    const byOffset = citationFor(passage, 1, { offset: text.indexOf('Clean the inlet') });
    expect(byOffset).toMatchObject({ chunkId: 'pump.pdf#1+3', pages: [3], start: 1500, quote: members[1] });
    const byWords = citationFor(passage, 2, { texts: ['no such words', 'grease bearings monthly'] });
    expect(byWords).toMatchObject({ pages: [4, 5], start: 2000, quote: members[2] });
    const verbatim = citationFor(passage, 3, { texts: ['Replace the seal kit'] });
    expect(verbatim).toMatchObject({ pages: [2], start: 1000, quote: members[0] });
    const whole = citationFor(passage, 4, { texts: ['nothing in common'] });
    expect(whole).toMatchObject({ pages: [2, 3, 4, 5], start: 1000, quote: text });
  });

  it('falls back to the whole unit when member lengths do not add up to its text', () => {
    expect(locateMembers({ text: `${text} extra`, members: record.members })).toEqual([]);
    expect(locateMembers({ text: members[0]!, members: [record.members[0]!] })).toEqual([]);
  });
});

describe('structure kept in extracted answers', () => {
  const vocabularyModels = ['ROCK 5B', 'ROCK 5B+'];
  const modelIn = (text: string): string | null => [...vocabularyModels].reverse().find((m) => text.includes(m)) ?? null;

  it('quotes a lead sentence ending in ":" together with the list that follows it', () => {
    const text = ['## Power', '', 'The board supports these power adapters:', '', '- PD 30W charger', '- 12V/2A DC adapter', '', 'Other text about LEDs.'].join('\n');
    const a = answerExtractively('Which power adapters are supported?', [{ hit: hit('b/power.md#1', text, { signature: { category: null, nouns: [], model: null } }), members: [] }]);
    const lines = a.text.split('\n');
    const lead = lines.findIndex((l) => l.startsWith('- The board supports these power adapters: [1]'));
    expect(lead).toBeGreaterThan(-1);
    expect(lines[lead + 1]).toBe('  - PD 30W charger [1]');
    expect(lines[lead + 2]).toBe('  - 12V/2A DC adapter [1]');
  });

  it('never quotes the front matter of a later member of a merged unit, and keeps a YAML example in a code block', () => {
    const text = ['## V3.00', '', '- Upgrade DDR3 to DDR4', '', '---', 'sidebar_position: 20', 'title: Revision', '---', '', '# Revision', '', 'Check the hardware revisions here.', '', '```yaml', '---', 'title: Example', '---', '```'].join('\n');
    const shown = splitSentences(text).map((s) => s.text);
    expect(shown).toEqual(['Upgrade DDR3 to DDR4', 'Check the hardware revisions here.', '`---`', '`title: Example`', '`---`']);
  });

  it('never quotes front matter, JSX or raw <img> tags', () => {
    const text = ['---', 'title: Power supply', 'sidebar_position: 3', '---', '<Tabs>', '<TabItem value="a">', '<img src="x.png" width="300" />', 'The input voltage is 5V over USB-C.', '</TabItem>', '</Tabs>'].join('\n');
    const a = answerExtractively('What is the input voltage?', [{ hit: hit('b/p.md#1', text), members: [] }]);
    expect(a.text).toContain('The input voltage is 5V over USB-C. [1]');
    for (const bad of ['title:', 'sidebar_position', '<Tabs', 'TabItem', '<img', '---']) expect(a.text).not.toContain(bad);
  });

  it('groups several models\' values under each model\'s sub-heading and asks back when no model is named', () => {
    const text = ['## ROCK 5B', '', '- Supply: PD 30W charger', '', '## ROCK 5B+', '', '- Supply: 12V DC charger'].join('\n');
    const a = answerExtractively('Which supply charger?', [{ hit: hit('b/p.md#1', text, { signature: { category: null, nouns: [], model: null } }), members: [] }], { modelIn });
    const lines = a.text.split('\n');
    const first = lines.indexOf('ROCK 5B:');
    const second = lines.indexOf('ROCK 5B+:');
    expect(first).toBeGreaterThan(-1);
    expect(second).toBeGreaterThan(first);
    expect(lines.slice(first, second).join('\n')).toContain('PD 30W');
    expect(lines.slice(second).join('\n')).toContain('12V DC');
    expect(a.text).toContain('Which model: ROCK 5B, ROCK 5B+?');
  });

  it('gives each model\'s lines of one passage their own source, which names that model', () => {
    const text = ['## ROCK 5B', '', '- Supply: PD 30W charger', '', '## ROCK 5B+', '', '- Supply: 12V DC charger'].join('\n');
    const a = answerExtractively('Which supply charger?', [{ hit: hit('b/p.md#1', text, { signature: { category: null, nouns: [], model: 'ROCK 5B' } }), members: [] }], { modelIn });
    const numberOn = (words: string): number => Number(/\[(\d+)\]$/.exec(a.text.split('\n').find((l) => l.includes(words)) ?? '')?.[1]);
    const forB = a.citations.find((c) => c.n === numberOn('PD 30W'));
    const forBPlus = a.citations.find((c) => c.n === numberOn('12V DC'));
    expect(forB?.model).toBe('ROCK 5B');
    // The chunk's model is the ROCK 5B; the line under the ROCK 5B+ heading is cited as the ROCK 5B+'s.
    expect(forBPlus?.model).toBe('ROCK 5B+');
    expect(forBPlus?.chunkId).toBe(forB?.chunkId);
    expect(forBPlus?.n).not.toBe(forB?.n);
  });

  it('puts the named model\'s line first and keeps the sibling\'s out of the lead', () => {
    const text = ['## ROCK 5B', '', '- Supply: PD 30W charger', '', '## ROCK 5B+', '', '- Supply: 12V DC charger'].join('\n');
    const a = answerExtractively('Which supply charger?', [{ hit: hit('b/p.md#1', text, { signature: { category: null, nouns: [], model: null } }), members: [] }], {
      modelIn,
      models: ['ROCK 5B+'],
      modelNamed: true,
    });
    const quoted = quotedLines(a);
    expect(quoted[0]).toContain('12V DC');
    expect(a.text).not.toContain('Which model');
  });
});

describe("other products' lines", () => {
  const modelIn = (text: string): string | null => ['PUMP X2', 'PUMP X3'].find((m) => text.toUpperCase().includes(m)) ?? null;
  const own = (id: string, text: string): Passage => ({ hit: hit(id, text, { signature: { category: null, nouns: [], model: 'PUMP X2' }, headingPath: ['Pump X2', 'Specification'] }), members: [] });
  const foreign = (id: string, text: string, model: string | null = null): Passage => ({
    hit: hit(id, text, { signature: { category: null, nouns: [], model }, headingPath: ['Sensor hat', 'Weight & Dimension'] }),
    members: [],
  });
  const block = (a: { text: string }, header: string): string[] => {
    const lines = a.text.split('\n');
    const at = lines.indexOf(header);
    if (at < 0) return [];
    const end = lines.findIndex((l, i) => i > at && (l === '' || !l.startsWith('- ')));
    return lines.slice(at + 1, end < 0 ? undefined : end);
  };

  it('never puts a line of a passage of no model from another document under the asked model', () => {
    const passages = [foreign('hat/env.md#1', '- Weight: 3g'), own('pump/x2.md#4', '- Net weight: 101g\n- Gross weight: 108g'), foreign('unit/v.md#2', '- Weight: 4g')];
    const a = answerExtractively('and the weight?', passages, { modelIn, models: ['PUMP X2'], modelNamed: true });
    const mine = block(a, 'For PUMP X2:');
    expect(mine.join('\n')).toContain('Net weight: 101g');
    expect(mine.join('\n')).not.toMatch(/Weight: [34]g/);
    // Shown apart, after the asked model's lines, under the document's name.
    expect(block(a, 'From "Sensor hat" (not found to be about PUMP X2):').join('\n')).toMatch(/Weight: 3g[\s\S]*Weight: 4g/);
    expect(a.text.indexOf('For PUMP X2:')).toBeLessThan(a.text.indexOf('From "Sensor hat"'));
    // The sources still point at the documents the lines come from.
    const numberOn = (words: string): number => Number(/\[(\d+)\]$/.exec(a.text.split('\n').find((l) => l.includes(words)) ?? '')?.[1]);
    expect(a.citations.find((c) => c.n === numberOn('Weight: 3g'))?.doc).toBe('hat/env.md');
  });

  it('names a document of no model once, by its title, even where a quoted section sits right under it', () => {
    // The same page twice: a section under its title, and the title's own opening (no sub-heading).
    const spec = foreign('hat/ink.md#2', '- Battery: 390mAh');
    const intro: Passage = { hit: hit('hat/ink.md#1', '- The hat holds a 390mAh cell.', { signature: { category: null, nouns: [], model: null }, headingPath: ['Sensor hat'] }), members: [] };
    const a = answerExtractively('battery capacity?', [spec, own('pump/x2.md#4', '- Battery: 110mAh'), intro], { modelIn, models: ['PUMP X2'], modelNamed: true });
    expect(block(a, 'From "Sensor hat" (not found to be about PUMP X2):').join('\n')).toMatch(/390mAh[\s\S]*390mAh cell/);
    expect(a.text).not.toContain('ink.md');
  });

  it("does not head a page's lines of no model with a model only another passage of that page names, unless the question names it", () => {
    // A sensor page with no model of its own: its driver note names the PUMP X2 as a host.
    const page = (id: string, text: string, model: string | null, heading: string): Passage => ({
      hit: hit(id, text, { signature: { category: null, nouns: [], model }, headingPath: ['Sensor hat', heading] }),
      members: [],
    });
    const passages = [
      page('hat/pir.md#7', '- Port: GROVE B of the host', null, 'Pin map'),
      page('hat/pir.md#4', '- The host port needs no driver on the PUMP X2.', 'PUMP X2', 'Driver'),
    ];
    const asked = 'Which host port does the sensor hat plug into?';
    const inferred = answerExtractively(asked, passages, { modelIn });
    expect(block(inferred, 'From "Sensor hat":').join('\n')).toContain('GROVE B');
    expect(block(inferred, 'For PUMP X2:').join('\n')).not.toContain('GROVE B');
    expect(block(inferred, 'For PUMP X2:').join('\n')).toContain('no driver');
    // Asked about the PUMP X2, the page its passage belongs to answers for it.
    const named = answerExtractively(asked, passages, { modelIn, models: ['PUMP X2'], modelNamed: true });
    expect(block(named, 'For PUMP X2:').join('\n')).toMatch(/GROVE B[\s\S]*no driver/);
  });

  it('does not say "not found to be about" of a page the question names itself', () => {
    const intro: Passage = { hit: hit('hat/ink.md#2', '- The hat holds a 390mAh cell.', { signature: { category: null, nouns: [], model: null }, headingPath: ['Sensor hat', 'Battery'] }), members: [] };
    const a = answerExtractively('battery capacity of the X2 and the sensor hat?', [own('pump/x2.md#4', '- Battery: 110mAh'), intro], { modelIn, models: ['PUMP X2'], modelNamed: true });
    expect(block(a, 'From "Sensor hat":').join('\n')).toContain('390mAh cell');
    expect(a.text).not.toContain('not found to be about');
  });

  it('comparing two models, quotes a line of each under its own name even when one manual outscores the other', () => {
    const x3 = (id: string, text: string): Passage => ({ hit: hit(id, text, { signature: { category: null, nouns: [], model: 'PUMP X3' }, headingPath: ['Pump X3', 'Specification'] }), members: [] });
    // The X2's manual compares itself with the X3 and fills the first passages.
    const passages = [
      own('pump/x2.md#1', 'Compared with the X3, the battery capacity is larger: 120mAh. The battery capacity is printed on the battery.'),
      own('pump/x2.md#2', '- Battery: 120 mAh @ 3.7V\n- Battery capacity: 120mAh\n- Battery capacity at 0°C: 100mAh'),
      own('pump/x2.md#3', '- Built-in battery\n- Battery capacity check: hold A'),
      own('pump/x2.md#4', '- Battery pack: replaceable\n- Battery capacity after 500 cycles: 90%'),
      x3('pump/x3.md#2', '- Battery: 95 mAh @ 3.7V'),
    ];
    const a = answerExtractively('compare the battery capacity', passages, { modelIn, models: ['PUMP X2', 'PUMP X3'], modelNamed: true });
    expect(block(a, 'For PUMP X2:').join('\n')).toContain('120mAh');
    expect(block(a, 'For PUMP X3:').join('\n')).toContain('95 mAh');
    expect(a.text).not.toContain('For PUMP X2 and PUMP X3:');
  });

  it("names a PDF's passages by their own chapters when its top headings differ", () => {
    const chapter = (id: string, text: string, path: string[]): Passage => ({ hit: hit(id, text, { signature: { category: null, nouns: [], model: null }, headingPath: path }), members: [] });
    const passages = [
      own('pump/x2.md#4', '- Battery: 110mAh'),
      chapter('evt/board.pdf#3', '- Battery holder: CR2032', ['2. Board Hardware', 'Power']),
      chapter('evt/board.pdf#9', '- Battery voltage pin: PA1', ['3. Software', 'ADC']),
      chapter('evt/board.pdf#1', '- The battery is not included.', ['1. Overview']),
    ];
    const a = answerExtractively('battery?', passages, { modelIn, models: ['PUMP X2'], modelNamed: true, maxPassages: 4 });
    expect(block(a, 'From "2. Board Hardware" (not found to be about PUMP X2):').join('\n')).toContain('CR2032');
    expect(block(a, 'From "3. Software" (not found to be about PUMP X2):').join('\n')).toContain('PA1');
    expect(block(a, 'From "board.pdf" (not found to be about PUMP X2):').join('\n')).toContain('not included');
    // One chapter quoted with a section under it does not name another chapter's opening.
    const two = answerExtractively('battery?', [passages[0]!, passages[1]!, passages[3]!], { modelIn, models: ['PUMP X2'], modelNamed: true, maxPassages: 4 });
    expect(block(two, 'From "board.pdf" (not found to be about PUMP X2):').join('\n')).toContain('not included');
    expect(block(two, 'From "2. Board Hardware" (not found to be about PUMP X2):').join('\n')).not.toContain('not included');
  });

  it("keeps a line of no model under the asked model when its document is that model's", () => {
    const untitled: Passage = { hit: hit('pump/x2.md#9', '- Weight: 2 kg', { signature: { category: null, nouns: [], model: null }, headingPath: ['Dimensions'] }), members: [] };
    const a = answerExtractively('weight?', [untitled, own('pump/x2.md#4', '- Net weight: 101g')], { modelIn, models: ['PUMP X2'], modelNamed: true });
    expect(block(a, 'For PUMP X2:').join('\n')).toMatch(/Weight: 2 kg[\s\S]*Net weight: 101g/);
    expect(a.text).not.toContain('not found to be about');
  });

  it("shows a sibling model's line apart under its own name, a family member's under its name after the asked model's, and a revision's under the asked model", () => {
    const passages = [own('pump/x2.md#4', '- Net weight: 101g'), foreign('pump/x3.md#1', '- Net weight: 130g', 'PUMP X3')];
    const apart = answerExtractively('net weight?', passages, { modelIn, models: ['PUMP X2'], modelNamed: true });
    expect(block(apart, 'For PUMP X2:').join('\n')).not.toContain('130g');
    expect(block(apart, 'For PUMP X3, not PUMP X2:').join('\n')).toContain('130g');
    const sameModel = (asked: readonly string[], m: string): boolean => m.startsWith('PUMP X') && asked.length > 0;
    // A member of the family is other hardware: its value is shown, under its own name, after the asked model's.
    const family = answerExtractively('net weight?', [passages[1]!, passages[0]!], { modelIn, models: ['PUMP X2'], modelNamed: true, sameModel });
    expect(block(family, 'For PUMP X2:').join('\n')).not.toContain('130g');
    expect(block(family, 'For PUMP X3 (related to PUMP X2):').join('\n')).toContain('130g');
    expect(quotedLines(family)[0]).toContain('101g');
    // A line that names the asked model itself is the asked model's, whatever its page.
    const naming = answerExtractively('net weight?', [foreign('pump/x3.md#1', '- The PUMP X2 net weight is 130g', 'PUMP X3')], { modelIn, models: ['PUMP X2'], modelNamed: true, sameModel, namesAsked: (asked, text) => asked.some((a) => text.includes(a)) });
    expect(block(naming, 'For PUMP X2:').join('\n')).toContain('130g');
    // A revision is the same hardware.
    const revision = answerExtractively('net weight?', passages, { modelIn, models: ['PUMP X2'], modelNamed: true, sameModel, exactModel: sameModel });
    expect(block(revision, 'For PUMP X2:').join('\n')).toContain('130g');
  });

  it('with no model asked, says which lines are the one quoted model\'s, names the other document plainly and keeps the best line first', () => {
    const passages = [foreign('shield/grove.md#3', '- Charging current: 500mA (Max)'), own('pump/x2.md#4', '- Battery capacity changed from 150mAh to 110mAh')];
    const a = answerExtractively('battery capacity charging current?', passages, { modelIn });
    const quoted = quotedLines(a);
    expect(quoted[0]).toContain('Charging current');
    expect(block(a, 'For PUMP X2:').join('\n')).not.toContain('Charging current');
    // The question named no model, so the other page is not "not found to be about PUMP X2".
    expect(block(a, 'From "Sensor hat":').join('\n')).toContain('Charging current');
    expect(a.text).not.toContain('not found to be about');
  });
});

describe('titles left as text', () => {
  it('reads a short unpunctuated line of its own as the title of what follows, so its steps are under it', () => {
    const units = splitSentences(['Connecting a wired network', '', 'If you connect a LAN cable, the unit goes online by itself.', '', 'Use a shielded cable.'].join('\n'));
    expect(units.map((u) => u.heading)).toEqual([null, 'Connecting a wired network', 'Connecting a wired network']);
    // A sentence, even a short one, is not a title.
    expect(splitSentences('Connect the cable.\n\nThen switch it on.').map((u) => u.heading)).toEqual([null, null]);
  });

  it('quotes the line under the title that matches the question before a line elsewhere that shares its words', () => {
    const text = [
      'Connecting a wireless network',
      '',
      'Keep the router close to the unit while you connect.',
      '',
      'Connecting a wired network',
      '',
      'If you connect a LAN cable, the unit goes online by itself.',
    ].join('\n');
    const a = answerExtractively('How do I connect a wired network?', [{ hit: hit('b/net.md#1', text), members: [] }]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toContain('If you connect a LAN cable');
  });
});

describe('text a PDF converter marked up as headings', () => {
  it('reads long or sentence-ending "headings" as text, joining a sentence cut over two of them', () => {
    const md = [
      '## 6.1 Moisture Sensitivity Level',
      '',
      '### The moisture sensitivity level of the chip is MSL3. After the vacuum package is opened, it must be used within',
      '',
      '### 168 hours (7 days) at 30°C/60%RH, otherwise it must be baked before use.',
      '',
      '### Table 6.2',
    ].join('\n');
    const texts = splitSentences(md).map((u) => u.text);
    expect(texts).toContain('After the vacuum package is opened, it must be used within 168 hours (7 days) at 30°C/60%RH, otherwise it must be baked before use.');
    expect(splitSentences(md).every((u) => u.heading === '6.1 Moisture Sensitivity Level')).toBe(true);
  });

  it('never quotes a table-of-contents entry', () => {
    const md = ['2.7 Boot . . . . . . . . . . . . . . . . 12', '', 'The chip boots from UART or flash.'].join('\n');
    expect(splitSentences(md).map((u) => u.text)).toEqual(['The chip boots from UART or flash.']);
  });
});

describe('question-type cues', () => {
  const one = (question: string, text: string): string => {
    const a = answerExtractively(question, [{ hit: hit('b/p.md#1', text), members: [] }]);
    return quotedLines(a)[0] ?? '';
  };

  it('puts the line with a value first when the question asks for a quantity', () => {
    const text = ['The battery keeps the clock running while the unit is off.', '', 'It has a 120 mAh battery.'].join('\n');
    expect(one('How big is the battery?', text)).toContain('120 mAh');
  });

  it('puts the line naming a pin first when the question asks for a pin', () => {
    const text = ['The status LED blinks.', '', 'The LED on the front of the case is wired to IO16 through a resistor.'].join('\n');
    expect(one('Which pin drives the LED?', text)).toContain('IO16');
  });

  it('puts the "Label: value" line whose label is the question\'s subject first', () => {
    const text = ['- Press the power button to turn the screen off.', '- Power off: double-click the red button on the left side of the case'].join('\n');
    expect(one('How do I power off?', text)).toContain('Power off: double-click');
  });
});

describe('line order', () => {
  it("starts with the passage's best sentence even when it comes later in the passage, then keeps reading order", () => {
    const text = [
      '## Power',
      '',
      'The adapter plugs into the USB-C port, 2 cm from the side of the case.',
      '',
      'Use a cable that is shorter than one metre.',
      '',
      'The adapter must give a fixed voltage from 6V to 12V on the USB-C port.',
    ].join('\n');
    const a = answerExtractively('What fixed voltage range must the USB-C adapter give?', [{ hit: hit('b/power.md#1', text), members: [] }]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toContain('fixed voltage from 6V to 12V');
    expect(quoted.length).toBeGreaterThan(1);
    expect(quoted[1]).toContain('plugs into the USB-C port');
  });
});

describe('quoted verbatim', () => {
  it('keeps the manual\'s own spacing before punctuation, so the quote matches the manual', () => {
    const s = splitSentences('It provides more hardware resources : 16M Flash + 4M PSRAM, a <b>larger</b> battery <i>etc</i>.');
    expect(s[0]!.text).toBe('It provides more hardware resources : 16M Flash + 4M PSRAM, a larger battery etc.');
  });
});

describe('table rows and their labels', () => {
  it('reads a row\'s first cell as its label, so the row the question names comes first in a table of several columns', () => {
    const text = [
      '| Item | Board A | Board B |',
      '| --- | --- | --- |',
      '| USB | Flash the firmware over USB at 921600 baud, 2 Mbaud on Windows | same |',
      '| Flash | 4 MB, shared with the file system and the display buffer | 8 MB |',
    ].join('\n');
    const a = answerExtractively('How much flash?', [{ hit: hit('b/spec.md#1', text), members: [] }]);
    expect(quotedLines(a)[0]).toContain('Item: Flash; Board A: 4 MB');
    expect(splitSentences(text).map((s) => s.label)).toEqual(['USB', 'Flash']);
  });

  it('shows a Markdown escape as its character, so a quoted "\\-20°C" reads as the manual shows it', () => {
    expect(splitSentences('| Working temperature | \\-20°C ~ 65°C |')[0]!.text).toBe('Working temperature: -20°C ~ 65°C');
    expect(splitSentences('Set it to 1\\*2 \\[mode\\].')[0]!.text).toBe('Set it to 1*2 [mode].');
  });
});

describe('lines that are not sentences', () => {
  it('quotes a lead line ending in a full-width colon with the list it opens', () => {
    const text = ['**Power switch operation：**', '', '- Power on: press the power button for 2 seconds', '- Power off: press the power button for 6 seconds'].join('\n');
    const a = answerExtractively('How do I switch the power?', [{ hit: hit('b/power.md#1', text), members: [] }]);
    expect(a.text).toContain('  - Power off: press the power button for 6 seconds [1]');
  });

  it('puts the sentence before a run of capitalised menu names that shares its words, and still quotes the menu path', () => {
    const text = ['Settings General Network Network Status Expert Settings IP Settings Try Now', '', 'View the current network and Internet status.'].join('\n');
    const a = answerExtractively('How do I check the network status?', [{ hit: hit('tv/manual.md#1', text), members: [] }]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toContain('View the current network and Internet status.');
    expect(quoted.some((l) => l.includes('Settings General Network'))).toBe(true);
  });
});

describe('a line that only restates the question', () => {
  it('is quoted with the line after it, which says what the manual says about it', () => {
    const text = ['### Other issues', '', 'The TV smells of plastic.', '', 'This smell is normal and will dissipate over time.', '', 'The stand wobbles when the TV is moved.'].join('\n');
    const a = answerExtractively('Why does the TV smell of plastic?', [{ hit: hit('tv/manual.md#1', text), members: [] }]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- The TV smells of plastic. This smell is normal and will dissipate over time. [1]');
    // The follower is quoted once, not again on a line of its own.
    expect(quoted.filter((l) => l.includes('This smell is normal')).length).toBe(1);
  });

  it('stays alone when it says something of its own', () => {
    const text = ['The TV smells of plastic for the first 48 hours after unpacking.', '', 'The stand wobbles when the TV is moved.'].join('\n');
    const a = answerExtractively('Why does the TV smell of plastic?', [{ hit: hit('tv/manual.md#1', text), members: [] }]);
    expect(quotedLines(a)[0]).toBe('- The TV smells of plastic for the first 48 hours after unpacking. [1]');
  });
});

describe('a line whose label the question names', () => {
  const board = (id: string, text: string, model: string | null = 'XB-2'): Passage => ({ hit: hit(`b/xb-2.md#${id}`, text, { signature: { category: null, nouns: [], model } }), members: [] });

  it("puts its passage first when the best passage only mentions the value in passing", () => {
    const a = answerExtractively('Working temperature range?', [
      board('1', 'The temperature of the case rises by 10 °C under load; the working fan keeps the range of the chip safe.'),
      board('2', ['| Item | XB-2 |', '| --- | --- |', '| Working temperature | -20°C ~ 65°C |', '| Weight | 12 g |'].join('\n')),
    ]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- Working temperature: -20°C ~ 65°C [1]');
    expect(a.citations[0]!.chunkId).toBe('b/xb-2.md#2');
  });

  it("leaves search order alone for a one-word label, or another product's page", () => {
    const question = 'Working temperature range?';
    const passing = board('1', 'The temperature of the case rises by 10 °C under load; the working fan keeps the range of the chip safe.');
    const oneWord = answerExtractively('What temperature?', [passing, board('2', ['| Item | XB-2 |', '| --- | --- |', '| Temperature | -20°C ~ 65°C |'].join('\n'))]);
    expect(oneWord.citations[0]!.chunkId).toBe('b/xb-2.md#1');
    const other: Passage = { hit: hit('b/shield.md#2', ['| Item | Shield |', '| --- | --- |', '| Working temperature | 0°C ~ 40°C |'].join('\n'), { signature: { category: null, nouns: [], model: null } }), members: [] };
    const elsewhere = answerExtractively(question, [passing, other], { models: ['XB-2'], modelNamed: true });
    expect(elsewhere.citations[0]!.chunkId).toBe('b/xb-2.md#1');
  });
});

describe('how-to questions', () => {
  const text = ['### Link contacts', '', 'Link a contact to another contact to keep one contact entry.', '', '1. From Contacts, tap a contact.', '2. Tap More options > Link to another contact.'].join('\n');

  it('put the instruction before the line that describes the feature', () => {
    const a = answerExtractively('How do I link a contact?', [{ hit: hit('phone/manual.md#1', text), members: [] }]);
    const quoted = quotedLines(a);
    expect(quoted[0]).toBe('- Tap More options > Link to another contact. [1]');
    // The description is still quoted: the cue orders lines, it does not choose them.
    expect(quoted.some((l) => l.startsWith('- Link a contact to another contact'))).toBe(true);
  });

  it('include a question typed as the task itself', () => {
    expect(questionKind('connect tv to wifi').steps).toBe(true);
    expect(questionKind('Turn on the screen reader').steps).toBe(true);
    expect(questionKind('power on the board').steps).toBe(true);
    // Asking for a value is not asking how, nor is a verb that is a noun here, nor a definition.
    expect(questionKind('Set the maximum charging current').steps).toBe(false);
    for (const q of ['power supply for the ROCK 5B', 'Power LED colors', 'Press release date', 'Open source license of the firmware']) expect(questionKind(q).steps, q).toBe(false);
    expect(questionKind('Use of the reset button')).toMatchObject({ steps: false, definition: true });
    const speaker = ['### Connect a speaker', '', 'You can connect a speaker to the TV to play its sound louder.', '', '1. Open Settings > Sound > Speaker list.'].join('\n');
    const a = answerExtractively('connect a speaker', [{ hit: hit('tv/manual.md#1', speaker), members: [] }]);
    expect(quotedLines(a)[0]).toBe('- Open Settings > Sound > Speaker list. [1]');
  });

  it('leave other questions in score order', () => {
    const a = answerExtractively('What does linking contacts do?', [{ hit: hit('phone/manual.md#1', text), members: [] }]);
    expect(quotedLines(a)[0]).toContain('Link a contact to another contact');
  });

  it('quote the step under the heading that names the task even when it shares no word with the question', () => {
    const shot = ['### Take a screenshot', '', 'Capture an image of your screen. The device creates a Screenshots album in the Gallery app.', '', '- From any screen, press and release the Power and Volume down keys.'].join('\n');
    const a = answerExtractively('how to take screenshot', [{ hit: hit('phone/manual.md#2', shot), members: [] }]);
    expect(quotedLines(a)[0]).toBe('- From any screen, press and release the Power and Volume down keys. [1]');
  });
});

describe('revisions', () => {
  const history = ['# Revisions', '', 'ROCK 9 boards', '', '- **V1.2:**', '  Initial version.', '', '- **V1.3:**', '  Optimize the headphone jack footprint for manufacturing.', '  Boards made after 2022 have SPI unpopulated.', '', '## V2.00', '', '- Upgrade DDR3 to DDR4', '- Move the fan header'].join('\n');

  it('reads the indented lines under a list item as part of it', () => {
    const units = splitSentences(history).map((s) => s.text);
    expect(units).toContain('**V1.3:** Optimize the headphone jack footprint for manufacturing.');
    expect(units).toContain('Boards made after 2022 have SPI unpopulated.');
  });

  it('quotes the changes of the revision the question names, under its item or its heading', () => {
    const a = answerExtractively('  V1.3: what changed?', [{ hit: hit('b/rev.md#1', history), members: [] }]);
    expect(quotedLines(a)[0]).toContain('Optimize the headphone jack footprint');
    const b = answerExtractively('  V2.00: what changed in memory?', [{ hit: hit('b/rev.md#1', history), members: [] }]);
    expect(b.text).toContain('- Upgrade DDR3 to DDR4 [1]');
  });
});

describe('label and value lines', () => {
  const text = ['**TFT LCD**', '', 'Driver IC：ST7789v2', '', 'Resolution：135 * 240', '', '| ESP32 | GPIO15 | GPIO13 |', '| --- | --- | --- |', '| TFT LCD | TFT_MOSI | TFT_CLK |'].join('\n');

  it('are facts, not titles of what follows, also with a full-width colon', () => {
    const units = splitSentences(text);
    const driver = units.find((u) => u.text === 'Driver IC：ST7789v2');
    expect(driver?.title).toBeUndefined();
    // No line is put under "Driver IC：ST7789v2" or "Resolution：135 * 240" as under a heading.
    for (const u of units) expect(u.heading ?? '').not.toMatch(/[:：]/);
  });

  it('quote the line whose label the question names', () => {
    const a = answerExtractively('What LCD driver IC is used?', [{ hit: hit('b/stick.md#1', text), members: [] }]);
    expect(quotedLines(a)[0]).toBe('- Driver IC：ST7789v2 [1]');
  });
});
