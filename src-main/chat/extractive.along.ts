import { escapeRe } from '../core/text';
import cues from './data/question-cues.json';
import type { Line } from './extractive.render';
import { conditionOf, isInstruction, isLabelLead, isNameRun, labelOf, sectionOpening } from './line-forms';
import { restatesProblem } from './question-kind';
import type { Sentence } from './sentences';
import { terms } from './sentences';

/**
 * What a quoted line of an extractive answer brings along (see `answerExtractively`): the list or
 * code a lead sentence opens, the rest of its paragraph, the line that follows an echo of the
 * question, and the rows quoted before their caption (`headsQuotedRows`).
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
  // The items nested under an item of the list (one ending in ":" opens them) are the list's too.
  const nested = new Set(units.filter((u) => u.block === lead.opens && u.kind === 'item' && u.opens !== undefined).map((u) => u.opens));
  const block = units.filter((u) => u.block === lead.opens || nested.has(u.block));
  // A list numbered from past 1 is not the one the lead announces: a numbered section after the
  // lead's figure ("... as follows:", then "4. ISP (take CH592 as example)" in a PDF page's text).
  if ((block[0]?.ordinal ?? 1) > 1) return [];
  const members = block.filter((u) => !quoted.has(u)).slice(0, max);
  const [only] = members;
  // Not under an item: one item nested under another ("Added CODEC power control:", then "CODEC_PWR_CTRL: IO48") is its whole list.
  if (members.length !== 1 || only?.kind !== 'item' || lead.kind === 'item') return members;
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
  // What the line quotes already (an echo's follower) counts toward its length.
  let length = [sentence, ...line.before, ...line.after].reduce((n, u) => n + u.text.length, 0);
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
  // The term of the next entry of a definition list ("Settings", then what it does) starts that entry.
  const described = units[units.indexOf(next) + 1];
  if (described && termOf(units, described) === next) return null;
  return sentence.block === -1 || next.block === sentence.block ? next : null;
}

/**
 * Whether `heading` is the one a title line left as text opened (`splitSentences`): the title
 * itself, or the title under the heading it was read below ("Parent › Title").
 */
function headedBy(heading: string | null, title: string): boolean {
  return heading !== null && (heading === title || heading.endsWith(` › ${title}`));
}

/** Most words of a term of a definition list left as text ("Movie", "Reset Picture"). */
const TERM_WORDS = 3;

/** A short line of its own that names a term: at most `TERM_WORDS` words, a capital first, no sentence or clause punctuation at its end. */
function isTermLine(units: readonly Sentence[], u: Sentence | undefined): u is Sentence {
  if (!u || u.kind !== 'prose' || u.para === undefined || !/^\p{Lu}/u.test(u.text) || /[.!?:;,。]$/.test(u.text)) return false;
  return u.text.split(/\s+/).length <= TERM_WORDS && units.filter((v) => v.para === u.para).length === 1;
}

/** A line that goes on in the next paragraph: prose with no sentence end ("... set Auto Update", then "OFF" in a PDF's text). */
function unfinished(u: Sentence | undefined): boolean {
  return u !== undefined && u.kind === 'prose' && !u.title && u.text.split(/\s+/).length > TERM_WORDS && !/[.!?:;。)\]"”]$/.test(u.text);
}

/**
 * The term right before a paragraph's first sentence, when it names that paragraph (a term, then
 * its description, under one heading). Not a line's last words carried over ("OFF" after "...
 * set Auto Update", then "Automatic update is enabled ..."), nor a fragment that opens with an
 * article ("The Not", of a table's cell), nor a pin name a figure's text pairs with another
 * ("PAD_GPIO_8", then "PAD_EXT_RST_N").
 */
