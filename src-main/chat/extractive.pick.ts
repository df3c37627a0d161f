import type { Passage } from './passages';
import type { Sentence } from './sentences';
import { everyModelShown } from '../search/compared-models';

/**
 * Which scored lines an extractive answer quotes and in which order of passages (see
 * `answerExtractively`): the budget of lines, the steps a procedure must not skip, and when a later
 * passage leads.
 */

/** A quotable unit with its score for the question. */
export interface Scored {
  passage: number;
  sentence: Sentence;
  score: number;
  /** Weight for the line's place in its passage only (not for whether it is quoted). */
  lead?: number;
}

/**
 * Share of the best score a further sentence needs to be quoted too. At 0.25 a line that names
 * nearly every question word (a pin-map row "M5StickC: ToF HAT; GPIO0: SDA; GPIO26: SCL" for
 * "ToF HAT on M5StickC: which GPIOs?") kept the rest of the answer out, the description line
 * "Communication Info: I2C, 0x29, GPIO0/26." with it, though the answer had room for four more
 * lines. Answer bench at 0.2: m5stack +1 any line, smart-tv +1; at 0.15: m5stack +3, smart-tv +1;
 * at 0.1 the same, and seeed-xiao +1 once the relevance gate counts a value's unit as the word it
 * measures (a comparison row "Processor: ... @240 MHz; ..." for "CPU frequency"); no first line
 * and no other set moved. The answer's line budget is unchanged.
 */
const KEEP_RATIO = 0.1;

/** The kind of line a question asks for, and how well a later passage's line of that kind must score to lead. */
export interface AskedKind {
  is: (s: Scored) => boolean;
  /** Share of the first passage's best line score that a later passage's line of the kind needs to lead. */
  share: number;
}

/** The order of the quoted passages, and the line that leads the first one when the kind of line asked for moved it up. */
export interface PassageOrder {
  rank: (pi: number) => number;
  /** That passage's best line of the asked kind: it is why the passage leads, so it leads the passage. */
  lead?: Scored;
}

/**
 * The rank of each quoted passage in the answer: search order, except that when the best passage
 * has no line whose label the question names and a later one does (of the same document, or of
 * the model asked about), that one comes first; failing that, one with a line of the asked kind
 * the first lacks (see `kindOrder`); failing that, a later passage of the first one's document
 * whose best line, weighed for its place in its passage, scores well above the first one's comes
 * first (see `BETTER_LEAD`).
 *
 * Session 33 read the 98 smart-tv questions whose gold line was quoted from a later passage than
 * the first line's, which lacked it: 7 near copies (the first line says the same, from a parallel
 * section of the manual: "update its software automatically" for "have the TV's software update
 * itself automatically"); 20 whose gold was one of the two lines quoted after the order was decided
 * (mostly a "Label: ..." line the question names, in a parallel section; letting those lead lost
 * first lines in session 32); 14 a lead ending in ":" whose list names the asked setting; 5 a
 * section's lead sentence ("these steps may help resolve the problem"); 6 a label the question names
 * (one-word labels, or a how-to question, which labels do not lead by design); 46 others, most of
 * them a line of another section that answers as well as the first one does. The gold passage sat
 * in the manual's parallel parts both ways (an accessibility or quick guide chapter before the main
 * one about as often as after), so no part of the manual may be preferred. Tried and dropped: a
 * later hit among the first three whose own heading names every topic word of the question (or
 * more of them than the first hit's heading) first, in retrieval: smart-tv first lines 361 -> 357
 * (one won, five lost) and, for more of them, 361 -> 328 (all sets: 13 first lines won, 48 lost,
 * galaxy-s10 and seeed-xiao one each);
 * the search's order, which weighs headings already, was right more often.
 *
 * Session 34 read 60 of the 98 again: about half a parallel section that answers as well (an
 * accessibility guide's "Picture Mode: You can select ..." or a voice-command list beside the main
 * chapter's section; gold strings of two sections for one question), 14 list leads ("Configure the
 * screen settings ... following functions:" whose flattened list names the asked setting, where the
 * first passage has a label naming it: "Color Tone: Adjusts the colors ... for Ambient Mode"), about
 * 8 troubleshooting tables whose first passage only restates the problem ("The TV is making a
 * popping noise.") and whose next chunk gives the cause, and a few a heading naming the question
 * ("Connection notes for HDMI"). Tried and dropped, smart-tv first lines: with `BETTER_LEAD` at 4, a
 * later passage with a heading holding 0.9 of the question's words leading a first one with none
 * (its best line at least 0.5 of the first one's: 9 lost, one won; at 0.8: 2 lost) and weighing
 * `kindOrder`'s share by lead weight too (10 lost); before it, a passage with a line opening with
 * the asked task or problem (`serves`) leading before any other kind (+2 -9), and lead-weighted
 * scores at 1.5 for problem questions only (+1 -2).
 *
 * `borrowed` are section openings that serve the asked problem only because a line of their
 * section restates it (see the answerer's troubleshooting opening): a flattened troubleshooting
 * table lists "The wireless network signal is too weak." under the Internet section, whose opening
 * then leads that passage, though the question ("Can I fix Weak or No Signal issue?") is taken up
 * by a later section that opens with the asked problem as its own condition. Such an opening is no
 * line of the asked kind for `kindOrder`, neither keeping the first passage first nor moving a
 * later one up. Session 35, all six sets: smart-tv +2 -1 first lines (the lost one a parallel
 * section: "distorted picture" is both a broadcast and a picture problem); no other set moved.
 *
 * A label the question names moves its passage up by `labelOrder` only over a first passage that
 * has no line of the asked kind, or from a passage that has one too: "What can I do if Schedule
 * Recording is not working?" was led by "Schedule Recording: You can schedule recording ..." (it
 * says what the function is) over the troubleshooting section that opens with the asked problem as
 * its condition. Session 35, all six sets: smart-tv +1 first line, no question lost on any set.
 * Held back, that passage is ordered as any other: it still leads when its best line answers
 * clearly better than the first passage's (`BETTER_LEAD`, last below).
 *
 * Asked about a problem, a first passage that only restates it (`restating`, see `answeringOrder`),
 * with no line of the asked kind, yields the lead to the next passage of its manual that answers.
 */
