import type { ModelVocabulary } from '../enrich/model-vocabulary';
import { modelTokens } from '../enrich/text.util';
import { escapeRe } from '../core/text';
import type { QueryAnalysis } from '../search/query-analysis';
import type { UnknownModel } from './model-guard';
import { findUnknownModels } from './model-guard';
import type { ChatIndex } from './retrieve';
import { chunksAbout, undocumentedMentions } from './undocumented-models';

/**
 * The question plan: which models a question is about, read before any search. Library models it
 * names, models kept from the conversation when it names none, names the library has no manual
 * for (taken back when the library's own text mentions them), and library models read only
 * inside such a name. `retrieve` (retrieve.ts) then searches for the plan's models.
 */

/** The models a question is about. */
export interface QuestionPlan {
  /** Library models the question names. */
  named: string[];
  /** Models kept from the conversation because the question names none. */
  inherited: string[];
  /** Model-number-like names the library has no manual for. */
  unknown: UnknownModel[];
  /**
   * Product codes of a question naming no model that no manual mentions ("TPS7A47"): said before
   * the answer, which still comes, since such a code may be the asked product's own number that
   * its manual never prints (a phone's "SM-G973U").
   */
  unmentioned: UnknownModel[];
  /**
   * Library models read only inside a longer name the library lacks (`UnknownModel.family`: "XIAO
   * ESP32-C9" reads the XIAO ESP32-C3 and -S3, "Foo X2 Lite" the Foo X2), by that name, in the
   * question's order: left out of `named` while the name is unknown, named again when
   * `confirmUnknown` takes the name back.
   */
  held: { family: UnknownModel; models: string[] }[];
  /** Every library model the question's mentions read, in its order (`named` and `held` together). */
  read: string[];
}

/**
 * Reads the models of a question from its one analysis; `previousModels` are the conversation's
 * last resolved models (none when the user picked a chip: the chip's model is the user's choice,
 * and a code its manual never prints may be its own number). `index` gives the library's words,
 * which tell a word going on with a model's name from the question's (`undocumentedMentions`).
 */
export function planQuestion(question: string, analysis: QueryAnalysis, vocabulary: ModelVocabulary, previousModels: readonly string[], index: Pick<ChatIndex, 'libraryWords'> = {}): QuestionPlan {
  const named = analysis.models;
  // With a model remembered any product code the library does not know is the product asked
  // about (a switch); naming no model of the library, one with three digits may be (see
  // `CodeMode`). `confirmUnknown` takes back those the library mentions.
  const mode = previousModels.length > 0 ? 'any' : named.length === 0 ? 'product' : 'library';
  const found = findUnknownModels(question, vocabulary, analysis.mentions, mode);
  const taken = mode === 'product' ? found.filter((u) => u.kind === 'sibling') : found;
  // A name read as written is read once: a member's ending after a mention is one already.
  const undocumented = undocumentedMentions(question, analysis, vocabulary, index).filter((u) => u.family !== true || !taken.some((t) => t.start < u.end && t.end > u.start));
  const unknown = [...taken, ...undocumented].sort((a, b) => a.start - b.start);
  const unmentioned = mode === 'product' ? found.filter((u) => u.kind === 'code') : [];
  // The members a family name reads are not asked about when the whole name is one the library
  // lacks ("XIAO ESP32-C9" reads the XIAO ESP32-C3 and -S3); another mention still names them.
  const families = unknown.filter((u) => u.family === true);
  const within = (m: QueryAnalysis['mentions'][number], u: UnknownModel): boolean => m.start >= u.start && m.end <= u.end;
  const asked = named.filter((n) => analysis.mentions.some((m) => m.model === n && !families.some((u) => within(m, u))));
  const held = families.map((family) => ({ family, models: named.filter((n) => !asked.includes(n) && analysis.mentions.some((m) => m.model === n && within(m, family))) }));
  return withModels({ read: [...named], unknown, unmentioned, held }, previousModels);
}

/**
 * The plan's `named` and `inherited` from its other fields: every model read is named but those
 * `held` only by family names still unknown. Naming an unknown model is a switch too: never
 * answer it from the previous model's manual.
 */
function withModels(plan: Omit<QuestionPlan, 'named' | 'inherited'>, previousModels: readonly string[]): QuestionPlan {
  const taken = new Set(plan.held.filter((h) => !plan.unknown.includes(h.family)).flatMap((h) => h.models));
  const held = new Set(plan.held.flatMap((h) => h.models).filter((m) => !taken.has(m)));
  const named = plan.read.filter((n) => !held.has(n));
  const inherited = named.length === 0 && plan.unknown.length === 0 ? [...previousModels] : [];
  return { ...plan, named, inherited };
}

/**
 * The question with each unknown name that extends a library model written as that model, when
 * the question's mention read a shorter one ("How do I charge the M5StickC Plus2?" -> "... the
 * M5StickC+?": its mention reads the M5StickC, though the M5StickC+ is the model the name extends
 * and the library's closest), and each model no manual is about written as the one documented
 * model its name begins (`fuller`: "S20+" -> "Galaxy S20+ 5G"). The answer is then for that
 * model, and says so; null when every such name already reads as that model.
 */
