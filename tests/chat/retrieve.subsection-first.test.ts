import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../src-main/contract/api';
import { ok } from '../../src-main/core/result';
import { leadOnly, retrieve, subsectionFirst, type ChatIndex } from '../../src-main/chat/retrieve';
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

const lead = hit('lead', ['TV Manual', 'Troubleshooting', "I Can't Hear the Sound"], 'When the TV has difficulties with sound, these steps may help resolve the problem.');
const steps = hit(
  'steps',
  ['TV Manual', 'Troubleshooting', "I Can't Hear the Sound", 'Testing the sound'],
  'If the TV makes no sound, check the volume.\n\nRun the sound test from the Self Diagnosis menu.',
);
const other = hit('other', ['TV Manual', 'Picture and Sound', 'Sound Mode'], 'Change the Sound Mode to hear the sound clearly.\n\nSelect Standard for most programs.');

describe('a section lead placed after its subsection', () => {
  it('tells a passage that is only its section lead from one that says more', () => {
    expect(leadOnly(lead.text)).toBe(true);
    // A menu path under the lead ends no sentence: still only the lead.
    expect(leadOnly('### Using a Samsung account\n\nCreate and manage your own Samsung account.\n\nSettings General System Manager Samsung Account Try Now\n\n')).toBe(true);
    expect(leadOnly(steps.text)).toBe(false);
    // A subsection's heading inside the passage: its text is there too.
    expect(leadOnly('### Using Other Functions\n\nView other functions.\n\n#### Running the accessibility functions\n\nSettings General Accessibility Try Now\n\n')).toBe(false);
    // Several sentences in one line are several (the answer reads them so).
    expect(leadOnly('### Restarting\n\nUnplug it. Wait ten seconds. Plug it back in.\n\n')).toBe(false);
    // A lead with its list of steps, a table or code says what to do: more than the lead.
    expect(leadOnly('### Restarting\n\nTo restart the TV:\n\n- Unplug it\n- Plug it back in\n\n')).toBe(false);
    expect(leadOnly('### Fuses\n\nThe fuses by model.\n\n| Model | Fuse |\n|---|---|\n| A1 | T5A |\n\n')).toBe(false);
    expect(leadOnly('### Flashing\n\nRun this command.\n\n```\nflash --port COM3\n```\n\n')).toBe(false);
  });

  it('moves the lead after the next passage when that one is from its subsection', () => {
    expect(subsectionFirst([lead, steps, other]).map((h) => h.chunkId)).toEqual(['steps', 'lead', 'other']);
  });

  it('keeps the order when the next passage is from another section, another document, or the first says more', () => {
    expect(subsectionFirst([lead, other, steps]).map((h) => h.chunkId)).toEqual(['lead', 'other', 'steps']);
    const elsewhere = { ...steps, doc: 'tv/other-manual.md' };
    expect(subsectionFirst([lead, elsewhere]).map((h) => h.chunkId)).toEqual(['lead', 'steps']);
    const parent = hit('parent', lead.headingPath, 'When the TV has difficulties with sound, check these.\n\nFirst, check the cable.');
    expect(subsectionFirst([parent, steps]).map((h) => h.chunkId)).toEqual(['parent', 'steps']);
    expect(subsectionFirst([lead]).map((h) => h.chunkId)).toEqual(['lead']);
  });

  it('gives chat the subsection as its first passage', async () => {
    const vocabulary = LibraryEnrichment.restore(null).vocabulary;
    const index: ChatIndex = {
      retriever: 'bm25',
      vocabulary,
      search: async (query, options) => ok({ query, resolvedModels: [], retriever: options.retriever, results: [lead, steps, other], highlight: [] }),
    };
    const question = 'What can I do if I hear no sound?';
    const analysis = analyzeQuery(question, vocabulary);
    const res = await retrieve(index, question, analysis, planQuestion(question, analysis, vocabulary, []), {});
    expect(res.ok && res.value.passages.map((p) => p.hit.chunkId)).toEqual(['steps', 'lead', 'other']);
  });
});
