import { describe, expect, it } from 'vitest';
import type { BlockKind } from '../../src-main/core/document';
import { blockTokens, buildBlocks, normalizeMarkdown, parseFrontMatter } from '../../src-main/ingest/normalize';
import { describeNormalizeOnCorpus, fixtureMarkdownCount } from './corpus.suites';
import { invariantViolations } from './doc-invariants';
import { corpusRoots } from '../helpers/temp';
import { mulberry32 as prng } from '../helpers/prng';

interface Generated {
  markdown: string;
  /** Per top-level element: its kind, heading path, and start offset. */
  elements: { kind: BlockKind; path: string[]; start: number }[];
  pageStarts: number[];
}

/** A random Markdown document whose block structure and heading paths are known in advance. */
function generateDoc(seed: number): Generated {
  const rnd = prng(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const words = ['fuse', 'RAC-225B', 'voltage', 'model', 'T5A', 'panel', 'reset', 'café', '电源', 'GPIO_7', 'spec'];
  const sentence = (): string => Array.from({ length: 3 + Math.floor(rnd() * 8) }, () => pick(words)).join(' ');
  const stack: { level: number; text: string }[] = [];
  const parts: string[] = [];
  const elements: Generated['elements'] = [];
  let offset = 0;
  let headingNo = 0;
  const add = (kind: BlockKind, text: string, headingPath?: string[]): void => {
    const sep = parts.length === 0 ? '' : pick(['\n\n', '\n\n\n', '\n \n', '\n\t\n\n']);
    offset += sep.length;
    elements.push({ kind, path: headingPath ?? stack.map((s) => s.text), start: offset });
    parts.push(sep + text);
    offset += text.length;
  };
  const count = 15 + Math.floor(rnd() * 25);
  for (let i = 0; i < count; i++) {
    const r = rnd();
    if (r < 0.2) {
      const level = 1 + Math.floor(rnd() * 4);
      headingNo++;
      const word = pick(words);
      // Markdown and the text a reader sees: `code` and *em* render as "code" and "em".
      const visible = `Section ${headingNo} ${word} \`code\` and *em*`;
      const plain = `Section ${headingNo} ${word} code and em`;
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text: plain });
      const own = stack.map((s) => s.text);
      add('heading', `${'#'.repeat(level)} ${visible}`, own);
    } else if (r < 0.45) add('paragraph', Array.from({ length: 1 + Math.floor(rnd() * 3) }, sentence).join('\n'));
    // Two lists in a row would merge into one loose list, so a list never follows a list.
    else if (r < 0.55 && elements[elements.length - 1]?.kind !== 'list') {
      const ordered = rnd() < 0.5;
      const items = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, k) => `${ordered ? `${k + 1}.` : '-'} ${sentence()}${rnd() < 0.3 ? `\n    - nested ${pick(words)}` : ''}`);
      add('list', items.join('\n'));
    } else if (r < 0.65) {
      const rows = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => `| ${pick(words)} | ${pick(words)} |`);
      add('table', ['| Model | Fuse |', '| --- | --- |', ...rows].join('\n'));
    } else if (r < 0.75) add('code', ['```bash', '# not a heading', '', '- not a list', `echo ${pick(words)}`, '```'].join('\n'));
    else if (r < 0.8) add('blockquote', `> ${sentence()}\n> ${sentence()}`);
    else if (r < 0.85) add('html', `<div class="note">\n${sentence()}\n</div>`);
    else if (r < 0.9) add('paragraph', `[ref${i}]: https://example.com/${i}`);
    // A leading `---` would open front matter.
    else if (r < 0.95 && elements.length > 0) add('rule', '---');
    // Indented code right after a list or another indented block would continue that block.
    else if (!['list', 'code'].includes(elements[elements.length - 1]?.kind ?? '')) add('code', `    indented code ${pick(words)}\n    second line`);
  }
  const markdown = parts.join('') + pick(['', '\n', '\n\n  \n']);
  const pageStarts = [0];
  for (const e of elements.slice(1)) if (rnd() < 0.2) pageStarts.push(e.start);
  return { markdown, elements, pageStarts };
}

