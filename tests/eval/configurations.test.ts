import { describe, expect, it } from 'vitest';
import { CHUNK_STRATEGIES } from '../../src-main/core/chunk';
import {
  CONFIGURATION_NAMES,
  librarySettings,
  parseConfigurations,
  parseEnrichModes,
  parseRetrievers,
} from '../../src-main/eval/configurations';
import { LIBRARY_DEFAULTS } from '../../src-main/library/library.store';

describe('evaluation configurations', () => {
  it('names the papers’ configurations', () => {
    expect(CONFIGURATION_NAMES).toEqual(['default', 'naive', 'recursive', 'semantic', 'structure', 'structure+path', 'structure+cnm', 'structure+cnm+keys', 'structural']);
  });

  it('runs `default` with the settings a new library gets', () => {
    const s = librarySettings('default', 'heuristic');
    expect({ strategy: s.strategy, prefix: s.prefix, restructure: s.restructure }).toEqual({
      strategy: LIBRARY_DEFAULTS.strategy,
      prefix: LIBRARY_DEFAULTS.prefix,
      restructure: LIBRARY_DEFAULTS.restructure,
    });
  });

  it('indexes the baselines and the bare chunkers without any prefix or restructuring', () => {
    for (const name of ['naive', 'recursive', 'semantic', 'structure', 'structural'] as const) {
      const s = librarySettings(name, 'heuristic');
      expect(s.strategy).toBe(name);
      expect(s.prefix).toEqual({ signature: false, headingPath: false, keys: false });
      expect(s.restructure).toBe(false);
    }
  });

  it('adds one ingredient per "+" on structure chunks', () => {
    expect(librarySettings('structure+path', 'heuristic')).toEqual({
      strategy: 'structure',
      prefix: { signature: false, headingPath: true, keys: false },
      restructure: false,
      enrich: 'heuristic',
    });
    expect(librarySettings('structure+cnm', 'llm')).toEqual({
      strategy: 'structure',
      prefix: { signature: true, headingPath: false, keys: false },
      restructure: false,
      enrich: 'llm',
    });
    expect(librarySettings('structure+cnm+keys', 'llm-single')).toEqual({
      strategy: 'structure',
      prefix: { signature: true, headingPath: false, keys: true },
      restructure: true,
      enrich: 'llm-single',
    });
  });

  it('maps every configuration to a real chunking strategy and hands out copies', () => {
    for (const name of CONFIGURATION_NAMES) expect(CHUNK_STRATEGIES).toContain(librarySettings(name, 'heuristic').strategy);
    const a = librarySettings('structure+cnm', 'heuristic');
    a.prefix.keys = true;
    expect(librarySettings('structure+cnm', 'heuristic').prefix.keys).toBe(false);
  });
});

describe('list flags', () => {
  it('falls back to the defaults when a flag is absent', () => {
    // `default` repeats one of the named configurations: it runs only when asked for.
    expect(parseConfigurations(undefined)).toEqual({ ok: true, value: CONFIGURATION_NAMES.filter((n) => n !== 'default') });
    expect(parseEnrichModes(undefined)).toEqual({ ok: true, value: ['heuristic'] });
    expect(parseRetrievers(undefined)).toEqual({ ok: true, value: ['bm25'] });
  });

  it('keeps the order given, trims spaces and drops repeats', () => {
    expect(parseConfigurations(' structure+cnm, naive ,structure+cnm')).toEqual({ ok: true, value: ['structure+cnm', 'naive'] });
    expect(parseRetrievers('hybrid,bm25')).toEqual({ ok: true, value: ['hybrid', 'bm25'] });
  });

  it('rejects an unknown or empty name, naming it and the choices', () => {
    const bad = parseConfigurations('structure,chop');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid-input');
      expect(bad.error.message).toContain('"chop"');
      expect(bad.error.message).toContain('structure+cnm+keys');
    }
    const empty = parseEnrichModes('heuristic,');
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.error.message).toContain('--enrich has an empty name');
  });
});
