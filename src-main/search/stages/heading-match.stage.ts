import answerTypes from '../data/answer-types.json';
import { passageTerms } from '../../enrich/passage-terms';
import { phrasePattern } from '../../core/text';
import { isCodeToken } from '../../enrich/text.util';
import type { ChunkHit } from '../../storage/chunk-store';
import { byScore, type RankStage } from './stage';

/**
 * Section headings as evidence. A manual names its sections after the task or the thing they
 * cover ("Changing the input signal", "Notification sound", "Electrical Characteristics
 * (LM7812A)"), and a technician asks in the same words. A hit is weighed by its best section
 * heading (its own, and those of the sections merged into it; never the document's title, which
 * every chunk of the manual shares): the share of the heading's words the question holds times
 * the share of the question's words the heading holds, so a heading that is the question's topic
 * counts fully and one that shares a word with it counts a little; so does a heading naming a
 * code the question names. The question's model names are left out of both sides: they name the
 * manual, not the section.
 *
 * Measured on every shared set (docs/benchmarks.md): weights 0.15–0.2 lift smart-tv and pdf-dev
 * and change no other set's Hit@1; from 0.25 on m5stack and then galaxy-s10 lose questions (a
 * heading sharing a word with the question beats the section that answers it).
 */

/** Extra share of score for a hit whose heading is exactly the question's topic. */
export const HEADING_WEIGHT = 0.2;

