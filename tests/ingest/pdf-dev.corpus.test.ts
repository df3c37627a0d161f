import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { parseQuestions } from '../../src-main/eval/questions';
import { normalizeForRelevance } from '../../src-main/eval/relevance';
import { corpusRoots, sharedDir, tempDir } from '../helpers/temp';

/**
 * The whole import (parse pool, pdf.js, layout, chunking, enrichment, index) on every vendor PDF
 * of ../shared/corpus/pdf-dev, with the questions of ../shared/bench/pdf-dev.jsonl.
 */

// C0 controls other than tab, line feed and carriage return, and DEL: what undecoded glyph codes
// ("9.0 m\x04", "R\x02JA") used to leave in the text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

describe('import of ../shared/corpus/pdf-dev', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let docs: DocumentSummary[];
  let summary: { imported: number; failed: number };

  beforeAll(async () => {
    tmp = await tempDir('manualmate-pdf-dev-');
    engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'no-models') });
    const res = await engine.importPaths('pdf-dev', [path.join(corpusRoots.shared, 'pdf-dev')]);
    if (!res.ok) throw new Error(res.error.message);
    summary = res.value.summary;
    const list = await engine.handlers['documents.list']({ library: 'pdf-dev' });
    if (!list.ok) throw new Error(list.error.message);
    docs = list.value;
  }, 900_000);

  afterAll(async () => {
    await engine?.dispose();
    await tmp?.cleanup();
  });

  it('imports all 15 PDFs, every one with its pages', () => {
    expect(summary).toMatchObject({ imported: 15, failed: 0 });
    expect(docs.filter((d) => d.status === 'ready' && (d.pageCount ?? 0) > 0)).toHaveLength(15);
  });

  it('indexes no control character: not in a chunk, its prefix, keywords or signature, nor in a title', async () => {
    const found: string[] = [];
    for (const doc of docs) {
      if (CONTROL.test(doc.title)) found.push(`${doc.id}: title ${JSON.stringify(doc.title)}`);
      const chunks = await engine.handlers['documents.chunks']({ library: 'pdf-dev', id: doc.id });
      if (!chunks.ok) throw new Error(chunks.error.message);
      for (const c of chunks.value) {
        const fields = { text: c.text, indexedText: c.indexedText, prefix: c.prefix, headingPath: c.headingPath.join(' > '), keywords: c.keywords.join(' '), entities: c.entities.join(' '), signature: JSON.stringify(c.signature) };
        for (const [field, value] of Object.entries(fields)) {
          const at = value.search(CONTROL);
          if (at >= 0) found.push(`${doc.id} #${c.ordinal} ${field}: ${JSON.stringify(value.slice(Math.max(0, at - 20), at + 20))}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("reads a Symbol font's signs as drawn: the Fairchild trademark pages' ™ (a SymbolMT glyph id) is no '¥', and no noncharacter is left", async () => {
    // pdftotext reads ~60 "¥" in each of the three Fairchild datasheets; none of the 15 documents is priced in yen.
    const found: string[] = [];
    let trademarks = 0;
    for (const doc of docs) {
      const source = await engine.handlers['documents.source']({ library: 'pdf-dev', id: doc.id });
      if (!source.ok) throw new Error(source.error.message);
      for (const m of source.value.text.matchAll(/[¥\uffff]/g)) found.push(`${doc.id}: ${JSON.stringify(source.value.text.slice(Math.max(0, m.index - 20), m.index + 20))}`);
      if (doc.id.includes('fairchild')) trademarks += (source.value.text.match(/SerDes ?TM/g) ?? []).length;
    }
    expect(found).toEqual([]);
    // NFKC writes ™ as "TM": the signs are there, not dropped.
    expect(trademarks).toBeGreaterThanOrEqual(3);
  });

  it('keeps the evidence of every pdf-dev question on the page the question file gives', async () => {
    const questions = parseQuestions(await readFile(path.join(sharedDir, 'bench', 'pdf-dev.jsonl'), 'utf8'), 'pdf-dev.jsonl');
    if (!questions.ok) throw new Error(questions.error.message);
    const pageTexts = new Map<string, string[]>();
    const missing: string[] = [];
    let checked = 0;
    for (const q of questions.value) {
      for (const a of q.answers) {
        if (a.page === undefined) continue;
        let pages = pageTexts.get(a.doc);
        if (!pages) {
          const id = docs.find((d) => d.id === a.doc || d.id.endsWith(`/${a.doc}`) || a.doc.endsWith(`/${d.id}`))?.id;
          if (!id) throw new Error(`no imported document for ${a.doc}`);
          const source = await engine.handlers['documents.source']({ library: 'pdf-dev', id });
          if (!source.ok) throw new Error(source.error.message);
          const { text, pageStarts } = source.value;
          pages = pageStarts.map((start, i) => normalizeForRelevance(text.slice(start, pageStarts[i + 1] ?? text.length)));
          pageTexts.set(a.doc, pages);
        }
        checked++;
        if (!pages[a.page - 1]?.includes(normalizeForRelevance(a.contains))) missing.push(`${q.id}: "${a.contains}" not on page ${a.page} of ${a.doc}`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(50);
    expect(missing).toEqual([]);
  });
});
