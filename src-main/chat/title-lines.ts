import cues from './data/question-cues.json';
import { cleanInline } from './inline-text';
import type { Sentence } from './sentences';

/**
 * Whether a short line of its own is a title a converter left as text (`splitSentences`), or an
 * instruction or step set on a line of its own, which is not.
 */

/**
 * A line that gives an instruction: a step verb (with its particle, "Turn off") followed by its
 * object ("Check the DNS values in IP Settings", "Make sure ..."), or a verb that only instructs
 * ("Try restarting the router"). A step verb alone is no sign: titles open with the same words
 * as nouns ("Power Supply Requirements", "Set Up Guide", "Use and Care").
 */
const INSTRUCTION = new RegExp(
  `^(?:(?:${cues.stepVerbs.join('|')})(?:\\s+(?:${cues.instructionParticles.join('|')}))?\\s+(?:${cues.instructionObjects.join('|')})|(?:${cues.instructionVerbs.join('|')}))(?![\\p{L}\\p{N}])`,
  'iu',
);

/** Whether a line opens as an instruction does (`INSTRUCTION`): "Hold the BOOT button ...", "Make sure ...". */
export function opensAsInstruction(raw: string): boolean {
  return INSTRUCTION.test(raw.trim());
}
/**
 * A short label, then a description of at least three words after ": ". A numbered label
 * ("Table 4.2: Recommended Power Operating Range", "Chapter 3: ...") is a caption or a title.
 */
const LABEL_DESCRIPTION = /^[^:：\d]{1,40}(?:: |：\s*)(\S+(?:\s+\S+){2,})/u;
/**
 * Words a Title Case heading leaves lower-case ("Flash With the Web Tool", "Risk of Electric Shock"):
 * articles, conjunctions and prepositions only. Not the stopwords (`isStopword`): they also hold
 * verbs and pronouns a description is written with ("can", "see", "you"), so "Schedule Manager:
 * You can see the Schedule Manager" (a line cut at a line break) read as a title. Measured on the
 * answer bench (all six sets): the one line read differently (110 of the 966 lines this check
 * read), which changed 17 smart-tv answers (first 382 -> 383, any unchanged).
 */
const TITLE_SMALL_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'nor', 'but', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'from', 'with', 'as', 'vs', 'via', 'into', 'onto', 'per']);

/**
 * A setting with its description: a label, then a description (see `LABEL_DESCRIPTION`) written as
 * prose, some content word after its first in lower case ("Brightness: Adjusts the screen
 * brightness ..."). A description in Title Case ("Troubleshooting: Picture Quality Problems",
 * "Option B: Flash With the Web Tool") is the second half of a title.
 */
function isLabelDescription(text: string): boolean {
  const description = LABEL_DESCRIPTION.exec(text)?.[1];
  if (description === undefined) return false;
  return description
    .split(/\s+/)
    .slice(1)
    .some((w) => /^\p{Ll}/u.test(w) && !TITLE_SMALL_WORDS.has(w.toLowerCase()));
}
/** Most words a title line has. */
const TITLE_WORDS = 8;

/** One line, a capital first, at most a few words, no sentence or clause punctuation at its end. */
export function isTitleLine(raw: string): boolean {
  const text = cleanInline(raw);
  if (raw.includes('\n') || !/^\p{Lu}/u.test(text) || /[.!?:;,。)\]]$/.test(text)) return false;
  // "Driver IC：ST7789v2", "Resolution: 135 * 240": a label with its value, not a title.
  if (/(?:: |：)[^:：]*\d/.test(text)) return false;
  // "Brightness: Adjusts the screen brightness for Ambient Mode": a setting with what it does (a
  // definition list left as text, its full stop dropped), not a title; read as one, it became the
  // heading of the settings after it, which then answered as the section it names.
  if (isLabelDescription(text)) return false;
  // "VDDIO1, VDDIO2 2.97/1.62 3.3/1.8 3.63/1.98": a table row a PDF converter left as text.
  if ((text.match(/(?<![\p{L}\p{N}.])\d/gu) ?? []).length >= 2) return false;
  // "Check the DNS values in IP Settings": an instruction (a troubleshooting table's "Try this!"
  // column left as text), not the title of what follows.
  if (INSTRUCTION.test(text)) return false;
  const words = text.split(/\s+/).length;
  return words >= 2 && words <= TITLE_WORDS;
}

/** A step verb opening a line ("Select", "Press the ..."), as an instruction opens. */
const STEP_OPENING = new RegExp(`^(?:${cues.stepVerbs.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
/** A step verb opening a line, then the name of what it acts on, capitalised ("Select Lock/Unlock", "Run Start Setup"). */
const STEP_ON_NAME = new RegExp(`^(?:${cues.stepVerbs.map((v) => v.charAt(0).toUpperCase() + v.slice(1)).join('|')})\\s+\\p{Lu}`, 'u');

/**
 * A short line that names the control a step acts on ("Select Lock/Unlock" after "Select an app
 * to lock or unlock."), right after a sentence of the same section that gives an instruction: one
 * step of the instructions that sentence began, not the title of a new section. A title of the
 * same form ("Power Saving Mode", "Open Source License Notice") follows a heading, a name or a
 * statement. Read as a title, such a step split its section, and the lines after it lost the
 * section's heading.
 */
export function isStepOfSteps(raw: string, prev: Sentence | undefined, heading: string | null): boolean {
  if (!STEP_ON_NAME.test(cleanInline(raw))) return false;
  return prev !== undefined && prev.kind === 'prose' && !prev.title && prev.heading === heading && /[.!?。]$/.test(prev.text) && STEP_OPENING.test(prev.text);
}
