import { describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import { SEMANTIC_NEEDS_EMBEDDER } from '../../src-main/chunking/semantic.chunker';
import type { Embedder } from '../../src-main/models/types';
import { expectAtomicBlocksWhole, expectTiling, hashedEmbedder, mdDoc, unwrap } from './chunking.helpers';

const pumpSentences = [
  'The pump pressure must stay between two and three bar.',
  'Check the pump pressure gauge before starting the pump.',
  'If the pump pressure drops, bleed the pump and check the gauge.',
];
const warrantySentences = [
  'Warranty claims require the original receipt of purchase.',
  'The warranty covers defects of purchase for two years from the receipt date.',
];

describe('semantic chunker', () => {
  it('splits where adjacent sentences stop being similar and keeps similar ones together', async () => {
    const doc = mdDoc(`${pumpSentences.join(' ')}\n\n${warrantySentences.join(' ')}\n`);
    const chunks = unwrap(await unwrap(createChunker('semantic')).chunk(doc, { embedder: hashedEmbedder() }));
    expectTiling(doc, chunks);
    expect(chunks.map((c) => c.text.trim())).toEqual([pumpSentences.join(' '), warrantySentences.join(' ')]);
    for (const c of chunks) expect(c.strategy).toBe('semantic');
  });

  it('cuts more often with a higher threshold', async () => {
    const doc = mdDoc(`${pumpSentences.join(' ')}\n\n${warrantySentences.join(' ')}\n`);
    const embedder = hashedEmbedder();
    const loose = unwrap(await unwrap(createChunker('semantic', { threshold: -1 })).chunk(doc, { embedder }));
    const strict = unwrap(await unwrap(createChunker('semantic', { threshold: 0.99 })).chunk(doc, { embedder }));
    expect(loose).toHaveLength(1);
    expect(strict).toHaveLength(5);
  });

  it('treats a table or code block as one unit and never splits it', async () => {
    const table = ['| Code | Meaning |', '| --- | --- |', '| E1. | Low pressure. |', '| E2. | High temp. |'].join('\n');
    const code = '```\nreset.\nstart.\n```';
    const doc = mdDoc(`Intro sentence one. Intro sentence two.\n\n${table}\n\n${code}\n\nClosing words here.\n`);
    const chunks = unwrap(await unwrap(createChunker('semantic', { threshold: 0.99 })).chunk(doc, { embedder: hashedEmbedder() }));
    expectTiling(doc, chunks);
    expectAtomicBlocksWhole(doc, chunks);
    expect(chunks.map((c) => c.text.trim())).toContain(table);
  });

  it('closes a chunk at maxChars even when everything is similar', async () => {
    const doc = mdDoc(`${'The pump pressure gauge shows the pump pressure. '.repeat(40)}\n`);
    const chunks = unwrap(await unwrap(createChunker('semantic', { maxChars: 300 })).chunk(doc, { embedder: hashedEmbedder() }));
    expectTiling(doc, chunks);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.text.trim().length).toBeLessThanOrEqual(300);
  });

  it('cuts a "sentence" longer than maxChars (a list of codes) at spaces, every chunk within it', async () => {
    const codes = Array.from({ length: 800 }, (_, i) => `AB${i}-X${i}Z`).join(' ');
    const doc = mdDoc(`${pumpSentences.join(' ')}\n\n${codes}\n`);
    const chunks = unwrap(await unwrap(createChunker('semantic', { threshold: -1, maxChars: 500 })).chunk(doc, { embedder: hashedEmbedder() }));
    expectTiling(doc, chunks);
    expect(chunks.length).toBeGreaterThan(codes.length / 500);
    for (const c of chunks) expect(c.text.trim().length).toBeLessThanOrEqual(500);
    expect(chunks.flatMap((c) => c.text.split(/\s+/)).filter((w) => w.startsWith('AB'))).toEqual(codes.split(' '));
  });

  it('is unavailable without an embedding model, with a message that says where to add one', async () => {
    const r = await unwrap(createChunker('semantic')).chunk(mdDoc('Some text.\n'));
    expect(r).toEqual({ ok: false, error: { code: 'unavailable', message: SEMANTIC_NEEDS_EMBEDDER } });
    expect(SEMANTIC_NEEDS_EMBEDDER).toBe('Semantic chunking needs an embedding model; add one in Settings › Models.');
  });

  it('turns an embedder failure or a wrong vector count into model-failed, and an abort into cancelled', async () => {
    const doc = mdDoc('One sentence. Another sentence.\n');
    const chunker = unwrap(createChunker('semantic'));
    const throwing: Embedder = { ...hashedEmbedder(), embed: async () => Promise.reject(new Error('onnx session closed')) };
    const short: Embedder = { ...hashedEmbedder(), embed: async () => [new Float32Array(4)] };
    const failed = await chunker.chunk(doc, { embedder: throwing });
    expect(failed.ok || failed.error).toEqual({ code: 'model-failed', message: expect.stringContaining('onnx session closed') });
    const wrong = await chunker.chunk(doc, { embedder: short });
    expect(wrong.ok || wrong.error.code).toBe('model-failed');

    const controller = new AbortController();
    const aborting: Embedder = {
      ...hashedEmbedder(),
      embed: async () => {
        controller.abort();
        throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      },
    };
    const stopped = await chunker.chunk(doc, { embedder: aborting, signal: controller.signal });
    expect(stopped.ok || stopped.error.code).toBe('cancelled');
  });
});
