import { execFileSync } from 'node:child_process';
import { Document, Packer, Paragraph } from 'docx';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/temp';
import { DOC_FORMATS, FORMATS, formatOfExtension } from '../../../src-main/core/formats';
import { formatFor } from '../../../src-main/ingest/parsers/choose';
import { PARSERS, SUPPORTED_EXTENSIONS, isSupportedFile, parseDocument, parserFor } from '../../../src-main/ingest/parsers';

const formatOf = (name: string): string | null => {
  const r = parserFor(name);
  return r.ok ? r.parser.format : null;
};

describe('parser registry', () => {
  it('lists exactly the supported extensions', () => {
    expect([...SUPPORTED_EXTENSIONS].sort()).toEqual(['docx', 'htm', 'html', 'markdown', 'md', 'mdx', 'pdf', 'text', 'txt', 'xhtml']);
    expect(new Set(PARSERS.map((p) => p.format))).toEqual(new Set(['pdf', 'docx', 'html', 'markdown', 'txt']));
  });

  it('has exactly one parser for every format of core/formats.ts, reading that format\'s extensions', () => {
    for (const format of DOC_FORMATS) expect(PARSERS.filter((p) => p.format === format), format).toHaveLength(1);
    expect(PARSERS).toHaveLength(DOC_FORMATS.length);
    for (const ext of SUPPORTED_EXTENSIONS) expect(formatOf(`file.${ext}`), ext).toBe(formatOfExtension(ext));
    expect(FORMATS.markdown.extensions).toContain('mdx');
    expect(formatOfExtension('epub')).toBeNull();
  });

  it('chooses the parser by lower-case extension', () => {
    expect(formatOf('Manual.PDF')).toBe('pdf');
    expect(formatOf('spec.DocX')).toBe('docx');
    expect(['a.html', 'a.HTM', 'a.xhtml'].map(formatOf)).toEqual(['html', 'html', 'html']);
    expect(['a.md', 'b.Markdown', 'c.mdx'].map(formatOf)).toEqual(['markdown', 'markdown', 'markdown']);
    expect(['a.txt', 'b.TEXT'].map(formatOf)).toEqual(['txt', 'txt']);
    expect(isSupportedFile('folder/readme.MD')).toBe(true);
    expect(isSupportedFile('photo.png')).toBe(false);
  });

  it('refuses old .doc files with advice to save them as .docx', () => {
    const r = parserFor('old-manual.doc');
    expect(r).toMatchObject({ ok: false, code: 'unsupported' });
    expect(!r.ok && r.reason).toMatch(/\.doc\).*save it as \.docx/);
  });

  it('sends a real .docx saved with a .doc extension to the DOCX parser', async () => {
    const bytes = new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Fuse T5A')] }] })));
    const r = parserFor('misnamed.doc', bytes);
    expect(r.ok && r.parser.format).toBe('docx');
    const parsed = await parseDocument({ bytes, fileName: 'misnamed.doc' });
    expect(parsed.ok && parsed.doc.text).toContain('Fuse T5A');
  });

  it('names the supported extensions when refusing a file', () => {
    const r = parserFor('diagram.png');
    expect(r).toEqual({
      ok: false,
      code: 'unsupported',
      reason: 'Files ending in .png are not supported. Supported formats: .pdf, .docx, .html, .htm, .xhtml, .md, .markdown, .mdx, .txt, .text.',
    });
    const none = parserFor('README');
    expect(!none.ok && none.reason).toMatch(/^This file has no extension, so its format is unknown\. Supported formats: \.pdf/);
  });

  it('parses through the chosen parser', async () => {
    const md = await parseDocument({ bytes: new TextEncoder().encode('# Fuses\n\nT5A\n'), fileName: 'fuses.md' });
    expect(md.ok && md.doc.format).toBe('markdown');
    const txt = await parseDocument({ bytes: new TextEncoder().encode('# Fuses\n\nT5A\n'), fileName: 'fuses.txt' });
    expect(txt.ok && txt.doc.blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph']);
    expect(await parseDocument({ bytes: new Uint8Array([1, 2, 3]), fileName: 'x.exe' })).toMatchObject({ ok: false, code: 'unsupported' });
  });

  it('returns a result, never an exception, for arbitrary bytes under every extension', async () => {
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const blobs = [
      new Uint8Array(0),
      new Uint8Array(3000).map(() => next() % 256),
      new Uint8Array(3000).map(() => 32 + (next() % 95)),
      new TextEncoder().encode('<table><tr><td>' + '<div>'.repeat(500) + '{{{{ ```` <Tabs ' + '</x>'.repeat(300)),
      new TextEncoder().encode('PK\u0003\u0004 not really a zip'),
    ];
    for (const ext of SUPPORTED_EXTENSIONS) {
      for (const bytes of blobs) {
        const r = await parseDocument({ bytes, fileName: `fuzz.${ext}` });
        expect(typeof r.ok, `${ext}`).toBe('boolean');
        if (!r.ok) expect(r.reason.length, `${ext} ${r.code}`).toBeGreaterThan(10);
      }
    }
  });
  it('chooses a format by name alone as the registry chooses its parser, failures spelled the same', () => {
    const names = [...SUPPORTED_EXTENSIONS.map((e) => `Manual.${e.toUpperCase()}`), 'old-manual.doc', 'photo.png', 'README', 'a.b/c'];
    for (const name of names) {
      const byName = formatFor(name);
      const byParser = parserFor(name);
      expect(byName.ok ? byName.format : byName, name).toEqual(byParser.ok ? byParser.parser.format : byParser);
    }
  });

  it('is all an import loads on its own thread: the parsers load in the parse worker', () => {
    // A fresh process, so modules other tests loaded do not count.
    const script = [
      "await import('./src-main/ingest/import.job.ts');",
      "const { createRequire } = await import('node:module');",
      "const loaded = Object.keys(createRequire(import.meta.url).cache);",
      "console.log(JSON.stringify(loaded.filter((f) => /[\\\\/](turndown|@mixmark-io|mammoth|pdfjs-dist|markdown-it)[\\\\/]|parsers[\\\\/](markdown|pdf|docx|html)\\.parser/.test(f))));",
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual([]);
  });
});
