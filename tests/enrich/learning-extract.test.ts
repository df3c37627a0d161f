import { describe, expect, it } from 'vitest';
import { learningExtract } from '../../src-main/enrich/learning-extract';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { PassageTermStats, passageTerms } from '../../src-main/enrich/passage-terms';
import { TermStats } from '../../src-main/enrich/term-stats';
import { contentTerms, plainText } from '../../src-main/enrich/text.util';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { markdownDocument } from './corpus.helper';

/** The parse worker's extract stands in for learning's own pass over a document: the same statistics, in the same order. */

const docs = [
  markdownDocument(
    'radios/rac-225b.md',
    '---\ntitle: RAC-225B\n---\n\n# RAC-225B service manual\n\nZebra cables and the RAC-225B relay: replace the fuse (10 A).\n\n## Battery\n\nCharging batteries at 100 mA; order code SKU: RAC-225B-EU.\n\n| Item | Value |\n| --- | --- |\n| Charging current | 100 mA |\n',
  ),
  markdownDocument('radios/rac-228b.md', '# RAC-228B\n\nThe RAC-228B adds a zebra-striped display. Apple cables fit.\n\n- item one\n- item two\n'),
  markdownDocument('notes/ünïcode.md', '# Über die Kabel\n\nDas Kabel lädt mit 15 µA. Ärger vermeiden.\n'),
];

describe('learning extract', () => {
  it('holds the plain text, the distinct content terms and each passage\'s distinct stems, first seen first', () => {
    const e = learningExtract(docs[0]!);
    expect(e.plain).toBe(plainText(docs[0]!.text));
    expect(e.terms).toEqual([...new Set(contentTerms(e.plain))]);
    // Not sorted: "zebra" comes before "cable" as in the text, which fixes the statistics' key order.
    expect(e.terms.indexOf('zebra')).toBeLessThan(e.terms.indexOf('cable'));
    expect(e.passages.length).toBe(docs[0]!.blocks.filter((b) => b.kind !== 'frontmatter').length);
    expect(e.passages[1]).toEqual([...new Set(passageTerms('Zebra cables and the RAC-225B relay: replace the fuse (10 A).'))]);
  });

  it('teaches the same vocabulary and statistics, byte for byte, as learning from the documents alone', () => {
    // Each statistic learned from the documents themselves, by its own code.
    const vocabulary = ModelVocabulary.create();
    const terms = TermStats.create();
    const passages = PassageTermStats.create();
    for (const d of docs) {
      passages.addDocument(d);
      vocabulary.addDocument(d);
      terms.addDocument(d.text);
    }
    const alone = { snapshot: () => ({ version: 1, vocabulary: vocabulary.toJSON(), terms: terms.toJSON(), passages: passages.toJSON() }) };
    // As from the parse worker: a structured clone of what it made.
    const fromExtracts = LibraryEnrichment.restore(null);
    fromExtracts.learn(docs, [], structuredClone(docs.map(learningExtract)));
    expect(JSON.stringify(fromExtracts.snapshot())).toBe(JSON.stringify(alone.snapshot()));
    // Partly given (a document too large for the worker's extract): the rest is made here.
    const mixed = LibraryEnrichment.restore(null);
    mixed.learn(docs, [], [learningExtract(docs[0]!), undefined, learningExtract(docs[2]!)]);
    expect(JSON.stringify(mixed.snapshot())).toBe(JSON.stringify(alone.snapshot()));
  });

  it('gives the state as it is after every learn and forget, though it keeps its snapshot between them', () => {
    const e = LibraryEnrichment.restore(null);
    e.learn([docs[0]!]);
    const first = e.snapshot();
    expect(e.snapshot()).toBe(first);
    e.learn([docs[1]!]);
    const second = e.snapshot();
    expect(JSON.stringify(second)).not.toBe(JSON.stringify(first));
    const both = LibraryEnrichment.restore(null);
    both.learn([docs[0]!, docs[1]!]);
    expect(JSON.stringify(second)).toBe(JSON.stringify(both.snapshot()));
    e.forget([docs[1]!]);
    expect(JSON.stringify(e.snapshot())).toBe(JSON.stringify(first));
  });
});
