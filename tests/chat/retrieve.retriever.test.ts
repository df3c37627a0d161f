import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src-main/contract/api';
import { fail, ok, type Result } from '../../src-main/core/result';
import { retrieverFor, type Retriever } from '../../src-main/core/vocabulary';
import { planQuestion, retrieve, type ChatIndex } from '../../src-main/chat/retrieve';
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

const empty = (options: SearchOptions): Result<SearchResponse> => ok({ query: 'q', resolvedModels: [], retriever: options.retriever, results: [] });

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

  async function keptDocs(question: string, hits: SearchHit[]): Promise<string[]> {
    const index: ChatIndex = { retriever: 'bm25', vocabulary, search: async (_q, o) => ok({ query: question, resolvedModels: [], retriever: o.retriever, results: hits }) };
    const analysis = analyzeQuery(question, vocabulary);
    const res = await retrieve(index, question, analysis, planQuestion(question, analysis, vocabulary, []), {});
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
});