function termBefore(units: readonly Sentence[], at: number): Sentence | null {
  const first = units[at];
  const term = units[at - 1];
  if (!first || first.kind !== 'prose' || first.para === undefined || !isTermLine(units, term) || term.para === first.para) return null;
  if (/^(?:the|a|an)\s/i.test(term.text) || term.text.includes('_')) return null;
  // A description says something in a sentence; one already labelled ("Slow Forward: Allows ...") has its term.
  if (first.text.split(/\s+/).length <= TERM_WORDS || labelOf(first.text) !== null) return null;
  // After a line with no sentence end, a term is its last words unless the entries of this list
  // all go unpunctuated (tabs of a page, one per model: "ROCK 4A+/4B+", then its CPU's line).
  const last = units.filter((u) => u.para === first.para).pop();
  if (unfinished(units[at - 2]) && !unfinished(last)) return null;
  // The heading a title term opened is the description's (see `splitSentences`); a plain term shares it.
  if (term.heading !== first.heading && !(term.title && headedBy(first.heading, term.text))) return null;
  return term;
}

/**
 * The term a quoted line describes, when a definition list was left as text ("Movie", then "Is
 * suitable for watching TV or movies in a dark room."; a PDF converter's rendering of a table of
 * modes or options): the line opens its paragraph, a short term line comes right before it, and
 * another term and description pair adjoins that one (a lone short line before a paragraph may be
 * anything). Quoted alone, such a description does not say what it describes.
 */
export function termOf(units: readonly Sentence[], sentence: Sentence): Sentence | null {
  const at = units.indexOf(sentence);
  if (at < 1 || units.findIndex((u) => u.para === sentence.para) !== at) return null;
  const term = termBefore(units, at);
  if (!term) return null;
  // The pair before: a description paragraph ending right before the term, with its own term.
  const prev = units[at - 2];
  const prevStart = prev?.para === undefined ? -1 : units.findIndex((u) => u.para === prev.para);
  if (prevStart >= 1 && termBefore(units, prevStart) !== null) return term;
  // The pair after: a term right after this paragraph, then its description.
  const end = at + units.filter((u) => u.para === sentence.para).length;
  return isTermLine(units, units[end]) && termBefore(units, end + 1) !== null ? term : null;
}

/**
 * Quotes a term of a definition list left as text (see `termOf`) with its description, the rest of
 * that paragraph as far as the line stays short (as `withParagraph` does): the term alone says
 * nothing. False (and `line` as it was) when `line` quotes no such term or its description is
 * quoted already.
 */
export function withDescription(line: Line, units: readonly Sentence[], quoted: Set<Sentence>): boolean {
  const first = units[units.indexOf(line.sentence) + 1];
  if (!first || quoted.has(first) || termOf(units, first) !== line.sentence) return false;
  line.sentence = { ...line.sentence, text: `${line.sentence.text}:` };
  let length = 0;
  for (const u of units.filter((v) => v.para === first.para)) {
    if (quoted.has(u) || (u !== first && length + u.text.length > PARAGRAPH_CHARS)) break;
    line.after.push(u);
    quoted.add(u);
    length += u.text.length;
  }
  return true;
}

/**
 * Joins a quoted line that opens by pointing back ("This function may not be supported depending
 * on the model.", "It shows you how to connect ...") to the quoted line it points back at: the one
 * that ends with the unit right before it, under the same heading, and comes before it in the
 * answer. Quoted as a line of its own, "This function" says nothing of which function. A line that
 * leads the line it points back at stays first and apart: it answers ("It comes in a 51 × 51 mm
 * form factor." for "how big is it?"), and joined it would open with the line that does not.
 * Lines a lead brought, and lines with text quoted before them, stay as they are.
 */
export function joinBackReferences(lines: Line[], units: readonly (readonly Sentence[])[]): void {
  const lastOf = (l: Line): Sentence => l.after[l.after.length - 1] ?? l.sentence;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.sub || l.lead || l.heads || l.before.length > 0 || l.sentence.kind !== 'prose' || !BACK_REFERENCE.test(l.sentence.text)) continue;
    const own = units[l.passage]!;
    const prev = own[own.indexOf(l.sentence) - 1];
    if (!prev || prev.heading !== l.sentence.heading || (prev.kind !== 'prose' && prev.kind !== 'item')) continue;
    const at = lines.findIndex((x) => x !== l && x.passage === l.passage && !x.heads && lastOf(x).offset === prev.offset);
    if (at < 0 || at > i) continue;
    lines[at]!.after.push(l.sentence, ...l.after);
    lines.splice(i, 1);
    i--;
  }
}

