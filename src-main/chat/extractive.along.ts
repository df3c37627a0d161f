import cues from './data/question-cues.json';
import type { Line } from './extractive.render';
import { isInstruction } from './line-forms';
import type { Sentence } from './sentences';

/**
 * What a quoted line of an extractive answer brings along (see `answerExtractively`): the list or
 * code a lead sentence opens, the rest of its paragraph, and the line that follows an echo of the
 * question.
 */

/** A line that opens by pointing back at the one before it ("This smell is normal ..."). */
const BACK_REFERENCE = new RegExp(`^(?:${cues.backReferences.join('|')})\\b`, 'i');

/**
 * What a lead sentence brings: the units of the block it opens, at most `max`; none when that
 * block is a list numbered from past 1. When that block is
 * a list of one item ("follow these steps:", then "1. Use the Escape Pin (PC1)"), the step's own
 * text went on outside the list (Markdown ends a list at an unindented paragraph, and "2. Modify
 * Your Sketch" starts a new one): the prose and items after it under the same heading come too, up
 * to the next table or code (seeed-xiao +1 any line: "Connect PC1 to GND before resetting the
 * device"; no other question on any set moved).
 */
export function listedAfter(units: readonly Sentence[], lead: Sentence, quoted: ReadonlySet<Sentence>, max: number): Sentence[] {
  const block = units.filter((u) => u.block === lead.opens);
  // A list numbered from past 1 is not the one the lead announces: a numbered section after the
  // lead's figure ("... as follows:", then "4. ISP (take CH592 as example)" in a PDF page's text).
  if ((block[0]?.ordinal ?? 1) > 1) return [];
  const members = block.filter((u) => !quoted.has(u)).slice(0, max);
  const [only] = members;
  if (members.length !== 1 || only?.kind !== 'item') return members;
  const out = [only];
  for (const u of units.slice(units.indexOf(only) + 1)) {
    if (out.length >= max || u.heading !== only.heading || u.kind === 'code' || u.kind === 'row' || quoted.has(u)) break;
    out.push(u);
  }
  return out;
}

/** Most characters of one quoted line once the rest of its paragraph joins it. */
const PARAGRAPH_CHARS = 400;

/**
 * Quotes a prose sentence or list item with the rest of its paragraph, as far as the line stays
 * short: the sentence that names the topic and the one that says what to do ("You can enlarge
 * the font. To activate, set Enlarge.") are one thought split by a full stop, and either alone
 * can miss the answer. The sentences after it come first, then those before.
 */
export function withParagraph(line: Line, units: readonly Sentence[], quoted: Set<Sentence>): void {
  const { sentence } = line;
  if (sentence.para === undefined) return;
  const mates = units.filter((u) => u.para === sentence.para);
  const at = mates.indexOf(sentence);
  let length = sentence.text.length;
  const fits = (u: Sentence): boolean => !quoted.has(u) && length + u.text.length <= PARAGRAPH_CHARS;
  for (const u of mates.slice(at + 1)) {
    if (!fits(u)) break;
    line.after.push(u);
    length += u.text.length;
  }
  for (const u of mates.slice(0, at).reverse()) {
    if (!fits(u)) break;
    line.before.unshift(u);
    length += u.text.length;
  }
  for (const u of [...line.before, ...line.after]) quoted.add(u);
}

/**
 * Whether the unit after an echo of a problem answers it, so that the echo may lead with it: a step
 * ("Remove the base stand and reassemble it.") or a line that goes on from it ("This smell is
 * normal and will dissipate over time."). A troubleshooting table flattened to text lists its
 * problems one after the other, and the next one ("The TV is making a humming noise." after "...
 * a popping noise.") answers nothing.
 */
export function answersEcho(next: Sentence | null): boolean {
  return next !== null && (isInstruction(next) || BACK_REFERENCE.test(next.text));
}

/** The unit right after `sentence` in its passage when it continues it: same heading, same list (or prose), not a title or code. */
export function followerOf(units: readonly Sentence[], sentence: Sentence): Sentence | null {
  const next = units[units.indexOf(sentence) + 1];
  if (!next || next.title || next.kind === 'code' || next.heading !== sentence.heading) return null;
  return sentence.block === -1 || next.block === sentence.block ? next : null;
}
