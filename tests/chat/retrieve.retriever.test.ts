import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src-main/contract/api';
import { fail, ok, type Result } from '../../src-main/core/result';
import { retrieverFor, type Retriever } from '../../src-main/core/vocabulary';
import { questionForLines, retrieve, type ChatIndex } from '../../src-main/chat/retrieve';
import { planQuestion } from '../../src-main/chat/question-plan';
import type { SearchHit } from '../../src-main/contract/api';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { markdownDocument } from '../enrich/corpus.helper';
import { analyzeQuery } from '../../src-main/search/query-analysis';
import type { SearchOptions } from '../../src-main/search/searcher';

/** A chat index that records every search and answers from a script (retrieval logic only). */
function scripted(retriever: Retriever, answer: (options: SearchOptions) => Result<SearchResponse>) {
  const calls: SearchOptions[] = [];
  const vocabulary = LibraryEnrichment.restore(null).vocabulary;
  const index: ChatIndex = {
    retriever,
    vocabulary,
    search: async (_query, options) => {
      calls.push(options);
      return answer(options);
    },
  };
  return { index, calls, vocabulary };
}

const empty = (options: SearchOptions): Result<SearchResponse> => ok({ query: 'q', resolvedModels: [], retriever: options.retriever, results: [], highlight: [] });

describe('chat retrieval', () => {
  it("searches with the library's retriever and the question's one analysis", async () => {
    const { index, calls, vocabulary } = scripted('hybrid', empty);
    const question = 'Which fuse does the pump take?';
    const analysis = analyzeQuery(question, vocabulary);
    const res = await retrieve(index, question, analysis, planQuestion(question, analysis, vocabulary, []), {});
    expect(res.ok).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ retriever: 'hybrid' });
    expect(calls[0]!.analysis).toBe(analysis);
  });

  it('falls back to keyword search while the vectors cannot be used', async () => {
    const { index, calls, vocabulary } = scripted('hybrid', (o) => (o.retriever === 'bm25' ? empty(o) : fail('model-missing', 'The embedder is not installed.')));
    const question = 'Which fuse does the pump take?';
    const analysis = analyzeQuery(question, vocabulary);
    const res = await retrieve(index, question, analysis, planQuestion(question, analysis, vocabulary, []), {});
    expect(res.ok).toBe(true);
    expect(calls.map((c) => c.retriever)).toEqual(['hybrid', 'bm25']);
  });

  it('uses hybrid search once a library has an embedder, BM25 before', () => {
    expect(retrieverFor(true)).toBe('hybrid');
    expect(retrieverFor(false)).toBe('bm25');
  });
});

