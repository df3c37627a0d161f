import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { bestCategory } from './category.lexicon';
import { deriveVocabulary, folderProductOf, identityFor, learnVendors, resolveKey, stemWins } from './model-derivation';
import { scanMentions } from './model-mentions';
import { bestSurface, displayForms, revisionName, stripVendor, weight } from './model-names';
import { isInput, observe, vocabularyInput } from './model-observation';
import type {
  Derived,
  DocIdentity,
  DocObservation,
  IsVendorKey,
  ModelEntry,
  ModelKind,
  ModelMention,
  ModelRelation,
  VocabularyDocInput,
  VocabularyJson,
} from './model-vocabulary.types';
import { storedObservation, vocabularyJsonSchema } from './model-vocabulary.types';
import { modelTokens, nameKey } from './text.util';

export { familyPattern } from './model-keys';
export { vocabularyInput } from './model-observation';
export type {
  DocIdentity,
  IdentitySource,
  ModelEntry,
  ModelKind,
  ModelMention,
  ModelRelation,
  VocabularyDocInput,
  VocabularyJson,
} from './model-vocabulary.types';

/**
 * The library's model vocabulary: the product models its documents are about, learned from file
 * paths, titles, front matter and headings, then confirmed by the text.
 *
 * - A folder is a product folder when its name, read as a model key ("rock5b", "e52c",
 *   "esp32-s3-devkitc-1"), is written out in the documents under it ("ROCK 5B", "E52C"). Names
 *   without digits ("zero", "airbox") count only when a title directly in the folder is exactly
 *   that name, so "getting-started" never becomes a product.
 * - A file named after a model ("Galaxy_S10.md", "user-guide-esp-lyrat-8311a_v1.3.md") is a product
 *   file. It overrides its folder only when it carries its own revision (a separate board's manual);
 *   accessory pages inside a product folder (cameras, adapters) stay with the folder's product.
 * - Documents outside product folders fall back to a model-number-like name in their title.
 * - Members extend a product's key by a short suffix in the text ("ROCK 5B" -> "ROCK 5B+",
 *   "ZERO 3" -> "ZERO 3W"); revisions ("v1.1") are variants of their base, learned from titles and
 *   file names.
 *
 * Keys compare tokens of letters and digits (case-free, spacing and hyphens ignored, "plus" = "+").
 * Unlike the storage key, `+` is kept: "ROCK 5B+" and "ROCK 5B" are different models.
 * Serializable (toJSON/fromJSON) as per-document observations, so a library can add and remove
 * documents incrementally; everything else is derived.
 *
 * The code is in seven files:
 * - model-vocabulary.ts (this file): the vocabulary as callers use it: documents in and out,
 *   storage, lookups; it keeps the observations and derives again after any change.
 * - model-observation.ts: per-document observation (`observe` and its scanners), the stored state.
 * - model-derivation.ts: the library-wide derivation from all observations (products, members,
 *   variants, identities, categories), with model-names.ts for how models are named and aliased.
 * - model-mentions.ts: models named in a text, against the derived keys and aliases.
 * - model-keys.ts: word sets and key rules both halves share; model-vocabulary.types.ts: the
 *   shapes, including the stored JSON schema.
 */

/** Texts up to this many characters (headings, tab labels) have their mentions cached. */
const SHORT_TEXT = 160;
const SHORT_CACHE_SIZE = 5000;

/** The learned vocabulary of one library; see the module comment for the rules. */
export class ModelVocabulary {
  private readonly docs = new Map<string, DocObservation>();
  private readonly vendors: string[];
  /** The vendor words given at creation (none by default), used while observing documents. */
  private readonly vendorKeys: Set<string>;
  /** Vendor words learned from the library's documents (`learnVendors` in model-derivation.ts), display form by key. */
  private learnedVendors = new Map<string, string>();
  private derived: Derived | null = null;

  private constructor(vendors: readonly string[]) {
    this.vendors = [...vendors];
    this.vendorKeys = new Set(this.vendors.map((v) => nameKey(v)).filter(Boolean));
  }

  /**
   * An empty vocabulary; `vendors` are words stripped from model names ("Radxa ROCK 5B") on top of
   * those it learns from the library itself.
   */
  static create(options: { vendors?: readonly string[] } = {}): ModelVocabulary {
    return new ModelVocabulary(options.vendors ?? []);
  }

