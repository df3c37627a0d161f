import { escapeRe } from '../core/text';
import { asksForVersion, VALUE_DIMENSIONS } from '../search/stages/answer-line.stage';
import cues from './data/question-cues.json';
import { terms } from './sentences';

/**
 * What a question asks for, read from general cue phrases kept as data
 * (`data/question-cues.json`; a version as the search reads it): a value, a pin, an address, a
 * component, a version, steps or what something is. The extractive answer weighs and orders its
 * lines by it.
 */

/** What kind of answer a question wants, from general cue phrases (data/question-cues.json). */
export interface QuestionKind {
  /** A value: "how much", "capacity", "voltage". */
  quantity: boolean;
  /** A pin or signal: "which pin", "GPIO". */
  pin: boolean;
  /** An address: "which address", "I2C address", "flash address". */
  address: boolean;
  /** A component: "which chip", "the controller", "the image sensor". */
  part: boolean;
  /** A version: "which core version", "what firmware version" (the search's `asksForVersion`: a version number answers nothing else). */
  version: boolean;
  /** Steps: "how do I", "how to", "what are the steps". */
  steps: boolean;
  /** What something is or does: "what is", "the function of" (and not steps). */
  definition: boolean;
  /** A fault or its cause: "why", "how do I fix", "what should I do" (see `restatesProblem`). */
  problem: boolean;
}

/** One regex for a list of cue phrases, matching whole words. */
function cueRe(phrases: readonly string[]): RegExp {
  return new RegExp(`(?<![\\p{L}])(?:${phrases.map(escapeRe).join('|')})(?![\\p{L}])`, 'u');
}

const QUANTITY_CUE = cueRe(cues.quantity);
/**
 * A question asking yes or no: its last sentence opens with an auxiliary verb ("Is ISP boot
 * supported on that package?", "Does it need a driver?").
 */
export const YES_NO = /(?:^|[.!?:]\s+)(?:is|are|does|do|did|can|could|should|must|will|has|have)\s[^.!?]*\?$/i;
/**
 * The quantity cues that are "how" and an adjective ("how low", "how far", "how much"): a value
 * is asked even when a pin is named ("how much current can the 3V3 pin supply").
 */
export const HOW_ASK = cueRe(cues.quantity.filter((c) => /^how\s/.test(c)));
/**
 * `HOW_ASK` for every match: the adjective asks for a measure, it does not say what the question
 * is about. The manual states the value ("Deep sleep: 15 μA" for "how low does it go in deep
 * sleep?"), and the same word elsewhere ("Bluetooth Low Energy") answers nothing.
 */
export const HOW_MEASURE = new RegExp(HOW_ASK.source, 'gu');
/** Every definition cue of a question ("what is", "use of"); module-private, used with `replace` only (a global regex's `test`/`exec` keep `lastIndex` between calls). */
const DEFINITION_CUES = new RegExp(cueRe(cues.definition).source, 'gu');

/** `text` with every definition cue blanked: its words ask what something is, they name no task. */
export function withoutDefinitionCues(text: string): string {
  return text.replace(DEFINITION_CUES, ' ');
}
const PIN_CUE = cueRe(cues.pin);
const ADDRESS_CUE = cueRe(cues.address);
/** Most words between "which"/"what" and the component it asks about ("what is the model of the sensor"). */
const PART_ASK_GAP = 5;
/**
 * A question asking which component something is: "which chip", "what is the main controller";
 * not one that only mentions a component ("pair the game controller", "clean the sensor").
 */
const PART_CUE = new RegExp(
  `(?<![\\p{L}])(?:${cues.partAsk.map(escapeRe).join('|')})(?:'s)?(?:\\s+[\\p{L}\\p{N}'-]+){0,${PART_ASK_GAP}}?\\s+(?:${cues.part.map(escapeRe).join('|')})(?![\\p{L}])`,
  'u',
);
/**
 * A question written as a search, a name then the component ("UNIT-V image sensor": no question
 * mark, no quantity asked, no instruction verb first as in "remove the old regulator"): it asks
 * which component that is, as "which image sensor" does (m5stack +1 first line, no other
 * question on any set moved).
 */
