import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery, modelMatch } from '../../src-main/search/query-analysis';
import { corpusRoots, sharedDir } from '../helpers/temp';
import { loadCorpus } from '../enrich/corpus.helper';
import { describeQueryAnalysis } from './query-analysis.suite';

const root = corpusRoots.shared;
const vocabulary = ModelVocabulary.fromDocuments([...loadCorpus('radxa-docs', root), ...loadCorpus('esp-dev-kits', root), ...loadCorpus('emanual/galaxy', root)]);

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

describeQueryAnalysis('analyzeQuery on the shared corpora', vocabulary, variants, path.join(sharedDir, 'bench', 'dev.jsonl'), 40);

describe('analyzeQuery on products only the shared corpora hold', () => {
  it('expands slash shorthand with the series words written before it', () => {
    expect(analyzeQuery('ROCK 4A+/4B+ V1.73', vocabulary).models).toEqual(['ROCK 4A+', 'ROCK 4B+']);
  });

  it('lets an IO board match its module, not the reverse', () => {
    // An IO board carries its module: the module's chunks help an IO-board question, not the reverse.
    expect(modelMatch(['CM5 IO'], 'CM5', vocabulary)).toBe('family');
    expect(analyzeQuery('CM5', vocabulary).related).not.toContain('CM5 IO');
  });
});
