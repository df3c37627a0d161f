import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown, { type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { alignToSource, remarkCitations, remarkHighlight, remarkHtmlAsText, remarkLineEndCitations } from '../../src-renderer/src/viewer/markdown.plugins';
import { findLine, lineInPassage } from '../../src-renderer/src/viewer/passage';

type Plugins = NonNullable<Options['remarkPlugins']>;
/** `text` rendered as the viewer's SafeMarkdown renders it (that component is TSX, which these tests do not compile). */
const html = (text: string, plugins: Plugins) => renderToStaticMarkup(createElement(Markdown, { remarkPlugins: [remarkGfm, remarkHtmlAsText, ...plugins], skipHtml: true }, text));

/** The text of each element with class `cls` in rendered HTML (the tests' documents have no nested marks). */
function texts(markup: string, cls: string): string[] {
  return [...markup.matchAll(new RegExp(`<mark class="[^"]*\\b${cls}\\b[^"]*">([^<]*)</mark>`, 'g'))].map((m) => m[1]!);
}

describe('remarkCitations (chips that know their answer line)', () => {
  it('gives each marker the text of its line, markup and nested items aside', () => {
    const answer = ['For RAC-225B:', '- **Fuse:** 5 A slow-blow [1]', '- Clean the filter every 200 hours. [2]', '  - Rinse it in water. [1]', '- Reset the unit [1][2]'].join('\n');
    const out = html(answer, [remarkCitations]);
    const lines = [...out.matchAll(/<cite data-n="(\d+)" data-line="([^"]*)">/g)].map((m) => [Number(m[1]), m[2]]);
    expect(lines).toEqual([
      [1, 'Fuse: 5 A slow-blow'],
      [2, 'Clean the filter every 200 hours.'],
      [1, 'Rinse it in water.'],
      [1, 'Reset the unit'],
      [2, 'Reset the unit'],
    ]);
  });

  it('gives a marker in running text the words since the marker before it', () => {
    const out = html('The fuse is 5 A [1]. Clean the filter often [2].', [remarkCitations]);
    expect(out).toContain('data-n="1" data-line="The fuse is 5 A"');
    expect(out).toContain('data-n="2" data-line="Clean the filter often"');
  });
});

describe('remarkLineEndCitations (an extracted answer: one marker ends each quoted line)', () => {
  it('makes only the marker ending a line a chip, with the whole line; a footnote reference inside stays text', () => {
    const answer = ['- The P-9 takes a 5 A fuse [2] in the terminal box. [1]', '- See table [3] for ratings [12] [2]', '- Replace the belt yearly [1] every spring.'].join('\n');
    const out = html(answer, [remarkLineEndCitations]);
    const chips = [...out.matchAll(/<cite data-n="(\d+)" data-line="([^"]*)">/g)].map((m) => [Number(m[1]), m[2]]);
    expect(chips).toEqual([
      [1, 'The P-9 takes a 5 A fuse [2] in the terminal box.'],
      [2, 'See table [3] for ratings [12]'],
    ]);
    expect(out).toContain('yearly [1] every spring.');
  });
});

const DOC = ['# Service', '', 'Intro text.', '', '- **No power:** check fuse F1 <b>now</b>.', '- Clean the filter every 200 hours.', '- Replace the belt yearly.', '', 'After the list.'].join('\n');
const PASSAGE = { start: DOC.indexOf('- **No'), end: DOC.indexOf('\n\nAfter') };

describe('remarkHighlight with the answer’s line', () => {
  it('marks the line inside the marked passage, and only there', () => {
    const line = findLine(DOC, 'Clean the filter every 200 hours.')!;
    const out = html(DOC, [[remarkHighlight, { ...PASSAGE, line }]]);
    expect(texts(out, 'passage-line')).toEqual(['Clean the filter every 200 hours.']);
    expect(texts(out, 'passage')).toEqual(expect.arrayContaining(['No power:', 'Clean the filter every 200 hours.', 'Replace the belt yearly.']));
    expect(out).not.toContain('After the list.</mark>');
  });

  it('marks a line that spans bold text and keeps a tag in it as text', () => {
    const line = findLine(DOC, 'No power: check fuse F1 now.')!;
    const out = html(DOC, [[remarkHighlight, { ...PASSAGE, line }]]);
    expect(texts(out, 'passage-line').join('')).toMatch(/^No power: check fuse F1 now\.?$/);
    expect(out).not.toContain('<b>');
  });

  it('marks only the line in a paragraph whose text the parser changed (an entity, an escape)', () => {
    const doc = ['Intro.', '', 'The device&#x27;s boot mode is shown. Hold the \\*BOOT\\* key for 3 s. The LED turns red &amp; blinks.', '', 'End.'].join('\n');
    const passage = { start: doc.indexOf('The device'), end: doc.indexOf('\n\nEnd') };
    const line = findLine(doc, 'Hold the *BOOT* key for 3 s.')!;
    const out = html(doc, [[remarkHighlight, { ...passage, line }]]);
    expect(texts(out, 'passage-line')).toEqual(['Hold the *BOOT* key for 3 s.']);
    expect(out).toContain('The device&#x27;s boot mode is shown. </mark>');
    expect(texts(out, 'passage').join('')).toContain('The LED turns red &amp; blinks.');
  });

  it('marks a quoted code line inside its code block, keeping the code as it is', () => {
    const doc = ['Intro.', '', '```cpp title="read.ino"', '#include <Wire.h>', 'void setup() {', '  pinMode(A0, INPUT);  // ADC in', '}', '```', '', 'End.'].join('\n');
    const passage = { start: doc.indexOf('```'), end: doc.indexOf('\n\nEnd') };
    const line = findLine(doc, 'pinMode(A0, INPUT); // ADC in')!;
    const out = html(doc, [[remarkHighlight, { ...passage, line }]]);
    expect(texts(out, 'passage-line')).toEqual(['pinMode(A0, INPUT);  // ADC in']);
    expect(out).toContain('<pre><code class="passage">#include &lt;Wire.h&gt;\nvoid setup() {\n  <mark');
    // Without a line the block is marked as before.
    expect(html(doc, [[remarkHighlight, { ...passage, line: null }]])).toContain('<pre><code class="passage">#include &lt;Wire.h&gt;\nvoid setup() {\n  pinMode');
  });

  it('marks the passage alone without a line, as a chip outside an answer does', () => {
    const out = html(DOC, [[remarkHighlight, { ...PASSAGE, line: null }]]);
    expect(texts(out, 'passage-line')).toEqual([]);
    expect(texts(out, 'passage').length).toBeGreaterThan(2);
  });

  it('honours the offset of a document shown from its middle', () => {
    const from = DOC.indexOf('Intro');
    const line = findLine(DOC, 'Replace the belt yearly.')!;
    const out = html(DOC.slice(from), [[remarkHighlight, { ...PASSAGE, offset: from, line }]]);
    expect(texts(out, 'passage-line')).toEqual(['Replace the belt yearly.']);
  });
});

describe('lineInPassage', () => {
  const text = ['Page one. Press the reset button.', 'Page two. Press the reset button.'].join('\n');
  const pageStarts = [0, text.indexOf('Page two')];

  it('looks for a repeated sentence on the cited page first', () => {
    const onTwo = lineInPassage(text, 0, text.length, 'Press the reset button.', [2], pageStarts)!;
    expect(onTwo.start).toBe(text.lastIndexOf('Press'));
    expect(lineInPassage(text, 0, text.length, 'Press the reset button.', [1], pageStarts)!.start).toBe(text.indexOf('Press'));
    // Without pages, the first.
    expect(lineInPassage(text, 0, text.length, 'Press the reset button.', [], [])!.start).toBe(text.indexOf('Press'));
  });

  it('returns offsets in the document, within the passage, or null', () => {
    const start = text.indexOf('Page two');
    const found = lineInPassage(text, start, text.length, 'Press the reset button.', [], [])!;
    expect(text.slice(found.start, found.end)).toBe('Press the reset button.');
    expect(found.start).toBeGreaterThan(start);
    expect(lineInPassage(text, 0, text.length, 'Tighten the bolts to 9 Nm.', [1], pageStarts)).toBeNull();
    expect(lineInPassage(text, 0, text.length, '', [1], pageStarts)).toBeNull();
  });
});

describe('alignToSource', () => {
  it('maps a text node’s characters onto its Markdown past escapes, entities and tags', () => {
    expect(alignToSource('a*b', 'a\\*b')).toEqual([0, 2, 3, 4]);
    expect(alignToSource("it's", 'it&#x27;s')).toEqual([0, 1, 2, 8, 9]);
    expect(alignToSource('Warning: off.', '<div class="note">Warning: off.</div>')).toEqual([18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 37]);
    expect(alignToSource('a\nb', 'a\n   b')).toEqual([0, 1, 5, 6]);
    expect(alignToSource('xyz', 'abcdefghijklmnop')).toBeNull();
  });
});
