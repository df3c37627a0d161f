import { describe, expect, it } from 'vitest';
import { headingReadings, sectionHeadings, weighByHeadings, weighProblemSections } from '../../src-main/search/stages/heading-match.stage';
import type { ChunkHit, ChunkRecord } from '../../src-main/storage/chunk-store';
import { record } from '../storage/fixtures';

function hit(id: string, text: string, headingPath: string[], score: number): ChunkHit {
  return { record: { ...record('tv.md', 0, text, { headingPath }), id, modelKey: null, parentId: null } as ChunkRecord, score };
}
const order = (hits: ChunkHit[]) => hits.map((h) => h.record.id);

describe('section headings as evidence', () => {
  it("reads a chunk's own heading and the headings inside it, never the document title", () => {
    expect(sectionHeadings('# TV Manual\n\nIntro.\n\n#### Changing the input signal\nSource ...', ['TV Manual', 'Connections'])).toEqual([
      'Connections',
      'Changing the input signal',
    ]);
    expect(sectionHeadings('Intro text.', ['TV Manual'])).toEqual([]);
  });

  it('finds a heading on any line: the first, the last, after blank lines; never a deeper or unspaced mark', () => {
    const lines = ['## First', 'text ## not a heading', '', '###\tTabbed', '####### Seven', '##NoSpace', '#  Title', '###### Six', 'end', '## Last'];
    const text = lines.join('\n');
    expect(sectionHeadings(text, ['Doc'])).toEqual(['First', 'Tabbed', 'Six', 'Last']);
    // The same as reading every line of the text.
    for (const t of [text, `\n${text}\n`, '##', '\n## a\n\n## b', '## a\r\n## b\r']) {
      const lineByLine = t.split('\n').flatMap((line) => (/^#{2,6}\s/.test(line) ? [line.replace(/^#+\s+/, '')] : []));
      expect(sectionHeadings(t, ['Doc']), JSON.stringify(t)).toEqual(lineByLine);
    }
  });

  it('puts the section named after the question above one that only mentions its words', () => {
    const mentions = hit('mentions', 'Supported picture sizes differ with the input signal.', ['Manual', 'Changing the Picture Size'], 10);
    const named = hit('named', '#### Changing the input signal\nSource: select the device.', ['Manual', 'Switching between devices'], 9);
    expect(order(weighByHeadings([mentions, named], 'How to change the input signal?', []))).toEqual(['named', 'mentions']);
  });

  it('leaves the model named in the question out of the match', () => {
    // Every section of the model's manual may carry its name; it says nothing about the section.
    const model = hit('model', 'The XR-7 ships with a remote.', ['XR-7 Manual', 'XR-7'], 10);
    const topic = hit('topic', 'Press and hold Reset for 5 s.', ['XR-7 Manual', 'Factory reset'], 9);
    expect(order(weighByHeadings([model, topic], 'XR-7 factory reset', ['XR-7']))).toEqual(['topic', 'model']);
    expect(order(weighByHeadings([model, topic], 'XR-7 factory reset', []))).toEqual(['model', 'topic']);
  });

  it("puts the section headed with the member's code the question names above its siblings' sections", () => {
    // One datasheet, one table per member; the family is the model, the member's code decides.
    const other = hit('other', '| VO | Output Voltage | 8.82 | 9.0 | 9.16 |', ['QR78XX', 'Electrical Characteristics (QR7809A)'], 11);
    const asked = hit('asked', '| VO | Output Voltage | 23.5 | 24.0 | 24.5 |', ['QR78XX', 'Electrical Characteristics (QR7824A)'], 10);
    expect(order(weighByHeadings([other, asked], 'QR7824A minimum output voltage', ['QR78XX']))).toEqual(['asked', 'other']);
  });

  it('reads a heading with brackets as written, without them, and each bracket alone', () => {
    expect(headingReadings('Enlarging the font (for the visually impaired)')).toEqual([
      'Enlarging the font (for the visually impaired)',
      'Enlarging the font  ',
      'for the visually impaired',
    ]);
    expect(headingReadings('Changing the input signal')).toEqual(['Changing the input signal']);
  });

  it("matches a heading's topic past a qualifier in brackets, and an alias in brackets", () => {
    // The qualifier's words are no words of the task: without the brackets the heading is the question's topic.
    const qualified = hit('qualified', 'You can enlarge the font on the screen.', ['Manual', 'Enlarging the font (for the visually impaired)'], 9);
    const mentions = hit('mentions', 'Font size and style of captions can be set.', ['Manual', 'Caption settings for the font'], 10);
    expect(order(weighByHeadings([mentions, qualified], 'How do I enlarge the font?', []))).toEqual(['qualified', 'mentions']);
    // The bracket names the feature the question asks about.
    const alias = hit('alias', 'White text on a black background.', ['Manual', 'White text on black background (high contrast)'], 9);
    const menu = hit('menu', 'High Contrast, Grayscale and Zoom are in this menu.', ['Manual', 'Accessibility Shortcuts menu'], 10);
    expect(order(weighByHeadings([menu, alias], 'How do I enable high contrast?', []))).toEqual(['alias', 'menu']);
  });

  it('reads nested brackets whole: the heading without the outer one, and the outer one with its own readings', () => {
    expect(headingReadings('Connecting a cable (for models with a port (HDMI IN))')).toEqual([
      'Connecting a cable (for models with a port (HDMI IN))',
      'Connecting a cable  ',
      'for models with a port (HDMI IN)',
      'for models with a port  ',
      'HDMI IN',
    ]);
    // An unclosed or stray bracket is text; a link's target is no alias.
    expect(headingReadings('Step 1) Unpack (the box')).toEqual(['Step 1) Unpack (the box']);
    expect(headingReadings('[Getting started](/zero/getting-started)')).toEqual(['[Getting started](/zero/getting-started)', '[Getting started] ']);
  });

  it('reads a crafted heading of thousands of nested brackets in linear time, without overflowing the stack', () => {
    const deep = `${'('.repeat(6000)}esd${')'.repeat(6000)}`;
    const readings = headingReadings(deep);
    expect(readings).toEqual([deep]);
    const nested = headingReadings('Ports (front (USB (type (mini (micro)))))');
    // Three levels read, the rest kept as written inside the deepest reading.
    expect(nested).toContain('type (mini (micro))');
    expect(nested).not.toContain('mini (micro)');
  });

  it('reads a bracket alone only when it is as particular as the heading: a word the library uses everywhere is a qualifier', () => {
    // Passage rarity as the library teaches it: "settings" is in a sixth of the passages, the rest are rare.
    const idf = (t: string) => ({ set: 1.8, eco: 5.5, mode: 4, network: 4.5, contrast: 5.2, high: 4.8, white: 5.7, text: 5, black: 4.9, background: 4.9 })[t] ?? 6;
    expect(headingReadings('Eco mode (Settings)', idf)).toEqual(['Eco mode (Settings)', 'Eco mode  ']);
    expect(headingReadings('White text on black background (high contrast)', idf)).toContain('high contrast');
    // An abbreviation commoner than the words it stands for is still an alias while the library holds it rarely.
    const datasheet = (t: string) => ({ electro: 7, static: 7.5, discharg: 7, esd: 5.9 })[t] ?? 2;
    expect(headingReadings('8.2 Electro-Static discharge (ESD)', datasheet)).toContain('ESD');
    // Read alone, "(Settings)" would be the whole topic of any question holding "settings".
    const generic = hit('generic', 'Eco mode saves power.', ['Manual', 'Eco mode (Settings)'], 9.2);
    const network = hit('network', 'Connect to a wired or wireless network.', ['Manual', 'Network'], 9);
    expect(order(weighByHeadings([generic, network], 'network settings', [], idf))).toEqual(['network', 'generic']);
  });

  it('changes nothing when no heading shares a word with the question', () => {
    const a = hit('a', 'x', ['M', 'Alpha'], 2);
    const b = hit('b', 'y', ['M', 'Beta'], 1);
    expect(weighByHeadings([a, b], 'gamma delta', [])).toEqual([a, b]);
  });
});

describe('troubleshooting sections for a question about a fault', () => {
  const setup = hit('setup', 'Connect the TV to the Internet with a LAN cable or Wi-Fi.', ['TV Manual', 'Connections', 'Connecting to the Internet'], 1.2);
  const fault = hit('fault', 'Confirm the router is on.', ['TV Manual', 'Troubleshooting', 'The TV Won’t Connect to the Internet'], 1);

  it('moves a section under a troubleshooting heading up when the question asks about a fault', () => {
    for (const q of ['What can I do if the TV is not connecting to the network?', "The TV won't connect to Wi-Fi", 'Why does the Internet drop?', 'Unable to connect']) {
      expect(order(weighProblemSections([setup, fault], q)), q).toEqual(['fault', 'setup']);
    }
    // A whole FAQ page counts by its title.
    const faq = hit('faq', 'Check the cable.', ['FAQ'], 1);
    expect(order(weighProblemSections([setup, faq], 'How do I fix the connection?'))).toEqual(['faq', 'setup']);
  });

  it('leaves the order alone for a question about a task, and never raises a hit scored 0', () => {
    expect(weighProblemSections([setup, fault], 'How do I connect the TV to the Internet?')).toEqual([setup, fault]);
    const zero = hit('zero', 'x', ['TV Manual', 'Troubleshooting'], 0);
    expect(order(weighProblemSections([setup, zero], 'Why is there no picture?'))).toEqual(['setup', 'zero']);
    // "error" is a word of its own, not part of "errorless" or "terror".
    const other = hit('other', 'x', ['TV Manual', 'Errorless operation'], 1);
    expect(order(weighProblemSections([setup, other], 'Why is the terror mode on?'))).toEqual(['setup', 'other']);
  });
});
