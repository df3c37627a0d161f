import { SUFFIX_WORDS } from './model-keys';
import type { Counts, Derived, IsVendorKey, ModelEntry } from './model-vocabulary.types';
import type { ModelToken } from './text.util';
import { isCodeToken, isUnitLike, modelTokens } from './text.util';

/**
 * How the model vocabulary names what it derives (model-derivation.ts): the best written form of a
 * model, vendor words stripped from names and keys, members' and variants' names, one model written
 * with and without a series prefix, products nested under the product their name extends, and the
 * shorter aliases a model is also written by.
 */

/** Words after a part number that say what kind of product carries it ("CH32H417 Evaluation Board"). */
const PRODUCT_TYPE_WORDS = new Set(['evaluation', 'development', 'dev', 'board', 'kit', 'module', 'reference', 'design', 'demo', 'starter']);
/** An evaluation-kit suffix glued to a part number ("CH592EVT", "xxEVB", "xxEVK", "xxEVM"). */
const KIT_SUFFIX = /^(\p{L}+\d+[\p{L}\d]*?\d)(?:evt|evb|evk|evm|eval)$/u;
/** Fewest product keys that must start with a prefix for it to be a series prefix (see `mergePrefixed`). */
const SERIES_PREFIX_MODELS = 3;
/** Weight of an occurrence by where it was seen: title/front matter, heading, body. */
const WHERE_WEIGHT = [5, 2, 1] as const;

export function weight(c: Counts): number {
  return c[0] * WHERE_WEIGHT[0] + c[1] * WHERE_WEIGHT[1] + c[2] * WHERE_WEIGHT[2];
}

