import { escapeRe } from '../core/text';
import { STEP_LINE } from './question-kind';
import cues from './data/question-cues.json';
import lineCues from './data/line-cues.json';
import type { Sentence } from './sentences';
import { stem, terms } from './sentences';

/**
 * Forms of a quoted line the extractive answer reads (`extractive.answerer.ts`): its label, the
 * setting a line of code sets, whether it gives an instruction, and whether it is a label in bold,
 * a run of names, a title item or a lead that only labels its list.
 */

/** The label of a "Label: value" line (a row read with its header, a spec item), or null. */
export function labelOf(text: string): string | null {
  // ": " or a full-width "：" (manuals written in CJK locales use it with no space).
  const m = /^(.{1,60}?)(?:: |：\s*)\S/u.exec(text);
  if (!m) return null;
  const label = m[1]!.replace(/[*_]/g, '').trim();
  return label !== '' && label.split(/\s+/).length <= 6 ? label : null;
}

/**
 * The key of a configuration line in code, a key set to one literal value ("board = kb-40-mini",
 * "upload_speed: 921600", "CONFIG_SPIRAM=y"), or null: the setting a question about it names ("the
 * toolkit's board name"). A statement ("value = read_sensor(A0);") sets no setting.
 */
export function settingKey(sentence: Sentence): string | null {
  if (sentence.kind !== 'code') return null;
  const m = /^`?\s*([A-Za-z_][\w.-]{0,40}?)\s*[=:]\s*(?:"[^"]*"|[^\s=:();"`]+)\s*`?$/.exec(sentence.text);
  return m ? m[1]! : null;
}

/**
 * Whether a line gives an instruction (`STEP_LINE`). A "Label: description" line whose label opens
 * with a step verb ("Install from device storage: Install a new certificate from storage.", "Use
 * Wi-Fi Direct: ...") names a menu option and says what it does; it instructs no more than the
 * option list it belongs to, and led "how can I see what certificates are installed?" with that
 * option. No count of the answer bench moved (galaxy-s10 s10-561 now opens with "View security
 * certificates: Display certificates ...", its gold is still the line after).
 */
export function isInstruction(sentence: Sentence): boolean {
  if (!STEP_LINE.test(sentence.text)) return false;
  const label = sentence.label ?? labelOf(sentence.text);
  return !(label && STEP_LINE.test(label));
}

/** A line that is all emphasis ("**Power switch operation**"): a label set in bold, not a sentence. */
export const BOLD_LINE = /^(?:\*\*|__)[^*_]+(?:\*\*|__)[:：]?$/;

/**
 * The shape of a run of capitalised words with no sentence end (`isNameRun`, `isLabelRun`): a
 * prose line or item of at least `minTokens` tokens and `minWords` words (tokens opening with a
 * letter), at least `share` of its words capitalised (1: every one).
 */
interface CapitalRun {
  minTokens: number;
  minWords: number;
  share: number;
  /** Whether it may end in ":" ("View: Daily View:" in a legend). */
  colonEnd: boolean;
  /** Whether it may write a number that is not part of a word ("24/32/38.4/40MHz"). */
  numbers: boolean;
  /** Whether a title line may be one. */
  titles: boolean;
}

/** Whether `sentence` has the shape `run` describes. */
function isCapitalRun(sentence: Sentence, run: CapitalRun): boolean {
  if ((sentence.kind !== 'prose' && sentence.kind !== 'item') || (!run.titles && sentence.title)) return false;
  if ((run.colonEnd ? /[.!?;。]$/ : /[.!?:;。]$/).test(sentence.text)) return false;
  const tokens = sentence.text.split(/\s+/);
  const words = tokens.filter((w) => /^\p{L}/u.test(w));
  if (tokens.length < run.minTokens || words.length < run.minWords) return false;
  if (words.filter((w) => /^\p{Lu}/u.test(w)).length < run.share * words.length) return false;
  return run.numbers || !/(?<![\p{L}\p{N}])\d/u.test(sentence.text);
}

/**
 * A run of names (a menu path, a settings list flattened): four words or more, 70% of them
 * capitalised (a name's small words stay lower case); a title or a number may be part of it.
 */
const NAME_RUN: CapitalRun = { minTokens: 0, minWords: 4, share: 0.7, colonEnd: false, numbers: true, titles: true };

/** A prose line or item of at least four words, most of them capitalised, with no sentence punctuation at its end. */
export function isNameRun(sentence: Sentence): boolean {
  return isCapitalRun(sentence, NAME_RUN);
}

/** Most words of a list item read as a title. */
const TITLE_ITEM_WORDS = 8;

/**
 * A list item that is a title: a few words and no sentence end ("Dual-core chip download mode").
 * One that only restates the question names the topic of the lines after it, as a title line
 * does, and does not lead its passage (pdf-dev +1 first line, no other question on any set moved).
 */
export function isTitleItem(sentence: Sentence): boolean {
  return sentence.kind === 'item' && !/[.!?:;。]$/.test(sentence.text) && sentence.text.split(/\s+/).length <= TITLE_ITEM_WORDS;
}

/** Most words of a lead that only labels its list. */
const LABEL_LEAD_WORDS = 4;

/** A lead sentence that only names what its list is ("**Power on / off:**", "Notes:"), with nothing to quote of its own. */
export function isLabelLead(sentence: Sentence): boolean {
  return BOLD_LINE.test(sentence.text) || sentence.text.split(/\s+/).length <= LABEL_LEAD_WORDS;
}

/** The stems of the verbs the stopword list drops that still name a task (`data/line-cues.json`). */
const PURPOSE_VERBS = new Set(lineCues.purposeVerbs.map(stem));

/**
 * The stem a word has as the verb of a task: a content word's (as `terms` stems it), or a verb
 * the stopword list drops that still names one ("use", "see", `PURPOSE_VERBS`); null for any
 * other stopword, an article, determiner or preposition ("the", "a", "of"). Both a line's purpose
 * (`purposeOf`) and the question's words are read with it, so they meet on the same words.
 */
export function taskVerbOf(word: string): string | null {
  const stemmed = stem(word);
  return terms(word)[0] ?? (PURPOSE_VERBS.has(stemmed) ? stemmed : null);
}

/**
 * A line opening with the purpose it serves, "To <verb> ...," or "To <verb> ...:" ("To lock or
 * unlock an app, enter the PIN.", "To use the Bixby function, you must:"), after an optional
 * label ("Sound Mode: ... To change the sound mode, press ..." is split into sentences first): the
 * purpose's verb (see `taskVerbOf`) and its content words (stemmed as `terms` stems them), or
 * null. "To the right of the BOOT button, ..." and "To a maximum of 8 devices, ..." say where and
 * how many, not what for: their first word is no verb.
 */
export function purposeOf(text: string): { verb: string; words: ReadonlySet<string> } | null {
  const m = /^(?:[\p{L}][\p{L} ]{0,30}: )?(?:if you want )?to (\p{L}+)([^,.:;!?]{0,100})[,:]/iu.exec(text);
  const verb = m ? taskVerbOf(m[1]!) : null;
  return m && verb ? { verb, words: new Set(terms(`${m[1]}${m[2]}`)) } : null;
}

/** A condition opening a line, as the question cues list them ("if", "when", "because"). */
const CONDITION_CLAUSE = new RegExp(`^(?:${cues.conditions.join('|')})\\s([^,.:;!?]{3,120}),`, 'i');

/**
 * The content words (stemmed as `terms` stems them) of the condition a line opens with, up to its
 * comma ("When the TV has difficulties receiving broadcasts, these steps may help ..."), or null.
 */
export function conditionOf(text: string): ReadonlySet<string> | null {
  const m = CONDITION_CLAUSE.exec(text);
  return m ? new Set(terms(m[1]!)) : null;
}

/**
 * The line that opens the section `unit` is in (the first line under its heading that is not a
 * title), or null. A title a PDF converter set as a line of its own ("The problem", then "Try
 * this!": a table's column headers) starts no section: the units under it belong to the heading
 * above it.
 */
export function sectionOpening(units: readonly Sentence[], unit: Sentence): Sentence | null {
  const titles = new Set(units.filter((u) => u.title).map((u) => u.text));
  const opens = (at: number): boolean => {
    const u = units[at]!;
    if (u.title || (u.heading !== null && titles.has(u.heading))) return false;
    let before = at - 1;
    while (before >= 0 && units[before]!.title) before--;
    return before < 0 || units[before]!.heading !== u.heading;
  };
  for (let at = units.indexOf(unit); at >= 0; at--) if (opens(at)) return units[at]!;
  return null;
}

/** A cue of `readerCan` ("you can") as a phrase of its own, not followed by a negation ("you can't", "you can not"). */
const READER_CAN = new RegExp(`(?<![\\p{L}])(?:${cues.readerCan.map(escapeRe).join('|')})(?![\\p{L}])(?!['’]t(?![\\p{L}])|\\s+not(?![\\p{L}]))`, 'iu');

/**
 * Whether a line tells the reader what they can do ("You can change the size of the picture
 * displayed on the TV screen.", "In the browser screen, you can select content"): how a manual
 * states a feature to the one who uses it.
 */
export function tellsReaderCan(text: string): boolean {
  return READER_CAN.test(text);
}

/**
 * A run of labels (see `isLabelRun`): three tokens or more, every word capitalised; a legend's
 * label may end in ":", a number states a value, and a title says what follows.
 */
const LABEL_RUN: CapitalRun = { minTokens: 3, minWords: 1, share: 1, colonEnd: true, numbers: false, titles: false };

/**
 * A line that is a run of labels, not a clause: every word capitalised, with no sentence end
 * ("View: Daily View: Monthly", "Pause Play Start"): a UI legend, a figure's labels or a table a
 * PDF converter flattened. It names where the question's
 * words appear, the sentence near it says what they do. A line that writes a number states a value
 * ("Support XTAL 24/32/38.4/40MHz" answers which crystal frequencies), so it is none.
 */
export function isLabelRun(sentence: Sentence): boolean {
  return isCapitalRun(sentence, LABEL_RUN);
}

/** The openings of a caution in capitals, lower-cased (`data/line-cues.json`). */
const CAUTION_OPENINGS = lineCues.cautionOpenings.map((c) => c.toLowerCase());

/**
 * A caution set in capitals: the line opens with words written all in capitals, the first of
 * them a warning, negation or prohibition (`CAUTION_OPENINGS`: "DO NOT turn off the TV's power
 * until the update is complete.", "NEVER ..."). Capitals on a word that names nothing are
 * emphasis, as "Caution:" is (`ASIDE_LINE`). A run of labels in capitals is none, even with a
 * function word in it: a port's or pin's name ("HDMI IN (ARC): ...", "DC IN 12V jack ...", "NC NO
 * COM terminals ...", "IN OUT GND pins ..."), a state ("POWER ON the board ...") or a title ("IN
 * THE BOX"); nor is a run of acronyms ("HDMI UHD Color ...", "USB OTG").
 */
export function opensWithCaution(text: string): boolean {
  const opening: string[] = [];
  for (const w of text.split(/\s+/)) {
    const word = w.replace(/[!:,]+$/, '');
    if (!/^\p{Lu}[\p{Lu}'’]*\p{Lu}$/u.test(word)) break;
    opening.push(word.toLowerCase().replace(/’/g, "'"));
    if (/[!:,]$/.test(w)) break;
  }
  const run = opening.join(' ');
  return CAUTION_OPENINGS.some((c) => run === c || run.startsWith(`${c} `));
}
