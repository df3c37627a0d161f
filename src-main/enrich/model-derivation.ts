import { boundedMemo } from '../core/memo';
import { bestCategory } from './category.lexicon';
import { bump, familyPattern, GENERIC_WORDS } from './model-keys';
import {
  addAlias,
  addDerivedAliases,
  bestSurface,
  displayForms,
  entryKey,
  memberName,
  mergePrefixed,
  nestProducts,
  revisionName,
  seriesWord,
  stripVendor,
  weight,
} from './model-names';
import type { Counts, Derived, DocIdentity, DocObservation, IdentitySource, IsVendorKey, ModelEntry } from './model-vocabulary.types';
import { modelTokens, nameKey } from './text.util';

/**
 * The second half of the model vocabulary (model-vocabulary.ts has the rules): the library's
 * models, derived from all documents' observations (model-observation.ts) whenever one was added
 * or removed. `learnVendors` runs first and decides which words are vendor words;
 * `deriveVocabulary` then takes the steps in order (folders, files, titles, headings, identities,
 * members, aliases, categories); `identityFor` also judges documents not added yet. How the models
 * are named is in model-names.ts.
 */

/**
 * Fewest different products a capitalized word must be written right before for it to be a vendor
 * word ("Radxa" before ROCK 5B, CM5, ZERO 3W, E20C, ...): stripped from model names instead of
 * taken as a series word ("Cubie" before A5E, A7A, A7Z names a series of its own).
 */
const VENDOR_MIN_PRODUCTS = 5;
/** Minimum weighted occurrences for a member ("ROCK 5B+") to be accepted. */
const MIN_MEMBER_WEIGHT = 2;

/**
 * Fewest models, other than the folder's own and its members, that documents under a folder must
 * be titled after for the folder to be a collection of products rather than one product's pages.
 */
const COLLECTION_MODELS = 2;
/**
 * Least share of a collection's documents titled after another model. A product's folder may hold
 * a few pages titled after the carrier boards it fits (radxa's CM3J folder: 4 of 23); a folder of
 * products has many (m5stack's: 16 of 45).
 */
const COLLECTION_SHARE = 0.25;

/**
 * A folder named like a product ("m5stack", a vendor's name with a digit) whose documents are
 * titled after other models ("M5Core2", "M5Paper") holds many products: signing all of them with
 * the folder's name would make every sibling look like the same model.
 */
function isCollection(folderKey: string, titleModels: ReadonlySet<string>, otherTitledShare: number): boolean {
  let others = 0;
  for (const k of titleModels) if (!k.startsWith(folderKey) && !folderKey.startsWith(k)) others++;
  return others >= COLLECTION_MODELS && otherTitledShare >= COLLECTION_SHARE;
}

function addSurfaces(into: Map<string, number>, rec: Record<string, Counts> | undefined): number {
  let total = 0;
  for (const [s, c] of Object.entries(rec ?? {})) {
    const w = weight(c);
    into.set(s, (into.get(s) ?? 0) + w);
    total += w;
  }
  return total;
}

/**
 * Capitalized words that make up at least half of what is written right before each of at least
 * `VENDOR_MIN_PRODUCTS` different product keys ("Radxa" before ROCK 5B, CM5, E20C ...). Words
 * that merely stand before a name now and then ("Board", "Overview") never dominate. A word counts
 * as written before a product only within one line of the Markdown, and where it opens a sentence
 * only if the document never writes it in lower case (model-observation.ts): so a section heading
 * or column word that opens each product's page ("## Description" then "**M5StickC** is ...") and
 * an imperative ("Connect ESP-DualKey to ...") are no vendors, while a datasheet that names its
 * maker once ("**Acme K10** is ...") is evidence like any other.
 */
