import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../src-main/contract/api';
import { ok } from '../../src-main/core/result';
import { withoutCopies } from '../../src-main/chat/passage-copies';
import { retrieve, type ChatIndex } from '../../src-main/chat/retrieve';
import { planQuestion } from '../../src-main/chat/question-plan';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { analyzeQuery } from '../../src-main/search/query-analysis';

/** A search hit of a TV manual's section (its text starts with its own heading, as chunks do). */
function hit(id: string, headingPath: string[], body: string, doc = 'tv/manual.md'): SearchHit {
  const text = `### ${headingPath[headingPath.length - 1]}\n\n${body}\n\n`;
  return {
    chunkId: id,
    doc,
    title: 'TV Manual',
    text,
    score: 1,
    pages: [],
    headingPath,
    start: 0,
    end: text.length,
    signature: { category: null, nouns: [], model: null },
    snippet: '',
  };
}

const AMBIENT = 'Ambient Mode shows pictures while the TV is off.\n\n- Color Tone: Adjusts the colors of the screen.\n- Auto Brightness: Changes the brightness.';
const TIMER = 'The off timer turns the TV off after a set time.\n\nSelect Off Timer, then pick a time.';
const best = hit('best', ['TV Manual', 'Picture', 'Picture Mode'], 'Picture Mode sets how the picture looks.\n\nSelect Standard for most rooms.');
const bestCopy = hit('best-copy', ['TV Manual', 'Quick Guide', 'Picture Mode'], 'Picture Mode sets how the picture looks.\n\nSelect Standard for most rooms.');
const ambient = hit('ambient', ['TV Manual', 'Smart Features', 'Using the Ambient Mode'], AMBIENT);
const ambientCopy = hit('ambient-copy', ['TV Manual', 'Quick Guide', 'Using the Ambient Mode'], AMBIENT.replace('pictures while', 'pictures, while'));
const timer = hit('timer', ['TV Manual', 'System', 'Using the timers'], TIMER);

describe('a section the manual prints twice', () => {
  it('is quoted from once: the later copy goes, the passages after it move up', () => {
    expect(withoutCopies([best, ambient, ambientCopy, timer]).map((h) => h.chunkId)).toEqual(['best', 'ambient', 'timer']);
  });

  it('keeps the copy of the first passage, where its further lines come from', () => {
    expect(withoutCopies([best, bestCopy, ambient, ambientCopy]).map((h) => h.chunkId)).toEqual(['best', 'best-copy', 'ambient']);
  });

  it('keeps passages only alike, and copies in another document', () => {
    const alike = hit('alike', ['TV Manual', 'System', 'Using the sleep timer'], TIMER.replace('off timer', 'sleep timer'));
    expect(withoutCopies([best, timer, alike]).map((h) => h.chunkId)).toEqual(['best', 'timer', 'alike']);
    const otherManual = { ...ambientCopy, chunkId: 'other-manual', doc: 'tv/other-model.md' };
    expect(withoutCopies([best, ambient, otherManual]).map((h) => h.chunkId)).toEqual(['best', 'ambient', 'other-manual']);
  });

  it('reads no copy into sections that are only a heading', () => {
    const empty1 = hit('h1', ['TV Manual', 'Picture'], '');
    const empty2 = hit('h2', ['TV Manual', 'Sound'], '');
    expect(withoutCopies([best, empty1, empty2]).map((h) => h.chunkId)).toEqual(['best', 'h1', 'h2']);
  });

  it('keeps a later copy out of the passages chat quotes', async () => {
    const vocabulary = LibraryEnrichment.restore(null).vocabulary;
    const ambientMore = hit('ambient-more', ['TV Manual', 'Smart Features', 'Using the Ambient Mode', 'Ambient Mode settings'], 'Change the Ambient Mode screen settings from the browser.');
    const index: ChatIndex = {
      retriever: 'bm25',
      vocabulary,
      search: async (query, options) => ok({ query, resolvedModels: [], retriever: options.retriever, results: [ambientMore, ambient, ambientCopy, timer], highlight: [] }),
    };
    const question = 'How do I change the Ambient Mode screen colors?';
    const analysis = analyzeQuery(question, vocabulary);
    const res = await retrieve(index, question, analysis, planQuestion(question, analysis, vocabulary, []), {});
    expect(res.ok && res.value.passages.map((p) => p.hit.chunkId)).toEqual(['ambient-more', 'ambient']);
  });
});