/**
 * Quotes with a line the words its last sentence goes on with in the next paragraph, when a PDF
 * converter broke it there: a prose line of more than a few words with no sentence end ("... run
 * Start", then "Picture Test"; "... restrictions to entering Ambient", then "Mode"), followed by a
 * short prose line (at most `TERM_WORDS` words) not yet quoted, under the same heading or as the
 * title that line was read as, when the name the two make ("Start Picture Test", "Ambient Mode")
 * is written whole elsewhere in the passage. A line that only lacks its full stop ("... is set
 * to Off", then the title "Local Dimming") goes on with nothing.
 */
export function withContinuation(line: Line, units: readonly Sentence[], quoted: Set<Sentence>): void {
  const last = line.after[line.after.length - 1] ?? line.sentence;
  if (!unfinished(last)) return;
  const at = units.findIndex((u) => u.offset === last.offset);
  const next = units[at + 1];
  if (!next || quoted.has(next) || next.kind !== 'prose' || next.para === last.para || next.text.split(/\s+/).length > TERM_WORDS) return;
  if (next.heading !== last.heading && !(next.title && headedBy(next.heading, next.text))) return;
  const name = `${last.text.split(/\s+/).pop()!} ${next.text}`;
  if (!units.some((u) => u !== last && u !== next && u.text.includes(name))) return;
  line.after.push(next);
  quoted.add(next);
}

/**
 * Quotes a title line a converter left as text ("Selecting the caption language") with the first
 * line under it, when that line is not quoted yet: a title alone names a topic and says nothing of
 * it. A title that heads a list or code (it opens a block) brings that instead; a menu path set as
 * a sub-title ("Settings General Accessibility Caption Settings": most words capitalised), a
 * label with its value, and a figure's text with numbers ("Input D45H11 1mH Output") are quoted as
 * they are.
 */
export function withTitleBody(line: Line, units: readonly Sentence[], quoted: Set<Sentence>): boolean {
  const title = line.sentence;
  if (line.after.length > 0 || line.before.length > 0) return false;
  const next = bodyOf(title, units);
  if (!next || quoted.has(next) || title.text.length + next.text.length > PARAGRAPH_CHARS) return false;
  line.sentence = { ...title, text: `${title.text}:` };
  line.after.push(next);
  quoted.add(next);
  return true;
}

/** The first line under a title that `withTitleBody` quotes it with, or null. */
function bodyOf(title: Sentence, units: readonly Sentence[]): Sentence | null {
  if (!title.title || title.opens !== undefined || labelOf(title.text) !== null || /\d/.test(title.text)) return null;
  // A run of capitalised names ("Settings General Eco Solution Motion Lighting") is a menu path, not a topic.
  const words = title.text.split(/\s+/);
  if (words.filter((w) => /^\p{Lu}/u.test(w)).length * 10 >= words.length * 7) return null;
  const next = units[units.indexOf(title) + 1];
  if (!next || next.title || (next.kind !== 'prose' && next.kind !== 'item')) return null;
  if (!headedBy(next.heading, title.text)) return null;
  return next;
}

/**
 * Puts a title (see `withTitleBody`) before its first line when that line is quoted already,
 * opening a quoted line, as "Title: ..." (true); the title takes no line of its own then. The
 * line may be another's that brought it as the start of its paragraph ("The item is removed."
 * quoted first, with "Move the focus to the item ..." before it).
 */