export function passageOrder(picked: readonly Scored[], named: ReadonlySet<number>, used: readonly Passage[], models: readonly string[], asked?: AskedKind, borrowed: ReadonlySet<Sentence> = new Set(), restating: ReadonlySet<Sentence> = new Set()): PassageOrder {
  const first = Math.min(...picked.map((p) => p.passage));
  const kindOf = asked ? { ...asked, is: (p: Scored) => asked.is(p) && !borrowed.has(p.sentence) } : undefined;
  const hasKind = (pi: number): boolean => kindOf !== undefined && picked.some((p) => p.passage === pi && kindOf.is(p));
  const byLabel = labelOrder(picked, named, used, models);
  const labelled = picked.find((p) => byLabel(p.passage) < 0)?.passage;
  if (labelled !== undefined && !(hasKind(first) && !hasKind(labelled))) return { rank: byLabel };
  const byKind = kindOf ? kindOrder(picked, used, first, kindOf) : null;
  if (byKind) return byKind;
  if (!hasKind(first)) {
    const answering = answeringOrder(picked, used, first, restating);
    if (answering) return { rank: answering };
  }
  // Inside one manual, search ranks sections by all their words; a section whose best line
  // answers clearly better (rank discount and lead weight included, see `BETTER_LEAD`) leads.
  // Across documents the search's model-aware order stands.
  const best = new Map<number, number>();
  for (const p of picked) best.set(p.passage, Math.max(best.get(p.passage) ?? 0, leadScore(p)));
  const top = [...best].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
  const leads = top !== first && used[top]!.hit.doc === used[first]!.hit.doc && best.get(top)! > BETTER_LEAD * best.get(first)!;
  return { rank: leads ? (pi) => (pi === top ? -1 : pi) : (pi) => pi };
}

/**
 * The first passage's manual puts the line of the kind the question asks for (an instruction, for a
 * how-to question; a value in the asked unit, for "how much current") in a later section: when none
 * of the first passage's quoted lines is of that kind and a later passage of the same document has
 * one scoring at least `asked.share` of the first passage's best line, that passage comes first,
 * led by that line (null: no such passage).
 */
function kindOrder(picked: readonly Scored[], used: readonly Passage[], first: number, asked: AskedKind): PassageOrder | null {
  const mine = picked.filter((p) => p.passage === first);
  if (mine.some(asked.is)) return null;
  const best = Math.max(...mine.map((p) => p.score));
  const found = picked
    .filter((p) => p.passage !== first && used[p.passage]!.hit.doc === used[first]!.hit.doc && asked.is(p) && p.score >= asked.share * best)
    .sort((a, b) => a.passage - b.passage)[0];
  if (!found) return null;
  const lead = picked.filter((p) => p.passage === found.passage && asked.is(p)).sort((a, b) => leadScore(b) - leadScore(a))[0]!;
  return { rank: (pi) => (pi === found.passage ? -1 : pi), lead };
}

