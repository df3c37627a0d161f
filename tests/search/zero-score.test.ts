import { describe, expect, it } from 'vitest';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { analyzeQuery } from '../../src-main/search/query-analysis';
import { weighByAnswerLine } from '../../src-main/search/stages/answer-line.stage';
import { weighByHeadings } from '../../src-main/search/stages/heading-match.stage';
import { weighByModel } from '../../src-main/search/stages/model-weight.stage';
import { coverageRerank } from '../../src-main/search/stages/term-coverage.stage';
import type { ChunkHit, ChunkRecord } from '../../src-main/storage/chunk-store';
import { markdownDocument } from '../enrich/corpus.helper';
import { record } from '../storage/fixtures';

/** A hit whose record counts every read of its text, indexed text and headings. */
function watched(id: string, text: string, score: number, extra: Partial<ChunkRecord> = {}): { hit: ChunkHit; reads: () => number } {
  let reads = 0;
  const base = { ...record(id, 0, text), id, modelKey: null, parentId: null, ...extra } as ChunkRecord;
  const rec = new Proxy(base, {
    get(target, key, receiver) {
      if (key === 'text' || key === 'indexedText' || key === 'headingPath') reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { hit: { record: rec, score }, reads: () => reads };
}

const question = 'What is the charging current of the battery?';
const text = '## Charging current\n\n| Battery charging current | 500 mA |\n\nThe battery charging current is 500 mA.';

describe('a hit scored 0 (a passage added below the candidates)', () => {
  const enrichment = LibraryEnrichment.restore(null);
  enrichment.learn([
    markdownDocument('cm5/README.md', '# CM5\n\nThe CM5 is a compute module.'),
    markdownDocument('cm3/README.md', '# CM3\n\nThe CM3 is a compute module.'),
  ]);
  const analysis = analyzeQuery('Can a CM5 charge the CM3 battery?', enrichment.vocabulary);
  const stages: [string, (hits: ChunkHit[]) => ChunkHit[]][] = [
    ['answer-line', (hits) => weighByAnswerLine(hits, question, () => 1)],
    ['heading-match', (hits) => weighByHeadings(hits, question, [])],
    ['term-coverage', (hits) => coverageRerank(hits, question, new Map())],
    ['model-weight', (hits) => weighByModel(hits, analysis, enrichment.vocabulary)],
  ];

  for (const [name, run] of stages) {
    it(`keeps 0 and its place in ${name}, its text unread`, () => {
      const scored = watched('scored', 'Unrelated words about the case.', 2, { model: 'CM5', docId: 'cm5/README.md' });
      const zero = watched('zero', text, 0, { model: 'CM5', docId: 'cm5/README.md', headingPath: ['CM5', 'Charging current'] });
      const later = watched('later', text, 0, { model: 'CM3', docId: 'cm3/README.md' });
      const ranked = run([scored.hit, zero.hit, later.hit]);
      expect(ranked.map((h) => [h.record.id, h.score])).toEqual([
        ['scored', ranked[0]!.score],
        ['zero', 0],
        ['later', 0],
      ]);
      expect(ranked[0]!.score).toBeGreaterThan(0);
      // Weighing it could not move it: the stage does not split its lines or words.
      expect(zero.reads() + later.reads()).toBe(0);
      expect(scored.reads()).toBeGreaterThan(0);
    });
  }
});