/** The best written form: most weight, then with capitals, then shortest. */
export function bestSurface(surfaces: ReadonlyMap<string, number>): string | null {
  let best: string | null = null;
  let bestScore = -1;
  for (const [s, w] of surfaces) {
    const score = w * (/\p{Lu}/u.test(s) ? 2 : 1);
    if (score > bestScore || (score === bestScore && best !== null && s.length < best.length)) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

/** Merges written forms that differ only in "Plus" vs "+" ("ROCK 4C Plus" -> "ROCK 4C+"). */
export function displayForms(surfaces: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [s, w] of surfaces) {
    const shown = s.replace(/\s*\bplus\b(?=\s|$)/gi, '+');
    out.set(shown, (out.get(shown) ?? 0) + w);
  }
  return out;
}

/** A series word written before >= 30% of occurrences ("Cubie" A7A, "Orion" O6), else null. */
export function seriesWord(prev: ReadonlyMap<string, number>): string | null {
  let total = 0;
  let best = '';
  let bestN = 0;
  for (const [w, n] of prev) {
    total += n;
    if (w && n > bestN) {
      best = w;
      bestN = n;
    }
  }
  return bestN >= 3 && bestN * 10 >= total * 3 ? best : null;
}

export function revisionName(base: string, revision: string): string {
  return `${base} v${revision}`;
}

/** "<parent><suffix as written>": "ROCK 5B" + "5B+" -> "ROCK 5B+", "ROCK 5T" + "Industrial" -> "ROCK 5T Industrial". */
export function memberName(parent: string, surface: string, extKey: string, isVendorKey: IsVendorKey): string {
  const toks = modelTokens(surface).filter((t) => t.kind === 'word');
  const last = toks[toks.length - 1];
  const parentKey = entryKey(parent, isVendorKey);
  if (!last) return stripVendor(surface, isVendorKey);
  if (last.norm === '+') return `${parent}+`;
  for (let n = 1; n <= 3 && n < last.raw.length; n++) {
    const suffix = last.raw.slice(-n);
    if (`${parentKey}${suffix.toLowerCase()}` === extKey) return `${parent}${suffix}`;
  }
  if (SUFFIX_WORDS.has(last.norm) && `${parentKey}${last.norm}` === extKey) return `${parent} ${last.raw}`;
  return stripVendor(surface, isVendorKey);
}

export function stripVendor(name: string, isVendorKey: IsVendorKey): string {
  const toks = modelTokens(name);
  const i = vendorLead(toks, isVendorKey);
  return name.slice(toks[i]?.start ?? 0).replace(/[®™]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * How many leading tokens of a name are its vendor's: the vendor words, and the capitalised
 * words before one ("Seeed" of "Seeed Studio XIAO RP2350" when "Studio" is the learned vendor
 * word: a two-word vendor name whose first word stands before other words too).
 */
function vendorLead(toks: readonly ModelToken[], isVendorKey: IsVendorKey): number {
  let lead = 0;
  for (let j = 0; j < toks.length - 1; j++) {
    const t = toks[j]!;
    if (t.kind !== 'word' || /\d/.test(t.norm) || !/^\p{Lu}/u.test(t.raw)) break;
    if (isVendorKey(t.norm)) lead = j + 1;
  }
  return lead;
}

export function entryKey(name: string, isVendorKey: IsVendorKey): string {
  const toks = modelTokens(name);
  return toks
    .slice(vendorLead(toks, isVendorKey))
    .filter((t) => t.kind === 'word' && !isVendorKey(t.norm))
    .map((t) => t.norm)
    .join('');
}

/**
 * Merges products whose keys differ only by a leading series prefix that at least
 * `SERIES_PREFIX_MODELS` product keys start with ("m5" in "m5core2", "m5paper", "m5stickc"):
 * "Core2" (a folder) and "M5Core2" (a title) are then one model, the prefixed name canonical and
 * the bare one its alias. A prefix only a pair shares ("rock" in "rock5b" / "5b") is not enough.
 */
export function mergePrefixed(d: Derived): void {
  const products = [...d.entries.values()].filter((e) => e.kind === 'product');
  // Counted and indexed once instead of comparing every pair of keys, which grew with the square
  // of the vocabulary (4 s for a parts list of 3,000 codes, at every opening of its library).
  // How many keys start with each prefix of 2+ characters shorter than themselves:
  const startingWith = new Map<string, number>();
  for (const e of products) {
    for (let n = 2; n < e.key.length; n++) {
      const prefix = e.key.slice(0, n);
      startingWith.set(prefix, (startingWith.get(prefix) ?? 0) + 1);
    }
  }
  // For each key, the longer products ending with it after a prefix of 2+ characters, in entry
  // order: with `short` in entry order, the pairs come in the order a full comparison met them.
  const productKeys = new Set(products.map((e) => e.key));
  const longerEndingWith = new Map<string, ModelEntry[]>();
  for (const long of products) {
    for (let cut = 2; cut < long.key.length; cut++) {
      const suffix = long.key.slice(cut);
      if (!productKeys.has(suffix)) continue;
      const longs = longerEndingWith.get(suffix);
      if (longs) longs.push(long);
      else longerEndingWith.set(suffix, [long]);
    }
  }
  for (const short of products) {
    for (const long of longerEndingWith.get(short.key) ?? []) {
      if (!d.entries.has(short.name) || !d.entries.has(long.name)) continue;
      const prefix = long.key.slice(0, long.key.length - short.key.length);
      if ((startingWith.get(prefix) ?? 0) < SERIES_PREFIX_MODELS) continue;
      d.entries.delete(short.name);
      d.byKey.delete(short.key);
      for (const [k, name] of d.productOfKey) if (name === short.name) d.productOfKey.set(k, long.name);
      for (const [path, name] of d.folderProducts) if (name === short.name) d.folderProducts.set(path, long.name);
      for (const names of d.aliases.values()) if (names.delete(short.name)) names.add(long.name);
      addAlias(d, short.key, long.name);
    }
  }
}

/**
 * Sets each product's parent to the product whose name its own begins with, when what follows
 * has no digit ("XIAO nRF52840 Sense" of "XIAO nRF52840", "Timer Camera F" of "Timer Camera"):
 * the base's pages (a comparison table signed with the base) then count as the member's family.
 */
export function nestProducts(d: Derived, isVendorKey: IsVendorKey): void {
  const named = [...productWords(d, isVendorKey)].filter(([e]) => e.parent === null).map(([e, w]) => ({ e, w }));
  // The base is looked up by the long name's leading words, longest first, instead of comparing
  // every pair of products (which grew with the square of the vocabulary). Same base as that
  // comparison: the longest word sequence, and of equal ones the first in entry order.
  const firstWithWords = new Map<string, ModelEntry>();
  for (const { e, w } of named) {
    const words = w.join(' ');
    if (w.length > 0 && !firstWithWords.has(words)) firstWithWords.set(words, e);
  }
  for (const long of named) {
    for (let n = long.w.length - 1; n >= 1; n--) {
      if (long.w.slice(n).some((t) => /\d/.test(t))) break;
      const base = firstWithWords.get(long.w.slice(0, n).join(' '));
      if (base) {
        long.e.parent = base.name;
        break;
      }
    }
  }
}

/** Each product's name words without vendor words, in entry order (computed once per derivation). */
export function productWords(d: Derived, isVendorKey: IsVendorKey): Map<ModelEntry, string[]> {
  if (!d.productWords) {
    d.productWords = new Map();
    for (const e of d.entries.values()) {
      if (e.kind !== 'product') continue;
      const words = modelTokens(e.name)
        .filter((t) => t.kind === 'word' && !isVendorKey(t.norm))
        .map((t) => t.norm);
      d.productWords.set(e, words);
    }
  }
  return d.productWords;
}

export function addAlias(d: Derived, alias: string, name: string): void {
  if (!alias) return;
  const set = d.aliases.get(alias) ?? new Set<string>();
  set.add(name);
  d.aliases.set(alias, set);
}

export function addDerivedAliases(d: Derived, e: ModelEntry, isVendorKey: IsVendorKey): void {
  const toks = modelTokens(e.name).filter((t) => t.kind === 'word' && !isVendorKey(t.norm));
  const norms = toks.map((t) => t.norm);
  const variants: string[][] = [norms];
  // "ESP32-S3-DevKitC-1" is also written without its trailing board index ("S3 DevKitC").
  const gluedLast = toks.length >= 3 && /^\d+$/.test(norms[norms.length - 1]!) && /^[-_]$/.test(e.name.slice(toks[toks.length - 2]!.end, toks[toks.length - 1]!.start));
  if (gluedLast) variants.push(norms.slice(0, -1));
  // "CH32H417 Evaluation Board" is named "CH32H417", "CH592EVT" (an evaluation kit) "CH592".
  let core = norms;
  while (core.length > 1 && PRODUCT_TYPE_WORDS.has(core[core.length - 1]!)) core = core.slice(0, -1);
  if (core.length < norms.length) variants.push(core);
  const kit = core[core.length - 1]!.match(KIT_SUFFIX);
  if (kit) variants.push([...core.slice(0, -1), kit[1]!]);
  for (const v of variants) {
    for (let drop = 0; drop < v.length; drop++) {
      const rest = v.slice(drop);
      const alias = rest.join('');
      if (alias === e.key) continue;
      // An alias must still carry a letter+digit code, and a lone token must start with a letter:
      // "5B" or "3A" alone read as voltages and currents far more often than as models.
      // "Kaluga-1", "Note 10+": a board index after a distinctive word counts as a code too.
      const indexed = rest.length >= 2 && /^\d+\+?$/.test(rest[rest.length - 1]!) && /^\p{L}{4,}$/u.test(rest[rest.length - 2]!);
      const hasCode = indexed || rest.some((t) => isCodeToken(t) && !isUnitLike(t));
      if (!hasCode) continue;
      if (rest.length === 1 && !/^\p{L}/u.test(rest[0]!)) continue;
      addAlias(d, alias, e.name);
    }
  }
}
