import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../src-main/core/document';
import { normalizeMarkdown } from '../../src-main/ingest/normalize';
import { markdownParser, transformMarkdown } from '../../src-main/ingest/parsers/markdown.parser';
import { corpusRoots } from '../helpers/temp';
import { benchNormalize, corpusDir, invariantViolations, markdownFiles } from './doc-invariants';

/**
 * Checks over every Markdown file of radxa-docs and esp-dev-kits under a corpus root (one of
 * `corpusRoots`): the fixture cut in `npm test`, ../shared/corpus in `npm run test:corpus`.
 */

const boardFiles = (root: string): string[] => [...markdownFiles(corpusDir('radxa-docs', root)), ...markdownFiles(corpusDir('esp-dev-kits', root))];

/** How many Markdown files the fixture cut holds, counted from its MANIFEST files (not from the folder walk under test). */
export function fixtureMarkdownCount(): number {
  return ['radxa-docs', 'esp-dev-kits']
    .flatMap((name) => fs.readFileSync(path.join(corpusRoots.fixture, name, 'MANIFEST.txt'), 'utf8').split('\n'))
    .filter((l) => /^\d+\t.*\.(md|mdx|markdown)$/i.test(l)).length;
}

export function describeNormalizeOnCorpus(root: string, fileCount: number): void {
  describe(`normalizeMarkdown on every radxa-docs and esp-dev-kits file under ${path.basename(path.dirname(root))}/${path.basename(root)}`, () => {
    const files = boardFiles(root);
    const sources = files.map((f) => fs.readFileSync(path.resolve(root, f), 'utf8'));

    it(`finds all ${fileCount} radxa-docs and esp-dev-kits Markdown files`, () => {
      expect(files.length).toBe(fileCount);
    });

    it('holds every block invariant on every file and normalizes them quickly', () => {
      const bytes = sources.reduce((n, s) => n + Buffer.byteLength(s), 0);
      const t0 = performance.now();
      const docs = sources.map((markdown, i) => normalizeMarkdown({ markdown, format: 'markdown', fallbackTitle: files[i]! }));
      const ms = performance.now() - t0;
      console.log(`normalize: ${files.length} files, ${(bytes / 1e6).toFixed(2)} MB in ${ms.toFixed(0)} ms`);
      const bad = docs.flatMap((d, i) => invariantViolations(d).map((v) => `${files[i]}: ${v}`));
      expect(bad).toEqual([]);
      // Front matter becomes a block wherever a file has it.
      docs.forEach((d, i) => expect(d.blocks[0]?.kind === 'frontmatter', files[i]).toBe(sources[i]!.startsWith('---\n')));
    });
  });
}

/** `questionFile`: JSONL whose answers' `doc` paths are relative to `root`; every evidence string must survive parsing. */
export function describeMarkdownParserOnCorpus(root: string, questionFile: string, fileCount: number): void {
  describe(`markdown parser on every radxa-docs and esp-dev-kits file under ${path.basename(path.dirname(root))}/${path.basename(root)}`, () => {
    const files = boardFiles(root);

    it(`parses all ${fileCount} files with every invariant, keeps every question-file fact, and loses no heading`, async () => {
      expect(files).toHaveLength(fileCount);
      const docs = new Map<string, ParsedDocument>();
      const failures: string[] = [];
      const violations: string[] = [];
      let warned = 0;
      let mdx = 0;
      let htmlBlocks = 0;
      let leftoverTags = 0;
      const t0 = performance.now();
      for (const f of files) {
        const bytes = fs.readFileSync(path.resolve(root, f));
        const r = await markdownParser.parse({ bytes, fileName: path.basename(f) });
        if (!r.ok) {
          failures.push(`${f}: ${r.code}`);
          continue;
        }
        docs.set(f, r.doc);
        violations.push(...invariantViolations(r.doc).map((v) => `${f}: ${v}`));
        const t = transformMarkdown(bytes.toString('utf8'), f.endsWith('.mdx'));
        if (t.warnings.length) warned++;
        if (t.mdx) mdx++;
        if (r.doc.blocks.some((b) => b.kind === 'html')) htmlBlocks++;
        const prose = r.doc.text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
        if (t.mdx && /<\/?[A-Z][\w.]*[\s/>]/.test(prose)) leftoverTags++;
      }
      const ms = performance.now() - t0;
      console.log(
        `markdown parser: ${files.length} files in ${ms.toFixed(0)} ms; ${mdx} MDX; ${failures.length} without text (${failures.join(', ')}); ` +
          `${warned} with transform warnings; ${leftoverTags} with component tags left; ${htmlBlocks} still holding raw HTML blocks (figures, divs)`,
      );
      expect(violations).toEqual([]);
      // Only MDX partials that are pure component code have nothing to index.
      expect(failures.every((f) => f.endsWith('.mdx: empty'))).toBe(true);
      expect(leftoverTags).toBe(0);

      // Every gold evidence string of the question file survives in its gold document.
      const questions = fs.readFileSync(questionFile, 'utf8').trim().split('\n');
      expect(questions.length).toBeGreaterThan(0);
      const missing: string[] = [];
      for (const line of questions) {
        const q = JSON.parse(line) as { id: string; answers: { doc: string; contains: string }[] };
        for (const a of q.answers) {
          const doc = docs.get(a.doc);
          if (!doc || !benchNormalize(doc.text).includes(benchNormalize(a.contains))) missing.push(`${q.id} ${a.doc}`);
        }
      }
      expect(missing).toEqual([]);

      // The facts components carry are searchable.
      expect(docs.get('radxa-docs/rock5/rock5a/getting-started/interface-usage/pin-40-test.md')!.text).toContain('i2c_overlay_name: I2C8-M2');
    });
  });
}
