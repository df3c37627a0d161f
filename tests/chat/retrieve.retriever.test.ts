import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src-main/contract/api';
import { fail, ok, type Result } from '../../src-main/core/result';
import { retrieverFor, type Retriever } from '../../src-main/core/vocabulary';
import { planQuestion, retrieve, type ChatIndex } from '../../src-main/chat/retrieve';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
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
