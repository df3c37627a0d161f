import { describe, expect, it } from 'vitest';
import { ok } from '../../src-main/core/result';
import type { ChatIndex } from '../../src-main/chat/retrieve';
import { confirmUnknown, mentions, planQuestion, spelledInWords } from '../../src-main/chat/question-plan';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { markdownDocument } from '../enrich/corpus.helper';
import { phoneManual } from './fixtures';
import { analyzeQuery } from '../../src-main/search/query-analysis';

/**
 * The question plan (question-plan.ts): which models a question is about, read before any search,
 * and the unknown names the library's own text takes back (`confirmUnknown`).
 */

describe('unknown names the library talks about', () => {
  // Two routers with model numbers; the E52C manual also names its module, the E58M.
  const vocabulary = ModelVocabulary.fromDocuments([
    markdownDocument('lib/e/e52c/README.md', '# Radxa E52C\n\nThe Radxa E52C is a router.'),
    markdownDocument('lib/e/e54c/README.md', '# Radxa E54C\n\nThe Radxa E54C is a router.'),
  ], { vendors: ['Radxa'] });
  const manualText = 'The E52C carries an E58M module that takes 5V. The E52C and E54C routers need a 5V/3A supply.';
  /** A BM25 stand-in over one stored passage: it returns the passage when it shares a word with the query. */
  const index: ChatIndex = {
    retriever: 'bm25',
    vocabulary,
    search: async (query, o) => {
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      const hit = words.some((w) => manualText.toLowerCase().includes(w));
      const results = hit ? [{ chunkId: 'lib/e/e52c/README.md#1', doc: 'lib/e/e52c/README.md', title: 'Radxa E52C', text: manualText, score: 1, pages: [], headingPath: [], start: 0, end: 1, signature: { category: null, nouns: [], model: 'E52C' }, snippet: '' }] : [];
      return ok({ query, resolvedModels: [], retriever: o.retriever, results, highlight: [] });
    },
  };

  it('takes back an "unknown" name the manuals mention, and keeps a model number no manual names', async () => {
    const ask = async (q: string) => confirmUnknown(index, planQuestion(q, analyzeQuery(q, vocabulary), vocabulary, ['E54C']), ['E54C']);
    const missing = await ask('What supply does the E99C need?');
    expect(missing.unknown.map((u) => u.text)).toEqual(['E99C']);
    expect(missing.inherited).toEqual([]);
    expect(planQuestion('Which voltage does the E58M take?', analyzeQuery('Which voltage does the E58M take?', vocabulary), vocabulary, []).unknown.map((u) => u.text)).toEqual(['E58M']);
    const part = await ask('Which voltage does the E58M take?');
    expect(part.unknown).toEqual([]);
    // Nothing unknown is left and no model is named: the conversation's model is kept.
    expect(part.inherited).toEqual(['E54C']);
  });

  it("takes back a code the library's words spell with more or less after it, which the probe search cannot find", async () => {
    // The index keeps "ILI9342C" as one word: a search for "ILI9342" finds nothing.
    const words = ['display', 'ili9342c', 'atecc608a', 'esp32-s3r8', 'samd21g18', 'e52c'];
    const withWords: ChatIndex = { ...index, search: async (query, o) => ok({ query, resolvedModels: [], retriever: o.retriever, results: [], highlight: [] }), libraryWords: () => words };
    for (const code of ['ILI9342', 'ATECC608', 'ESP32S3R8', 'SAMD21G18A']) {
      const q = `What does the ${code} do?`;
      const plan = planQuestion(q, analyzeQuery(q, vocabulary), vocabulary, []);
      expect(plan.unmentioned.map((u) => u.text), code).toEqual([code]);
      expect((await confirmUnknown(withWords, plan, [])).unmentioned, code).toEqual([]);
    }
    const q = 'What input voltage does the TPS7A47 take?';
    const plan = planQuestion(q, analyzeQuery(q, vocabulary), vocabulary, []);
    expect(plan.unknown).toEqual([]);
    expect((await confirmUnknown(withWords, plan, [])).unmentioned.map((u) => u.text)).toEqual(['TPS7A47']);
    // A family word does not take back a member whose rest has a number ("esp32" for ESP32C6).
    expect(spelledInWords('esp32c6', ['esp32'])).toBe(false);
    expect(spelledInWords('rk3588s', ['rk3588'])).toBe(true);
    // A series written with x's names its members.
    expect(spelledInWords('cp2102', ['cp210x'])).toBe(true);
    expect(spelledInWords('lm7805', ['lm78xx'])).toBe(true);
    expect(spelledInWords('cp2202', ['cp210x'])).toBe(false);
    // Short keys and words without digits never count.
    expect(spelledInWords('e52c', ['e52c1'])).toBe(false);
    expect(spelledInWords('display1', ['display'])).toBe(false);
  });

  it('recognises a name as written in the text: any separators, or one long code of it', () => {
    expect(mentions('The special package (CH32H417MEU) uses PA9', 'CH32H417MEU (QFN88')).toBe(true);
    expect(mentions('Radxa ROCK-9X board', 'ROCK 9X')).toBe(true);
    expect(mentions('a 9X zoom on the ROCK board', 'ROCK 9X')).toBe(false);
    expect(mentions('The E52C router', 'E5')).toBe(false);
  });
});