/**
 * The order when the first passage only restates the asked problem: its best line by score is one
 * of `restating` (a flattened troubleshooting table's problem column, "The TV is making a popping
 * noise. The TV is making a humming noise."), and the next passage of its document that restates
 * nothing, with a line that scores above every line of the first passage that does not restate it,
 * both bare and weighed for its place, answers ("The expansion and contraction of the TV's outer
 * casing may cause a popping noise."): that passage comes first (null: no such passage). A first
 * passage whose table row gives the solution after the restated problem ("Broadcasting cannot be
 * accessed while a recording is in progress ...") keeps the lead by its bare score: with the
 * weighed score alone, a later passage's "If the function is deactivated ..." led it (smart-tv +1
 * -1 first lines; with both, +1 and none lost on any set, off-topic unchanged).
 */
function answeringOrder(picked: readonly Scored[], used: readonly Passage[], first: number, restating: ReadonlySet<Sentence>): ((pi: number) => number) | null {
  const mine = picked.filter((p) => p.passage === first);
  const top = ranked(mine)[0];
  if (!top || !restating.has(top.sentence)) return null;
  const others = mine.filter((p) => !restating.has(p.sentence));
  const own = Math.max(0, ...others.map(leadScore));
  const ownScore = Math.max(0, ...others.map((p) => p.score));
  const restates = new Set(picked.filter((p) => restating.has(p.sentence)).map((p) => p.passage));
  const next = picked
    .filter((p) => p.passage !== first && !restates.has(p.passage) && used[p.passage]!.hit.doc === used[first]!.hit.doc && leadScore(p) > own && p.score > ownScore)
    .sort((a, b) => a.passage - b.passage)[0];
  return next ? (pi) => (pi === next.passage ? -1 : pi) : null;
}

/**
 * Search order, or the passage with a line whose label the question names first (see
 * `passageOrder`). With no model asked, only a passage of the first one's document may lead: a
 * question naming a product the library's vocabulary does not know ("the battery capacity of the
 * current Basic") had the search's page of that product give way to another product's "Battery
 * capacity: 190mAh" (m5stack +1 first line, no other question on any set moved).
 */
function labelOrder(picked: readonly Scored[], named: ReadonlySet<number>, used: readonly Passage[], models: readonly string[]): (pi: number) => number {
  const first = Math.min(...picked.map((p) => p.passage));
  if (named.has(first)) return (pi) => pi;
  const ownSource = (pi: number): boolean => {
    const model = used[pi]!.hit.signature.model;
    return used[pi]!.hit.doc === used[first]!.hit.doc || (model !== null && models.includes(model));
  };
  const lead = picked.map((p) => p.passage).filter((pi) => named.has(pi) && ownSource(pi)).sort((a, b) => a - b)[0];
  return (pi) => (pi === lead ? -1 : pi);
}

/** A numbered step of a procedure written as text ("Step 2: Hold down the Download button"), with its number. */
const STEP_NUMBER = /^step\s*(\d{1,2})\b/i;

/** The number of a step written as text (`STEP_NUMBER`), or undefined for any other line. */
function stepNumber(sentence: Sentence): number | undefined {
  const m = STEP_NUMBER.exec(sentence.text);
  return m ? Number(m[1]) : undefined;
}

/**
 * The picked lines, with the steps between two picked steps of one procedure added: a procedure
 * quoted as "Step 1", "Step 3" misses the step in between, which may be the one asked about
 * ("Step 2: connect the PA1 pin to VCC"). A procedure is a run of steps in reading order under one
 * heading of one passage whose numbers rise: a step numbered no higher than the one before starts
 * another procedure ("To pair a speaker instead:" then "Step 1" again), whose steps never fill the
 * first one's gaps. A gap is filled whole or not at all (half a gap still skips a step), smallest
 * first, while the added lines stay within `maxAdded` (the answer's line budget: a gap wider than
 * that is a long procedure the answer does not quote whole).
 */