export function readAsExtended(question: string, analysis: QueryAnalysis, unknown: readonly UnknownModel[]): string | null {
  let text = question;
  let changed = false;
  for (const u of [...unknown].sort((a, b) => b.start - a.start)) {
    const model = u.extends ?? u.fuller?.documented;
    if (model === undefined) continue;
    const read = analysis.mentions.filter((m) => m.start >= u.start && m.end <= u.end).map((m) => m.model);
    if (read.length === 0 || read.every((m) => m === model)) continue;
    text = `${text.slice(0, u.start)}${model}${text.slice(u.end)}`;
    changed = true;
  }
  return changed ? text : null;
}

/** Hits read to decide whether the library's text mentions a name the vocabulary does not know. */
const MENTION_PROBE_HITS = 5;
/** A code this long with letters and digits ("CH32H417MEU") names one part wherever it occurs. */
const SELF_NAMING_CODE = 5;

/**
 * Whether `text` mentions `name`: the whole name (any separators), or (unless `whole`) one long
 * letter+digit code of it.
 */
export function mentions(text: string, name: string, whole = false): boolean {
  const toks = modelTokens(name).map((t) => t.raw);
  if (toks.length === 0) return false;
  const edge = (body: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu');
  if (edge(toks.map(escapeRe).join('[\\s_\\-/.]*')).test(text)) return true;
  return !whole && toks.some((t) => t.length >= SELF_NAMING_CODE && /\p{L}/u.test(t) && /\p{N}/u.test(t) && edge(escapeRe(t)).test(text));
}

/**
 * The plan, with "unknown" names the library's own text mentions taken back: a part number or
 * chip the manuals talk about ("the QFN88 package (CH32H417MEU)") is asked about inside a manual
 * the library has, not a missing manual. Learned from the library at each question, so no list
 * of chip families is needed.
 */
export async function confirmUnknown(index: ChatIndex, plan: QuestionPlan, previousModels: readonly string[]): Promise<QuestionPlan> {
  if (plan.unknown.length === 0 && plan.unmentioned.length === 0) return plan;
  const unsaid = async (names: readonly UnknownModel[]): Promise<UnknownModel[]> => {
    const out: UnknownModel[] = [];
    for (const u of names) {
      const mentioned = u.fuller?.mentioned ?? u.ambiguous?.mentioned;
      if (mentioned !== undefined) {
        if (!(await chunksAbout(index, mentioned))) out.push(u);
        continue;
      }
      // A known model's name with an ending is mentioned only written whole: "M5StickC" is not
      // "M5StickC Plus 2", nor the word "m5stickc" "M5StickC Lite".
      const whole = u.extends !== undefined || u.family === true;
      if (!whole && index.libraryWords && spelledInWords(u.key, index.libraryWords())) continue;
      const found = await index.search(u.text, { topK: MENTION_PROBE_HITS, retriever: 'bm25' });
      const said = found.ok && found.value.results.some((h) => mentions(`${h.title}\n${h.text}`, u.text, whole));
      if (!said) out.push(u);
    }
    return out;
  };
  const unknown = await unsaid(plan.unknown);
  const unmentioned = await unsaid(plan.unmentioned);
  // A family name taken back names its members again ("How do I flash the XIAO ESP32-C9?" where a
  // manual says the C9 is not supported: answered for the C3 and S3, never the previous model).
  return withModels({ read: plan.read, held: plan.held, unknown, unmentioned }, previousModels);
}

/** Fewest letters and digits a code and a library word share for one to be the other's spelling. */
const SPELLING_CHARS = 5;

/**
 * Whether a library word, read as its letters and digits, is `key` with more after it or the
 * start of it ("ili9342c" for "ili9342", "esp32-s3r8" for "esp32s3r8", "samd21g18" for
 * "samd21g18a"), or names its series with x's for the last characters ("cp210x" for "cp2102",
 * "lm78xx" for "lm7805"): the full-text index keeps each such code as one word, so a search for
 * the other spelling finds nothing, and a part-number suffix (a package, a revision) is still the
 * part the manuals talk about.
 */
export function spelledInWords(key: string, words: Iterable<string>): boolean {
  if (key.length < SPELLING_CHARS) return false;
  for (const word of words) {
    if (!/\p{N}/u.test(word)) continue;
    const w = word.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
    if (w.length < SPELLING_CHARS) continue;
    if (w.startsWith(key)) return true;
    // A word the code starts with names it when the rest adds no number of its own (rk3588 for
    // "RK3588S", lm317 for "LM317HV") or the word is a part number itself (samd21g18 for
    // "SAMD21G18A"); a family word does not ("esp32" for "ESP32C6", "nrf52" for "NRF52832").
    if (key.startsWith(w) && (!/\p{N}/u.test(key.slice(w.length)) || (w.match(/\p{N}/gu) ?? []).length >= 3)) return true;
    const series = /(?<=\p{N})x+$/u.exec(w);
    if (series && key.length >= w.length && key.startsWith(w.slice(0, series.index))) return true;
  }
  return false;
}
