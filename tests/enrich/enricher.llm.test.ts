import { describe, expect, it } from 'vitest';
import { CNM_SCHEMA, CONTINUITY_SCHEMA } from '../../src-main/enrich/cnm.llm';
import { createEnricher } from '../../src-main/enrich/enricher';
import type { EnrichMode, EnricherOptions } from '../../src-main/enrich/enricher';
import { KEYS_SCHEMA } from '../../src-main/enrich/keys.llm';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { SINGLE_SCHEMA } from '../../src-main/enrich/single.llm';
import { markdownDocument } from './corpus.helper';
import type { ScriptedCall } from './helpers';
import { chunkAtHeadings, ScriptedLlm } from './helpers';

const STITCHED = [
  '# RAC-225B Service Manual',
  '',
  'The RAC-225B air conditioner is a wall-mounted split unit.',
  '',
  '## Fuses',
  '',
  'The RAC-225B control board takes a 3.15 A slow-blow fuse.',
  '',
  '### Fuse location',
  '',
  'The fuse sits behind the front panel.',
  '',
  '# RAC-228B Service Manual',
  '',
  'The RAC-228B air conditioner is the larger sibling.',
  '',
  '## Fuses',
  '',
  'The RAC-228B control board takes a 5 A slow-blow fuse.',
].join('\n');

const stitched = markdownDocument('manuals/rac-series.md', STITCHED);
const notes = markdownDocument('manuals/notes.md', '# General safety\n\nKeep the unit dry.\n\n## Cleaning\n\nUnplug before cleaning.');
const vocabulary = ModelVocabulary.fromDocuments([stitched, notes]);

/** The chunk shown in a prompt (between the last <<< and >>>). */
function shownChunk(call: ScriptedCall): string {
  const user = ScriptedLlm.user(call);
  const at = user.lastIndexOf('<<<');
  return user.slice(at + 3, user.indexOf('>>>', at));
}

/** A well-behaved model: new document at the RAC-228B title, models as written, keys by topic. */
function goodReply(call: ScriptedCall): unknown {
  const chunk = shownChunk(call);
  const model = chunk.includes('RAC-228B') ? 'RAC-228B' : chunk.includes('RAC-225B') ? 'RAC-225B' : null;
  const continuous = !chunk.includes('# RAC-228B Service Manual');
  const key = /fuse/i.test(chunk) ? 'fuses' : 'overview';
  const keys = { title: 'T', summary: 'S.', keywords: ['fuse'], entities: model ? [model] : [], questions: ['Which fuse?'], key, related_keys: [] };
  if (call.schema === CONTINUITY_SCHEMA) return { continuous, reason: continuous ? 'same unit' : 'new manual title' };
  if (call.schema === CNM_SCHEMA) return { category: 'Air Conditioner', nouns: ['fuse'], model };
  if (call.schema === KEYS_SCHEMA) return keys;
  if (call.schema === SINGLE_SCHEMA) return { continuous, reason: 'r', category: 'air conditioner', nouns: ['fuse'], model, ...keys };
  throw new Error('unexpected schema');
}

