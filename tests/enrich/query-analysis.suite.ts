import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery, modelMatch } from '../../src-main/enrich/query-analysis';
import { loadCorpus, repoRoot } from './corpus.helper';

const vocabulary = ModelVocabulary.fromDocuments([...loadCorpus('radxa-docs'), ...loadCorpus('esp-dev-kits'), ...loadCorpus('emanual/galaxy')]);

describe('analyzeQuery on the shared corpora', () => {
  // [how a technician writes it, the canonical model it must resolve to]
  const variants: [string, string][] = [
    ['rock 5b plus onboard emmc', 'ROCK 5B+'],
    ['ROCK 5B+ PCIe B key', 'ROCK 5B+'],
    ['rock5b fan header', 'ROCK 5B'],
    ['Radxa ROCK 5B power', 'ROCK 5B'],
    ['E52C power supply', 'E52C'],
    ['radxa e20c maskrom', 'E20C'],
    ['e24c 14-pin header', 'E24C'],
    ['rock 5a gpio', 'ROCK 5A'],
    ['ROCK-5C lite soc', 'ROCK 5C Lite'],
    ['rock 5c hdmi', 'ROCK 5C'],
    ['radxa zero 3w antenna', 'ZERO 3W'],
    ['zero 3e poe hat', 'ZERO 3E'],
    ['Radxa ZERO 2 PRO fan', 'ZERO 2 PRO'],
    ['cubie a7a ram', 'Cubie A7A'],
    ['Dragon Q8B power button', 'Dragon Q8B'],
    ['orion o6n power adapter', 'Orion O6N'],
    ['Orion O6 cooling', 'Orion O6'],
    ['fogwise airbox q900 tops', 'Fogwise AIRbox Q900'],
    ['AIRbox Q900 EDL', 'Fogwise AIRbox Q900'],
    ['Radxa CM5 IO board', 'CM5 IO'],
    ['cm4 io board microSD slot', 'CM4 IO'],
    ['Radxa CM5 module input voltage', 'CM5'],
    ['cm3j boot from ssd', 'CM3J'],
    ['nio12l power input', 'NIO 12L'],
    ['ROCK 4SE adapter', 'ROCK 4SE'],
    ['rock 4c plus display', 'ROCK 4C+'],
    ['ROCK Pi S0 antenna', 'ROCK Pi S0'],
    ['rock 5 itx standby power', 'ROCK 5 ITX'],
    ['ROCK 5T Industrial clock', 'ROCK 5T Industrial'],
    ['esp32-c6-devkitc-1 led', 'ESP32-C6-DevKitC-1'],
    ['ESP32-C6-DevKitC-1 v1.2 ws2812', 'ESP32-C6-DevKitC-1 v1.2'],
    ['s3 devkitc v1.1 usb port', 'ESP32-S3-DevKitC-1 v1.1'],
    ['ESP32 S3 DevKitC 1 V1.0', 'ESP32-S3-DevKitC-1 v1.0'],
    ['c6 devkitc boot button', 'ESP32-C6-DevKitC-1'],
    ['esp8684-devkitm-1 v1.0 rgb led', 'ESP8684-DevKitM-1 v1.0'],
    ['ESP32-PICO-KIT v3 uart', 'ESP32-PICO-KIT v3'],
    ['Kaluga-1 v1.2 flashing', 'ESP32-S2-Kaluga-1 v1.2'],
    ['esp-lyrat-8311a v1.3 changes', 'ESP-LyraT-8311A v1.3'],
    ['ESP-Prog-2 download mode', 'ESP-Prog-2'],
    ['galaxy s10 gps', 'Galaxy S10'],
    ['note 10 plus s pen', 'Galaxy Note 10+'],
    ['Galaxy S10e screen', 'Galaxy S10e'],
  ];

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
    expect(analyzeQuery('ROCK 4A+/4B+ V1.73', vocabulary).models).toEqual(['ROCK 4A+', 'ROCK 4B+']);
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
    // An IO board carries its module: the module's chunks help an IO-board question, not the reverse.
    expect(modelMatch(['CM5 IO'], 'CM5', vocabulary)).toBe('family');
    expect(analyzeQuery('CM5', vocabulary).related).not.toContain('CM5 IO');
  });

  it('names, for every dev question, the gold document model or its family', () => {
    const lines = readFileSync(path.resolve(repoRoot, '../shared/bench/dev.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBe(40);
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
