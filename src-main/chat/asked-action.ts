import { escapeRe } from '../core/text';
import cues from './data/question-cues.json';
import { stem, terms } from './text-terms';

/**
 * The action a how-to question asks ("How do I turn off X?", "How to delete channels from ..."):
 * the verb right after its how-cue and the first content word after that verb, its object, both
 * as the question writes them (stemmed). A line that writes that verb with that object ("Move to
 * the list from which you want to delete channels") does what is asked, where a step of the same
 * procedure that shares the question's other words ("Use the button to display the virtual
 * numeric pad") does something on the way.
 */
export interface AskedAction {
  verb: string;
  object: string;
}

/** The how-cues of the steps cues ("how do i", "how to"), which a how-to question opens with. */
const HOW_OPENING = new RegExp(`^\\s*(?:${cues.steps.filter((c) => /^how\s/.test(c)).map(escapeRe).join('|')})\\s+`, 'u');
/** Where a line's clauses end: the verb and its object are written in one. */
const CLAUSE_END = /[.;:!?](?:\s|$)|,\s/;
/** How far after the verb, in words, its object may come, stopwords only between ("delete the channels", "use all of the ..."). */
const OBJECT_SPAN = 3;

/** The action `question` asks how to do (see `AskedAction`), or null when it asks no how-to or names no object. */
export function askedAction(question: string): AskedAction | null {
  const q = question.toLowerCase();
  const m = HOW_OPENING.exec(q);
  if (!m) return null;
  const rest = q.slice(m[0].length).match(/[\p{L}\p{N}]+/gu) ?? [];
  const [first, ...after] = rest;
  if (!first) return null;
  const object = terms(after.join(' '))[0];
  return object ? { verb: stem(first), object } : null;
}

/**
 * Whether `text` writes the asked verb followed, in the same clause and within `OBJECT_SPAN` words,
 * by its object as the first content word after it ("Resets current picture settings" resets
 * settings, not "picture"; letting the object be the second content word measured alike).
 */
export function writesAction(text: string, action: AskedAction): boolean {
  for (const clause of text.toLowerCase().split(CLAUSE_END)) {
    const words = clause.match(/[\p{L}\p{N}]+/gu) ?? [];
    for (let i = 0; i < words.length; i++) {
      if (stem(words[i]!) !== action.verb) continue;
      for (let j = i + 1; j <= Math.min(words.length - 1, i + OBJECT_SPAN); j++) {
        const t = terms(words[j]!);
        if (t.length === 0) continue;
        if (t[0] === action.object) return true;
        break;
      }
    }
  }
  return false;
}