describe('normalizeMarkdown on generated documents', () => {
  it('finds exactly the generated blocks, in order, with their heading paths and pages', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const g = generateDoc(seed);
      const doc = normalizeMarkdown({ markdown: g.markdown, format: 'pdf', fallbackTitle: 'gen', pageStarts: g.pageStarts });
      expect(invariantViolations(doc), `seed ${seed}`).toEqual([]);
      expect(doc.blocks.map((b) => b.kind), `seed ${seed}`).toEqual(g.elements.map((e) => e.kind));
      doc.blocks.forEach((b, i) => {
        const e = g.elements[i]!;
        // A block starts at its first visible character (an indented code block's indent is syntax).
        const firstVisible = e.start + /^\s*/.exec(g.markdown.slice(e.start))![0].length;
        expect(b.start, `seed ${seed} block ${i}`).toBe(firstVisible);
        expect(b.headingPath, `seed ${seed} block ${i}`).toEqual(e.path);
        const expectedPage = g.pageStarts.filter((p) => p <= e.start).length;
        expect(b.page, `seed ${seed} block ${i}`).toBe(expectedPage);
      });
      expect(doc.pageCount).toBe(g.pageStarts.length);
    }
  });

  it('gives the same blocks for CRLF line endings and keeps page starts on the same characters', () => {
    for (let seed = 100; seed < 120; seed++) {
      const g = generateDoc(seed);
      const crlf = g.markdown.replace(/\n/g, '\r\n');
      const shift = (offset: number): number => offset + (g.markdown.slice(0, offset).match(/\n/g)?.length ?? 0);
      const lf = normalizeMarkdown({ markdown: g.markdown, format: 'pdf', fallbackTitle: 'g', pageStarts: g.pageStarts });
      const rn = normalizeMarkdown({ markdown: crlf, format: 'pdf', fallbackTitle: 'g', pageStarts: g.pageStarts.map(shift) });
      expect(rn.text).toBe(lf.text);
      expect(rn.blocks).toEqual(lf.blocks);
    }
  });
});

describe('normalizeMarkdown structure', () => {
  it('builds nested heading paths and pops them when a shallower heading starts', () => {
    const doc = normalizeMarkdown({
      markdown: '# Manual\n\nintro\n\n## Power\n\n### Fuses\n\nT5A\n\n## Display\n\ntext\n\n# Appendix\n\nend\n',
      format: 'markdown',
      fallbackTitle: 'x',
    });
    const paths = doc.blocks.map((b) => `${doc.text.slice(b.start, b.end)} <- ${b.headingPath.join(' > ')}`);
    expect(paths).toEqual([
      '# Manual <- Manual',
      'intro <- Manual',
      '## Power <- Manual > Power',
      '### Fuses <- Manual > Power > Fuses',
      'T5A <- Manual > Power > Fuses',
      '## Display <- Manual > Display',
      'text <- Manual > Display',
      '# Appendix <- Appendix',
      'end <- Appendix',
    ]);
  });

  it('takes heading text as rendered: emphasis, code, escapes, entities and {#ids} removed', () => {
    const doc = normalizeMarkdown({
      markdown: '## Step 1\\. Set *the* `FUSE_A` &amp; [link](x) {#custom-id}\n\nSetext Title\n============\n',
      format: 'markdown',
      fallbackTitle: 'x',
    });
    expect(doc.blocks[0]!.headingPath).toEqual(['Step 1. Set the FUSE_A & link']);
    expect(doc.blocks[1]).toMatchObject({ kind: 'heading', level: 1, headingPath: ['Setext Title'] });
  });

  it('drops a trailing attribute list from a heading, and keeps braces that are words', () => {
    const doc = normalizeMarkdown({
      markdown:
        '# Timer Camera {docsify-ignore-all}\n\n## Pins {#pins .wide data-x="1 2"}\n\n## Appendix {-}\n\n## Set {value} with spaces and words!\n\n## Replace {the fuse}\n',
      format: 'markdown',
      fallbackTitle: 'x',
    });
    const titles = doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.headingPath[b.headingPath.length - 1]);
    expect(titles).toEqual(['Timer Camera', 'Pins', 'Appendix', 'Set {value} with spaces and words!', 'Replace {the fuse}']);
    expect(doc.title).toBe('Timer Camera');
  });

  it('keeps front matter as one block and as metadata, and takes the title from it', () => {
    const markdown = [
      '---',
      'title: "ROCK 5A: 40-PIN"',
      'sidebar_position: 7 # order in the menu',
      '',
      'imports_resolve_to:',
      '  - common/_gpio.mdx',
      '  - common/_i2c.mdx',
      'description: >',
      '  Folded text',
      '  on two lines',
      '---',
      '',
      '# Heading One',
      '',
      'Body.',
    ].join('\n');
    const doc = normalizeMarkdown({ markdown, format: 'markdown', fallbackTitle: 'file' });
    expect(invariantViolations(doc)).toEqual([]);
    expect(doc.blocks[0]).toMatchObject({ kind: 'frontmatter', start: 0, headingPath: [] });
    expect(doc.text.slice(doc.blocks[0]!.start, doc.blocks[0]!.end).endsWith('---')).toBe(true);
    expect(doc.title).toBe('ROCK 5A: 40-PIN');
    expect(doc.metadata).toMatchObject({
      title: 'ROCK 5A: 40-PIN',
      sidebar_position: '7',
      imports_resolve_to: 'common/_gpio.mdx, common/_i2c.mdx',
      description: 'Folded text on two lines',
    });
    expect(doc.blocks.map((b) => b.kind)).toEqual(['frontmatter', 'heading', 'paragraph']);
  });

  it('chooses the title from the parser, then front matter, then the first H1, then the fallback', () => {
    const base = { format: 'markdown' as const, fallbackTitle: 'file-name' };
    expect(normalizeMarkdown({ ...base, markdown: '---\ntitle: FM\n---\n# H1\n', title: 'Given' }).title).toBe('Given');
    expect(normalizeMarkdown({ ...base, markdown: '---\ntitle: FM\n---\n# H1\n' }).title).toBe('FM');
    expect(normalizeMarkdown({ ...base, markdown: '## Two\n\n# H1 *x*\n' }).title).toBe('H1 x');
    expect(normalizeMarkdown({ ...base, markdown: 'just text\n' }).title).toBe('file-name');
  });

  it('assigns pages from pageStarts, including blocks that run across a page break', () => {
    const markdown = 'para one\n\npara two\nstill two\n\npara three\n';
    const pageStarts = [0, markdown.indexOf('still'), markdown.indexOf('para three')];
    const doc = normalizeMarkdown({ markdown, format: 'pdf', fallbackTitle: 'x', pageStarts });
    expect(doc.blocks.map((b) => [b.page, b.pageEnd])).toEqual([
      [1, 1],
      [1, 2],
      [3, 3],
    ]);
    expect(doc.pageCount).toBe(3);
  });

  it('covers text markdown-it drops (link reference definitions) with a block', () => {
    const { blocks } = buildBlocks('See [the spec][s].\n\n[s]: https://example.com/spec "Spec"\n\n# Next\n');
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph', 'heading']);
  });

  it('parses only scalar front matter forms and skips nested maps', () => {
    expect(parseFrontMatter('a: 1\nnested:\n  key: v\nb: \'quoted # not a comment\'\nc: |\n  line 1\n  line 2')).toEqual({
      a: '1',
      b: 'quoted # not a comment',
      c: 'line 1\nline 2',
    });
  });
});

