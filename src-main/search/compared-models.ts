/**
 * The ranking with each of `models` in its first `topK` (a hit's model by `modelOfHit`, matched
 * by `same`, by default the same name): a model with no hit there has its best hit take the last
 * place held by a model that has several there (else by a hit of none of them), and the hit it
 * displaces goes just below the first `topK`; every other hit keeps its place, and the first hit
 * stays first unless `keepFirst` is false. Asked to compare two models, one model's manual (it
 * names both: "Compared with StickC, ...") can fill every place while the other's best passage
 * ranks just below.
 */
export function everyModelShown<T>(
  hits: readonly T[],
  models: readonly string[],
  topK: number,
  modelOfHit: (hit: T) => string | null,
  options: { same?: (model: string, hitModel: string) => boolean; keepFirst?: boolean } = {},
): T[] {
  const same = options.same ?? ((a, b) => a === b);
  // A search keeps its first result whatever its length (asking for fewer results gives the first
  // ones of a longer list); a set of quoted lines has no such order to keep.
  const from = options.keepFirst === false ? 0 : 1;
  const out = [...hits];
  const modelOf = (h: T): string | null => {
    const own = modelOfHit(h);
    return own === null ? null : (models.find((m) => same(m, own)) ?? null);
  };
  for (const m of models) {
    const top = out.slice(0, topK);
    if (top.some((h) => modelOf(h) === m)) continue;
    const best = out.findIndex((h, i) => i >= topK && modelOf(h) === m);
    if (best < 0) continue;
    const counts = new Map<string | null, number>();
    for (const h of top) counts.set(modelOf(h), (counts.get(modelOf(h)) ?? 0) + 1);
    // The last place of a compared model that keeps another place; else of a hit of none of them.
    let at = -1;
    for (let i = top.length - 1; i >= from && at < 0; i--) {
      const owner = modelOf(top[i]!);
      if (owner !== null && counts.get(owner)! > 1) at = i;
    }
    for (let i = top.length - 1; i >= from && at < 0; i--) if (modelOf(top[i]!) === null) at = i;
    if (at < 0) continue;
    const [moved] = out.splice(best, 1);
    const [displaced] = out.splice(at, 1, moved!);
    out.splice(topK, 0, displaced!);
  }
  return out;
}