const PART_TAIL = new RegExp(`(?<![\\p{L}])(?:${cues.part.map(escapeRe).join('|')})\\s*$`, 'u');
/**
 * A line that gives an instruction: a step verb first, after an optional "Step 2:", "3.", "From
 * Settings," or "To delete a recorded program,". The extractive answer reads its lines with it, and
 * a question with it ("remove the old regulator") asks how to do something, not which part.
 */
export const STEP_LINE = new RegExp(`^(?:step\\s*\\d+[:.)]?\\s*|\\d+[.)]\\s*)?(?:(?:from|in|on|at|to) [^,]{1,60}, )?(?:${cues.stepVerbs.map(escapeRe).join('|')})\\b`, 'i');
const STEPS_CUE = cueRe(cues.steps);
/** The quantity cues that ask which value ("what size", "which size"), not how to do something. */
const SIZE_ASK = cueRe(cues.quantity.filter((c) => /^(?:what|which)\s/.test(c)));
/**
 * A question that opens by asking the way ("how do I", "how can you", "how to": the steps cues
 * that start with "how"). A steps noun elsewhere ("the reflow process", "step 3 of the
 * instructions") names where a value is used, and the question still asks that value.
 */
const HOW_TO_OPENING = new RegExp(`^\\s*(?:${cues.steps.filter((c) => /^how\s/.test(c)).map(escapeRe).join('|')})(?![\\p{L}])`, 'u');
const DEFINITION_CUE = cueRe(cues.definition);
const PROBLEM_CUE = cueRe(cues.problem);
/** Words of the definition cues ("function", "use", "purpose"): what is asked, not what it is asked about. */
export const DEFINITION_WORDS = new Set(cues.definition.flatMap((c) => terms(c)));
/**
 * Words a question asks with, whatever it asks about: those of the steps, definition and problem
 * cues ("steps", "meaning", "fix") and the adjective of a "how" quantity cue ("how long", see
 * `HOW_MEASURE`). A manual need not write them, so they never tell whether the library knows the
 * question's topic (`topic-gate.ts`).
 */
export const ASKING_WORDS: ReadonlySet<string> = new Set([...cues.steps, ...cues.definition, ...cues.problem, ...cues.quantity.filter((c) => /^how\s/.test(c))].flatMap((c) => terms(c)));
/** The cue phrases of `quantityNouns` ("how far"), each with its own matcher, and the stemmed words a manual labels that quantity with. */
const QUANTITY_NOUNS = Object.entries(cues.quantityNouns).map(([cue, nouns]) => ({ re: cueRe([cue]), nouns: nouns.flatMap((n) => terms(n)) }));

/**
 * The words a manual names the asked quantity with ("range", "distance" for "how far can it
 * detect?"): the question asks for them without saying them, and a "Detecting Range: 150cm" line
 * answers it.
 */
export function quantityNouns(question: string): string[] {
  const q = question.toLowerCase();
  return QUANTITY_NOUNS.filter((c) => c.re.test(q)).flatMap((c) => c.nouns);
}

/**
 * What a value measures, known by its unit (the search's `VALUE_DIMENSIONS`): the words a question
 * asks it with, stemmed as chat stems, and a number followed by one of its units. "5V@500mA"
 * states a current though it never says the word.
 */
export const DIMENSIONS = VALUE_DIMENSIONS.map((d) => ({ words: new Set(d.words.flatMap((w) => terms(w))), value: d.value }));

/**
 * For each of `words` (chat's stemmed terms) that names a dimension ("frequency", "current"), the
 * patterns of a value in that dimension's units ("@240 MHz", "5V@500mA"): a line or passage stating
 * such a value says the word though it never writes it. Words naming no dimension are left out.
 */