  /** Learns from all documents at once (convenience for imports and tests). */
  static fromDocuments(docs: Iterable<NormalizedDocument | VocabularyDocInput>, options: { vendors?: readonly string[] } = {}): ModelVocabulary {
    const v = ModelVocabulary.create(options);
    for (const d of docs) v.addDocument(d);
    return v;
  }

  /** Restores a stored vocabulary; a damaged one is `corrupt`. */
  static fromJSON(json: unknown): Result<ModelVocabulary> {
    const parsed = vocabularyJsonSchema.safeParse(json);
    if (!parsed.success) return fail('corrupt', 'The stored model vocabulary is damaged and must be rebuilt.');
    const v = new ModelVocabulary(parsed.data.vendors);
    for (const o of parsed.data.docs) v.docs.set(o.id, storedObservation(o));
    return ok(v);
  }

  toJSON(): VocabularyJson {
    return { version: 1, vendors: [...this.vendors], docs: [...this.docs.values()] };
  }

  /** Adds or replaces a document's observations. */
  addDocument(doc: NormalizedDocument | VocabularyDocInput): void {
    const input = isInput(doc) ? doc : vocabularyInput(doc);
    this.docs.set(input.id, observe(input, this.vendorKeys));
    this.derived = null;
  }

  /** Forgets a document; returns whether it was known. */
  removeDocument(id: string): boolean {
    const had = this.docs.delete(id);
    if (had) this.derived = null;
    return had;
  }

  hasDocument(id: string): boolean {
    return this.docs.has(id);
  }

  get documentCount(): number {
    return this.docs.size;
  }

