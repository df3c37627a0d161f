import type { AskedKind, Scored } from './extractive.pick';
import { isInstruction } from './line-forms';
import type { QuestionKind } from './question-kind';
import type { Sentence } from './sentences';
import { statesQuantity } from '../search/stages/answer-line.stage';

/**
 * The kind of line a question asks for, which lets a later passage of the first one's manual lead
 * the extractive answer when the first has no such line (see `passageOrder`, extractive.pick.ts).
 */

/** A hexadecimal value ("0x44", "0x08010000"): how manuals write an address. */
export const HEX_VALUE = /(?<![\p{L}\p{N}])0x[0-9a-f]+(?![\p{L}\p{N}])/iu;

/**
 * Whether a line states a value: a number with its unit or a count ("5V", "512 bytes", "x 25"; the
 * search's own test, so "0x1FFFF000" or "PD4" is no value); in code, any number, as code writes its
 * values bare ("Serial.begin(115200)").
 */
export function givesValue(sentence: Sentence): boolean {
  return sentence.kind === 'code' ? /\d/.test(sentence.text) : statesQuantity(sentence.text);
}

/**
 * A pin or signal name: "GPIO", a supply net or one or two capitals, then a number of one or two
 * digits ("GPIO14", "PA9", "IO16", "D0", "VCC5V0_SYS"). A chip or product name is none ("ESP32",
 * "RP2040", "ESP32-C3", "BL602"): a line saying "connect it to the ESP32 GPIO" named no pin, yet
 * weighed as one against "LED_Pin: IO16" (m5stack +1, seeed-xiao +1 first line, no other
 * question moved). Each "_" or "-" starts a new part, so a long run of capitals is read one way
 * only (a nested `(?:[_-]?[A-Z0-9]+)*` backtracks exponentially on "A1BBB...Bx").
 */
export const PIN_NAME = /(?<![\p{L}\p{N}])(?:GPIO|VCC|VDD|[A-Z]{1,2})_?\d{1,2}(?!\p{N})[A-Z0-9]*(?:[_-][A-Z0-9]+)*(?![\p{L}\p{N}])/u;

/** Share of the first passage's best line score that a later passage's instruction needs to lead a how-to answer (0.75-0.8 gain 5 and lose 2 on smart-tv, below 0.7 it loses). */
const STEP_KIND_SHARE = 0.9;
/** Share of the first passage's best line score that a later passage's definition needs to lead a "what is" answer (0.4-0.7 measured alike; 0.3 and below lost a smart-tv first line). */
const DEFINITION_KIND_SHARE = 0.5;
/** Share of the first passage's best line score that a later passage's line opening with the asked task needs to lead, where the question asks for no other kind of line. */
const PURPOSE_KIND_SHARE = 0.5;

/**
 * The line a question asks for that a later section of the first passage's manual may hold (see
 * `passageOrder`): an instruction for a how-to question; a value in a unit of the asked quantity
 * ("3.3V@200mA" for "how much current"), a hexadecimal value for an address question, or a version
 * number for a "which version" question; for "what is X?", a line that says what X is (it opens
 * with X and gives no instruction: "Samsung Pay lets you make payments with your device", where
 * the first passage, "Use Samsung Pay", only says how to use it). A value, address or version line
 * leads when it is quoted at all (it cleared the answer's share of the best line): the first
 * passage, with no such line, only talks about the asked thing ("the DC-DC converter changes 5V
 * into 3.3V" for the 3V3 pin's current). Pin names and part numbers as the asked kind moved no
 * question or lost pdf-dev first lines. Whatever the question's kind, a line that opens with the
 * asked task as its purpose (`serves`: "To view the user agreement and privacy policy, you must be
 * logged in" for "Can I view the privacy policy?") is of the asked kind too, where the first
 * passage only mentions the task in passing ("Gallery Settings: ... or view the user agreement and
 * privacy policy."). Measured on all six sets: smart-tv +3 first lines, none lost; no other set
 * moved (a share of 0-0.5 alike where the question's kind asks for no other line, 0.8 one first
 * line fewer; purposes only where it asks for no other kind: +2). So is, for a question about a
 * problem, a line that opens with that problem as its condition ("When the TV has difficulties
 * receiving broadcasts, these steps may help resolve the problem.").
 */
export function askedKind(kind: QuestionKind, dimensions: readonly RegExp[], defines: ReadonlySet<Sentence>, serves: ReadonlySet<Sentence>): AskedKind | undefined {
  const own = lineKind(kind, dimensions, defines);
  const purpose = (x: Scored): boolean => serves.has(x.sentence);
  if (!own) return serves.size > 0 ? { is: purpose, share: PURPOSE_KIND_SHARE } : undefined;
  return { is: (x) => own.is(x) || purpose(x), share: own.share };
}

/** The kind of line a question's kind asks for (see `askedKind`), purposes aside. */
function lineKind(kind: QuestionKind, dimensions: readonly RegExp[], defines: ReadonlySet<Sentence>): AskedKind | undefined {
  if (kind.steps) return { is: (x) => isInstruction(x.sentence), share: STEP_KIND_SHARE };
  if (dimensions.length > 0) return { is: (x) => dimensions.some((re) => re.test(x.sentence.text)), share: 0 };
  if (kind.address) return { is: (x) => HEX_VALUE.test(x.sentence.text), share: 0 };
  // A version number with no quantity on the line ("4.2.0", "v1.2"; the search's own test).
  if (kind.version) return { is: (x) => statesQuantity(x.sentence.text, true) && !statesQuantity(x.sentence.text), share: 0 };
  if (kind.definition) return { is: (x) => defines.has(x.sentence), share: DEFINITION_KIND_SHARE };
  return undefined;
}