function enricherFor(mode: EnrichMode, llm: ScriptedLlm, extra: Partial<EnricherOptions> = {}) {
  const r = createEnricher(mode, { vocabulary, llm, ...extra });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const kind = (c: ScriptedCall): string =>
  c.schema === CNM_SCHEMA ? 'cnm' : c.schema === CONTINUITY_SCHEMA ? 'continuity' : c.schema === KEYS_SCHEMA ? 'keys' : 'single';

describe('llm mode (CHOP 2 calls + MDKey 1 call)', () => {
  it('inherits on continuous chunks, extracts on a model change, and counts every call and token', async () => {
    const llm = new ScriptedLlm(goodReply);
    const progress: [number, number][] = [];
    const { chunks, stats } = await enricherFor('llm', llm).enrichDocument(stitched, chunkAtHeadings(stitched), {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(llm.calls.map(kind)).toEqual([
      'cnm', 'keys',
      'continuity', 'keys',
      'continuity', 'keys',
      'continuity', 'cnm', 'keys',
      'continuity', 'keys',
    ]);
    expect(chunks.map((c) => c.signatureSource)).toEqual(['extracted', 'inherited', 'inherited', 'extracted', 'inherited']);
    expect(chunks.map((c) => c.signature.model)).toEqual(['RAC-225B', 'RAC-225B', 'RAC-225B', 'RAC-228B', 'RAC-228B']);
    expect(chunks[0]!.signature.category).toBe('air conditioner');
    expect(chunks[3]!.continuity).toEqual({ continuous: false, reason: 'new manual title' });
    expect(chunks.map((c) => c.enrichStats!.llmCalls)).toEqual([2, 2, 2, 3, 2]);
    const prompt = llm.calls.reduce((n, c) => n + llm.countTokens(c.messages.map((m) => m.content).join('\n')), 0);
    expect(stats.llmCalls).toBe(11);
    expect(stats.promptTokens).toBe(prompt);
    expect(stats.promptTokens).toBe(chunks.reduce((n, c) => n + c.enrichStats!.promptTokens, 0));
    expect(stats.outputTokens).toBeGreaterThan(0);
    expect(chunks.every((c) => c.fallbackReason === null)).toBe(true);
    expect(chunks[1]!.keys).toMatchObject({ key: 'fuses', summary: 'S.', questions: ['Which fuse?'] });
    expect(progress).toEqual([[1, 5], [2, 5], [3, 5], [4, 5], [5, 5]]);
  });

  it('shows earlier keys with their use counts in later prompts', async () => {
    const llm = new ScriptedLlm(goodReply);
    await enricherFor('llm', llm).enrichDocument(stitched, chunkAtHeadings(stitched));
    const keyPrompts = llm.calls.filter((c) => c.schema === KEYS_SCHEMA).map((c) => ScriptedLlm.user(c));
    expect(keyPrompts[0]).toContain('Existing keys: (none yet)');
    expect(keyPrompts[1]).toContain('- overview (1)');
    expect(keyPrompts[2]).toContain('- fuses (1)\n- overview (1)');
    expect(keyPrompts[4]).toContain('- overview (2)\n- fuses (2)');
  });

  it('resets the rolling keys between documents', async () => {
    const llm = new ScriptedLlm(goodReply);
    const enricher = enricherFor('llm', llm);
    await enricher.enrichDocument(stitched, chunkAtHeadings(stitched));
    const before = llm.calls.length;
    await enricher.enrichDocument(notes, chunkAtHeadings(notes));
    const firstKeys = llm.calls.slice(before).find((c) => c.schema === KEYS_SCHEMA)!;
    expect(ScriptedLlm.user(firstKeys)).toContain('Existing keys: (none yet)');
    expect(ScriptedLlm.user(firstKeys)).not.toContain('fuses');
  });

  it('falls back to the heuristic signature when the output never parses, recording why', async () => {
    const llm = new ScriptedLlm((call) => (call.schema === CNM_SCHEMA ? 'Sure! The model is RAC-225B.' : goodReply(call)));
    const { chunks } = await enricherFor('llm', llm).enrichDocument(stitched, chunkAtHeadings(stitched));
    expect(llm.calls.slice(0, 3).map(kind)).toEqual(['cnm', 'cnm', 'keys']);
    expect(chunks[0]!.signature.model).toBe('RAC-225B');
    expect(chunks[0]!.fallbackReason).toMatch(/^cnm: attempt 1: output is not JSON.*; attempt 2: output is not JSON/);
    expect(chunks[0]!.enrichStats!.llmCalls).toBe(3);
  });

  it('falls back when the output breaks the schema, names an unknown model, or the model throws', async () => {
    let n = 0;
    const llm = new ScriptedLlm((call) => {
      if (call.schema !== CNM_SCHEMA) return goodReply(call);
      n++;
      if (n <= 2) return { category: null, nouns: ['a', 'b', 'c'], model: null };
      if (n === 3) return { category: null, nouns: [], model: 'XYZ-999' };
      return new Error('context overflow');
    });
    const { chunks } = await enricherFor('llm', llm).enrichDocument(stitched, chunkAtHeadings(stitched));
    expect(chunks[0]!.fallbackReason).toContain('invalid output (nouns');
    expect(chunks[0]!.signature.model).toBe('RAC-225B');
    expect(chunks[3]!.fallbackReason).toContain('"XYZ-999" is neither in the chunk nor in the library');
    expect(chunks[3]!.signature.model).toBe('RAC-228B');
    expect(chunks[3]!.signature.nouns).toEqual([]);
  });

  it('uses the heuristic decision when the continuity answer is unusable', async () => {
    const llm = new ScriptedLlm((call) => (call.schema === CONTINUITY_SCHEMA ? new Error('boom') : goodReply(call)));
    const { chunks } = await enricherFor('llm', llm, { retries: 0 }).enrichDocument(stitched, chunkAtHeadings(stitched));
    expect(chunks[3]!.continuity).toMatchObject({ continuous: false, reason: expect.stringMatching(/^heuristic: /) });
    expect(chunks[3]!.fallbackReason).toContain('continuity: attempt 1: model error: boom');
    expect(chunks[3]!.signature.model).toBe('RAC-228B');
  });
});

describe('llm-single mode (one call per chunk)', () => {
  it('returns continuity, CNM and keys from one call per chunk', async () => {
    const llm = new ScriptedLlm(goodReply);
    const { chunks, stats } = await enricherFor('llm-single', llm).enrichDocument(stitched, chunkAtHeadings(stitched));
    expect(llm.calls.map(kind)).toEqual(['single', 'single', 'single', 'single', 'single']);
    expect(stats.llmCalls).toBe(5);
    expect(chunks[0]!.continuity).toBeNull();
    expect(ScriptedLlm.user(llm.calls[0]!)).toContain('first chunk of the document');
    expect(chunks.map((c) => c.signatureSource)).toEqual(['extracted', 'inherited', 'inherited', 'extracted', 'inherited']);
    expect(chunks.map((c) => c.signature.model)).toEqual(['RAC-225B', 'RAC-225B', 'RAC-225B', 'RAC-228B', 'RAC-228B']);
    expect(ScriptedLlm.user(llm.calls[2]!)).toContain('- fuses (1)');
  });

  it('shows the section path below the document title, which the document line already names', async () => {
    const llm = new ScriptedLlm(goodReply);
    await enricherFor('llm-single', llm).enrichDocument(notes, chunkAtHeadings(notes));
    const users = llm.calls.map((c) => ScriptedLlm.user(c));
    expect(users[0]).toContain('Document: "General safety" (manuals/notes.md)');
    expect(users[0]).toContain('Section: (none)');
    expect(users[1]).toContain('Section: Cleaning\n');
    expect(users[1]).not.toContain('Section: General safety');
  });

  it('falls back to the full heuristic result when the single answer is unusable', async () => {
    const llm = new ScriptedLlm(() => '{"continuous": tru');
    const { chunks, stats } = await enricherFor('llm-single', llm, { retries: 2 }).enrichDocument(stitched, chunkAtHeadings(stitched));
    expect(stats.llmCalls).toBe(15);
    expect(chunks.every((c) => c.fallbackReason?.startsWith('single: attempt 1'))).toBe(true);
    expect(chunks.map((c) => c.signature.model)).toEqual(['RAC-225B', 'RAC-225B', 'RAC-225B', 'RAC-228B', 'RAC-228B']);
    // Heuristic keys: the heading path (two H1s, so the sub-manual title is part of it).
    expect(chunks[1]!.keys.key).toBe('rac-225b-service-manual/fuses');
  });
});

describe('createEnricher', () => {
  it('needs a model for the LLM modes and checks its options once', () => {
    const missing = createEnricher('llm', { vocabulary });
    expect(missing.ok ? null : missing.error.code).toBe('model-missing');
    const bad = createEnricher('llm-single', { vocabulary, llm: new ScriptedLlm(goodReply), retries: 5 });
    expect(bad.ok ? null : bad.error.code).toBe('invalid-input');
    const unknown = createEnricher('fast' as EnrichMode, { vocabulary });
    expect(unknown.ok ? null : unknown.error.code).toBe('invalid-input');
    expect(createEnricher('heuristic', { vocabulary }).ok).toBe(true);
  });

  it('stops with an AbortError when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const enricher = enricherFor('llm', new ScriptedLlm(goodReply));
    await expect(enricher.enrichDocument(stitched, chunkAtHeadings(stitched), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