export function titleOnto(lines: readonly Line[], passage: number, title: Sentence, units: readonly Sentence[]): boolean {
  const body = bodyOf(title, units);
  const line = body ? lines.find((l) => l.passage === passage && (l.before[0] ?? l.sentence) === body) : undefined;
  if (!line) return false;
  line.before.unshift({ ...title, text: `${title.text}:` });
  return true;
}

/**
 * Quotes the title a line opens the section of (see `withTitleBody`) before it, when the title is
 * one of `asked` (it names the question) and not quoted yet: "Removing an item on the Home Screen:
 * Move the focus to the app ..." for "Can I remove an item from the Home Screen?". The title says
 * which section answers; quoted on a line of its own, it cost a line of the answer's budget (or did
 * not fit in it). True when it did.
 */
export function withOwnTitle(line: Line, units: readonly Sentence[], quoted: Set<Sentence>, asked: ReadonlySet<Sentence>): boolean {
  const first = line.before[0] ?? line.sentence;
  const title = units[units.indexOf(first) - 1];
  if (!title || !asked.has(title) || quoted.has(title) || bodyOf(title, units) !== first) return false;
  line.before.unshift({ ...title, text: `${title.text}:` });
  quoted.add(title);
  return true;
}

/**
 * A label quoted after lines of the block it opens (a table row that scored above its caption
 * "**HY2.0-4P-PortA(Red)**"): the label heads those lines, in the place of the first of them and
 * in their order (the line that answers stays first under it), and the block's rows not quoted
 * yet follow within the list budget; read the other way round, the label would seem to name what
 * comes after it. False, and nothing moves, when the line is no label, none of its block's lines
 * is quoted yet, one of them heads lines of its own (an item with its nested list), or the block
 * is a list numbered from past 1, which `listedAfter` does not take for the label's either.
 */
export function headsQuotedRows(lines: Line[], line: Line, sentences: readonly Sentence[], quoted: Set<Sentence>, maxListed: number, modelOf: (s: Sentence) => string | null): boolean {
  const block = line.sentence.opens;
  if (block === undefined || !isLabelLead(line.sentence) || line.before.length > 0 || line.after.length > 0) return false;
  const own = lines.filter((l) => l !== line && !l.sub && l.passage === line.passage && l.sentence.block === block && l.sentence.kind !== 'prose');
  if (own.length === 0 || own.some((l) => l.heads || lines.some((x) => x.lead === l))) return false;
  if ((sentences.find((u) => u.block === block)?.ordinal ?? 1) > 1) return false;
  const members = listedAfter(sentences, line.sentence, quoted, Math.max(0, maxListed - own.length));
  for (const member of members) quoted.add(member);
  const at = lines.indexOf(own[0]!);
  const head = lines.slice(0, at).filter((l) => l !== line);
  const tail = lines.slice(at).filter((l) => l !== line && !own.includes(l));
  line.heads = true;
  for (const l of own) Object.assign(l, { sub: true, lead: line });
  const added = members.map((sentence): Line => ({ passage: line.passage, sentence, model: modelOf(sentence), sub: true, before: [], after: [], lead: line }));
  // The quoted rows keep their order (the best first), the others follow in reading order.
  const under = [...own, ...added];
  lines.splice(0, lines.length, ...head, line, ...under, ...tail);
  return true;
}

/**
 * Quotes the line that opens the section of `line`'s first unit before it (see `sectionOpening`),
 * when `accepts` takes that first unit and the opening: a prose sentence, no title, not the unit
 * itself, before it, not quoted yet, and keeping the line short (`PARAGRAPH_CHARS`). True when it did.
 */
function prependSectionOpening(line: Line, units: readonly Sentence[], quoted: Set<Sentence>, accepts: (first: Sentence, opening: Sentence) => boolean): boolean {
  const first = line.before[0] ?? line.sentence;
  const opening = sectionOpening(units, first);
  if (!opening || opening === first || opening.kind !== 'prose' || opening.title || quoted.has(opening) || opening.offset > first.offset || !accepts(first, opening)) return false;
  const length = [opening, ...line.before, line.sentence, ...line.after].reduce((a, u) => a + u.text.length, 0);
  if (length > PARAGRAPH_CHARS) return false;
  line.before.unshift(opening);
  quoted.add(opening);
  return true;
}