export function learnVendors(docs: ReadonlyMap<string, DocObservation>): Map<string, string> {
  const prevOf = new Map<string, Map<string, number>>();
  const display = new Map<string, string>();
  for (const o of docs.values()) {
    for (const [key, words] of Object.entries(o.prev)) {
      const counts = prevOf.get(key) ?? new Map<string, number>();
      for (const [w, n] of Object.entries(words)) {
        const k = nameKey(w);
        if (!k || /\d/.test(k) || GENERIC_WORDS.has(k)) continue;
        counts.set(k, (counts.get(k) ?? 0) + n);
        if (!display.has(k)) display.set(k, w);
      }
      prevOf.set(key, counts);
    }
  }
  const topOf = new Map<string, number>();
  for (const counts of prevOf.values()) {
    let best = '';
    let bestN = 0;
    let total = 0;
    for (const [k, n] of counts) {
      total += n;
      if (n > bestN) [best, bestN] = [k, n];
    }
    // The vendor's name is most of what stands before its products, not one word among many.
    if (best && bestN * 2 >= total) topOf.set(best, (topOf.get(best) ?? 0) + 1);
  }
  return new Map([...topOf].filter(([, n]) => n >= VENDOR_MIN_PRODUCTS).map(([k]) => [k, display.get(k)!]));
}

/**
 * The models of a library, its documents' identities and the lookups over them, derived from every
 * document's observation; `isVendorKey` already knows the vendor words `learnVendors` found.
 */
