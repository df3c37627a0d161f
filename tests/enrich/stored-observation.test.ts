import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { observe, vocabularyInput } from '../../src-main/enrich/model-observation';
import { isObservation, storedObservation } from '../../src-main/enrich/model-vocabulary.types';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { markdownDocument } from './corpus.helper';

/** The zod schema `isObservation` replaced (model-vocabulary.types.ts says why): the reference it must agree with. */
const countsSchema = z.tuple([z.number(), z.number(), z.number()]);
const observationSchema = z.object({
  id: z.string(),
  dirs: z.array(z.string()),
  stemKey: z.string().nullable(),
  stemRevision: z.string().nullable(),
  surfaces: z.record(z.string(), z.record(z.string(), countsSchema)),
  prev: z.record(z.string(), z.record(z.string(), z.number())),
  revisions: z.record(z.string(), z.array(z.string())),
  extensions: z.record(z.string(), z.string()),
  titleKey: z.string(),
  titleModel: z.object({ surface: z.string(), revisions: z.array(z.string()) }).nullable(),
  headingModels: z.array(z.string()),
  categories: z.record(z.string(), z.number()),
});

const doc = markdownDocument(
  'radxa-docs/rock5/rock5b/getting-started/power.md',
  '# ROCK 5B v1.42 single board computer\n\nThe ROCK 5B is a single board computer. The ROCK 5B v1.42 takes 5V/3A over USB-C. The Radxa ROCK 5B+ takes PD 30W.\n\n## ROCK 5B+\n\nUse the Radxa Power PD 30W adapter.\n',
);
const observed = JSON.parse(JSON.stringify(observe(vocabularyInput(doc), new Set(['radxa'])))) as Record<string, unknown>;

/** `observed` with the value at `path` replaced (or deleted, for `undefined`). */
function changed(path: string[], value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(observed)) as Record<string, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
  if (value === undefined) delete at[path[path.length - 1]!];
  else at[path[path.length - 1]!] = value;
  return copy;
}

describe('stored model observations', () => {
  it('a real observation holds something in every record the checks walk', () => {
    // Otherwise the record-value mutations below would test empty records only.
    for (const k of ['surfaces', 'prev', 'revisions', 'extensions', 'categories']) expect(Object.keys(observed[k] as object).length, k).toBeGreaterThan(0);
    expect(observed['titleModel']).not.toBeNull();
    expect(isObservation(observed)).toBe(true);
  });

  it('accept and refuse exactly what the zod schema did', () => {
    const firstKey = (k: string) => Object.keys(observed[k] as object)[0]!;
    const surface = firstKey('surfaces');
    const surfaceForm = Object.keys((observed['surfaces'] as Record<string, object>)[surface]!)[0]!;
    const prev = firstKey('prev');
    const wrong: unknown[] = [undefined, null, 3, Number.NaN, Number.POSITIVE_INFINITY, 'x', [], ['x'], [1], {}, { a: 1 }, true];
    const paths: string[][] = [
      ['id'], ['dirs'], ['stemKey'], ['stemRevision'], ['surfaces'], ['surfaces', surface], ['surfaces', surface, surfaceForm],
      ['prev'], ['prev', prev], ['revisions'], ['revisions', firstKey('revisions')], ['extensions'], ['extensions', firstKey('extensions')], ['titleKey'],
      ['titleModel'], ['titleModel', 'surface'], ['titleModel', 'revisions'], ['headingModels'], ['categories'], ['categories', firstKey('categories')],
    ];
    let compared = 0;
    for (const path of paths) {
      for (const value of wrong) {
        const candidate = changed(path, value);
        expect(isObservation(candidate), `${path.join('.')} = ${String(value)}`).toBe(observationSchema.safeParse(candidate).success);
        compared++;
      }
    }
    for (const counts of [[1, 2], [1, 2, 3, 4], [1, 'two', 3], [1, Number.NaN, 3], [0, 0, 0]]) {
      const candidate = changed(['surfaces', surface, surfaceForm], counts);
      expect(isObservation(candidate), JSON.stringify(counts)).toBe(observationSchema.safeParse(candidate).success);
    }
    expect(compared).toBe(paths.length * wrong.length);
    for (const bad of [null, [], 'observation', 7]) expect(isObservation(bad)).toBe(false);
  });

  it('keep the fields zod kept and drop the others', () => {
    const extra = { ...observed, stray: 'x', titleModel: { ...(observed['titleModel'] as object), stray: 1 } };
    expect(isObservation(extra)).toBe(true);
    expect(storedObservation(extra as never)).toEqual(observationSchema.parse(extra));
  });

  it('round-trip a vocabulary, and report a damaged observation as corrupt', () => {
    const v = ModelVocabulary.create({ vendors: ['radxa'] });
    v.addDocument(doc);
    const back = ModelVocabulary.fromJSON(JSON.parse(JSON.stringify(v.toJSON())));
    expect(back.ok && back.value.toJSON()).toEqual(v.toJSON());
    const damaged = JSON.parse(JSON.stringify(v.toJSON())) as { docs: Record<string, unknown>[] };
    damaged.docs[0]!['surfaces'] = { rock5b: { 'ROCK 5B': [1, 'x', 0] } };
    const r = ModelVocabulary.fromJSON(damaged);
    expect(!r.ok && r.error.code).toBe('corrupt');
  });
});
