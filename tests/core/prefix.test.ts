import { describe, expect, it } from 'vitest';
import type { EnrichedChunk } from '../../src-main/core/chunk';
import { DEFAULT_PREFIX_OPTIONS, NO_PREFIX, buildPrefix, embedderInput, indexedText, prefixOf, signatureFields, signaturePrefix } from '../../src-main/core/prefix';
import { LIBRARY_DEFAULTS } from '../../src-main/storage/library.store';

const base: EnrichedChunk = {
  docId: 'd.md',
  ordinal: 0,
  text: 'Use a fixed 5V/3A supply.',
  start: 0,
  end: 25,
  headingPath: ['E52C', 'Power'],
  pageStart: null,
  pageEnd: null,
  strategy: 'structure',
  signature: { category: 'network appliance', nouns: ['power supply', 'adapter'], model: 'E52C' },
  signatureSource: 'extracted',
  continuity: null,
  keys: { title: 'Power', summary: null, keywords: ['supply', 'adapter'], entities: [], questions: [], key: 'power', relatedKeys: [] },
};

describe('prefix (PFX(signature) || chunk)', () => {
  it('formats the signature deterministically and omits absent fields', () => {
    expect(signaturePrefix(base.signature)).toBe('[Category: network appliance | Nouns: power supply, adapter | Model: E52C]');
    expect(signaturePrefix({ category: null, nouns: [], model: 'E52C' })).toBe('[Model: E52C]');
    expect(signaturePrefix({ category: null, nouns: [], model: null })).toBe('');
  });

  it('prefixes the indexed text and never changes the shown text', () => {
    const indexed = indexedText(base, { signature: true, headingPath: true, keys: true });
    expect(indexed).toBe(
      '[Category: network appliance | Nouns: power supply, adapter | Model: E52C]\n[Section: E52C > Power]\n[Key: power | Keywords: supply, adapter]\nUse a fixed 5V/3A supply.',
    );
    expect(indexed.endsWith(base.text)).toBe(true);
    expect(base.text).toBe('Use a fixed 5V/3A supply.');
    expect(indexedText(base, { signature: false, headingPath: false, keys: false })).toBe(base.text);
  });

  it('uses an orphan’s section context when the heading path part is off', () => {
    expect(buildPrefix({ ...base, context: 'Quick start > Login' }, { signature: false, headingPath: false })).toBe('[Section: Quick start > Login]\n');
  });

  it('writes every field for prompts when asked, absent ones as null / none', () => {
    expect(signatureFields({ category: null, nouns: [], model: 'E52C' }, { showAbsent: true })).toBe('Category: null | Nouns: none | Model: E52C');
    expect(signatureFields(base.signature, { showAbsent: true })).toBe(`${signaturePrefix(base.signature).slice(1, -1)}`);
    expect(signatureFields({ category: null, nouns: [], model: 'E52C' })).toBe('Model: E52C');
  });

  it('has one default, no keyword prefix, which is also what a new library uses', () => {
    expect(DEFAULT_PREFIX_OPTIONS).toEqual(NO_PREFIX);
    expect(LIBRARY_DEFAULTS.prefix).toEqual(DEFAULT_PREFIX_OPTIONS);
    expect(indexedText(base)).toBe(base.text);
    expect(buildPrefix({ ...base, context: 'Quick start' })).toBe('[Section: Quick start]\n');
  });

  it('embeds PFX(signature) || keyword text, without repeating a signature the keyword prefix already has', () => {
    const plain = { indexedText: base.text, text: base.text };
    expect(embedderInput(plain, base.signature)).toBe(`${signaturePrefix(base.signature)}\n${base.text}`);
    const prefixed = { indexedText: indexedText(base, { signature: true }), text: base.text };
    expect(embedderInput(prefixed, base.signature)).toBe(prefixed.indexedText);
    expect(prefixOf(prefixed)).toBe(`${signaturePrefix(base.signature)}\n`);
    expect(embedderInput(plain, { category: null, nouns: [], model: null })).toBe(base.text);
  });
});
