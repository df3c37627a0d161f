import { escapeRe } from '../core/text';
import cues from './data/question-cues.json';
import lineCues from './data/line-cues.json';
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
  /** A phrasal verb's particle ("off" of "turn off"), which a line may write either side of the object. */
  particle?: string;
  object: string;
}

/** Particles of phrasal verbs (line-cues.json): never the object, always to be written with the verb. */
const PARTICLES = new Set(lineCues.verbParticles);

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
  const [first, next, ...after] = rest;
  if (!first) return null;
  const particle = next !== undefined && PARTICLES.has(next) ? next : undefined;
  const object = terms((particle ? after : [next ?? '', ...after]).join(' '))[0];
  return object ? { verb: stem(first), ...(particle ? { particle } : {}), object } : null;
}

/**
 * Whether `text` writes the asked verb followed, in the same clause and within `OBJECT_SPAN` words,
 * by its object as the first content word after it ("Delete selected channels" deletes something
 * selected: the first content word is not "channels"; letting the object be the second content
 * word measured alike). A phrasal verb's particle is skipped on the way and must be written
 * right after the verb or right after the object ("Turn off the phone", "Turn the phone off").
 */
export function writesAction(text: string, action: AskedAction): boolean {
  for (const clause of text.toLowerCase().split(CLAUSE_END)) {
    const words = clause.match(/[\p{L}\p{N}]+/gu) ?? [];
    for (let i = 0; i < words.length; i++) {
      if (stem(words[i]!) !== action.verb) continue;
      const from = action.particle && words[i + 1] === action.particle ? i + 2 : i + 1;
      for (let j = from; j <= Math.min(words.length - 1, from + OBJECT_SPAN - 1); j++) {
        if (PARTICLES.has(words[j]!)) break;
        const t = terms(words[j]!);
        if (t.length === 0) continue;
        if (t[0] === action.object && (!action.particle || from === i + 2 || words[j + 1] === action.particle)) return true;
        break;
      }
    }
  }
  return false;
}