export function deriveVocabulary(docs: ReadonlyMap<string, DocObservation>, isVendorKey: IsVendorKey): Derived {
  const d: Derived = {
    entries: new Map(),
    byKey: new Map(),
    aliases: new Map(),
    variants: new Map(),
    identities: new Map(),
    categories: new Map(),
    folderProducts: new Map(),
    productOfKey: new Map(),
    keysOfProduct: new Map(),
    keyPrefixes: new Set(),
    shortMentions: new Map(),
    patterns: [],
  };
  // 1. Aggregate each folder's evidence over the documents under it.
  interface FolderAgg {
    key: string;
    surfaces: Map<string, number>;
    weight: number;
    prev: Map<string, number>;
    directTitleKeys: Set<string>;
    /** Keys of the models that documents under the folder are titled after ("M5Paper", "M5Core2"). */
    titleModels: Set<string>;
    /** Documents under the folder, and those of them titled after a model other than the folder's. */
    docs: number;
    otherTitled: number;
  }
  const folders = new Map<string, FolderAgg>();
  // Each folder name's key once: every document asks it of the same few hundred folder names
  // (~150 ms of deriving a 14,520-document vocabulary).
  const dirKey = boundedMemo(Number.POSITIVE_INFINITY, nameKey);
  for (const o of docs.values()) {
    for (let depth = 0; depth < o.dirs.length; depth++) {
      const path = o.dirs.slice(0, depth + 1).join('/');
      const key = dirKey(o.dirs[depth]!);
      let agg = folders.get(path);
      if (!agg) {
        agg = { key, surfaces: new Map(), weight: 0, prev: new Map(), directTitleKeys: new Set(), titleModels: new Set(), docs: 0, otherTitled: 0 };
        folders.set(path, agg);
      }
      agg.weight += addSurfaces(agg.surfaces, o.surfaces[key]);
      for (const [w, n] of Object.entries(o.prev[key] ?? {})) agg.prev.set(w, (agg.prev.get(w) ?? 0) + n);
      if (depth === o.dirs.length - 1) agg.directTitleKeys.add(o.titleKey);
      agg.docs++;
      if (o.titleModel) {
        const k = nameKey(stripVendor(o.titleModel.surface, isVendorKey));
        agg.titleModels.add(k);
        if (!k.startsWith(key) && !key.startsWith(k)) agg.otherTitled++;
      }
    }
  }
  // 2. Product folders: the folder name is written out in its documents.
  const productSurfaces = new Map<string, { surfaces: Map<string, number>; prev: Map<string, number> }>();
  const gather = (key: string, surfaces: Iterable<[string, number]>, prev: Iterable<[string, number]>): void => {
    const ps = productSurfaces.get(key) ?? { surfaces: new Map<string, number>(), prev: new Map<string, number>() };
    for (const [s, w] of surfaces) ps.surfaces.set(s, (ps.surfaces.get(s) ?? 0) + w);
    for (const [w, n] of prev) ps.prev.set(w, (ps.prev.get(w) ?? 0) + n);
    productSurfaces.set(key, ps);
  };
  const folderKeyOfPath = new Map<string, string>();
  for (const [path, agg] of folders) {
    if (agg.key.length < 2 || agg.weight === 0) continue;
    if (!/\d/.test(agg.key) && !(agg.key.length >= 3 && agg.directTitleKeys.has(agg.key))) continue;
    if (isCollection(agg.key, agg.titleModels, agg.otherTitled / agg.docs)) continue;
    folderKeyOfPath.set(path, agg.key);
    gather(agg.key, agg.surfaces, agg.prev);
  }
  const folderPathOf = (o: DocObservation): string | null => {
    for (let depth = o.dirs.length; depth >= 1; depth--) {
      const path = o.dirs.slice(0, depth).join('/');
      if (folderKeyOfPath.has(path)) return path;
    }
    return null;
  };
  // 3. Product files: named after a model written out in them, and winning over their folder.
  const stemOf = new Map<string, string>();
  for (const o of docs.values()) {
    if (!o.stemKey) continue;
    const rec = o.surfaces[o.stemKey];
    if (!rec || Object.keys(rec).length === 0) continue;
    if (!stemWins(o, folderPathOf(o) !== null)) continue;
    stemOf.set(o.id, o.stemKey);
    gather(o.stemKey, Object.entries(rec).map(([s, c]) => [s, weight(c)]), Object.entries(o.prev[o.stemKey] ?? {}));
  }
  const addEntry = (e: ModelEntry): ModelEntry => {
    const existing = d.entries.get(e.name) ?? d.byKey.get(e.key);
    if (existing) return existing;
    d.entries.set(e.name, e);
    d.byKey.set(e.key, e);
    return e;
  };
  for (const [pkey, ps] of productSurfaces) {
    let name = bestSurface(displayForms(ps.surfaces));
    if (!name) continue;
    const series = seriesWord(new Map([...ps.prev].filter(([w]) => !isVendorKey(nameKey(w)))));
    if (series && !nameKey(name).startsWith(nameKey(series))) name = `${series} ${name}`;
    name = stripVendor(name, isVendorKey);
    const entry = addEntry({ name, key: entryKey(name, isVendorKey), kind: 'product', parent: null, revision: null, docCount: 0 });
    d.productOfKey.set(pkey, entry.name);
    if (entry.key !== pkey) addAlias(d, pkey, entry.name);
  }
  for (const [path, key] of folderKeyOfPath) {
    const name = d.productOfKey.get(key);
    if (name) d.folderProducts.set(path, name);
  }
  // 4. Title models of documents without a product folder or file.
  for (const o of docs.values()) {
    if (!o.titleModel || stemOf.has(o.id) || folderProductOf(o, d)) continue;
    const name = stripVendor(o.titleModel.surface, isVendorKey);
    addEntry({ name, key: entryKey(name, isVendorKey), kind: 'product', parent: null, revision: null, docCount: 0 });
  }
  // 4b. Models that whole H1/H2 headings name (sub-documents of a stitched manual).
  for (const o of docs.values()) {
    for (const h of o.headingModels) {
      const name = stripVendor(h, isVendorKey);
      addEntry({ name, key: entryKey(name, isVendorKey), kind: 'product', parent: null, revision: null, docCount: 0 });
    }
  }
  // 4c. One model written with and without a series prefix ("M5Core2" and "Core2").
  mergePrefixed(d);
  // Each product's keys, for the identities below (looking each document's product up in the whole
  // map was ~170 ms of deriving a 14,520-document vocabulary); the map changes no more after this.
  for (const [k, name] of d.productOfKey) {
    const keys = d.keysOfProduct.get(name);
    if (keys) keys.push(k);
    else d.keysOfProduct.set(name, [k]);
  }
  // 5. Identities (and the variants they name).
  const catByBase = new Map<string, Record<string, number>>();
  for (const o of docs.values()) {
    const id = identityFor(o, d, stemOf.get(o.id) ?? null, true, isVendorKey);
    if (!id) continue;
    d.identities.set(o.id, id);
    const rec = catByBase.get(id.base) ?? {};
    for (const [c, n] of Object.entries(o.categories)) bump(rec, c, n);
    catByBase.set(id.base, rec);
  }
  // 6. Members: extensions of a product's key written often enough in its documents.
  const memberAgg = new Map<string, { base: string; baseKey: string; surfaces: Map<string, number>; weight: number }>();
  for (const o of docs.values()) {
    for (const [extKey, baseKey] of Object.entries(o.extensions)) {
      const baseName = d.productOfKey.get(baseKey);
      if (!baseName) continue;
      const agg = memberAgg.get(extKey) ?? { base: baseName, baseKey, surfaces: new Map(), weight: 0 };
      // The longest product key any document extends wins ("ROCK 5B+" extends ROCK 5B, not the
      // ROCK 5 series), whichever document happened to be seen first.
      if (baseKey.length > agg.baseKey.length) {
        agg.base = baseName;
        agg.baseKey = baseKey;
      }
      agg.weight += addSurfaces(agg.surfaces, o.surfaces[extKey]);
      memberAgg.set(extKey, agg);
    }
  }
  for (const [extKey, agg] of memberAgg) {
    if (agg.weight < MIN_MEMBER_WEIGHT || d.byKey.has(extKey) || d.productOfKey.has(extKey)) continue;
    const surface = bestSurface(agg.surfaces);
    if (!surface) continue;
    const name = memberName(agg.base, surface, extKey, isVendorKey);
    const e = addEntry({ name, key: entryKey(name, isVendorKey), kind: 'member', parent: agg.base, revision: null, docCount: 0 });
    if (e.key !== extKey) addAlias(d, extKey, e.name);
  }
  // 6b. A product named as another product and further words without digits ("XIAO nRF52840
  // Sense" beside "XIAO nRF52840", learned from folders of their own) is that product's member.
  nestProducts(d, isVendorKey);
  // 7. Aliases: names without their leading series/family tokens ("Cubie A7A" -> "A7A").
  for (const e of d.entries.values()) if (e.kind !== 'variant') addDerivedAliases(d, e, isVendorKey);
  // 8. Categories per base product, then on identities (the model's, else the document's own).
  for (const e of d.entries.values()) {
    if (e.kind !== 'variant') d.categories.set(e.name, bestCategory(catByBase.get(e.name) ?? {}));
  }
  inheritSeriesCategories(d, docs);
  for (const [docId, id] of d.identities) {
    id.category = d.categories.get(id.base) ?? bestCategory(docs.get(docId)?.categories ?? {});
  }
  for (const key of [...d.byKey.keys(), ...d.aliases.keys()]) {
    for (let n = 1; n <= key.length; n++) d.keyPrefixes.add(key.slice(0, n));
  }
  for (const e of d.entries.values()) {
    if (e.kind === 'variant') continue;
    for (const t of modelTokens(e.name)) {
      const pattern = t.kind === 'word' ? familyPattern(t.raw) : null;
      if (pattern) d.patterns.push({ pattern, name: e.name });
    }
  }
  return d;
}

