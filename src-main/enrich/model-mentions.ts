import { boundedMemo } from '../core/memo';
import { MAX_WINDOW, revisionsAfter } from './model-keys';
import { resolveKey } from './model-derivation';
import { productWords } from './model-names';
import type { Derived, IsVendorKey, ModelEntry, ModelMention } from './model-vocabulary.types';
import type { ModelToken } from './text.util';
import { isCodeToken, isUnitLike, joinable, modelTokens } from './text.util';

/**
 * Finding the vocabulary's models in a text (for `ModelVocabulary.findMentions`, which caches short
 * texts): windows of tokens matched against the derived keys and aliases (model-derivation.ts),
 * longest first, with slash chains ("ROCK 5B/5B+"), revisions, families ("UNO R4") and placeholder
 * patterns ("LM78XX").
 */

/** Confidence of each member of a family a text names ("UNO R4" for "UNO R4 Minima" and "UNO R4 WiFi"); an outright name wins over it. */
const FAMILY_CONFIDENCE = 0.7;

/** Every model named in `text` (see `ModelVocabulary.findMentions`). */
export function scanMentions(text: string, d: Derived, isVendorKey: IsVendorKey): ModelMention[] {
  const toks = modelTokens(text);
  const out: ModelMention[] = [];
  const families: ModelMention[] = [];
  let i = 0;
  while (i < toks.length) {
    const first = toks[i]!;
    // Most words begin no name: `matchAt` and `familyAt` would both stop at this same test, after
    // allocating their windows (a third of the import's allocation was this scan's).
    if (first.kind !== 'word' || !d.keyPrefixes.has(first.norm)) {
      const member = patternMention(first, d);
      if (member) out.push(member);
      i++;
      continue;
    }
    const m = matchAt(text, toks, i, d, [], isVendorKey);
    if (!m) {
      // Names may start inside a family's words ("Seeed XIAO nRF52840" holds "XIAO nRF52840"),
      // so the scan goes on at the next word.
      families.push(...(familyAt(text, toks, i, d, isVendorKey) ?? []));
      const member = patternMention(toks[i]!, d);
      if (member) out.push(member);
      i++;
      continue;
    }
    out.push(m.mention);
    let end = m.end;
    // "ROCK 5B/5B+", "ZERO 3W/3E", "v4/v4.1": names after a slash reuse the series words before.
    while (end + 1 < toks.length && /^\s*\/\s*$/.test(text.slice(toks[end]!.end, toks[end + 1]!.start))) {
      const next = toks[end + 1]!;
      if (next.kind === 'rev') {
        const v = d.variants.get(m.base)?.get(next.norm);
        out.push({ text: next.raw, start: next.start, end: next.end, model: v?.name ?? m.base, confidence: v ? m.mention.confidence : 0.5, revision: next.norm });
        end++;
        continue;
      }
      const chained = matchAt(text, toks, end + 1, d, m.prefix, isVendorKey);
      if (!chained) break;
      out.push(chained.mention);
      end = chained.end;
    }
    i = end + 1;
  }
  if (families.length === 0) return out;
  // A weaker mention inside a family's words is a piece of it ("R4" of "UNO R4"), not a name of
  // its own; the family stands in for a name only when the text names no model outright ("the
  // ESP-Prog-2's own ESP32-S3" is about the ESP-Prog-2, not every ESP32-S3 board).
  const named = out.filter((m) => m.confidence >= FAMILY_CONFIDENCE || !families.some((f) => m.start >= f.start && m.end <= f.end));
  if (named.some((m) => m.confidence >= FAMILY_CONFIDENCE)) return named;
  return [...named, ...families].sort((a, b) => a.start - b.start);
}

/**
 * Two or more words that begin the names of several products and end no name ("UNO R4" before
 * "UNO R4 Minima" and "UNO R4 WiFi"): the question names that family, so each member is a
 * mention, and the words inside it are not read again on their own ("R4" alone is another
 * product's short name). Needs a letter+digit code in the words, like an alias.
 */
function familyAt(text: string, toks: readonly ModelToken[], i: number, d: Derived, isVendorKey: IsVendorKey): ModelMention[] | null {
  const words: string[] = [];
  let best: { words: string[]; end: number } | null = null;
  for (let j = i; j < toks.length && j < i + MAX_WINDOW; j++) {
    const t = toks[j]!;
    if (t.kind !== 'word') break;
    if (j > i && !joinable(text.slice(toks[j - 1]!.end, t.start))) break;
    words.push(t.norm);
    if (!d.keyPrefixes.has(words.join(''))) break;
    // The family's last word is its code ("UNO R4"): "ESP32-S3 USB" is a chip and a word.
    if (j > i && /\p{L}/u.test(words.join('')) && /\d/.test(t.norm)) best = { words: [...words], end: j };
  }
  if (!best) return null;
  const family = best.words;
  // Members continue the family at a word boundary ("ESP32-S31-Korvo" is not of "ESP32-S3").
  const members = [...productWords(d, isVendorKey)]
    .filter(([, name]) => name.length > family.length && family.every((w, k) => name[k] === w))
    .map(([e]) => e);
  if (members.length === 0) return null;
  const start = toks[i]!.start;
  const end = toks[best.end]!.end;
  return members.map((e) => ({ text: text.slice(start, end), start, end, model: e.name, confidence: FAMILY_CONFIDENCE, revision: null }));
}

