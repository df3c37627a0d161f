import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chatIndexOf, createChatService, type ChatIndex } from '../../src-main/chat/chat.service';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { Retriever } from '../../src-main/core/vocabulary';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { tempDir } from '../helpers/temp';

/**
 * Chat searches with the library's retriever: keywords (BM25) until an embedder is chosen, hybrid
 * (BM25 + vectors, RRF) once the library is embedded. Real engine, real LanceDB, the tiny
 * generated ONNX embedder.
 */

let engine: Engine;
let cleanup: () => Promise<void>;

const manual = (model: string, part: string) =>
  `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal with part ${part} after 2000 hours.\n\n## Priming\n\nPrime the ${model} pump with clean water before the first start.\n`;

beforeAll(async () => {
  const onnx = await ensureTinyOnnx();
  const tmp = await tempDir('manualmate-chat-retriever-');
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.dirname(onnx) });
  await mkdir(path.join(tmp.dir, 'pumps'), { recursive: true });
  await writeFile(path.join(tmp.dir, 'pumps', 'p-100.md'), manual('P-100', 'SK-11'));
  await writeFile(path.join(tmp.dir, 'pumps', 'p-200.md'), manual('P-200', 'SK-22'));
  const res = await engine.importPaths('Pumps', [path.join(tmp.dir, 'pumps')]);
  if (!res.ok) throw new Error(res.error.message);
});
afterAll(async () => {
  await engine?.dispose();
  await cleanup?.();
});

describe("chat and the library's retriever", () => {
  it('answers by keywords before an embedder is chosen and by hybrid search once the library is embedded', async () => {
    const lib = (await engine.libraries.get('Pumps'))!;
    const real = chatIndexOf(await engine.indexes.open(lib));
    // The question's own search carries its analysis; the unknown-name probe does not.
    const used: Retriever[] = [];
    const index: ChatIndex = {
      get vocabulary() {
        return real.vocabulary;
      },
      get retriever() {
        return real.retriever;
      },
      listChunks: (doc) => real.listChunks!(doc),
      search: (query, options) => {
        if (options.analysis) used.push(options.retriever);
        return real.search(query, options);
      },
    };
    const chat = createChatService({ libraryDir: lib.dir, libraryName: 'Pumps', index, getLlm: async () => null, emit: () => undefined });

    const before = await chat.answer('Which shaft seal part does the P-200 take?');
    expect(before.ok && before.value.mode).toBe('extracted');
    expect(before.ok && before.value.text).toContain('SK-22');
    expect(used).toEqual(['bm25']);

    expect(await engine.handlers['libraries.configure']({ library: 'Pumps', embedder: 'tiny-embedder' })).toMatchObject({ ok: true });
    await engine.idle();
    const after = await chat.answer('Which shaft seal part does the P-200 take?');
    expect(after.ok && after.value.mode).toBe('extracted');
    expect(after.ok && after.value.text).toContain('SK-22');
    expect(after.ok && after.value.text).not.toContain('SK-11');
    expect(used).toEqual(['bm25', 'hybrid']);
  });
});