/**
 * A product whose own documents never name its family takes the family named by the pages
 * directly in an enclosing folder (the series page: "E Series - Network Computer").
 */
function inheritSeriesCategories(d: Derived, docs: ReadonlyMap<string, DocObservation>): void {
  const direct = new Map<string, Record<string, number>>();
  for (const o of docs.values()) {
    const path = o.dirs.join('/');
    const rec = direct.get(path) ?? {};
    for (const [c, n] of Object.entries(o.categories)) bump(rec, c, n);
    direct.set(path, rec);
  }
  // Each folder's best category once: the documents of a product without one ask it of the same folders.
  const bestOf = boundedMemo(Number.POSITIVE_INFINITY, (path: string) => bestCategory(direct.get(path) ?? {}));
  for (const [docId, id] of d.identities) {
    if (d.categories.get(id.base)) continue;
    const dirs = docs.get(docId)?.dirs ?? [];
    for (let depth = dirs.length - 1; depth >= 1; depth--) {
      const c = bestOf(dirs.slice(0, depth).join('/'));
      if (c) {
        d.categories.set(id.base, c);
        break;
      }
    }
  }
}

/** A product file beats its folder only with its own revision (a separate board's manual). */
export function stemWins(o: DocObservation, hasFolderProduct: boolean): boolean {
  return !hasFolderProduct || o.stemRevision !== null || (o.stemKey !== null && (o.revisions[o.stemKey]?.length ?? 0) > 0);
}