export function withGapsFilled(picked: readonly Scored[], scored: readonly Scored[], units: readonly (readonly Sentence[])[], maxAdded: number): Scored[] {
  const out = [...picked];
  const have = new Set(picked.map((p) => p.sentence));
  const gaps: Sentence[][] = [];
  for (const sentences of units) {
    const runs: { unit: Sentence; step: number }[][] = [];
    for (const unit of sentences) {
      const step = stepNumber(unit);
      if (step === undefined) continue;
      const run = runs[runs.length - 1];
      const last = run?.[run.length - 1];
      if (run && last && last.unit.heading === unit.heading && last.step < step) run.push({ unit, step });
      else runs.push([{ unit, step }]);
    }
    for (const run of runs) {
      const at = run.flatMap((s, i) => (have.has(s.unit) ? [i] : []));
      for (let j = 1; j < at.length; j++) if (at[j]! - at[j - 1]! > 1) gaps.push(run.slice(at[j - 1]! + 1, at[j]).map((s) => s.unit));
    }
  }
  let added = 0;
  for (const gap of gaps.sort((a, b) => a.length - b.length)) {
    if (added + gap.length > maxAdded) break;
    for (const u of gap) {
      const entry = scored.find((x) => x.sentence === u);
      if (entry) out.push(entry);
    }
    added += gap.length;
  }
  return out;
}

/** A line's score weighed for its place in its passage (`Scored.lead`): how strongly it answers first. */
function leadScore(p: Scored): number {
  return p.score * (p.lead ?? 1);
}

/**
 * How much better a later passage's best line must score than the first passage's to lead, both
 * weighed for their place in their passage (`leadScore`). The lead weight says which line answers
 * the kind of question asked (an instruction for a how-to question, a line under the heading that
 * names the question whole, not a line that restates the asked problem or a side note), so it tells
 * the passage that answers from one that shares as many words: "How do I turn on Video
 * Description?" was led by a list of voice commands that name the function ("... say Video
 * Description on"), over the steps under "Turning on Video Description". Measured against the bare
 * scores at 2.5: at 4, smart-tv +3 first lines and no other set and no any line moved (all six
 * sets); on smart-tv, 3 won +5 and lost 2, 2.5 +6 and 3 lost, 1.5 +8 and 16 lost; 4 added to the
 * bare scores' test (either one leads) +2.
 *
 * `BETTER_LEAD` replaced the old bare-score constant (a later best line's plain score at 2.5x the
 * first's, with no lead weight), whose history follows. On the bare scores: with chunks of up to
 * 3000 characters the search weighs more of each section's lines before it ranks
 * it, so its order needs clearer evidence to be overturned: 1.5 (tuned on 1500-character chunks)
 * let a stray pin-table row ("Function: GPIO83, RGB LED") or a table of absolute ratings lead over
 * the first passage's answer (dev and pdf-dev one first line each, smart-tv one won and one lost); 2.5 lost none elsewhere.
 * Session 33, all six sets against 2.5: 2.0 lost one smart-tv first line and won none; 1.6 won one
 * and lost six (smart-tv 361 -> 358, dev 35 -> 33), so a later line's score is no better evidence
 * than it was.
 */
const BETTER_LEAD = 4;

/**
 * The best passage always contributes its best sentence (it cleared the relevance gate); more
 * sentences follow by score while they reach a share of the best one.
 */
export function pick(scored: readonly Scored[], maxSentences: number, perPassage: number): Scored[] {
  const firstPassage = Math.min(...scored.map((s) => s.passage));
  const lead = ranked(scored).find((s) => s.passage === firstPassage);
  if (!lead) return [];
  return pickedOn([lead], scored, maxSentences, perPassage);
}

/** `scored` best first (ties in passage order, then reading order). */
function ranked(scored: readonly Scored[]): Scored[] {
  return [...scored].sort((a, b) => b.score - a.score || a.passage - b.passage || a.sentence.offset - b.sentence.offset);
}

/**
 * `picked` with further lines of `scored` (those `may` allows) by score, while they reach a share
 * of the best one, until the lines number `maxSentences`, at most `perPassage` a passage; the
 * lines already picked count for both. A sentence of a paragraph already picked joins that
 * paragraph's line (see `withParagraph`), so it takes no place of its own among the lines.
 */
function pickedOn(picked: readonly Scored[], scored: readonly Scored[], maxSentences: number, perPassage: number, may: (s: Scored) => boolean = () => true): Scored[] {
  const all = ranked(scored);
  const best = all[0]?.score ?? 0;
  const out = [...picked];
  const seen = new Set(picked.map((p) => p.sentence.text));
  const paragraphOf = (s: Scored): string | null => (s.sentence.para === undefined ? null : `${s.passage}:${s.sentence.para}`);
  const paragraphs = new Set<string>();
  const perCount = new Map<number, number>();
  let lines = 0;
  /** Counts `s` as a line of its passage unless it joins a paragraph already picked. */
  const counted = (s: Scored): void => {
    const para = paragraphOf(s);
    if (para !== null && paragraphs.has(para)) return;
    if (para !== null) paragraphs.add(para);
    perCount.set(s.passage, (perCount.get(s.passage) ?? 0) + 1);
    lines++;
  };
  for (const p of picked) counted(p);
  for (const s of all) {
    if (lines >= maxSentences) break;
    if (s.score <= 0 || s.score < best * KEEP_RATIO || seen.has(s.sentence.text) || !may(s)) continue;
    const para = paragraphOf(s);
    if (!(para !== null && paragraphs.has(para)) && (perCount.get(s.passage) ?? 0) >= perPassage) continue;
    out.push(s);
    seen.add(s.sentence.text);
    counted(s);
  }
  return out;
}