/** Headings of a chunk below the document's title: its own section's and those of sections inside its text. */
export function sectionHeadings(text: string, headingPath: readonly string[]): string[] {
  const out = headingPath.length > 1 ? [headingPath[headingPath.length - 1]!] : [];
  // Only lines that begin with "##" can be headings: found without splitting the whole text into lines.
  for (let start = text.startsWith('##') ? 0 : text.indexOf('\n##'); start !== -1; start = text.indexOf('\n##', start + 1)) {
    const from = start === 0 && text.startsWith('##') ? 0 : start + 1;
    const end = text.indexOf('\n', from);
    const line = text.slice(from, end === -1 ? text.length : end);
    if (/^#{2,6}\s/.test(line)) out.push(line.replace(/^#+\s+/, ''));
  }
  return out;
}

/** How deep brackets are read within brackets ("(for models with a port (HDMI IN))" is two). */
const MAX_BRACKET_DEPTH = 3;
/** Characters of a heading whose brackets are read; longer ones are not headings anybody wrote. */
const MAX_BRACKETED_HEADING = 300;

/** The passage IDF of a word that about one passage in a hundred holds (BM25's idf, log(1 + (N - n + 0.5) / (n + 0.5)), at n = N / 100). */
const RARE_WORD_IDF = Math.log(100);

/**
 * The ways a heading names its topic: as written, without its brackets (a qualifier such as
 * "(for the visually impaired)" is no word of the task), and each bracket alone (an alias such as
 * "(high contrast)") with its own readings in turn (brackets nest: "(for models with a port (HDMI
 * IN))"). A bracket is read alone only when it names something particular, by the library's
 * passage rarity of its words (`idf`, of a stemmed word): its rarest word is at least as rare as
 * the heading's words outside brackets are on average, or fewer than one passage in a hundred
 * holds it (an abbreviation such as "(ESD)" is often used more than the words it stands for, and
 * still names one thing). A word the library uses everywhere ("(Settings)", "(optional)", or
 * "(continued)" under every page's repeated heading, each of which is a passage) is a qualifier:
 * read alone it would be the whole topic of every question that holds the word. A link's target
 * ("[Setup](/docs/setup)") is no alias either. Without statistics (`idf` 1 for every word) every
 * bracket is read alone.
 */
export function headingReadings(heading: string, idf: (term: string) => number = () => 1, depth = 0): string[] {
  // Past MAX_BRACKET_DEPTH levels, or in a heading longer than any real one, a heading is read as
  // written: each level copies the text inside it, so a crafted heading of n nested brackets would
  // cost n² (and overflow the stack) in every search that reaches it.
  const groups = depth >= MAX_BRACKET_DEPTH || heading.length > MAX_BRACKETED_HEADING ? [] : bracketGroups(heading);
  if (groups.length === 0) return [heading];
  let bare = '';
  let from = 0;
  for (const g of groups) {
    bare += `${heading.slice(from, g.open)} `;
    from = g.close + 1;
  }
  bare += heading.slice(from);
  const out = new Set([heading, bare]);
  const restWords = passageTerms(bare);
  const restRarity = restWords.reduce((sum, t) => sum + idf(t), 0) / Math.max(1, restWords.length);
  for (const g of groups) {
    if (g.link) continue;
    const inner = heading.slice(g.open + 1, g.close);
    const words = passageTerms(inner);
    if (words.length === 0) continue;
    const rarest = Math.max(...words.map(idf));
    if (restWords.length > 0 && rarest < restRarity && rarest < RARE_WORD_IDF) continue;
    for (const reading of headingReadings(inner, idf, depth + 1)) out.add(reading);
  }
  return [...out];
}

/**
 * The outermost bracket pairs of a heading (`open` and `close` are the indexes of "(" and ")");
 * `link` marks a Markdown link's target, a bracket right after "]". An unclosed "(" and a stray
 * ")" are text.
 */
function bracketGroups(heading: string): { open: number; close: number; link: boolean }[] {
  const groups: { open: number; close: number; link: boolean }[] = [];
  let depth = 0;
  let open = -1;
  for (let k = 0; k < heading.length; k++) {
    if (heading[k] === '(') {
      if (depth === 0) open = k;
      depth++;
    } else if (heading[k] === ')' && depth > 0) {
      depth--;
      if (depth === 0) groups.push({ open, close: k, link: heading[open - 1] === ']' });
    }
  }
  return groups;
}

/** Scales each hit by `1 + weight × best heading match`; order among equal scores is kept. */
export function weighByHeadings(
  hits: ChunkHit[],
  question: string,
  modelNames: readonly string[],
  idf: (term: string) => number = () => 1,
  weight = HEADING_WEIGHT,
): ChunkHit[] {
  const names = new Set(modelNames.flatMap((m) => passageTerms(m)));
  const asked = new Set(passageTerms(question).filter((t) => !names.has(t)));
  if (asked.size === 0) return hits;
  // One search's hits share headings (sibling sections, copies of one passage): each is read once.
  const readings = new Map<string, string[]>();
  const readingsOf = (heading: string): string[] => {
    let found = readings.get(heading);
    if (!found) readings.set(heading, (found = headingReadings(heading, idf)));
    return found;
  };
  return byScore(
    hits.map((h, i) => {
      // 0 stays 0 whatever its headings (see `byScore`).
      if (h.score === 0) return { hit: h, i };
      let best = 0;
      for (const heading of sectionHeadings(h.record.text, h.record.headingPath).flatMap(readingsOf)) {
        const words = [...new Set(passageTerms(heading).filter((t) => !names.has(t)))];
        if (words.length === 0) continue;
        const shared = words.filter((t) => asked.has(t)).length;
        best = Math.max(best, (shared / words.length) * (shared / asked.size));
        // A code of letters and digits the question names ("LM7824A", once the family "LM78XX" is
        // the model) picks the section of that member among the sibling sections of one datasheet.
        if (words.some((t) => asked.has(t) && isCodeToken(t))) best = 1;
      }
      return { hit: { ...h, score: h.score * (1 + weight * best) }, i };
    }),
  );
}

/**
 * Extra share of score for a hit in a troubleshooting section when the question asks about a
 * fault. A manual answers "What can I do if the TV is not connecting to the network?" under "The
 * TV Won't Connect to the Internet" in its troubleshooting chapter, while the setup section
 * ("Connecting to the Internet") shares more of the question's words. Measured on every shared
 * set (fresh imports, default strategy): smart-tv Hit@1 .722 -> .724, .725, .728, .731, .734 at
 * 0.1, 0.2, 0.35, 0.5, 0.75 (MRR .812 -> .819 at 0.5); no other set moved at any weight (their
 * questions rarely ask about a fault, and their manuals seldom have such sections).
 */
export const PROBLEM_SECTION_WEIGHT = 0.5;

const PROBLEM_QUESTION = phrasePattern(answerTypes.problemCues);
const PROBLEM_SECTION = phrasePattern(answerTypes.problemSections);
/** Lowercase, with curly apostrophes straightened ("won’t" is "won't"). */
const straight = (text: string): string => text.toLowerCase().replace(/[\u2018\u2019]/g, "'");

/**
 * Scales each hit under a troubleshooting heading (any level of its heading path, the document's
 * title included: a whole FAQ page counts) by `1 + weight` when the question asks about a fault;
 * order among equal scores is kept.
 */
export function weighProblemSections(hits: ChunkHit[], question: string, weight = PROBLEM_SECTION_WEIGHT): ChunkHit[] {
  if (!PROBLEM_QUESTION.test(straight(question))) return hits;
  return byScore(hits.map((h, i) => ({ hit: h.score > 0 && h.record.headingPath.some((p) => PROBLEM_SECTION.test(straight(p))) ? { ...h, score: h.score * (1 + weight) } : h, i })));
}

/** `weighByHeadings` as a stage, on the question without its model names; then `weighProblemSections` on the whole question. */
export const headingMatchStage: RankStage<'heading-match'> = {
  name: 'heading-match',
  describes: "weights each hit by its section heading that best matches the question's topic, and troubleshooting sections for a question about a fault",
  run: (hits, ctx) => weighProblemSections(weighByHeadings(hits, ctx.topical, ctx.analysis.models, ctx.idf), ctx.query),
};
