import path from 'node:path';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { corpusRoots } from '../helpers/temp';
import { loadCorpus } from '../enrich/corpus.helper';
import { describeQueryAnalysis } from './query-analysis.suite';

// A vocabulary learned from the fixture cut of radxa-docs and esp-dev-kits; the same checks over the
// whole corpora (with more products and the Galaxy manuals) are in query-analysis.corpus.test.ts.
const root = corpusRoots.fixture;
const vocabulary = ModelVocabulary.fromDocuments([...loadCorpus('radxa-docs', root), ...loadCorpus('esp-dev-kits', root)]);

// [how a technician writes it, the canonical model it must resolve to]
const variants: [string, string][] = [
  ['rock 5b plus onboard emmc', 'ROCK 5B+'],
  ['ROCK 5B+ PCIe B key', 'ROCK 5B+'],
  ['rock5b fan header', 'ROCK 5B'],
  ['Radxa ROCK 5B power', 'ROCK 5B'],
  ['E52C power supply', 'E52C'],
  ['radxa e20c maskrom', 'E20C'],
  ['rock 5a gpio', 'ROCK 5A'],
  ['ROCK-5C lite soc', 'ROCK 5C Lite'],
  ['rock 5c hdmi', 'ROCK 5C'],
  ['radxa zero 3w antenna', 'ZERO 3W'],
  ['zero 3e poe hat', 'ZERO 3E'],
  ['esp32-c6-devkitc-1 led', 'ESP32-C6-DevKitC-1'],
  ['ESP32-C6-DevKitC-1 v1.2 ws2812', 'ESP32-C6-DevKitC-1 v1.2'],
  ['s3 devkitc v1.1 usb port', 'ESP32-S3-DevKitC-1 v1.1'],
  ['ESP32 S3 DevKitC 1 V1.0', 'ESP32-S3-DevKitC-1 v1.0'],
  ['c6 devkitc boot button', 'ESP32-C6-DevKitC-1'],
  ['esp8684-devkitm-1 v1.0 rgb led', 'ESP8684-DevKitM-1 v1.0'],
];

describeQueryAnalysis('analyzeQuery on the fixture corpus', vocabulary, variants, path.join(root, 'questions.jsonl'), 12);
