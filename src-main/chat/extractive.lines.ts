import type { Line } from './extractive.render';
import type { Scored } from './extractive.pick';
import { isLabelLead } from './line-forms';
import type { Sentence } from './sentences';
import type { RemedyAsk } from './extractive.along';
import { followerOf, headsQuotedRows, joinBackReferences, listedAfter, termOf, titleOnto, withRemedyLead, withContinuation, withDescription, withOwnTitle, withParagraph, withSectionLead, withTitleBody } from './extractive.along';

/**
 * The lines of an extractive answer from its picked units, in answer order (see
 * `answerExtractively`): each with what it brings along (the rest of its paragraph, a definition
 * list's term or description, the line after an echo of the question), and a lead sentence with
 * the list, table rows or code it opens.
 */

/** What `quotedLinesOf` may know of the question. */
export interface QuotedLinesOptions {
  /** The title lines that name the question, each quoted with the first line under it (see `withOwnTitle`). */
  askedTitles?: ReadonlySet<Sentence>;
  /**
   * What the question asks of a troubleshooting section, when the caller gives it: its opening
   * then leads a line only for a question about that problem (see `withRemedyLead`).
   */
  remedy?: RemedyAsk;
}

/**
 * The quoted lines for `picked` (already in answer order); `units` are the passages' sentences,
 * `echoes` the lines that only restate the question (each quoted with its follower), `modelOf` the
 * model a line is shown under, `maxListed` the most items or rows a lead brings.
 */
export function quotedLinesOf(
  picked: readonly Scored[],
  units: readonly (readonly Sentence[])[],
  echoes: ReadonlySet<Sentence>,
  modelOf: (pi: number, sentence: Sentence) => string | null,
  maxListed: number,
  options: QuotedLinesOptions = {},
): Line[] {
  const askedTitles = options.askedTitles ?? new Set<Sentence>();
  // Lead sentences bring their list or table rows; quoted lines keep their model.
  const lines: Line[] = [];
  const quoted = new Set<Sentence>();
  // The lead line that brought each block ("passage:block") it opens.
  const broughtBy = new Map<string, Line>();
  for (const s of picked) {
    if (quoted.has(s.sentence)) continue;
    quoted.add(s.sentence);
    // A title whose first line is quoted already heads that line ("Unable to connect to a wireless router: Check if ...").
    if (titleOnto(lines, s.passage, s.sentence, units[s.passage]!)) continue;
    const line: Line = { passage: s.passage, sentence: s.sentence, model: modelOf(s.passage, s.sentence), sub: false, before: [], after: [] };
    lines.push(line);
    const next = echoes.has(s.sentence) ? followerOf(units[s.passage]!, s.sentence) : null;
    if (withDescription(line, units[s.passage]!, quoted) || withTitleBody(line, units[s.passage]!, quoted)) {
      // A term of a definition list left as text, quoted with what it does ("Dynamic: Makes the picture brighter ...").
    } else if (next && !quoted.has(next)) {
      quoted.add(next);
      line.after.push(next);
      // An echo that ends its paragraph, its follower in the next one, closes what the sentences
      // before it say: they come too (see `withParagraph`), "... you can use Remote Access to let a
      // technician update its firmware over the web." before "You can also turn Remote Access on
      // and off."; quoted apart, they took a later line of their own, or none. An echo inside its
      // paragraph with its follower is a statement of its own ("The QFN68 package does not
      // support the BOOT function." for "Is BOOT supported on that package?"), which the sentence
      // before it would push off the line's start. smart-tv any 574 -> 576, first 361 -> 363 (none
      // lost on any set); 14 of 944 answers change, +79 characters on average (at most +144; 3
      // lines fewer in all, a line's own paragraph joined to it).
      if (next.para !== s.sentence.para) withParagraph(line, units[s.passage]!, quoted);
    } else {
      withParagraph(line, units[s.passage]!, quoted);
    }
    // A description of a definition list left as text is quoted with its term ("Movie: Is suitable for ...").
    const term = termOf(units[s.passage]!, line.before[0] ?? s.sentence);
    if (term && !quoted.has(term)) {
      quoted.add(term);
      line.before.unshift({ ...term, text: `${term.text}:` });
    }
    withOwnTitle(line, units[s.passage]!, quoted, askedTitles);
    withContinuation(line, units[s.passage]!, quoted);
    withSectionLead(line, units[s.passage]!, quoted);
    // The opening of a troubleshooting section goes before the first line quoted from its passage
    // (see `withRemedyLead`). Measured on all six sets: smart-tv any 576 -> 583, first 371 -> 378
    // (none lost on any set, off-topic "not found" unchanged); 32 of 944 answers change, smart-tv
    // 1027 -> 1031 characters an answer on average.
    if (lines.every((l) => l === line || l.passage !== s.passage)) withRemedyLead(line, units[s.passage]!, quoted, options.remedy);
    if (s.sentence.opens === undefined) continue;
    if (headsQuotedRows(lines, line, units[s.passage]!, quoted, maxListed, (member) => modelOf(s.passage, member))) {
      broughtBy.set(`${s.passage}:${s.sentence.opens}`, line);
      continue;
    }
    const count = lines.length;
    const members = listedAfter(units[s.passage]!, s.sentence, quoted, maxListed);
    for (const member of members) quoted.add(member);
    const block = `${s.passage}:${s.sentence.opens}`;
    const first = broughtBy.get(block);
    if (!first && members.length > 0) broughtBy.set(block, line);
    // The rest of a block another lead brought (cut to the list budget; a sentence pointing back at
    // it brings more: "The above is from a forum post") goes on under that lead, in its place, not
    // as lines of no lead ("}", "delay(1000);").
    if (first && members.length > 0) {
      let at = lines.indexOf(first);
      while (lines[at + 1]?.lead === first) at++;
      lines.splice(at + 1, 0, ...members.map((member): Line => ({ passage: s.passage, sentence: member, model: modelOf(s.passage, member), sub: true, before: [], after: [], lead: first })));
      continue;
    }
    // A sentence pointing back ("Add the above URL to the preferences") follows what it points
    // at, as in the manual: the code comes first, then the sentence that says what to do with it.
    if (members.length > 0 && members[0]!.offset < s.sentence.offset) {
      lines.splice(lines.indexOf(line), 0, ...members.map((member): Line => ({ passage: s.passage, sentence: member, model: modelOf(s.passage, member), sub: false, before: [], after: [] })));
      continue;
    }
    for (const member of members) lines.push({ passage: s.passage, sentence: member, model: modelOf(s.passage, member), sub: true, before: [], after: [], lead: line });
    // A lead that is only a label ("**Power on / off:**") heads its list; the items are the quote.
    if (lines.length > count && line.before.length === 0 && line.after.length === 0 && isLabelLead(s.sentence)) line.heads = true;
  }

  joinBackReferences(lines, units);
  return lines;
}