/** A code the vocabulary does not know that fits exactly one family pattern ("LM7812A" -> "LM78XX"). */
function patternMention(tok: ModelToken, d: Derived): ModelMention | null {
  if (d.patterns.length === 0 || tok.kind !== 'word' || !isCodeToken(tok.norm)) return null;
  let known = patternModels.get(d);
  if (!known) patternModels.set(d, (known = new Map()));
  let model = known.get(tok.norm);
  if (model === undefined) {
    const names = isUnitLike(tok.norm) ? new Set<string>() : new Set(d.patterns.filter((p) => p.pattern.test(tok.norm)).map((p) => p.name));
    model = names.size === 1 ? [...names][0]! : null;
    if (known.size >= PATTERN_CACHE) known.clear();
    known.set(tok.norm, model);
  }
  if (model === null) return null;
  return { text: tok.raw, start: tok.start, end: tok.end, model, confidence: 0.9, revision: null, byPattern: true };
}

/**
 * The model each code fits by pattern (null: none or several), by derived vocabulary: the same
 * codes ("gpio3", "esp32") recur in every chunk, and each was tested against every pattern again.
 * Bounded; dropped wholesale when full.
 */
const patternModels = new WeakMap<Derived, Map<string, string | null>>();
const PATTERN_CACHE = 20_000;

function matchAt(
  text: string,
  toks: readonly ModelToken[],
  i: number,
  d: Derived,
  prefix: readonly string[],
  isVendorKey: IsVendorKey,
): { mention: ModelMention; end: number; base: string; prefix: string[] } | null {
  const first = toks[i]!;
  if (first.kind !== 'word') return null;
  const keys: string[] = [];
  let key = prefix.join('');
  for (let j = i; j < toks.length && j < i + MAX_WINDOW; j++) {
    const t = toks[j]!;
    if (t.kind !== 'word') break;
    if (j > i && !joinable(text.slice(toks[j - 1]!.end, t.start))) break;
    key += t.norm;
    if (!d.keyPrefixes.has(key)) break;
    keys.push(key);
  }
  for (let L = keys.length; L >= 1; L--) {
    const entry = resolveKey(keys[L - 1]!, d);
    if (!entry) continue;
    const endTok = toks[i + L - 1]!;
    const surface = text.slice(first.start, endTok.end);
    const confidence = mentionConfidence(entry, surface, keys[L - 1]!, toks, i, text, prefix.length > 0, isVendorKey);
    if (confidence <= 0) continue;
    let model = entry.name;
    let end = i + L - 1;
    let revision: string | null = null;
    let conf = confidence;
    let mentionEnd = endTok.end;
    const revs = revisionsAfter(text, toks, end);
    if (revs.length > 0) {
      revision = revs[0]!;
      const v = d.variants.get(entry.name)?.get(revision);
      if (v) model = v.name;
      else conf = Math.max(0.1, conf - 0.1);
      // Skip the filler word and the first revision; later ones are handled as a slash chain.
      while (end + 1 < toks.length && toks[end + 1]!.kind !== 'rev') end++;
      end++;
      mentionEnd = toks[end]!.end;
    }
    const windowToks = toks.slice(i, i + L).map((t) => t.norm);
    const seriesPrefix = [...prefix, ...windowToks.slice(0, -1)];
    return {
      mention: { text: text.slice(first.start, mentionEnd), start: first.start, end: mentionEnd, model, confidence: conf, revision },
      end,
      base: entry.name,
      prefix: seriesPrefix,
    };
  }
  return null;
}

/** A name or surface without spaces, hyphens, underscores and brand marks; remembered, as the same few names recur in every chunk. */
const flat = boundedMemo(5000, (s) => s.replace(/[\s\-_®™]+/g, ''));

function mentionConfidence(entry: ModelEntry, surface: string, key: string, toks: readonly ModelToken[], i: number, text: string, chained: boolean, isVendorKey: IsVendorKey): number {
  const prevTok = toks[i - 1];
  const afterVendor = !!prevTok && prevTok.kind === 'word' && isVendorKey(prevTok.norm) && joinable(text.slice(prevTok.end, toks[i]!.start));
  const canonicalCase = flat(entry.name).endsWith(flat(surface));
  if (!/\d/.test(key)) {
    // Digit-free names ("ZERO", "AirBox") are ordinary words unless written the way the product is.
    if (key.length < 3) return 0;
    if (canonicalCase || afterVendor) return 0.8;
    if (key.length >= 6 || /[-_]/.test(surface)) return 0.5;
    return 0;
  }
  if (chained || afterVendor || key.length >= 4) return 1;
  // A two-character alias ("S0" for ROCK Pi S0, "O6" for Orion O6) is also a pin or part name.
  if (key !== entry.key && key.length <= 2) return 0.6;
  // Short codes also name other things: "PCIe 3.0 x4" is a lane count, not the Radxa X4.
  const before = toks
    .slice(Math.max(0, i - 3), i)
    .map((t) => t.norm)
    .join(' ');
  if (/\b(?:pcie|lanes?|gen\d?)\b/.test(before)) return 0.2;
  if (canonicalCase) return 0.8;
  return key.length <= 2 ? 0.4 : 0.6;
}
