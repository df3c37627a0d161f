import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery, modelMatch } from '../../src-main/search/query-analysis';

/**
 * analyzeQuery against a vocabulary learned from a corpus: `variants` are [how a technician writes
 * it, the canonical model it must resolve to]; every question of `questionFile` must name its gold
 * document's model or its family.
 */
export function describeQueryAnalysis(title: string, vocabulary: ModelVocabulary, variants: [string, string][], questionFile: string, questionCount: number): void {
  describe(title, () => {
    it.each(variants)('reads "%s" as %s', (query, model) => {
      const a = analyzeQuery(query, vocabulary);
      expect(a.models).toEqual([model]);
      expect(a.mentions[0]?.confidence).toBeGreaterThanOrEqual(0.5);
    });

    it('tells a plus model from its base and siblings from each other', () => {
      expect(analyzeQuery('rock 5b plus', vocabulary).models).not.toContain('ROCK 5B');
      expect(analyzeQuery('radxa zero 3w', vocabulary).models).toEqual(['ZERO 3W']);
      expect(analyzeQuery('radxa zero 3e', vocabulary).models).toEqual(['ZERO 3E']);
      expect(analyzeQuery('e20c vs e52c', vocabulary).models).toEqual(['E20C', 'E52C']);
    });

    it('expands slash shorthand with the series words written before it', () => {
      expect(analyzeQuery('ROCK 5B/5B+ emmc', vocabulary).models).toEqual(['ROCK 5B', 'ROCK 5B+']);
      expect(analyzeQuery('zero 3w/3e', vocabulary).models).toEqual(['ZERO 3W', 'ZERO 3E']);
    });

    it('finds nothing in questions that name no model', () => {
      for (const q of ['How do I flash an SD card?', 'USB 3.0 port speed', 'is 5V/3A enough', 'PCIe 3.0 x4 lanes', 'what does the zero config do']) {
        expect(analyzeQuery(q, vocabulary).models).toEqual([]);
      }
    });

    it('offers the family of a named revision for soft matching', () => {
      const a = analyzeQuery('ESP32-C6-DevKitC-1 v1.2', vocabulary);
      expect(a.related).toEqual(expect.arrayContaining(['ESP32-C6-DevKitC-1', 'ESP32-C6-DevKitC-1 v1.1']));
      expect(modelMatch(a.models, 'ESP32-C6-DevKitC-1 v1.2', vocabulary)).toBe('exact');
      expect(modelMatch(a.models, 'ESP32-C6-DevKitC-1 v1.1', vocabulary)).toBe('family');
      expect(modelMatch(['ZERO 3W'], 'ZERO 3E', vocabulary)).toBe('none');
      expect(modelMatch(['ROCK 5B+'], 'ROCK 5B', vocabulary)).toBe('family');
      expect(modelMatch(['ROCK 5B+'], null, vocabulary)).toBe('none');
    });

    it('names, for every question of the question file, the gold document model or its family', () => {
      const lines = readFileSync(questionFile, 'utf8').trim().split('\n');
      expect(lines.length).toBe(questionCount);
      const misses: string[] = [];
      for (const line of lines) {
        const q = JSON.parse(line) as { id: string; query: string; answers: { doc: string }[] };
        const gold = vocabulary.identityOf(q.answers[0]!.doc);
        const models = analyzeQuery(q.query, vocabulary).models;
        if (!gold || modelMatch(models, gold.model, vocabulary) === 'none') misses.push(`${q.id}: ${models.join(', ')} vs ${gold?.model}`);
      }
      expect(misses).toEqual([]);
    });
  });
}