describe('the relevance gate and sibling models', () => {
  // Two sibling pumps, each with its own folder; the vocabulary is learned from them as on import.
  const vocabulary = ModelVocabulary.fromDocuments([
    markdownDocument('lib/pumps/px20/README.md', '# PX20\n\nThe Acme PX20 is a dosing pump. Use the PX20 with 24V.'),
    markdownDocument('lib/pumps/px20/fuse.md', '# Fuse\n\nThe PX20 takes a fuse.'),
    markdownDocument('lib/pumps/px30/README.md', '# PX30\n\nThe Acme PX30 is a dosing pump. Use the PX30 with 48V.'),
    markdownDocument('lib/pumps/px30/fuse.md', '# Fuse\n\nThe PX30 takes a fuse.'),
  ]);
  const hit = (doc: string, model: string | null, text: string): SearchHit => ({
    chunkId: `${doc}#1`,
    doc,
    title: 'Fuse',
    text,
    score: 1,
    pages: [],
    headingPath: ['Fuse'],
    start: 0,
    end: text.length,
    signature: { category: null, nouns: [], model },
    snippet: '',
  });

  async function keptDocs(question: string, hits: SearchHit[], previousModels: string[] = []): Promise<string[]> {
    const index: ChatIndex = { retriever: 'bm25', vocabulary, search: async (_q, o) => ok({ query: question, resolvedModels: [], retriever: o.retriever, results: hits, highlight: [] }) };
    const analysis = analyzeQuery(question, vocabulary);
    const res = await retrieve(index, question, analysis, planQuestion(question, analysis, vocabulary, previousModels), {});
    if (!res.ok) throw new Error(res.error.message);
    return res.value.passages.map((p) => p.hit.doc);
  }

  it("drops a sibling's passage but keeps one whose chunk model is a maker-prefixed spelling or whose file names the model", async () => {
    expect(vocabulary.lookup('PX20')?.name).toBe('PX20');
    const kept = await keptDocs('Which fuse does the PX20 take?', [
      hit('lib/pumps/px30/fuse.md', 'PX30', 'The PX30 takes a 4 A fuse.'),
      // The enrichment wrote the maker into the chunk model: still the PX20.
      hit('lib/pumps/px20/fuse.md', 'Acme PX20', 'The fuse is a 2 A slow-blow fuse.'),
      // The chunk model is wrong (the maker's name), but the file is the PX20's.
      hit('lib/other/px20.md', 'Acme', 'Replace the fuse with a 2 A type.'),
      hit('lib/other/px30.md', 'Acme', 'Replace the fuse with a 4 A type.'),
    ]);
    expect(kept).toEqual(['lib/pumps/px20/fuse.md', 'lib/other/px20.md']);
  });

  it("keeps the asked model's own passage that says it in other words when only pages of no model clear the gate", async () => {
    const question = 'How do I restart the PX20 after a power failure?';
    const kept = await keptDocs(question, [
      // The PX20's manual: one question word ("power") of three, below the 40% the gate asks for.
      hit('lib/pumps/px20/power.md', 'PX20', 'Power: hold the button for 3 s to stop the pump, press it once to start it.'),
      hit('lib/pumps/px30/power.md', 'PX30', 'To restart the PX30 after a power failure, press Start.'),
      hit('lib/general/safety.md', null, 'After a power failure, restart any pump from its panel.'),
    ]);
    expect(kept).toEqual(['lib/pumps/px20/power.md', 'lib/general/safety.md']);
    // With a passage of its own that clears the gate, no weaker one is added.
    const clear = await keptDocs(question, [
      hit('lib/pumps/px20/power.md', 'PX20', 'Power: hold the button for 3 s to stop the pump.'),
      hit('lib/pumps/px20/reset.md', 'PX20', 'To restart the PX20 after a power failure, press Start.'),
    ]);
    expect(clear).toEqual(['lib/pumps/px20/reset.md']);
  });

  it("counts a question word that a value's unit states, except for a how-to question", async () => {
    // Four question words ("frequency", "pump", "motor", "run"), two needed; the table says "motor" and "50 Hz".
    const spec = hit('lib/general/spec.md', null, 'Motor: 400 V at 50 Hz.');
    expect(await keptDocs('What frequency does the PX20 pump motor run at?', [spec])).toEqual(['lib/general/spec.md']);
    expect(await keptDocs('How do I change the frequency the PX20 pump motor runs at?', [spec])).toEqual([]);
  });

  it("counts a question word when the passage says a word of its thesaurus group instead", async () => {
    // Three question words ("display", "size", "controller"), two needed; the spec says "LCD", "size" and no "controller".
    const spec = hit('lib/general/spec.md', null, 'Screen size: 0.96 inch colour LCD, ST7735S.');
    expect(await keptDocs('What display size and controller does the PX20 panel use?', [spec])).toEqual(['lib/general/spec.md']);
    // A word outside every group counts only as itself.
    expect(await keptDocs('What gasket size and controller does the PX20 valve use?', [spec])).toEqual([]);
  });

  it('keeps no weak passage for a model only kept from the previous question: this one may ask about another', async () => {
    const kept = await keptDocs('What fuse does the QZ-7 controller take?', [hit('lib/pumps/px20/fuse.md', 'PX20', 'The PX20 uses a 2 A fuse.')], ['PX20']);
    expect(kept).toEqual([]);
  });
});

describe('the question as the answerer reads it', () => {
  const vocabulary = ModelVocabulary.fromDocuments([
    markdownDocument('lib/e/e52c/README.md', '# Radxa E52C\n\nThe Radxa E52C is a router.'),
    markdownDocument('lib/e/e54c/README.md', '# Radxa E54C\n\nThe Radxa E54C is a router.'),
  ], { vendors: ['Radxa'] });

  it('blanks model names for the answerer but keeps a revision written with them', () => {
    const q = 'E52C V1.73: what changed?';
    expect(questionForLines(q, analyzeQuery(q, vocabulary)).trim()).toBe('V1.73 : what changed?');
    const plain = 'What supply does the E52C need?';
    expect(questionForLines(plain, analyzeQuery(plain, vocabulary))).not.toContain('E52C');
  });
});