describeNormalizeOnCorpus(corpusRoots.fixture, fixtureMarkdownCount());

describe('heading paths', () => {
  it('reads plain headings as written and marked-up ones through the inline parser', () => {
    const md = [
      '# ROCK 5B+   Power: 12 V @ 2 A (max) {#power}',
      '## The `GPIO3_A4` &amp; **UART** [pins](./p.md) \\*',
      '### Step 1 — ®™ 3.3 V / 5 V $ % ^ = + - # : ;',
      'Text.',
    ].join('\n');
    const { blocks } = buildBlocks(md);
    expect(blocks.at(-1)!.headingPath).toEqual([
      'ROCK 5B+ Power: 12 V @ 2 A (max)',
      'The GPIO3_A4 & UART pins *',
      'Step 1 — ®™ 3.3 V / 5 V $ % ^ = + - # : ;',
    ]);
  });
});

describe('blocks from tokens the parser already made', () => {
  const body = ['# Setup', '', 'Flash the image:', '', '    sudo dd if=img of=/dev/sdX', '', '- then boot', '', 'Text after.', '', '| Pin | Name |', '| --- | --- |', '| 1 | GND |'].join('\n');

  it('gives the blocks of a fresh parse, with or without front matter before the body', () => {
    for (const text of [`${body}\n`, `---\ntitle: Setup\ntags:\n  - a\n---\n\n${body}\n`]) {
      const fresh = buildBlocks(text);
      expect(buildBlocks(text, undefined, { source: body, tokens: blockTokens(body) })).toEqual(fresh);
      expect(fresh.blocks.map((b) => b.kind)).toEqual([...(text.startsWith('---') ? ['frontmatter'] : []), 'heading', 'paragraph', 'code', 'list', 'paragraph', 'table']);
    }
  });

  it('reads the tokens it is given instead of parsing the body again', () => {
    for (const text of [`${body}\n`, `---\ntitle: Setup\n---\n\n${body}\n`]) {
      // Given no tokens, the body has no heading, code, list or table: only the paragraphs filled
      // in between tokens. A fresh parse here would pass the test above and lose the speed-up.
      const kinds = buildBlocks(text, undefined, { source: body, tokens: [] }).blocks.map((b) => b.kind);
      expect(kinds.filter((k) => k !== 'paragraph'), text).toEqual(text.startsWith('---') ? ['frontmatter'] : []);
    }
  });

  it('parses again when the tokens are not of the text after the front matter', () => {
    const text = `---\ntitle: Setup\n---\n\n${body}\n`;
    const fresh = buildBlocks(text);
    // Tokens of other text: they must never be read as this text's blocks.
    for (const source of [body.slice(1), `${body}\n`, `x${body}`]) expect(buildBlocks(text, undefined, { source, tokens: [] })).toEqual(fresh);
    expect(buildBlocks(`---\ntitle: Setup\n---\nX\n${body}\n`, undefined, { source: body, tokens: [] }).blocks.length).toBeGreaterThan(1);
  });
});
