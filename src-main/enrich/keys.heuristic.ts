import type { KeyFields } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import { boundedMemo } from '../core/memo';
import type { ChunkView } from './chunk-view';
import type { DocumentFacts } from './cnm.heuristic';
import { boostCounts, topCounted } from './term-stats';
import { modelTokens } from './text.util';

/**
 * MDKeyChunker fields without a model: title from the heading path, keywords by TF-IDF against
 * the library, entities from model/part/unit patterns, and the key from the normalized heading
 * path below the document title. Summary and questions stay empty rather than invented.
 */

export interface KeysHeuristicOptions {
  /** Keywords per chunk, 1..20. */
  maxKeywords?: number;
  /** Entities per chunk, 1..50. */
  maxEntities?: number;
}

export interface KeysHeuristic {
  readonly name: 'keys-heuristic';
  readonly options: Readonly<Required<KeysHeuristicOptions>>;
  extract(view: ChunkView, facts: DocumentFacts): KeyFields;
}

/**
 * Entity patterns, most specific first: ratings ("5V/3A", "12 V", "2.5 GHz"), interfaces
 * ("USB 3.0", "PCIe 3.0 x4", "M.2 M Key"), pins ("GPIO3_A4"), part numbers ("RK3588",
 * "ESP32-S3-WROOM-1", "WS2812B"). Hand-written: no offline library knows hardware vocabulary.
 */
const ENTITY_PATTERNS: readonly RegExp[] = [
  /\b\d+(?:\.\d+)?\s?(?:V|A|W|mA|mAh)(?:\s?\/\s?\d+(?:\.\d+)?\s?(?:V|A|W|mA))+(?![\w/])/g,
  /\b\d+(?:\.\d+)?\s?(?:V|A|W|mA|mAh|kHz|MHz|GHz|KB|MB|GB|TB|Mbps|Gbps|TOPS)\b/g,
  /\b(?:USB\s?(?:\d(?:\.\d)?(?:\s?Gen\s?\d)?|Type-C|Type-A)|PCIe\s?\d(?:\.\d)?(?:\s?x\d+)?|M\.2(?:\s[A-E](?:\+[A-E])?\sKey)?|HDMI\s?\d(?:\.\d)?|(?:LP)?DDR\d\w?|Wi-?Fi\s?\d\w?|Bluetooth\s?\d(?:\.\d)?|MIPI\s(?:CSI|DSI))\b/gi,
  /\bGPIO\d+(?:_[A-D]\d)?\b/g,
  /\b[A-Z]{2,}\d{3,}[A-Z0-9]*(?:-[A-Z0-9]+)*\b/g,
  /\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b/g,
];

/** Hyphenated upper-case names count only with a digit and some length ("SM-G973U", not "USB-C"). */
function entityOk(value: string): boolean {
  return !/^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/.test(value) || (/\d/.test(value) && value.length >= 6);
}

function slug(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** Levels of the heading path that are the document title (a single H1 at the top), 0 or 1. */
const titleDepths = new WeakMap<NormalizedDocument, number>();
export function titleDepth(doc: NormalizedDocument): number {
  let d = titleDepths.get(doc);
  if (d === undefined) {
    const h1 = doc.blocks.filter((b) => b.kind === 'heading' && b.level === 1);
    d = h1.length === 1 && h1[0]!.headingPath.length === 1 ? 1 : 0;
    titleDepths.set(doc, d);
  }
  return d;
}

/**
 * Slugs of heading texts seen recently: every chunk of a section slugs the same path twice (its
 * key and its parent's), and the Unicode normalization and pattern of `slug` were a tenth of
 * preparing radxa + esp. Bounded; dropped wholesale when full.
 */
const cachedSlug = boundedMemo(5000, slug);

/** The semantic key of a heading path: its levels below the document title, slugged, joined by "/". */
export function headingKey(path: readonly string[], skip: number): string | null {
  const parts = path.slice(skip).map(cachedSlug).filter(Boolean);
  return parts.length > 0 ? parts.join('/') : null;
}

/** Pattern-based entities of a text (model names first), distinct, in order of appearance. */
export function extractEntities(text: string, models: readonly string[], max: number, found: readonly string[] = patternEntities(text)): string[] {
  const out: string[] = [];
  for (const v of [...models, ...found]) {
    if (!out.some((o) => o.toLowerCase() === v.toLowerCase())) out.push(v);
    if (out.length >= max) break;
  }
  return out;
}

/**
 * The entities `ENTITY_PATTERNS` find in a text, in order of appearance (repeats kept). It reads
 * no vocabulary, so an import finds them while it waits for the next parse (`ChunkText.entities`).
 */
export function patternEntities(text: string): string[] {
  const found: { at: number; value: string }[] = [];
  // Characters already inside a taken match (no pattern matches empty text). A list of taken
  // spans checked at every match grew with the square of the matches: 7-17 s for one chunk of
  // a parts table with tens of thousands of codes.
  const taken = new Uint8Array(text.length);
  const free = (start: number, end: number): boolean => {
    for (let i = start; i < end; i++) if (taken[i]) return false;
    return true;
  };
  for (const re of ENTITY_PATTERNS) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (!free(start, end) || !entityOk(m[0])) continue;
      taken.fill(1, start, end);
      found.push({ at: start, value: m[0].replace(/\s+/g, ' ') });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.value);
}

/** The token keys of a model name (`modelTokens`), remembered: a document's chunks name the same few models. */
const tokenKeys = boundedMemo(5000, (name) => modelTokens(name).map((t) => t.norm));

/** Creates the heuristic keys stage; defaults: 6 keywords, 12 entities. */
export function createKeysHeuristic(options: KeysHeuristicOptions = {}): KeysHeuristic {
  const maxKeywords = options.maxKeywords ?? 6;
  const maxEntities = options.maxEntities ?? 12;
  if (!Number.isInteger(maxKeywords) || maxKeywords < 1 || maxKeywords > 20) throw new RangeError('maxKeywords must be an integer in 1..20');
  if (!Number.isInteger(maxEntities) || maxEntities < 1 || maxEntities > 50) throw new RangeError('maxEntities must be an integer in 1..50');
  return {
    name: 'keys-heuristic',
    options: { maxKeywords, maxEntities },
    extract(view, facts) {
      const path = view.chunk.headingPath;
      const skip = titleDepth(facts.doc);
      const title = view.headings[0]?.text ?? path[path.length - 1] ?? facts.doc.title ?? null;
      const vendors = facts.vocabulary.vendorWordSet();
      const named = new Set<string>();
      const models = [...new Set([...view.localMentions, ...view.bodyMentions].map((m) => m.model))];
      for (const m of [...models, facts.identity?.base ?? '']) for (const norm of tokenKeys(m)) named.add(norm);
      const exclude = { has: (term: string) => vendors.has(term) || named.has(term) };
      const key = headingKey(path, skip);
      const parent = path.length - skip >= 2 ? headingKey(path.slice(0, -1), skip) : null;
      return {
        title: title || null,
        summary: null,
        keywords: topCounted(boostCounts(title ?? ''), view.termCounts, facts.terms, maxKeywords, exclude),
        entities: extractEntities(view.plain, models, maxEntities, view.entities),
        questions: [],
        key,
        relatedKeys: parent ? [parent] : [],
      };
    },
  };
}
