import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DocumentEvidence } from '../../src-main/search/document-evidence';
import { orderPassages } from '../../src-main/search/stages/passage-order.stage';
import type { ChunkHit } from '../../src-main/storage/chunk-store';
import { useTempEngine } from '../helpers/temp-engine';

const hit = (id: string, docId: string, score: number, text = '') => ({ score, record: { id, docId, text, indexedText: text } }) as unknown as ChunkHit;

describe('DocumentEvidence.passageWords', () => {
  const evidence = DocumentEvidence.build([
    { id: 'kit/core/lumen_lite.md', title: 'LUMEN Lite' },
    { id: 'kit/core/lumen_matrix.md', title: 'LUMEN Matrix' },
    { id: 'kit/unit/env.md', title: 'Unit ENV' },
  ]);

  it('names the best documents and keeps the words their names do not cover', () => {
    expect(evidence.passageWords('lumen lite RGB LED type and count')).toEqual({ docs: ['kit/core/lumen_lite.md'], words: ['rgb', 'led', 'type', 'count'] });
  });

  it('is null when no name is matched or nothing is left', () => {
    expect(evidence.passageWords('RGB LED type')).toBeNull();
    expect(evidence.passageWords('lumen lite')).toBeNull();
  });

  it('is null when the question names every document alike (a one-manual library)', () => {
    const one = DocumentEvidence.build([{ id: 'tv/Smart_TV_Manual.md', title: 'Smart TV Manual' }]);
    expect(one.passageWords('How do I update the TV automatically?')).toBeNull();
  });
});

describe('orderPassages', () => {
  it("reorders only the named document's hits, inside the places they already hold", () => {
    const hits = [hit('a1', 'a.md', 9), hit('b1', 'b.md', 8), hit('a2', 'a.md', 7), hit('a3', 'a.md', 1)];
    const out = orderPassages(hits, { words: 'rgb led', docs: new Set(['a.md']), scores: new Map([['a3', 5], ['a1', 1]]) });
    expect(out.map((h) => h.record.id)).toEqual(['a3', 'b1', 'a1', 'a2']);
    // The places keep their scores: the document-level decision is not changed.
    expect(out.map((h) => h.score)).toEqual([9, 8, 7, 1]);
  });

  it('orders the named document\'s passages by the further weighting it is given', () => {
    // Twin sections of one FAQ page, one per model: the passage words tie, the model decides.
    const hits = [hit('faq-other', 'faq.md', 9), hit('faq-named', 'faq.md', 8)];
    const scores = new Map([['faq-other', 5], ['faq-named', 5]]);
    const named = (members: ChunkHit[]) => [...members].sort((a, b) => (b.record.id === 'faq-named' ? 1 : 0) - (a.record.id === 'faq-named' ? 1 : 0));
    expect(orderPassages(hits, { words: 'bootloader mode', docs: new Set(['faq.md']), scores }).map((h) => h.record.id)).toEqual(['faq-other', 'faq-named']);
    expect(orderPassages(hits, { words: 'bootloader mode', docs: new Set(['faq.md']), scores }, new Map(), named).map((h) => h.record.id)).toEqual(['faq-named', 'faq-other']);
  });

  it('changes nothing without passage words', () => {
    const hits = [hit('a1', 'a.md', 9), hit('a2', 'a.md', 7)];
    expect(orderPassages(hits, null)).toEqual(hits);
  });
});

describe('passage order in a real library', () => {
  const t = useTempEngine();

  it("puts the named manual's table row above its introduction that repeats the manual's name", async () => {
    const { engine, dir } = t;
    const root = path.join(dir, 'kit', 'core');
    await mkdir(root, { recursive: true });
    const table = (led: string) =>
      ['## Specification', '', '| Resources | Parameter |', '| --- | --- |', '| Flash | 4MB |', `| RGB LED | ${led} |`, '| Button | Custom button x 1 |', ''].join('\n');
    const intro = (name: string) =>
      `## Description\n\n**${name}** is a compact board. The ${name} has a button; the ${name} fits in a pocket and the ${name} runs on 5 V.\n`;
    await writeFile(path.join(root, 'lumen_lite.md'), `# LUMEN Lite\n\n${intro('LUMEN Lite')}\n${table('QX6812 x 1')}`);
    await writeFile(path.join(root, 'lumen_matrix.md'), `# LUMEN Matrix\n\n${intro('LUMEN Matrix')}\n${table('QX2812 x 25')}`);
    const imported = await engine.importPaths('Kit', [path.join(dir, 'kit')]);
    expect(imported.ok).toBe(true);
    const res = await engine.api['search.query']({ library: 'Kit', query: 'lumen lite RGB LED type and count', topK: 3, retriever: 'bm25' });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.results[0]!.doc).toBe('kit/core/lumen_lite.md');
    expect(res.value.results[0]!.text).toContain('QX6812 x 1');
  });
});
