import type { Citation } from '../contract/api';
import { EXTRACTED_LABEL } from '../core/extracted-label';
import type { LayoutOptions } from './extractive.render';
import { layOut } from './extractive.render';
import type { Passage } from './passages';
import { citationFor, unresolvedModelWords } from './passages';
import type { Sentence } from './sentences';
import { cleanInline, identifiers, splitSentences, terms } from './sentences';
import { containsId, namesPart, unitAfter } from './match.util';
import type { Scored } from './extractive.pick';
import { askedKind, givesValue, HEX_VALUE, PIN_NAME } from './extractive.kind';
import { firstStep, passageOrder, pick, withEachModel, withGapsFilled, withMoreLines } from './extractive.pick';
import { everyModelShown } from '../search/compared-models';
import { ASKING_WORDS, DEFINITION_WORDS, HOW_ASK, HOW_MEASURE, quantityNouns, questionKind, restatesProblem, unitPatterns, withoutDefinitionCues, YES_NO } from './question-kind';
import { BOLD_LINE, isInstruction, isLabelRun, isNameRun, isTitleItem, labelOf, purposeOf, conditionOf, sectionOpening, opensWithCaution, settingKey, taskVerbOf, tellsReaderCan } from './line-forms';
import { answersEcho, followerOf, termOf } from './extractive.along';
import { quotedLinesOf } from './extractive.lines';
import { pairsOf, PHRASE_LEAD_WEIGHT, phrasesIn } from './phrase-pairs';
import { askedAction, writesAction } from './asked-action';
import { K1, B, IDENTIFIER_BONUS, HEADING_WEIGHT, TITLE_NEW_WORDS, TITLE_ECHO_WEIGHT, YES_NO_ROW_LEAD_WEIGHT, SUBJECT_SLACK, STEP_LEAD_WEIGHT, DEFINITION_STEP_LEAD_WEIGHT, ASIDE_LINE, MENU_HEADING_COVER, ASIDE_LEAD_WEIGHT, RESTATE_LEAD_WEIGHT, KIND_WEIGHT, NO_NUMBER_WEIGHT, NUMBER, NO_NUMBER_LEAD_WEIGHT, PURPOSE_COVER, PURPOSE_WEIGHT, CONDITION_COVER, READER_CAN_LEAD_WEIGHT, LABEL_WEIGHT, ECHO_NEW_WORDS, NAMED_LABEL_WORDS, WHOLE_LABEL_LEAD_WEIGHT, WHOLE_SECTION_COVER, SECTION_COVER_GAP, WHOLE_SECTION_LEAD_WEIGHT, NAME_RUN_WEIGHT, TITLE_OPENING_LEAD_WEIGHT, ACTION_LEAD_WEIGHT } from './line-weights';

/**
 * The answer without a language model: the sentences of the best passages most related to the
 * question, quoted verbatim (table rows read with their header), each followed by its citation
 * [n]. Sentences are scored by BM25 over the sentences of the retrieved passages, with a bonus for
 * the question's own numbers, units and identifiers, and discounted by their passage's rank; the
 * answer keeps passage order, so [1] is always the best passage.
 */

export { EXTRACTED_LABEL };

/** `sameModel` and `namedWhere` (see `LayoutOptions`) decide which lines are the asked model's; the others are shown apart. */
export interface ExtractiveOptions extends LayoutOptions {
  /** Sentences that decide the answer's order (default 6; lists and rows a lead sentence brings come on top). */
  maxSentences?: number;
  /** Sentences quoted after those, in the order they decided (default 2; see `withMoreLines`). */
  moreSentences?: number;
  /**
   * Sentences taken from one passage (default 4: a structure chunk holds up to 3000 characters,
   * two sections of the 1500-character chunks that had 3).
   */
  perPassage?: number;
  /** Passages considered, best first (default 4). */
  maxPassages?: number;
  /**
   * The library model a heading or caption names, if any (from the library's vocabulary): a
   * quoted line under a "ROCK 5B+" sub-heading belongs to that model, not the chunk's.
   */
  modelIn?: (text: string) => string | null;
  /** The question names a model (or the scope fixes one): then lines are not grouped by model. */
  modelNamed?: boolean;
  /** The models the answer is about: lines under another model's sub-heading weigh little. */
  models?: readonly string[];
  /** Items of a list or rows of a table quoted after its lead sentence (default 8). */
  maxListed?: number;
}

