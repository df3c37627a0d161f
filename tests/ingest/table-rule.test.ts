import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { blockTokens } from '../../src-main/ingest/normalize';
import { transformMarkdown } from '../../src-main/ingest/parsers/markdown.parser';
import { corpusRoots } from '../helpers/temp';
import { corpusDir, markdownFiles } from './doc-invariants';

/** The block parser normalize.ts had before its table rule: markdown-it's own, configured alike. */
const stock = new MarkdownIt({ html: true, linkify: false, typographer: false });
stock.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);

type Tokens = ReturnType<MarkdownIt['parse']>;

/** Every token but those inside a table (its rows and cells), as a comparable record. */
function outsideTables(tokens: Tokens): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.type === 'table_close') depth--;
    if (depth === 0) out.push({ type: t.type, tag: t.tag, map: t.map, level: t.level, nesting: t.nesting, content: t.content, markup: t.markup, info: t.info });
    if (t.type === 'table_open') depth++;
  }
  return out;
}

const same = (markdown: string): void => {
  expect(outsideTables(blockTokens(markdown)), markdown.slice(0, 200)).toEqual(outsideTables(stock.parse(markdown, {})));
};

describe("normalize's table rule", () => {
  it('ends and starts every table where markdown-it does, in the edge cases of its rule', () => {
    const cases = [
      '| a | b |\n|---|---|\n| 1 | 2 |\n',
      'a | b\n--|--\n1 | 2\n3\n',
      '| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 | 4 |\n\ntext\n',
      '| a \\| b | c |\n|---|---|\n| x \\| y | z \\|\n|\n||\n',
      '| a |\n|:-:|\n| \\|\n\\| b\n',
      '|a|b|\n|-|-|\n',
      '| a | b |\n| --- |\n',
      '| a | b | c |\n|---||---|\n',
      '- | a | b |\n  |---|---|\n  | 1 | 2 |\n- next\n',
      '> | a | b |\n> |---|---|\n> | 1 | 2 |\nlazy | line\n',
      '| a | b |\n|---|---|\n| 1 | 2 |\n# heading\n| 3 | 4 |\n',
      '| a | b |\n|---|---|\n| 1 | 2 |\n    | indented |\n',
      '| a | b |\n|---|---|\n| 1 | 2 |\n> quote\n',
      '| a | b |\n|---|---|\n```\ncode\n```\n',
      '| a | b |\n|---|---|\n<div>\n',
      'para\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      '    | a | b |\n    |---|---|\n',
      '| a | b |\n    |---|---|\n',
      '| a | b |\n- | - |\n',
      '| a | b |\n-|-\n',
      'no pipe\n|---|\n',
      `| ${'h | '.repeat(300)}\n|${'---|'.repeat(300)}\n${'| x |\n'.repeat(300)}after\n`,
    ];
    for (const c of cases) same(c);
  });

  it('gives the tokens of the stock rule outside tables on every radxa-docs and esp-dev-kits file of the fixture cut, as written and as rewritten', () => {
    const files = ['radxa-docs', 'esp-dev-kits'].flatMap((name) => markdownFiles(corpusDir(name, corpusRoots.fixture)));
    expect(files.length).toBeGreaterThan(20);
    let tables = 0;
    for (const f of files) {
      const source = fs.readFileSync(path.resolve(corpusRoots.fixture, f), 'utf8');
      for (const markdown of [source, transformMarkdown(source, f.endsWith('.mdx')).markdown]) {
        same(markdown);
        tables += blockTokens(markdown).filter((t) => t.type === 'table_open').length;
      }
    }
    // The cut has tables to compare (Markdown ones and converted HTML ones).
    expect(tables).toBeGreaterThan(20);
  });
});
