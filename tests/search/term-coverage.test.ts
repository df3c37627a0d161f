import { describe, expect, it } from 'vitest';
import { coverageRerank, proximityShare } from '../../src-main/search/stages/term-coverage.stage';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { analyzeQuery } from '../../src-main/search/query-analysis';
import { weighByModel } from '../../src-main/search/stages/model-weight.stage';
import type { ChunkHit, ChunkRecord } from '../../src-main/storage/chunk-store';
import { markdownDocument } from '../enrich/corpus.helper';
import { record } from '../storage/fixtures';

/** A first-stage hit with a given BM25 score. */
function hit(id: string, text: string, score: number, extra: Partial<ChunkRecord> = {}): ChunkHit {
  return { record: { ...record(id, 0, text), id, modelKey: null, parentId: null, ...extra } as ChunkRecord, score };
}

describe('lexical reranking of candidates', () => {
  it('prefers, at equal BM25 score, the chunk where the question’s words stand together', () => {
    const apart = hit('apart', 'Power the board from the USB-C port on its left edge. An adapter for the camera ribbon is sold separately.', 5);
    const together = hit('together', 'Use only the supplied power adapter; other supplies may damage the board.', 5);
    const ranked = coverageRerank([apart, together], 'which power adapter does it use', new Map());
    expect(ranked.map((h) => h.record.id)).toEqual(['together', 'apart']);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('scores a record again by the view it matched through and its current text', () => {
    const table = hit('table', '| Item | Value |', 5);
    const other = hit('other', 'The fuse rating is printed on the holder.', 5);
    const question = 'fuse rating';
    const plain = coverageRerank([table, other], question, new Map()).map((h) => h.record.id);
    expect(plain).toEqual(['other', 'table']);
    // The same record, now reached through a row view holding the question's words.
    const views = new Map([['table', { ...table.record, text: '| Fuse rating | 10 A |' }]]);
    const viaView = coverageRerank([table, other], question, views);
    expect(viaView.find((h) => h.record.id === 'table')!.score).toBeGreaterThanOrEqual(viaView.find((h) => h.record.id === 'other')!.score);
    expect(coverageRerank([table, other], question, new Map()).map((h) => h.record.id)).toEqual(plain);
    (table.record as { indexedText: string }).indexedText = 'fuse rating table';
    // Both words, side by side: the whole coverage and the whole proximity weight (0.8).
    expect(coverageRerank([table, other], question, new Map())[0]!.score).toBeCloseTo(5 * 1.8);
  });

  it('prefers the chunk that contains all of the question’s words over one that repeats one of them', () => {
    const repeats = hit('repeats', 'fuse fuse fuse: the fuse holder, fuse cover and fuse puller', 6);
    const covers = hit('covers', 'The control board fuse is a 10 A slow-blow type.', 5);
    const ranked = coverageRerank([repeats, covers], 'control board fuse rating', new Map());
    expect(ranked[0]!.record.id).toBe('covers');
  });

  it('counts the matching table rows of a view as part of the chunk', () => {
    const table = hit('table', '| Item | Value |', 5);
    const other = hit('other', 'Net weight is listed in the specifications.', 5);
    const view = { ...table.record, id: 'table/r0', text: '| Net weight | Indoor unit 9 kg |' };
    const ranked = coverageRerank([other, table], 'net weight indoor unit', new Map([['table', view]]));
    expect(ranked[0]!.record.id).toBe('table');
  });

  it('leaves single-word questions in BM25 order', () => {
    const a = hit('a', 'filter', 2);
    const b = hit('b', 'filter filter', 3);
    expect(coverageRerank([b, a], 'filter', new Map())).toEqual([b, a]);
  });

  it('reads words joined by an underscore as two words standing together', () => {
    const joined = hit('joined', 'Set SDA_PIN high before the transfer.', 5);
    const apart = hit('apart', 'The SDA line of the bus wants a pull-up resistor to 3.3 volts; its pin number is printed on the header.', 5);
    const ranked = coverageRerank([apart, joined], 'sda pin', new Map());
    expect(ranked.map((h) => h.record.id)).toEqual(['joined', 'apart']);
    expect(ranked[0]!.score).toBeCloseTo(5 * 1.8);
  });

  it('measures proximity over adjacent question words, by the inverse square of their distance, within a window', () => {
    const positions = new Map([
      ['power', [0, 20]],
      ['adapter', [2, 22]],
      ['supply', [21]],
      ['rating', [40]],
      ['cable', [43]],
      ['fuse', [47]],
    ]);
    // Side by side: the whole credit, wherever in the chunk the pair stands.
    expect(proximityShare(['power', 'supply'], positions)).toBe(1);
    // One word between: a quarter; the closest of several occurrences counts.
    expect(proximityShare(['power', 'adapter'], positions)).toBe(0.25);
    expect(proximityShare(['supply', 'adapter'], positions)).toBe(1);
    // Three apart: a ninth; beyond the window nothing.
    expect(proximityShare(['rating', 'cable'], positions)).toBeCloseTo(1 / 9);
    expect(proximityShare(['rating', 'fuse'], positions)).toBe(0);
    // Averaged over the pairs; a missing word's pair earns nothing; no pair, no share.
    expect(proximityShare(['power', 'supply', 'rating'], positions)).toBe(0.5);
    expect(proximityShare(['power', 'missing'], positions)).toBe(0);
    expect(proximityShare(['power'], positions)).toBe(0);
    // Lists sharing a place read as side by side, never as a division by zero.
    expect(proximityShare(['a', 'b'], new Map([['a', [3]], ['b', [3]]]))).toBe(1);
  });

  it('puts the chunk that writes the question’s two words as a phrase above one that has them further apart', () => {
    // Equal BM25, both words in both chunks: only how close they stand tells the section apart.
    // Two words apart counted as close as side by side before the inverse square.
    const scattered = hit('scattered', 'Recording a program starts at its time.', 5);
    const phrase = hit('phrase', 'Changing the recording time: select the program, then Edit.', 5);
    const ranked = coverageRerank([scattered, phrase], 'recording time', new Map());
    expect(ranked.map((h) => h.record.id)).toEqual(['phrase', 'scattered']);
  });
});

describe('model-aware ranking signals', () => {
  const doc = markdownDocument;
  const enrichment = LibraryEnrichment.restore(null);
  enrichment.learn([
    doc('cm5/README.md', '# CM5\n\nThe CM5 is a compute module.\n\n## Power\n\nCM5 takes 5 V.'),
    doc('cm5/faq.md', '# FAQ\n\nCM5 questions.\n\n## Carrier boards\n\nCan CM5 be used on the CM3 IO board?'),
    doc('cm3/README.md', '# CM3\n\nThe CM3 is a compute module.'),
    doc('cm3/quick-start.md', '# Quick start\n\nCM3 IO board packing list.'),
  ]);

  it('prefers a chunk naming every model of a question that names several', () => {
    const analysis = analyzeQuery('Can I plug a CM5 into the CM3 IO board?', enrichment.vocabulary);
    expect(analysis.models).toEqual(['CM5', 'CM3']);
    const one = hit('one', 'CM3 IO board packing list.', 5, { docId: 'cm3/quick-start.md', model: 'CM3', headingPath: ['Quick start'] });
    const both = hit('both', 'Can CM5 be used on the CM3 IO board?', 5, { docId: 'cm5/faq.md', model: 'CM5', headingPath: ['FAQ'] });
    expect(weighByModel([one, both], analysis, enrichment.vocabulary).map((h) => h.record.id)).toEqual(['both', 'one']);
  });

  it('prefers the page titled with the model over another page of the same model', () => {
    const analysis = analyzeQuery('CM5 power input', enrichment.vocabulary);
    const faq = hit('faq', 'CM5 power questions.', 5, { docId: 'cm5/faq.md', model: 'CM5', headingPath: ['FAQ'] });
    const overview = hit('overview', 'CM5 takes 5 V.', 5, { docId: 'cm5/README.md', model: 'CM5', headingPath: ['CM5', 'Power'] });
    const ranked = weighByModel([faq, overview], analysis, enrichment.vocabulary);
    expect(ranked.map((h) => h.record.id)).toEqual(['overview', 'faq']);
    // A weight, not a tier: a much stronger passage elsewhere still wins.
    const strong = { ...faq, score: 10 };
    expect(weighByModel([overview, strong], analysis, enrichment.vocabulary)[0]!.record.id).toBe('faq');
  });
});
