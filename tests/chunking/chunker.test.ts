import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import { createChunker as createFromRegistry } from '../../src-main/chunking/chunker.registry';
import { CHUNK_STRATEGIES } from '../../src-main/core/chunk';
import { tempDir } from '../helpers/temp';
import { mdDoc, unwrap } from './chunking.helpers';

describe('createChunker', () => {
  it('builds every strategy with its documented defaults', () => {
    const defaults = Object.fromEntries(CHUNK_STRATEGIES.map((s) => [s, unwrap(createChunker(s)).options]));
    expect(defaults.structure).toEqual({ minChars: 100, maxChars: 3000 });
    expect(defaults.naive).toEqual({ tokens: 500, overlap: 100 });
    expect(defaults.recursive).toEqual({ chunkSize: 1000, chunkOverlap: 200 });
    expect(defaults.semantic).toEqual({ threshold: 0.35, maxChars: 2000 });
    expect(defaults.structural).toMatchObject({ schema: 'manual', mergeThreshold: 0.85, minChars: 100, maxChars: 3000 });
    for (const s of CHUNK_STRATEGIES) expect(unwrap(createChunker(s)).strategy).toBe(s);
  });

  it('is also exported from chunker.registry', () => {
    expect(createFromRegistry).toBe(createChunker);
  });

  it.each([
    ['structure', { minChars: 1500, maxChars: 1500 }, /structure chunker: minChars: must be smaller than maxChars/],
    ['structure', { minChars: 4000 }, /minChars: must be smaller than maxChars/],
    ['structure', { minChars: 'many' }, /minChars/],
    ['structure', { maxChar: 10 }, /Unrecognized key/],
    ['naive', { tokens: 100, overlap: 100 }, /naive chunker: overlap: must be smaller than tokens/],
    ['naive', { tokens: 0 }, /tokens/],
    ['recursive', { chunkSize: 200, chunkOverlap: 300 }, /chunkOverlap: must be smaller than chunkSize/],
    ['semantic', { threshold: 1.5 }, /semantic chunker: threshold/],
    ['structural', { mergeThreshold: 2 }, /mergeThreshold/],
    ['structural', { minChars: 500, maxChars: 400 }, /minChars: must be smaller than maxChars/],
  ] as const)('rejects invalid %s options %o with a clear invalid-input error', (strategy, options, message) => {
    const r = createChunker(strategy, options);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid-input');
    expect(r.error.message).toMatch(message);
  });

  it('rejects an unknown strategy and non-object options', () => {
    const unknown = createChunker('fixed' as never);
    expect(unknown.ok || unknown.error.code).toBe('invalid-input');
    const notObject = createChunker('structure', 42);
    expect(notObject.ok || notObject.error.code).toBe('invalid-input');
  });

  it('reports a cancelled result from every strategy when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    for (const s of CHUNK_STRATEGIES) {
      const r = await unwrap(createChunker(s)).chunk(mdDoc('# A\n\nSome text.\n'), { signal: controller.signal });
      expect(r.ok || r.error.code).toBe('cancelled');
    }
  });
});

describe('structural schema option', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('chunking-schema-'));
  });
  afterAll(async () => cleanup());

  it('accepts the built-in schema names', () => {
    expect(unwrap(createChunker('structural', { schema: 'resume' })).options.schema).toBe('resume');
    expect(unwrap(createChunker('structural', { schema: 'manual' })).options.schema).toBe('manual');
  });

  it('loads a valid user schema file', async () => {
    const file = path.join(dir, 'spec-sheet.schema.json');
    await writeFile(
      file,
      JSON.stringify({
        id: 'spec-sheet',
        name: 'Spec sheet',
        sections: [
          { type: 'electrical', label: 'Electrical', headings: ['electrical'], keywords: ['voltage', 'current'] },
          { type: 'mechanical', label: 'Mechanical', headings: ['mechanical'], keywords: ['weight', 'dimensions'], patterns: ['\\d+\\s?mm'] },
        ],
      }),
    );
    const chunker = unwrap(createChunker('structural', { schema: file }));
    expect(chunker.options.schema).toBe('spec-sheet');
    const chunks = unwrap(await chunker.chunk(mdDoc('## Electrical\n\nVoltage 24 V, current 2 A.\n\n## Mechanical\n\nWeight 2 kg, 120 mm wide.\n')));
    expect(chunks.map((c) => c.sectionType)).toEqual(['electrical', 'mechanical']);
  });

  it('rejects a missing file with not-found and a malformed one with invalid-input naming the field', async () => {
    const missing = createChunker('structural', { schema: path.join(dir, 'nope.json') });
    expect(missing.ok || missing.error.code).toBe('not-found');

    const notJson = path.join(dir, 'broken.json');
    await writeFile(notJson, '{ "id": ');
    const broken = createChunker('structural', { schema: notJson });
    expect(broken.ok || broken.error.code).toBe('invalid-input');

    const badShape = path.join(dir, 'bad.json');
    await writeFile(
      badShape,
      JSON.stringify({ id: 'bad', name: 'Bad', sections: [{ type: 'Bad Type', label: 'x', keywords: ['a'], patterns: ['(unclosed'] }] }),
    );
    const bad = createChunker('structural', { schema: badShape });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.code).toBe('invalid-input');
    expect(bad.error.message).toContain('sections.0.type');
    expect(bad.error.message).toContain('sections.0.patterns.0: is not a valid regular expression');
  });

  it('rejects duplicate section types and a skillsType that names no section', () => {
    const r = createChunker('structural', {
      schema: {
        id: 'dup',
        name: 'Dup',
        skillsType: 'tools',
        sections: [
          { type: 'a', label: 'A', keywords: ['x'] },
          { type: 'a', label: 'A again', keywords: ['y'] },
        ],
      },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain('duplicate section type "a"');
    expect(r.error.message).toContain('skillsType');
  });
});