export interface ExtractiveAnswer {
  text: string;
  /** Numbered in order of first appearance in `text`. */
  citations: Citation[];
}

/**
 * Builds the extractive answer; `passages` must be non-empty and relevant (see `retrieve`).
 * Pass the question with model names blanked (`questionForLines`): every passage is about the
 * model already, so its name tells the sentences apart no better than "the" (a revision written
 * with the name stays: it does).
 */
/**
 * A side remark on the asked subject, not a line that says what it is: a note or caution
 * (`Sentence.aside`, `ASIDE_LINE`), or a line whose subject's words come only in a "that" clause
 * after a few words of its own ("Note that ...", "Please note that ...", "Keep in mind that ...").
 */
function remarksOn(sentence: Sentence, subject: readonly string[]): boolean {
  if (sentence.aside === true || ASIDE_LINE.test(sentence.text) || opensWithCaution(sentence.text)) return true;
  const that = /(?<![\p{L}])that(?![\p{L}])/iu.exec(sentence.text);
  if (!that) return false;
  const before = terms(sentence.text.slice(0, that.index));
  return !subject.every((t) => before.includes(t));
}

export function answerExtractively(question: string, passages: readonly Passage[], options: ExtractiveOptions = {}): ExtractiveAnswer {
  const maxSentences = options.maxSentences ?? 6;
  const moreSentences = options.moreSentences ?? 2;
  const maxListed = options.maxListed ?? 8;
  const perPassage = options.perPassage ?? 4;
  // Comparing models, each one's best passage is among those read (see `everyModelShown`).
  const compared = options.modelNamed && options.models && options.models.length >= 2 ? options.models : [];
  const maxPassages = options.maxPassages ?? 4;
  const used = (compared.length >= 2 ? everyModelShown(passages, compared, maxPassages, (p) => p.hit.signature.model, options.sameModel ? { same: (m, own) => options.sameModel!([m], own) } : {}) : passages).slice(0, maxPassages);
  // The words of the models asked about ("Evaluation Board" of "CH32X3x5 Evaluation Board"),
  // like their names, tell no line apart: every passage is about those models already.
  const modelWords = new Set((options.models ?? []).flatMap((m) => terms(m)));
  if ((options.models ?? []).length === 0) for (const t of unresolvedModelWords(question, used)) modelWords.add(t);
  const topical = question.toLowerCase().replace(HOW_MEASURE, ' ');
  const said = [...new Set(terms(topical))].filter((t) => !modelWords.has(t));
  // The question's adjacent word pairs; a model's words break a pair, as its name is blanked.
  const phrases = pairsOf(terms(topical).map((t) => (modelWords.has(t) ? null : t)));
  // The words naming a quantity the question asks for unsaid ("range" for "how far") score like its own.
  const wanted = [...new Set([...said, ...quantityNouns(question)])].filter((t) => !modelWords.has(t));
  // The question's words as a purpose's verb is read (`taskVerbOf`): its content words and the
  // verbs the stopword list drops that name a task ("use", "see"), as "To use ..." may open a line;
  // not a definition cue's ("What is the use of ...": "use" asks what it is for, it names no task).
  // Measured on all six sets: smart-tv first 386 -> 389 (none lost; without the cue left out
  // +3 -1), no other set, no off-topic count moved.
  const questionStems = new Set((withoutDefinitionCues(topical).match(/\p{L}+/gu) ?? []).flatMap((w) => taskVerbOf(w) ?? []));
  const ids = identifiers(question);
  // A bare number is paired with the unit the question writes after it, if any (see `containsId`).
  const unitOf = new Map(ids.map((id) => [id, unitAfter(question, id)]));
  const kind = questionKind(question);
  // The action a how-to question asks (see `askedAction`).
  const action = kind.steps ? askedAction(question) : null;
  const yesNo = YES_NO.test(question.trim());
  // What a "what is" question asks about: its words without the cue's ("function" of "the function of X").
  const subject = wanted.filter((t) => !DEFINITION_WORDS.has(t));
  // A question word a line's value says by its unit ("current" for "200mA"); not for a how-to
  // question ("how do I set the clock" is not answered by "240MHz").
  const unitSays = kind.steps || (kind.pin && !HOW_ASK.test(question.toLowerCase())) ? new Map<string, RegExp[]>() : unitPatterns(wanted);

  const units = used.map((p) => splitSentences(p.hit.text));
  const docs = units.flat().map((s) => terms(s.text));
  const n = Math.max(1, docs.length);
  const avgLen = docs.reduce((a, d) => a + d.length, 0) / n || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string): number => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
  const askedWeight = wanted.reduce((a, t) => a + idf(t), 0);
  // The words of what the question is about, not of how it asks ("fix", "troubleshoot"; see `ASKING_WORDS`).
  const topicWords = wanted.filter((t) => !ASKING_WORDS.has(t));
  const topicWeight = topicWords.reduce((a, t) => a + idf(t), 0);
  // The idf of the question's words that a heading holds, once per heading (many lines share one).
  const headWeights = new Map<string, number>();
  const headWeight = (heading: string): number => {
    let w = headWeights.get(heading);
    if (w === undefined) {
      const head = new Set(terms(heading));
      w = 0;
      for (const t of wanted) if (head.has(t)) w += idf(t);
      headWeights.set(heading, w);
    }
    return w;
  };

  const scored: Scored[] = [];
  // Passages with a "Label: value" line whose whole label the question names ("Working
  // temperature: -20°C ~ 65°C"); a value the best passage only mentions in passing gives way to it.
  const named = new Set<number>();
  // What the question says itself: a line holding only these restates it (an unsaid "range" is news).
  const asked = new Set(said);
  // Lines that only restate the question ("The TV smells of plastic." for "Why does the TV smell
  // of plastic?"): the manual's answer is the line after, which is quoted with it.
  const echoes = new Set<Sentence>();
  // Lines that say what the asked thing is ("Samsung Pay lets you make payments ..."): they open
  // with it as their subject and give no instruction ("Use Samsung Pay by opening the app").
  const defines = new Set<Sentence>();
  // Lines that open with the asked task as their purpose (see `purposeOf`), or the asked problem as their condition.
  const serves = new Set<Sentence>();
  // Section openings that serve the asked problem only as the opening of a line restating it (see below).
  const borrowed = new Set<Sentence>();
  // Lines that restate the asked problem (see `restatesProblem`), of every passage.
  const restating = new Set<Sentence>();
  // Title lines that name the question whole, as a sub-heading does for `WHOLE_SECTION_COVER`.
  const askedTitles = new Set(units.flat().filter((x) => x.title && askedWeight > 0 && headWeight(x.text) / askedWeight >= WHOLE_SECTION_COVER));
  units.forEach((sentences, pi) => {
    // A line all in bold right before a table, list or code ("**HY2.0-4P-PortC(blue)**") is that
    // block's caption: its question words count for the block's lines that share a question word
    // (as a heading's count for the lines under it), so "the blue Port C" finds the row under
    // "PortC(blue)" and not the rows of the ports before it.
    const captions = new Map<number, Sentence>();
    for (const x of sentences) if (x.opens !== undefined && BOLD_LINE.test(x.text)) captions.set(x.opens, x);
    // The terms of a definition list left as text, each quoted with the description after it.
    const described = new Set(sentences.flatMap((x) => termOf(sentences, x) ?? []));
    // Where this passage's lines start in `scored` (its lines in `restating` are read after them).
    const from = scored.length;
    // Asked how, a passage that gives an instruction answers with it (see `READER_CAN_LEAD_WEIGHT`).
    const instructs = kind.steps && sentences.some((x) => isInstruction(x));
    // The share of the question's words each line's heading holds: a heading that names the whole
    // question, where another heading of the passage names clearly less, marks the asked section.
    const covers = sentences.map((x) => (askedWeight > 0 && x.heading ? headWeight(x.heading) / askedWeight : 0));
    const bestCover = Math.max(0, ...covers);
    const asksSection = bestCover >= WHOLE_SECTION_COVER && bestCover - Math.min(...covers) >= SECTION_COVER_GAP;
    // The first line under a title that names the question whole (`askedTitles`), which it is
    // quoted with: "Removing an item on the Home Screen: Move the focus ...". The title is the
    // line's heading, or the last one of its path (`splitSentences` joins a sub-title with " › ").
    const underAskedTitle = new Set<Sentence>();
    sentences.forEach((x, i) => {
      if (!askedTitles.has(x)) return;
      const next = sentences.slice(i + 1).find((y) => !y.title);
      if (next && (next.heading === x.text || next.heading?.endsWith(` › ${x.text}`))) underAskedTitle.add(next);
    });
    // A paragraph a caution in capitals opens ("DO NOT turn off the TV's power until the update is
    // complete. The TV will turn off and on automatically ...") goes on with that caution: its
    // lines lead no more than a note does (see `opensWithCaution`). Measured on all six sets:
    // smart-tv first 382 -> 386 (none lost, both halves held); no other set, no off-topic moved.
    const cautions = new Set(sentences.filter((x, i) => x.para !== undefined && opensWithCaution(x.text) && sentences[i - 1]?.para !== x.para).map((x) => x.para));
    for (const sentence of sentences) {
      const words = terms(sentence.text);
      const shared = sentence.heading ? headWeight(sentence.heading) : 0;
      const caption = sentence.block >= 0 ? captions.get(sentence.block) : undefined;
      const captionShared = caption ? headWeight(caption.text) : 0;
      // The share of the question's words (by idf) that the line's heading holds.
      const headingCover = askedWeight > 0 ? shared / askedWeight : 0;
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      // A run of labels ("View: Daily View: Monthly", "Pause Play Start", see `isLabelRun`) gets no
      // credit for being short, and weighs as a run of names: the sentence sharing its question
      // words says what they do. Not when the question asks for a value, a pin, an address or a
      // part (a spec row is short too), nor for a definition list's term (quoted with its
      // description) or a line that writes the question's phrase (the setting asked about, "Motion
      // Lighting Try Now"; without that exception smart-tv lost 2 first lines). Measured on all six
      // sets: smart-tv any 587 -> 588 (the length alone moved nothing); no other set and no
      // off-topic count moved (a line with a number counted too lost pdf-dev an any line).
      const asksValue = kind.quantity || kind.pin || kind.address || kind.part;
      const labelRun = !asksValue && !described.has(sentence) && isLabelRun(sentence) && phrasesIn(sentence.text, phrases).length === 0;
      const len = labelRun ? Math.max(words.length, avgLen) : words.length;
      let score = 0;
      for (const t of wanted) {
        let f = tf.get(t) ?? 0;
        // Half credit for a word the term begins ("GPIO" in "GPIOAO-11", "flash" in "flashable").
        if (f === 0 && t.length >= 3 && words.some((w) => w.startsWith(t))) f = 0.5;
        if (f === 0 && unitSays.get(t)?.some((re) => re.test(sentence.text))) f = 0.5;
        if (f > 0) score += (idf(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * len) / avgLen));
      }
      const lower = sentence.text.toLowerCase();
      for (const id of ids) if (containsId(lower, id, unitOf.get(id))) score += IDENTIFIER_BONUS;
      // What the line says of the question in its own words and identifiers, before its heading's.
      const ownScore = score;
      // A question's identifier in the line's heading ("## V3.00" for "what changed in V3.00?")
      // counts for the lines under it, even those that share no word with the question.
      if (sentence.heading) {
        const head = sentence.heading.toLowerCase();
        for (const id of ids) if (!containsId(lower, id, unitOf.get(id)) && containsId(head, id, unitOf.get(id))) score += HEADING_WEIGHT * IDENTIFIER_BONUS;
      }
      // The steps under the heading that matches the question answer it, even in few words; a
      // lead sentence ("We can solve this by the following operation:") stands for its list, so
      // it counts for that heading even when it shares no word with the question.
      // So do a table's rows that give a number under a heading or caption that names the asked
      // quantity ("Table 7.5: Recommended Temperature Operating Range", then "Main Die | -40 | 85").
      const valueRow = kind.quantity && sentence.kind === 'row' && headingCover >= MENU_HEADING_COVER && /\d/.test(sentence.text);
      // An instruction under the heading that names the task of a how-to question is its answer
      // in its own words ("From any screen, press and release the Power and Volume down keys."
      // under "Take a screenshot"): it gets the heading's credit though it shares no word.
      const taskStep = kind.steps && headingCover >= MENU_HEADING_COVER && isInstruction(sentence);
      // Every line of the section the question names whole (`WHOLE_SECTION_COVER`) is about it in its
      // own words ("Requirements for using Bixby", then "The voice interaction rate differs ...").
      const askedSection = asksSection && headingCover >= bestCover;
      // Not a line that shares nothing with the question itself ("This function may not be supported
      // depending on the model." under "Setting up an Internet connection over IPv6"): its heading's
      // identifier says where it is, not that it answers.
      if (sentence.heading && (ownScore > 0 || sentence.opens !== undefined || valueRow || taskStep || askedSection)) score += HEADING_WEIGHT * shared;
      if (captionShared > 0 && score > 0) score += HEADING_WEIGHT * captionShared;
      // A title that only restates the question ("Connecting a wired network") announces the
      // answer; the lines under it give it. A title with words of its own (a menu path) stays.
      if (sentence.title) {
        if (new Set(words.filter((w) => !asked.has(w))).size < TITLE_NEW_WORDS) score *= TITLE_ECHO_WEIGHT;
      }
      // A label the question names whole ("USB-to-UART Bridge Chip: CP2102N ..." for "which
      // USB-to-UART bridge chip?") leads its passage over one it names half ("USB-to-UART Port: ...").
      let wholeLabel = 1;
      let namedKey = false;
      if (score > 0) {
        const label = sentence.label ?? labelOf(sentence.text);
        if (label) {
          const lt = terms(label);
          if (lt.length > 0 && lt.filter((t) => wanted.includes(t)).length * 2 >= lt.length) score *= LABEL_WEIGHT;
          if (lt.length >= NAMED_LABEL_WORDS && lt.every((t) => wanted.includes(t))) wholeLabel = WHOLE_LABEL_LEAD_WEIGHT;
          // Not for a how-to question: "Permission manager: Control which apps ..." says what the
          // option is, the step ("From Settings, tap Privacy > Permission manager.") how to get there.
          if (!kind.steps && lt.length >= NAMED_LABEL_WORDS && lt.every((t) => wanted.includes(t)) && (!kind.quantity || /\d/.test(sentence.text))) named.add(pi);
        }
        // A configuration line whose setting the question names ("board = kb-40-mini" for "the
        // toolkit's board name"): it is labelled by its key, and the value it sets is the asked
        // kind, so it leads its passage and, as a named label does, its passage (seeed-xiao +2
        // first lines, no other question on any set moved; the label weight alone +1).
        const key = settingKey(sentence);
        if (key) {
          const kt = terms(key.replace(/[_.-]+/g, ' '));
          if (kt.length > 0 && kt.every((t) => wanted.includes(t))) {
            score *= LABEL_WEIGHT * KIND_WEIGHT;
            namedKey = true;
            if (!kind.steps) named.add(pi);
          }
        }
        if (kind.quantity) score *= givesValue(sentence) ? KIND_WEIGHT : /\d/.test(sentence.text) ? 1 : NO_NUMBER_WEIGHT;
        if (kind.pin && PIN_NAME.test(sentence.text)) score *= KIND_WEIGHT;
        if (kind.address && HEX_VALUE.test(sentence.text)) score *= KIND_WEIGHT;
        if (kind.part && namesPart(sentence.text)) score *= KIND_WEIGHT;
      }
      // Under a sibling's sub-heading ("ROCK 5B" in a ROCK 5B/5B+ page): another model's value.
      const headModel = sentence.heading ? (options.modelIn?.(sentence.heading) ?? null) : null;
      if (headModel && options.models && options.models.length > 0 && !options.models.includes(headModel)) score *= 0.2;
      // A lead sentence ("... the supported adapters are:") stands for the list it opens.
      if (sentence.opens !== undefined) score *= 1.2;
      if (!sentence.title && (sentence.kind === 'prose' || sentence.kind === 'item') && sentence.opens === undefined) {
        const fresh = new Set(words.filter((w) => !asked.has(w))).size + identifiers(sentence.text).filter((t) => /\d/.test(t) && !ids.includes(t)).length;
        if (fresh < ECHO_NEW_WORDS) echoes.add(sentence);
      }
      const instruction = (kind.steps || kind.definition) && isInstruction(sentence);
      const nameRun = isNameRun(sentence);
      // Under the heading that names the task of a how-to question.
      const taskSection = kind.steps && headingCover >= MENU_HEADING_COVER;
      // For a how-to question, the instruction ("Tap More options > Link to another contact.")
      // answers before the line that describes the feature; it decides the order, not the choice.
      let lead = kind.steps && instruction ? STEP_LEAD_WEIGHT : 1;
      // Asked what a feature is, the line that says so ("Super steady applies advanced
      // stabilization ...") answers before the step that turns it on ("Tap Super steady.").
      if (kind.definition && instruction) lead *= DEFINITION_STEP_LEAD_WEIGHT;
      // A title ("Configuring the IPv6 connection settings", "**PortC (blue)**") says what the
      // lines under it are about, and a note qualifies the line it follows; neither leads. A note
      // that gives the value asked ("Note: the file size must be 512 bytes") is where the manual
      // states it, and may lead.
      const valueLine = kind.quantity && givesValue(sentence);
      // The steps under the heading that names the task are the answer to a how-to question: there
      // an instruction weighs as a line of the asked kind (elsewhere the step cue orders lines only).
      if (taskSection && instruction) score *= KIND_WEIGHT;
      // A menu path set as the sub-title of the section that names the task ("Resetting Your
      // Network", then "Settings General Network Reset Network") is the way there: for a how-to
      // question it leads like an instruction, where other titles and name runs do not.
      if (taskSection && sentence.title && nameRun) lead = STEP_LEAD_WEIGHT;
      else if (sentence.title || BOLD_LINE.test(sentence.text) || ((sentence.aside === true || ASIDE_LINE.test(sentence.text) || cautions.has(sentence.para)) && !valueLine) || (echoes.has(sentence) && isTitleItem(sentence))) lead *= ASIDE_LEAD_WEIGHT;
      lead *= wholeLabel;
      if (!kind.definition && !instructs && tellsReaderCan(sentence.text)) lead *= READER_CAN_LEAD_WEIGHT;
      // Asked why or how to fix a problem, the line that states it is the question, not its answer;
      // unless it is quoted with the line after it (an echo of the question, see `followerOf`) and
      // that line answers it (see `answersEcho`).
      if (kind.problem && sentence.kind !== 'code' && !(echoes.has(sentence) && answersEcho(followerOf(sentences, sentence))) && restatesProblem(sentence.text, words, asked, instruction)) {
        lead *= RESTATE_LEAD_WEIGHT;
        if (score > 0) restating.add(sentence);
      }
      if (yesNo && sentence.kind === 'row') lead *= YES_NO_ROW_LEAD_WEIGHT;
      // Asked what something is, the line that opens with it as its subject ("Remote Support
      // offers one-on-one support ...") defines it; a line that names it in passing uses it.
      // Not a side remark ("Note that the HDMI-to-DVI connection is only supported ..."): a note or
      // caution qualifies what the manual says of the subject, and a line that reports it in a
      // "that" clause ("Keep in mind that ...") has another grammatical subject.
      if (kind.definition && subject.length > 0 && !sentence.title && !remarksOn(sentence, subject)) {
        const opening = words.slice(0, subject.length + SUBJECT_SLACK);
        if (subject.every((t) => opening.includes(t))) {
          score *= KIND_WEIGHT;
          if (!instruction) defines.add(sentence);
        }
      }
      // A run of capitalised names ("Settings General Network Network Status"): a menu path or
      // a table flattened by a PDF converter. It says where, the sentence near it says what.
      if (nameRun || labelRun) score *= NAME_RUN_WEIGHT;
      // A line that opens with the task it serves ("To lock or unlock an app, enter the PIN.",
      // "To use the Bixby function, you must:"), the question's verb and most of its words, is
      // the manual's answer about that task: it leads its passage, as an instruction does for a
      // how-to question, over lines that only share words ("Select an app to lock or unlock.").
      const purpose = score > 0 ? purposeOf(sentence.text) : null;
      if (purpose && (wanted.includes(purpose.verb) || questionStems.has(purpose.verb)) && wanted.reduce((a, t) => a + (purpose.words.has(t) ? idf(t) : 0), 0) >= PURPOSE_COVER * askedWeight) {
        score *= PURPOSE_WEIGHT;
        lead *= STEP_LEAD_WEIGHT;
        serves.add(sentence);
      }
      // Asked about a problem, a line that opens with it as its condition ("When the TV has
      // difficulties receiving broadcasts, these steps may help resolve the problem." for "What
      // can I do if my TV is not receiving channels?") is where the manual takes it up: it leads
      // its passage, and a later passage with one leads the answer (see `askedKind`).
      const condition = kind.problem && score > 0 ? conditionOf(sentence.text) : null;
      if (condition && topicWords.reduce((a, t) => a + (condition.has(t) ? idf(t) : 0), 0) >= CONDITION_COVER * topicWeight) {
        lead *= STEP_LEAD_WEIGHT;
        serves.add(sentence);
      }
      // Fragments ("Zero 2 Pro", "Pin#: Name") are labels, rarely the answer.
      // A term of a definition list left as text ("Dynamic") is quoted with its description
      // ("Dynamic: Makes the picture brighter ...", see `withDescription`): no fragment.
      if (words.length < 3 && sentence.kind !== 'code' && !described.has(sentence)) score *= 0.5;
      // A line that writes a phrase of the question (two of its words in its order, see
      // `phrasesIn`) says what it asks about, where a line sharing the words one by one may not;
      // so does a configuration line whose key the question names (its phrase as a name). Not
      // another line of code (its identifiers join words); nor, when the question asks for a
      // value or a pin, a line that gives none (the phrase names the thing, the value answers);
      // nor, asked how, in a passage that gives an instruction: there the step answers, and the
      // steps' order stays as the step cues decide (see `PHRASE_LEAD_WEIGHT`).
      const saysPhrase = namedKey || (sentence.kind !== 'code' && phrasesIn(sentence.text, phrases).length > 0);
      const answersAsked = !(kind.quantity && !NUMBER.test(sentence.text)) && !(kind.pin && !PIN_NAME.test(sentence.text)) && !instructs;
      if (score > 0 && saysPhrase && answersAsked) lead *= PHRASE_LEAD_WEIGHT;
      // Under the sub-heading that names the question whole, the lines of its section answer first.
      if (askedSection) lead *= WHOLE_SECTION_LEAD_WEIGHT;
      // The line a title naming the question whole opens its section with answers it, as a title's
      // own section does for a sub-heading (`WHOLE_SECTION_LEAD_WEIGHT`).
      if (underAskedTitle.has(sentence) && score > 0) lead *= TITLE_OPENING_LEAD_WEIGHT;
      // Asked how, the step that does the asked action ("Use the virtual numeric pad to enter
      // numbers." for "How do I use the virtual numeric pad?") answers before one on the way to it
      // that shares the question's words ("Use the button ... to display the virtual numeric pad").
      if (action && instruction && score > 0 && writesAction(sentence.text, action)) lead *= ACTION_LEAD_WEIGHT;
      // Retrieval already ranked passages with model awareness; sentence scores only refine it.
      scored.push({ passage: pi, sentence, score: score / (1 + 0.25 * pi), lead });
    }
    // A troubleshooting table flattened to text lists the problems without their solutions
    // ("Weak or No Signal displayed in TV mode"), under a section that opens with the kind of
    // problem it takes up ("When the TV has difficulties receiving broadcasts, these steps may help
    // resolve the problem."): that opening is where the manual takes the restated problem up, in
    // words the question need not share. It scores as the restating line does and leads, as a
    // condition the question names does. Measured on all six sets: smart-tv +5 -1 any lines, +5
    // first lines; no other set moved.
    const own = scored.slice(from);
    for (const line of sentences.filter((x) => restating.has(x))) {
      const opening = sectionOpening(sentences, line);
      if (!opening || opening === line || opening.kind !== 'prose' || !conditionOf(opening.text)) continue;
      const entry = own.find((x) => x.sentence === opening)!;
      entry.score = Math.max(entry.score, own.find((x) => x.sentence === line)!.score);
      entry.lead = Math.max(entry.lead ?? 1, STEP_LEAD_WEIGHT);
      if (!serves.has(opening)) borrowed.add(opening);
      serves.add(opening);
    }
  });

  // Asked how much or how big, a line with no number at all ("M5StickV AI Camera features ...", the
  // question's product words) does not state the value: a line of its passage that writes a number
  // and shares a question word answers first. Code is left out both ways (it writes any number).
  if (kind.quantity) {
    const counted = (x: Scored): boolean => x.sentence.kind !== 'code' && NUMBER.test(x.sentence.text);
    const withNumber = new Set(scored.filter((x) => x.score > 0 && counted(x)).map((x) => x.passage));
    for (const x of scored) if (withNumber.has(x.passage) && x.sentence.kind !== 'code' && !counted(x)) x.lead = (x.lead ?? 1) * NO_NUMBER_LEAD_WEIGHT;
  }
  // The model a quoted line is shown under: its sub-heading's, a table row's own, else its passage's.
  const modelOf = (pi: number, sentence: Sentence): string | null =>
    (sentence.heading ? options.modelIn?.(sentence.heading) : null) ?? (sentence.kind === 'row' ? (options.modelIn?.(sentence.text) ?? null) : null) ?? used[pi]!.hit.signature.model;
  let picked = withGapsFilled(pick(scored, maxSentences, perPassage), scored, units, maxSentences);
  // Comparing models, a line of each is quoted.
  if (compared.length >= 2) {
    const exact = (x: Scored): string | null => {
      const m = modelOf(x.passage, x.sentence);
      return m !== null && compared.includes(m) ? m : null;
    };
    picked = withEachModel(picked, scored, compared, exact);
  }
  // Passages stay in rank order ([1] is the best passage, unless a later one has the line whose
  // label the question names); inside one, its best sentence comes first (the line that
  // answers), then the others in reading order (steps stay in sequence).
  const bestOf = new Map<number, Scored>();
  const leadScore = (x: Scored | undefined): number => (x ? x.score * (x.lead ?? 1) : -Infinity);
  for (const s of picked) if (leadScore(bestOf.get(s.passage)) < leadScore(s)) bestOf.set(s.passage, s);
  const order = passageOrder(picked, named, used, options.models ?? [], askedKind(kind, [...unitSays.values()].flat(), defines, serves), borrowed, restating);
  if (order.lead) bestOf.set(order.lead.passage, order.lead);
  // A procedure's quoted steps read in order, from the earliest one quoted.
  for (const [pi, best] of bestOf) bestOf.set(pi, firstStep(best, picked));
  // More lines are quoted, in the order the lines above decided (a line that only they bring never leads).
  picked = withMoreLines(picked, scored, maxSentences + moreSentences, perPassage);
  picked.sort((a, b) => order.rank(a.passage) - order.rank(b.passage) || Number(bestOf.get(b.passage) === b) - Number(bestOf.get(a.passage) === a) || a.sentence.offset - b.sentence.offset);

  // The question's kind and its own words (`asked`, as `restatesProblem` reads them above) decide
  // whether a troubleshooting section's opening leads a line (see `withRemedyLead`).
  const lines = quotedLinesOf(picked, units, echoes, modelOf, maxListed, { askedTitles, remedy: { problem: kind.problem, yesNo, words: asked } });
  const { out, citations } = layOut(lines, used, { ...options, question });
  if (lines.length === 0 && used[0]) {
    // A passage with no quotable sentence (an image caption, a bare table): quote its start.
    const head = cleanInline(used[0].hit.text).slice(0, 300);
    citations.push(citationFor(used[0], 1));
    out.push(`- ${head}${head.length === 300 ? '…' : ''} [1]`);
  }
  return { text: `${EXTRACTED_LABEL}\n\n${out.join('\n')}`, citations };
}
