import { z } from 'zod';
import { isObject, isRecordOf } from './stored-checks';

/**
 * The model vocabulary's shapes (model-vocabulary.ts says what it learns and how its files fit):
 * what callers get (entries, identities, mentions), what it reads from a document, what it stores
 * per document (the observation and its JSON schema) and what it derives from all of them.
 */

export type ModelKind = 'product' | 'member' | 'variant';

/** One model of the vocabulary. */
export interface ModelEntry {
  /** Canonical name ("ROCK 5B+", "ESP32-S3-DevKitC-1 v1.1"). */
  name: string;
  /** Normalized key of the base name; variants add `@<revision>`. */
  key: string;
  kind: ModelKind;
  /** Base product of a variant, parent product of a member, null for a product. */
  parent: string | null;
  /** Revision number of a variant ("1.1"), else null. */
  revision: string | null;
  /** Documents whose identity is this model (variants and their base both count). */
  docCount: number;
}

/** Where a document's identity came from. */
export type IdentitySource = 'folder' | 'file' | 'title';

/** What a document is about, as far as the vocabulary can tell. */
export interface DocIdentity {
  /** Canonical model name (a variant when the document carries a revision). */
  model: string;
  /** The product the model belongs to (the model itself for products). */
  base: string;
  source: IdentitySource;
  /** Category learned from the document and its model's other documents, or null. */
  category: string | null;
}

/** A model named in a text. */
export interface ModelMention {
  /** The text as written. */
  text: string;
  start: number;
  end: number;
  /** Canonical model name (variant when a known revision follows). */
  model: string;
  /** 0..1: lower for short aliases written in lowercase ("x4" may be a PCIe lane count). */
  confidence: number;
  /** Revision written after the name, known or not. */
  revision: string | null;
  /**
   * True when the words name one member of a family the vocabulary knows by a pattern ("LM7812A"
   * for the "LM78XX" datasheet): they say more than the model they resolve to.
   */
  byPattern?: boolean;
}

export type ModelRelation = 'same' | 'revision' | 'member' | 'sibling' | 'none';

/** What the vocabulary needs from a document. */
export interface VocabularyDocInput {
  id: string;
  title: string;
  text: string;
  metadata?: Record<string, string>;
  headings?: string[];
  /** H1 heading texts. */
  h1Headings?: string[];
  /** H2 heading texts. */
  h2Headings?: string[];
  /** Lines the parser found outside the body text (metadata title/subject, running headers), read like the title. */
  facts?: string[];
  /** `plainText(text)`, when the caller already computed it (it is the costly part of learning). */
  plain?: string;
}

export type Counts = [number, number, number];

/** Per-document observations: the only stored state (everything else is derived). */
export interface DocObservation {
  id: string;
  dirs: string[];
  stemKey: string | null;
  stemRevision: string | null;
  /** key -> surface -> counts by where. Keys: folder keys, the stem key, and their extensions. */
  surfaces: Record<string, Record<string, Counts>>;
  /** key -> capitalized word written right before it -> count (series words like "Cubie"). */
  prev: Record<string, Record<string, number>>;
  /** key -> revisions written after it in the title or front matter. */
  revisions: Record<string, string[]>;
  /** Key of the extended surface -> the folder/stem key it extends. */
  extensions: Record<string, string>;
  /** Stripped title key, for folders whose names have no digits. */
  titleKey: string;
  titleModel: { surface: string; revisions: string[] } | null;
  /** Models that H1/H2 headings consist of ("# RAC-228B Service Manual" in a stitched manual). */
  headingModels: string[];
  categories: Record<string, number>;
}

const isString = (v: unknown): v is string => typeof v === 'string';
/** As `z.number()`: a finite number. */
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isCounts = (v: unknown): v is Counts => Array.isArray(v) && v.length === 3 && v.every(isNumber);