describe('a word after the name of a model no manual is about', () => {
  // The Foo X2 is only mentioned; the Foo X2 Pro 5G has a manual, whose name the Foo X2's begins.
  const vocabulary = ModelVocabulary.fromDocuments([
    markdownDocument('devices/Foo_X1.md', phoneManual('Foo X1', 80, 'The Foo X2 charger also charges the Foo X1.')),
    markdownDocument('devices/Foo_X2_Pro_5G.md', phoneManual('Foo X2 Pro 5G', 300, 'Unlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.')),
    markdownDocument('devices/Bar_Z5_Mini_5G.md', phoneManual('Bar Z5 Mini 5G', 40)),
  ]);
  const library = { libraryWords: () => ['battery', 'charge', 'charger', 'wirelessly', 'adapter', 'bluetooth'] };
  const read = (q: string, index: { libraryWords?: () => Iterable<string> } = library) => {
    const plan = planQuestion(q, analyzeQuery(q, vocabulary), vocabulary, [], index);
    return { named: plan.named, unknown: plan.unknown.map((u) => (u.fuller ? `${u.text} -> ${u.fuller.documented}` : u.text)) };
  };

  it('goes on with the name when it is a capitalised word, a word of model names, a code, or a lower-case word no manual writes', () => {
    for (const [q, name] of [
      ['What battery does the Foo X2 Lite have?', 'Foo X2 Lite'],
      ['what battery does the foo x2 lite have?', 'foo x2 lite'],
      ['foo x2 mini battery', 'foo x2 mini'],
      ['Does the Foo X2 C3 charge?', 'Foo X2 C3'],
      // A quantity in a unit the library's model names are written in (the Foo X2 Pro 5G's "5G").
      ['Does the Foo X2 4G charge?', 'Foo X2 4G'],
      ['How Do I Charge The Foo X2 Lite?', 'Foo X2 Lite'],
    ] as const) {
      expect(read(q), q).toEqual({ named: [], unknown: [name] });
    }
  });

  it("is the question's when the library writes it, it is inflected or a quantity, or follows a name written with capitals in lower case", () => {
    for (const [q, name] of [
      ['foo x2 battery?', 'foo x2'],
      ['foo x2 batery?', 'foo x2'],
      ['Does the Foo X2 Bluetooth pair?', 'Foo X2'],
      ['foo x2 overheats when charging', 'foo x2'],
      ['foo x2 stopped charging', 'foo x2'],
      ['Why does the Foo X2 overheat?', 'Foo X2'],
      ['Does the Foo X2 5V input take 2 A?', 'Foo X2'],
      ['Is the Foo X2 4 GB?', 'Foo X2'],
      ['Foo X2 Overheating When Charging?', 'Foo X2'],
    ] as const) {
      expect(read(q), q).toEqual({ named: ['Foo X2'], unknown: [`${name} -> Foo X2 Pro 5G`] });
    }
  });

  it("reads a lower-case word as the question's without the library's words, a capitalised one as the name's", () => {
    expect(read('foo x2 lite battery?', {})).toEqual({ named: ['Foo X2'], unknown: ['foo x2 -> Foo X2 Pro 5G'] });
    expect(read('Foo X2 Lite battery?', {})).toEqual({ named: [], unknown: ['Foo X2 Lite'] });
  });

  it('goes on with every word after the name that goes on with it, not only the first', () => {
    for (const [q, name] of [
      ['What battery does the Foo X2 Mini 5G have?', 'Foo X2 Mini 5G'],
      ['foo x2 lite mini battery', 'foo x2 lite mini'],
      ['How Do I Charge The Foo X2 Lite Max?', 'Foo X2 Lite Max'],
    ] as const) {
      expect(read(q), q).toEqual({ named: [], unknown: [name] });
    }
    // The words after the name's stop at the first that is the question's.
    expect(read('Does the Foo X2 Lite battery charge?')).toEqual({ named: [], unknown: ['Foo X2 Lite'] });
    expect(read('Is the Foo X2 Mini 4 GB?')).toEqual({ named: [], unknown: ['Foo X2 Mini'] });
  });

  it("reads a short word in capitals as the question's unless the library's model names write such words", () => {
    // No model name of this library has a word of capitals alone: "OK" is as a lower-case word after a capitalised name.
    expect(read('Is Foo X2 OK?')).toEqual({ named: ['Foo X2'], unknown: ['Foo X2 -> Foo X2 Pro 5G'] });
    expect(read('Is the Foo X2 OK to charge overnight?')).toEqual({ named: ['Foo X2'], unknown: ['Foo X2 -> Foo X2 Pro 5G'] });
    // A library naming a model "Bar Z5 GT" teaches that such a word may end a name.
    const withCapitals = ModelVocabulary.fromDocuments([
      markdownDocument('devices/Foo_X2_Pro_5G.md', phoneManual('Foo X2 Pro 5G', 300, 'Unlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.')),
      markdownDocument('devices/Bar_Z5_GT.md', phoneManual('Bar Z5 GT', 40)),
    ]);
    const q = 'Does the Foo X2 FE charge?';
    expect(planQuestion(q, analyzeQuery(q, withCapitals), withCapitals, [], library).unknown.map((u) => u.text)).toEqual(['Foo X2 FE']);
  });

  it('names the model again when another mention names it', () => {
    expect(read('Compare the Foo X2 Lite and the Foo X2 Pro 5G')).toEqual({ named: ['Foo X2 Pro 5G'], unknown: ['Foo X2 Lite'] });
  });

  it("keeps the longer name unknown where the library's words begin with the mentioned model's", async () => {
    // "foox2" spells the Foo X2, not the Foo X2 Lite: a longer name is mentioned only written whole.
    const q = 'What battery does the Foo X2 Lite have?';
    const plan = planQuestion(q, analyzeQuery(q, vocabulary), vocabulary, [], library);
    const index: ChatIndex = {
      retriever: 'bm25',
      vocabulary,
      libraryWords: () => ['foox2', 'battery'],
      search: async (query, o) => ok({ query, resolvedModels: [], retriever: o.retriever, results: [], highlight: [] }),
    };
    expect((await confirmUnknown(index, plan, [])).unknown.map((u) => u.text)).toEqual(['Foo X2 Lite']);
  });
});
