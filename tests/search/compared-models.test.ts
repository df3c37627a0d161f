import { describe, expect, it } from 'vitest';
import { everyModelShown } from '../../src-main/search/compared-models';

/** Hits as [id, model]; the model of a hit is its second field. */
const ranked = (...hits: [string, string | null][]) => hits;
const ids = (hits: readonly [string, string | null][]) => hits.map(([id]) => id);
const modelOf = (h: [string, string | null]) => h[1];

describe('everyModelShown: a comparison shows each compared model', () => {
  it("moves a model's best hit into the last place of a model that keeps another", () => {
    const hits = ranked(['a1', 'A'], ['a2', 'A'], ['n1', null], ['a3', 'A'], ['b1', 'B'], ['b2', 'B']);
    expect(ids(everyModelShown(hits, ['A', 'B'], 4, modelOf))).toEqual(['a1', 'a2', 'n1', 'b1', 'a3', 'b2']);
  });

  it("never takes another compared model's only place: the hit it displaces goes just below", () => {
    const hits = ranked(['a1', 'A'], ['a2', 'A'], ['n1', null], ['b1', 'B'], ['c1', 'C']);
    expect(ids(everyModelShown(hits, ['A', 'B', 'C'], 4, modelOf))).toEqual(['a1', 'c1', 'n1', 'b1', 'a2']);
  });

  it('leaves the ranking alone when each model is already shown or has no hit at all', () => {
    const shown = ranked(['a1', 'A'], ['b1', 'B'], ['a2', 'A']);
    expect(everyModelShown(shown, ['A', 'B'], 2, modelOf)).toEqual(shown);
    const absent = ranked(['a1', 'A'], ['a2', 'A'], ['c1', 'C']);
    expect(everyModelShown(absent, ['A', 'B'], 2, modelOf)).toEqual(absent);
  });

  it("takes a hit of no compared model's place when no model has two, never the only hit of one, never the first", () => {
    const hits = ranked(['a1', 'A'], ['n1', null], ['c1', 'B'], ['x', 'C']);
    // B takes the place of the hit of no model; C finds none: A and B keep their only hits.
    expect(ids(everyModelShown(hits, ['A', 'B', 'C'], 2, modelOf))).toEqual(['a1', 'c1', 'n1', 'x']);
    const full = ranked(['a1', 'A'], ['b1', 'B'], ['c1', 'C']);
    expect(everyModelShown(full, ['A', 'B', 'C'], 2, modelOf)).toEqual(full);
    const first = ranked(['n1', null], ['a1', 'A'], ['b1', 'B']);
    expect(everyModelShown(first, ['A', 'B'], 1, modelOf)).toEqual(first);
    // A set of quoted lines keeps no first place: there the hit of no model gives way.
    expect(ids(everyModelShown(first, ['A', 'B'], 2, modelOf, { keepFirst: false }))).toEqual(['b1', 'a1', 'n1']);
  });

  it('matches models with the given relation', () => {
    const hits = ranked(['a1', 'A'], ['a2', 'A'], ['b1', 'b']);
    const same = (m: string, own: string) => m.toLowerCase() === own.toLowerCase();
    expect(ids(everyModelShown(hits, ['A', 'B'], 2, modelOf, { same }))).toEqual(['a1', 'b1', 'a2']);
  });
});