const isCountsRecord = (v: unknown): v is Record<string, Counts> => isRecordOf(v, isCounts);
const isNumberRecord = (v: unknown): v is Record<string, number> => isRecordOf(v, isNumber);

/**
 * Whether a stored value is a `DocObservation`. Checked by hand, under the rules of the zod object
 * schema it replaces (strings, finite numbers, three counts, null only where the type allows;
 * tests/enrich/stored-observation.test.ts holds that schema and compares them): zod builds a copy
 * of every object and record entry it checks, and a library stores an observation of each
 * document, each a few small records. Restoring 14,520 of them was the largest step of opening
 * a library of that size (132-175 ms; tests/bench/RESULTS.md, session 19).
 */
export function isObservation(v: unknown): v is DocObservation {
  if (!isObject(v)) return false;
  const t = v['titleModel'];
  return (
    isString(v['id']) &&
    isStrings(v['dirs']) &&
    (v['stemKey'] === null || isString(v['stemKey'])) &&
    (v['stemRevision'] === null || isString(v['stemRevision'])) &&
    isRecordOf(v['surfaces'], isCountsRecord) &&
    isRecordOf(v['prev'], isNumberRecord) &&
    isRecordOf(v['revisions'], isStrings) &&
    isRecordOf(v['extensions'], isString) &&
    isString(v['titleKey']) &&
    (t === null || (isObject(t) && isString(t['surface']) && isStrings(t['revisions']))) &&
    isStrings(v['headingModels']) &&
    isNumberRecord(v['categories'])
  );
}

/** A checked observation with its own fields only, as the zod schema returned it (other keys dropped). */
export function storedObservation(o: DocObservation): DocObservation {
  return {
    id: o.id,
    dirs: o.dirs,
    stemKey: o.stemKey,
    stemRevision: o.stemRevision,
    surfaces: o.surfaces,
    prev: o.prev,
    revisions: o.revisions,
    extensions: o.extensions,
    titleKey: o.titleKey,
    titleModel: o.titleModel && { surface: o.titleModel.surface, revisions: o.titleModel.revisions },
    headingModels: o.headingModels,
    categories: o.categories,
  };
}

export const vocabularyJsonSchema = z.object({
  version: z.literal(1),
  vendors: z.array(z.string()),
  docs: z.array(z.custom<DocObservation>(isObservation)),
});

/** The stored form of a vocabulary. */
export type VocabularyJson = z.infer<typeof vocabularyJsonSchema>;

/** What the vocabulary derives from all observations (model-derivation.ts); dropped when a document is added or removed. */
export interface Derived {
  entries: Map<string, ModelEntry>;
  byKey: Map<string, ModelEntry>;
  aliases: Map<string, Set<string>>;
  variants: Map<string, Map<string, ModelEntry>>;
  identities: Map<string, DocIdentity>;
  categories: Map<string, string | null>;
  /** Folder path -> product name, for identities of documents not yet added. */
  folderProducts: Map<string, string>;
  /** Folder or file key -> product name. */
  productOfKey: Map<string, string>;
  /** Product name -> its keys in `productOfKey`, in that map's order (made once it is complete). */
  keysOfProduct: Map<string, string[]>;
  /**
   * Every prefix of every key and alias: a window whose key is not in here can neither resolve
   * nor grow into a key that does, so mention matching stops extending it (most tokens stop at one).
   */
  keyPrefixes: Set<string>;
  /** Each product's name words without vendor words (for families and nesting), built on first use. */
  productWords?: Map<ModelEntry, string[]>;
  /** Mentions in short texts (headings repeat in every chunk of their section). */
  shortMentions: Map<string, ModelMention[]>;
  /** Family patterns of names with placeholder digits ("LM78XX", "CH32V30x"), see `familyPattern`. */
  patterns: { pattern: RegExp; name: string }[];
}

/** Whether a token key is a vendor word, given or learned (the vocabulary's vendor words at the time). */
export type IsVendorKey = (key: string) => boolean;
