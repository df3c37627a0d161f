import type { SearchHit } from '../../src-main/contract/api';
import { ok } from '../../src-main/core/result';
import { planQuestion } from '../../src-main/chat/question-plan';
import { retrieve, type ChatIndex } from '../../src-main/chat/retrieve';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { analyzeQuery } from '../../src-main/search/query-analysis';

/**
 * What chat's retrieval tests share: search hits made up as the index returns them, and an index
 * that finds given hits, read through `retrieve` as chat reads a question.
 */

/** A search hit with the given fields; the others as the index gives a chunk (score 1, no pages, no model, its whole text). */
export function searchHit(fields: Partial<SearchHit> & Pick<SearchHit, 'chunkId' | 'doc' | 'text'>): SearchHit {
  return {
    title: 'Manual',
    score: 1,
    pages: [],
    headingPath: [],
    start: 0,
    end: fields.text.length,
    signature: { category: null, nouns: [], model: null },
    snippet: '',
    ...fields,
  };
}

/** A search hit of a TV manual's section (its text starts with its own heading, as chunks do). */
export function sectionHit(id: string, headingPath: string[], body: string, doc = 'tv/manual.md'): SearchHit {
  const text = `### ${headingPath[headingPath.length - 1]}\n\n${body}\n\n`;
  return searchHit({ chunkId: id, doc, title: 'TV Manual', text, headingPath });
}

/**
 * The chunk ids of the passages `retrieve` gives chat for `question` when the search (BM25, a
 * library with no learned vocabulary) finds `results` in that order; false when it fails.
 */
export async function retrievedIds(question: string, results: SearchHit[]): Promise<string[] | false> {
  const vocabulary = LibraryEnrichment.restore(null).vocabulary;
  const index: ChatIndex = {
    retriever: 'bm25',
    vocabulary,
    search: async (query, options) => ok({ query, resolvedModels: [], retriever: options.retriever, results, highlight: [] }),
  };
  const analysis = analyzeQuery(question, vocabulary);
  const res = await retrieve(index, question, analysis, planQuestion(question, analysis, vocabulary, []), {});
  return res.ok && res.value.passages.map((p) => p.hit.chunkId);
}