export function unitPatterns(words: readonly string[]): Map<string, RegExp[]> {
  return new Map(words.map((t) => [t, DIMENSIONS.filter((d) => d.words.has(t)).map((d) => d.value)] as const).filter(([, v]) => v.length > 0));
}

/** Step verbs that are as often nouns at a question's start ("power supply", "use of", "press release"). */
const NOUN_VERBS = new Set(['power', 'use', 'set', 'check', 'open', 'touch', 'press', 'run', 'move', 'hold', 'drag', 'download', 'plug', 'enter', 'follow', 'make', 'try', 'go', 'visit']);
/** Words after such a verb that make it one ("power on", "use the button", "set my clock"). */
const VERB_OBJECT = new Set(['on', 'off', 'up', 'down', 'in', 'out', 'the', 'a', 'an', 'my', 'your', 'its', 'it', 'this', 'that', 'these', 'those', 'all']);

/**
 * A question typed as the task itself ("connect tv to wifi", "turn on the screen reader"): it
 * starts with a step verb, which for a verb that is as often a noun must be followed by a
 * particle or a determiner ("power on the board", not "power supply for the board").
 */
function typedAsTask(q: string): boolean {
  if (!STEP_LINE.test(q)) return false;
  const [first, second] = q.split(/\s+/);
  return !NOUN_VERBS.has(first ?? '') || VERB_OBJECT.has(second ?? '');
}

export function questionKind(question: string): QuestionKind {
  const q = question.toLowerCase();
  // Asked how to do something to a quantity's noun ("How to change the size of the picture to
  // 4:3?"), the question wants the way, not a value: "Do not watch your TV in 4:3 mode ..." led
  // for its number over "You can change the size of the picture ...". "How big", "what size" still
  // ask a value, and so does a question that only names a procedure ("What temperature is used in
  // the reflow process?"): only a how-to opening asks the way (`HOW_TO_OPENING`).
  const quantity = QUANTITY_CUE.test(q) && !(HOW_TO_OPENING.test(q) && !HOW_ASK.test(q) && !SIZE_ASK.test(q));
  const steps = STEPS_CUE.test(q) || (!quantity && !DEFINITION_CUE.test(q) && typedAsTask(q.trim()));
  return { quantity, pin: PIN_CUE.test(q), address: ADDRESS_CUE.test(q), part: PART_CUE.test(q) || (!q.includes('?') && !quantity && !STEP_LINE.test(q.trim()) && PART_TAIL.test(q)), version: asksForVersion(question), steps, definition: !steps && DEFINITION_CUE.test(q), problem: PROBLEM_CUE.test(q) };
}

/** Share of a line's own words that the question says for the line to restate the question's problem. */
const RESTATE_SHARE = 0.5;
/** A line that opens with a condition or a cause ("When the surroundings get dark, ..."). */
const CONDITION_OPENING = new RegExp(`^(?:${cues.conditions.map(escapeRe).join('|')})\\b`, 'i');

/**
 * Whether a line only restates the problem a question asks about ("The TV is making a popping
 * noise." for "Why is my TV making a popping noise?", "There is no sound or the sound is too low"
 * for "how do I fix low volume?"): half its own words or more are the question's, it gives no
 * instruction, and it does not open with the condition or cause that answers a "why" ("When the
 * surroundings get dark, the TV screen becomes darker."). A troubleshooting table flattened to text
 * lists its problems before their solutions, so the problem outscores the line that solves it.
 */
export function restatesProblem(text: string, words: readonly string[], asked: ReadonlySet<string>, instruction: boolean): boolean {
  if (instruction || CONDITION_OPENING.test(text)) return false;
  const own = new Set(words);
  return own.size > 0 && [...own].filter((w) => asked.has(w)).length >= RESTATE_SHARE * own.size;
}