export function folderProductOf(o: DocObservation, d: Derived): string | null {
  for (let depth = o.dirs.length; depth >= 1; depth--) {
    const p = d.folderProducts.get(o.dirs.slice(0, depth).join('/'));
    if (p) return p;
  }
  return null;
}

/** `commit`: count documents and register new variants (false for documents not added). */
export function identityFor(o: DocObservation, d: Derived, stemKey: string | null, commit: boolean, isVendorKey: IsVendorKey): DocIdentity | null {
  const folderProduct = folderProductOf(o, d);
  let product: ModelEntry | null = null;
  let source: IdentitySource = 'folder';
  const stemName = stemKey ? d.productOfKey.get(stemKey) : undefined;
  if (stemName) {
    product = d.entries.get(stemName) ?? null;
    source = 'file';
  } else if (folderProduct) {
    product = d.entries.get(folderProduct) ?? null;
  } else if (o.titleModel) {
    product = resolveKey(entryKey(stripVendor(o.titleModel.surface, isVendorKey), isVendorKey), d);
    source = 'title';
  }
  if (!product) return null;
  // The revision this document is written for: from its title, else from its file name.
  let revisions: string[] = [];
  for (const k of d.keysOfProduct.get(product.name) ?? []) if (o.revisions[k]?.length) revisions = o.revisions[k]!;
  if (revisions.length === 0 && o.revisions[product.key]?.length) revisions = o.revisions[product.key]!;
  if (revisions.length === 0 && source === 'title' && o.titleModel) revisions = o.titleModel.revisions;
  if (revisions.length === 0 && o.stemRevision !== null) revisions = [o.stemRevision];
  let model = product.name;
  if (revisions.length > 0) {
    if (commit) {
      // Every revision the title names is a variant; the first is the document's own.
      const own = variant(d, product, revisions[0]!);
      for (const r of revisions.slice(1)) variant(d, product, r);
      own.docCount++;
      model = own.name;
    } else model = d.variants.get(product.name)?.get(revisions[0]!)?.name ?? revisionName(product.name, revisions[0]!);
  }
  if (commit) product.docCount++;
  const category = commit ? null : (d.categories.get(product.name) ?? bestCategory(o.categories));
  return { model, base: product.name, source, category };
}

function variant(d: Derived, base: ModelEntry, revision: string): ModelEntry {
  const byRev = d.variants.get(base.name) ?? new Map<string, ModelEntry>();
  d.variants.set(base.name, byRev);
  let v = byRev.get(revision);
  if (!v) {
    v = { name: revisionName(base.name, revision), key: `${base.key}@${revision}`, kind: 'variant', parent: base.name, revision, docCount: 0 };
    byRev.set(revision, v);
    d.entries.set(v.name, v);
  }
  return v;
}

export function resolveKey(key: string, d: Derived): ModelEntry | null {
  if (!key) return null;
  const e = d.byKey.get(key);
  if (e) return e;
  const names = d.aliases.get(key);
  if (names && names.size === 1) return d.entries.get([...names][0]!) ?? null;
  return null;
}