/**
 * The picked lines (in the order they decided) with more lines picked on to a budget of
 * `maxSentences` (see `pickedOn`: the lines already picked count against it and against each
 * passage's `perPassage`), added after the answer's order is decided: they are quoted, but neither
 * lead their passage nor move it up. A line picked only by the larger budget that did (a "Voice
 * Guide: ..." label the question names, which moved its passage first) took the first line from the
 * one that answers. Measured on all six sets against a budget of 6 lines: 2 more lines smart-tv +17
 * any lines (1 more +10), no first line and no other set moved; the same 8 lines picked before the
 * order was decided +17 any lines but 2 first lines lost, 7 lines +10 and 1 lost. Reading a 5th or
 * 6th passage instead moved as many first lines up as down.
 *
 * None of them is a lead that opens a list, table or code (`Sentence.opens`): it would bring its
 * block along (up to `maxListed` rows) on top of the two lines, and the next line by score is
 * quoted instead. Measured on all six sets (mean quoted lines an answer, list rows included, and
 * characters, as the answer bench prints them): dev 6.50 -> 6.22 lines (979 -> 961 characters),
 * galaxy-s10 7.98 -> 7.82 (781 -> 769), pdf-dev 7.76 -> 7.44 (1022 -> 1015), m5stack 5.77 -> 5.80
 * (1015 -> 1022), seeed-xiao and smart-tv unchanged; m5stack +1 any line (m029: a lead's place went to
 * the line that answers), no question lost on any set, no first line moved.
 *
 * Until session 33 the lines added were those a fresh `pick` with the larger budget picked beyond
 * `picked`; when filled gaps (`withGapsFilled`) or a compared model's line (`withEachModel`) had
 * changed the picked set, that pick was no superset of it, so more lines than the budget's extra
 * ones were added and a passage could pass its `perPassage` cap (pdf-dev 7.78 -> 7.76 mean quoted
 * lines, 1028 -> 1022 characters once fixed; no question on any set moved).
 */
export function withMoreLines(picked: readonly Scored[], scored: readonly Scored[], maxSentences: number, perPassage: number): Scored[] {
  return pickedOn(picked, scored, maxSentences, perPassage, (s) => s.sentence.opens === undefined);
}

/**
 * The picked lines with a line of each of `models` (by `modelOf`, the compared models' exact
 * names): a model none of whose lines was picked gets its best line with a score (of `scored`),
 * in place of the weakest picked line of a model that keeps another, else of a line of none of
 * them (`everyModelShown` over the picked lines, then the rest, best first). Asked to compare two
 * models, the lines of one model's manual can outscore every line of the other's.
 */
export function withEachModel(picked: readonly Scored[], scored: readonly Scored[], models: readonly string[], modelOf: (x: Scored) => string | null): Scored[] {
  const best = (a: Scored, b: Scored): number => b.score - a.score;
  const rest = scored.filter((x) => x.score > 0 && !picked.includes(x)).sort(best);
  return everyModelShown([...[...picked].sort(best), ...rest], models, picked.length, modelOf, { keepFirst: false }).slice(0, picked.length);
}

/**
 * The line a passage's quoted lines open with when its best line is a later "Step N" of a
 * procedure whose earlier steps under the same heading are quoted too: the earliest of those
 * ("Step 1: Open the tool" before "Step 5: View the burning result"), so the steps read in order;
 * else `best` itself. Items of a numbered list keep their best line first: the step a question
 * names ("3. Tap Reset network settings") led 4 galaxy-s10 and pdf-dev first lines that a list's
 * first step ("1. From Settings, tap General management") took from them.
 */
export function firstStep(best: Scored, picked: readonly Scored[]): Scored {
  const n = stepNumber(best.sentence);
  if (n === undefined) return best;
  const earlier = picked.filter((p) => {
    const m = p.passage === best.passage && p.sentence.offset < best.sentence.offset && p.sentence.heading === best.sentence.heading ? stepNumber(p.sentence) : undefined;
    return m !== undefined && m < n;
  });
  return earlier.sort((a, b) => a.sentence.offset - b.sentence.offset)[0] ?? best;
}
