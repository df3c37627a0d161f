import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * No corpus in the engine: rules written for one vendor's manuals score on that corpus and fail
 * on the next, so no vendor, product or site-generator name may appear in `src-main` code. Comments
 * may cite examples; string, template and regular-expression literals and identifiers may not.
 * The names below are those of the shared corpora and the documentation tools they were built
 * with, plus their neighbours; general vocabulary (units, categories) in data files is fine.
 */
const FORBIDDEN = [
  'radxa', 'rockchip', 'rock ?\\d', 'cubie', 'espressif', 'esp32', 'esp-', 'kaluga', 'lyrat', 'devkit',
  'samsung', 'galaxy', 'm5stack', 'm5stick', 'seeed', 'seeeduino', 'xiao', 'arduino', 'raspberry',
  'bouffalo', 'fairchild', 'wch', 'ch32', 'rp2040', 'rp2350', 'nrf52',
  'docusaurus', 'docsify', 'vuepress', 'mkdocs', 'gitbook', 'tabitem',
];
// A name counts at a word start, also right after a regular expression's `\b`.
const pattern = new RegExp(`(?:^|[^a-z]|\\\\b)(?:${FORBIDDEN.join('|')})`, 'i');

const root = path.resolve(__dirname, '..', '..', 'src-main');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx|mts)$/.test(e.name) ? [p] : [];
  });
}

/** Literals and identifiers of a TypeScript file, with their line numbers (from its syntax tree: comments are not nodes). */
export function codeTokens(text: string): { line: number; text: string }[] {
  const file = ts.createSourceFile('x.tsx', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: { line: number; text: string }[] = [];
  const kinds = new Set([
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
    ts.SyntaxKind.TemplateMiddle,
    ts.SyntaxKind.TemplateTail,
    ts.SyntaxKind.RegularExpressionLiteral,
    ts.SyntaxKind.Identifier,
    ts.SyntaxKind.JsxText,
  ]);
  const visit = (node: ts.Node): void => {
    // Import and export specifiers name modules, not rules.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (kinds.has(node.kind)) out.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: node.getText(file) });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function offences(file: string, text: string): string[] {
  // Import specifiers name modules and file names, not rules.
  return codeTokens(text)
    .filter((t) => pattern.test(t.text))
    .map((t) => `${path.relative(root, file)}:${t.line}: ${t.text.slice(0, 80)}`);
}

describe('no corpus in the engine', () => {
  it('finds a vendor name in a string, a regular expression and an identifier, and none in comments', () => {
    const sample = [
      '// The Radxa ROCK 5B is an example in a comment.',
      "/** So is the Seeed XIAO. */ const vendors = ['Espressif'];",
      'const tabs = /<TabItem\\b/;',
      'const phone = /\\bgalaxy s\\d/i;',
      'const galaxyPattern = 1;',
      'const label = `${vendors[0]} m5stack`;',
    ].join('\n');
    expect(offences('/x.ts', sample).map((o) => o.replace(/^.*?:(\d+): /, '$1 '))).toEqual(["2 'Espressif'", '3 /<TabItem\\b/', '4 /\\bgalaxy s\\d/i', '5 galaxyPattern', '6 } m5stack`']);
  });

  it('src-main holds none', () => {
    const found = sourceFiles(root).flatMap((f) => offences(f, readFileSync(f, 'utf8')));
    expect(found, `vendor, product or site-generator literals in engine code:\n${found.join('\n')}`).toEqual([]);
  });
});