  /** All models, products first, in name order. */
  models(): ModelEntry[] {
    const kindOrder: Record<ModelKind, number> = { product: 0, member: 1, variant: 2 };
    return [...this.derive().entries.values()].sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind] || a.name.localeCompare(b.name));
  }

  /**
   * The vendor words this vocabulary strips: the same list (the same array) until a document is
   * added or removed, so callers can remember what they make of it (enrichment asks per chunk).
   */
  vendorWords(): readonly string[] {
    const d = this.derive();
    if (this.vendorWordsOf?.derived !== d) {
      this.vendorWordsOf = { derived: d, words: [...this.vendors, ...[...this.learnedVendors].filter(([k]) => !this.vendorKeys.has(k)).map(([, w]) => w)] };
    }
    return this.vendorWordsOf.words;
  }

  /** `vendorWords` of the derived state it was made for. */
  private vendorWordsOf: { derived: Derived; words: readonly string[] } | null = null;

  /**
   * `vendorWords` lower-cased, as token keys (`modelTokens(..).norm`) and term keys are: one set per
   * state of the vocabulary, so enrichment (per chunk) and chat (per question) never make their own.
   */
  vendorWordSet(): ReadonlySet<string> {
    const words = this.vendorWords();
    if (this.vendorWordSetOf?.words !== words) this.vendorWordSetOf = { words, set: new Set(words.map((w) => w.toLowerCase())) };
    return this.vendorWordSetOf.set;
  }

  /** `vendorWordSet` of the `vendorWords` array it was made from. */
  private vendorWordSetOf: { words: readonly string[]; set: ReadonlySet<string> } | null = null;

  /** Whether a token key is a vendor word, given or learned. */
  private readonly isVendorKey: IsVendorKey = (key) => this.vendorKeys.has(key) || this.learnedVendors.has(key);

  /**
   * What a document is about. Documents not added yet are judged from their own path, title and
   * text against the products already known.
   */
  identityOf(doc: string | NormalizedDocument | VocabularyDocInput): DocIdentity | null {
    const d = this.derive();
    if (typeof doc === 'string') return d.identities.get(doc) ?? null;
    const stored = d.identities.get(doc.id);
    if (stored && this.docs.has(doc.id)) return stored;
    const obs = observe(isInput(doc) ? doc : vocabularyInput(doc), this.vendorKeys);
    const hasFolder = folderProductOf(obs, d) !== null;
    const stemKey = obs.stemKey && d.productOfKey.has(obs.stemKey) && stemWins(obs, hasFolder) ? obs.stemKey : null;
    const known = identityFor(obs, d, stemKey, false, this.isVendorKey);
    if (known) return known;
    // A model the library does not know yet: the document's own file name or title names it.
    const category = bestCategory(obs.categories);
    const own = obs.stemKey && !hasFolder ? bestSurface(displayForms(new Map(Object.entries(obs.surfaces[obs.stemKey] ?? {}).map(([s, c]) => [s, weight(c)])))) : null;
    if (own) {
      const base = stripVendor(own, this.isVendorKey);
      const rev = obs.revisions[obs.stemKey!]?.[0] ?? obs.stemRevision;
      return { model: rev ? revisionName(base, rev) : base, base, source: 'file', category };
    }
    if (obs.titleModel && !hasFolder) {
      const base = stripVendor(obs.titleModel.surface, this.isVendorKey);
      const rev = obs.titleModel.revisions[0] ?? obs.stemRevision;
      return { model: rev ? revisionName(base, rev) : base, base, source: 'title', category };
    }
    return null;
  }

  /** The entry for a canonical name, key or unambiguous alias; null when unknown. */
  lookup(name: string): ModelEntry | null {
    const d = this.derive();
    const direct = d.entries.get(name);
    if (direct) return direct;
    const toks = modelTokens(name);
    const rev = toks.find((t) => t.kind === 'rev')?.norm ?? null;
    const words = toks.filter((t) => t.kind === 'word' && !this.isVendorKey(t.norm));
    const key = words.map((t) => t.norm).join('');
    const entry = resolveKey(key, d);
    if (!entry) return null;
    if (rev !== null) return d.variants.get(entry.name)?.get(rev) ?? entry;
    return entry;
  }

  /** The learned category of a model (or of its base / parent), or null. */
  categoryOf(model: string): string | null {
    const d = this.derive();
    let e = this.lookup(model);
    while (e) {
      const c = d.categories.get(e.name);
      if (c) return c;
      e = e.parent ? (d.entries.get(e.parent) ?? null) : null;
    }
    return null;
  }

  /** How two models relate: same, revisions of one base, member of the other, siblings, none. */
  relation(a: string, b: string): ModelRelation {
    const ea = this.lookup(a);
    const eb = this.lookup(b);
    if (!ea || !eb) {
      const ka = nameKey(a);
      const kb = nameKey(b);
      if (ka === kb) return 'same';
      return 'none';
    }
    if (ea.name === eb.name) return 'same';
    const baseA = ea.kind === 'variant' ? ea.parent! : ea.name;
    const baseB = eb.kind === 'variant' ? eb.parent! : eb.name;
    if (baseA === baseB) return 'revision';
    const parentA = this.derive().entries.get(baseA)?.parent ?? null;
    const parentB = this.derive().entries.get(baseB)?.parent ?? null;
    if (parentA === baseB || parentB === baseA) return 'member';
    if (parentA !== null && parentA === parentB) return 'sibling';
    return 'none';
  }

  /** The model, its base, the base's revisions and its parent product (for soft matching). */
  familyOf(model: string): string[] {
    const d = this.derive();
    const e = this.lookup(model);
    if (!e) return [];
    const base = e.kind === 'variant' ? e.parent! : e.name;
    const out = new Set<string>([e.name, base]);
    for (const v of d.variants.get(base)?.values() ?? []) out.add(v.name);
    const parent = d.entries.get(base)?.parent;
    if (parent) out.add(parent);
    return [...out];
  }

  /**
   * Every model named in `text`, longest name first, tolerant of case, spacing, hyphens,
   * "plus"/"+", vendor words and revision suffixes. "ROCK 5B/5B+" names two models.
   */
  findMentions(text: string): ModelMention[] {
    const d = this.derive();
    if (d.entries.size === 0) return [];
    if (text.length > SHORT_TEXT) return scanMentions(text, d, this.isVendorKey);
    let found = d.shortMentions.get(text);
    if (!found) {
      if (d.shortMentions.size >= SHORT_CACHE_SIZE) d.shortMentions.clear();
      found = scanMentions(text, d, this.isVendorKey);
      d.shortMentions.set(text, found);
    }
    // Copies, so a caller's change stays its own; Object.assign is several times faster than a
    // spread here (V8 in Node 20), and this runs for every heading and label of every chunk.
    return found.map((m) => Object.assign({}, m));
  }

  /** The derived models, rebuilt after a document was added or removed; vendor words are learned first. */
  private derive(): Derived {
    if (this.derived) return this.derived;
    this.learnedVendors = learnVendors(this.docs);
    this.derived = deriveVocabulary(this.docs, this.isVendorKey);
    return this.derived;
  }
}