/**
 * Quotes a run of names left as text (a menu's options a PDF converter flattened: "Balance Try Now
 * Equalizer Try Now HDMI Input Audio Format Try Now") with the sentence that opens its section,
 * before it: "You can personalize the sound quality by adjusting the following settings." says
 * what those names are and what they are for; the run alone names them only. Only a prose
 * sentence that is no title or run of names itself, comes before the run, is not quoted yet, and
 * keeps the line short (`PARAGRAPH_CHARS`). True when it did.
 */
export function withSectionLead(line: Line, units: readonly Sentence[], quoted: Set<Sentence>): boolean {
  return prependSectionOpening(line, units, quoted, (run, opening) => !run.title && run.kind === 'prose' && isNameRun(run) && !isNameRun(opening));
}

/**
 * A main clause saying that what follows remedies a trouble: a remedy verb with its object ("may
 * help resolve the problem", "the following may solve it") or a phrase of remedy ("these steps may
 * help", "try the following"). Not the question cues' "fix", "resolve" alone: "fix the bracket to a
 * stud" is an instruction of its own.
 */
const REMEDY = new RegExp(
  `(?<![\\p{L}])(?:(?:${cues.remedyVerbs.map(escapeRe).join('|')})\\s+(?:${cues.remedyObjects.map(escapeRe).join('|')})|${cues.remedyPhrases.map(escapeRe).join('|')})(?![\\p{L}])`,
  'iu',
);

/**
 * Whether a sentence opens with a condition and says that what follows remedies it ("When the TV
 * has difficulties receiving broadcasts, these steps may help resolve the problem."): a
 * troubleshooting section's opening. A condition with any other main clause ("When you press the
 * button in Ambient Mode, the browser screen appears.") states a fact of its own, and one whose
 * main clause is an instruction ("If the wall is made of plasterboard, fix the bracket to a stud
 * with the screws supplied.") tells what to do in that case only.
 */
export function opensRemedies(opening: Sentence): boolean {
  if (!conditionOf(opening.text)) return false;
  const main = opening.text.slice(opening.text.indexOf(',') + 1).trim();
  return REMEDY.test(main) && !isInstruction({ ...opening, text: main, label: undefined });
}

/**
 * What a question asks of a troubleshooting section (see `withRemedyLead`), as the answerer read
 * the question: whether it asks about a problem (`questionKind`), whether it is a yes or no
 * question (`YES_NO`), and its stemmed words.
 */
export interface RemedyAsk {
  problem: boolean;
  yesNo: boolean;
  words: ReadonlySet<string>;
}

/**
 * Quotes the opening of a troubleshooting section (see `opensRemedies`) before the line that leads
 * that passage in the answer, when that line states rather than instructs (a problem of a
 * troubleshooting table left as text: "Weak or No Signal displayed in TV mode/ cannot find
 * channel."): the opening says which trouble the section takes up, in words the problem's line
 * need not share. Only while the line stays short (`PARAGRAPH_CHARS`), and, when the question is
 * known (`ask`), only for a question about a problem or one that states the problem of that line
 * ("The serial port is missing in the IDE"; not a yes or no question, which asks about a fact): the
 * opening answers nothing else. True when it did.
 */
export function withRemedyLead(line: Line, units: readonly Sentence[], quoted: Set<Sentence>, ask?: RemedyAsk): boolean {
  return prependSectionOpening(line, units, quoted, (first, opening) => {
    if (first.title || first.kind !== 'prose' || isInstruction(first) || !opensRemedies(opening)) return false;
    return !ask || ask.problem || (!ask.yesNo && restatesProblem(first.text, terms(first.text), ask.words, false));
  });
}
