import cues from './data/question-cues.json';

/**
 * The weights and shares by which the extractive answer (`extractive.answerer.ts`) scores a quoted
 * line and orders the lines of one passage, each with the measurement that set it.
 */

export const K1 = 1.2;
export const B = 0.5;
/** Weight of a question identifier ("5V", "UART1") found verbatim in a sentence, in idf units. */
export const IDENTIFIER_BONUS = 1.5;
/** Weight of question words found in a unit's section heading, relative to their idf. */
export const HEADING_WEIGHT = 0.6;

/** A title line with fewer words of its own than this, beyond the question's, only echoes the question. */
export const TITLE_NEW_WORDS = 2;
/** Weight of such a title line. */
export const TITLE_ECHO_WEIGHT = 0.3;

/**
 * Weight, for its place in its passage only, of a table row when the question asks yes or no: the
 * sentence says so ("The QFN68 package does not support the BOOT function"), the row sharing its
 * words only lists ("CH32H417WEU; PACKAGE: QFN68; USB: -"). Measured on all six sets: pdf-dev +1
 * first line, no other question moved.
 */
export const YES_NO_ROW_LEAD_WEIGHT = 0.5;
/** Content words a definition may put before or among its subject's words (a maker's name, an adjective; stopwords such as "The" are already gone) and still open with it. */
export const SUBJECT_SLACK = 2;
/** Weight of an instruction line for its place in its passage (how-to questions). */
export const STEP_LEAD_WEIGHT = 1.6;
/** Weight of an instruction line for its place in its passage when the question asks what something is. */
export const DEFINITION_STEP_LEAD_WEIGHT = 0.5;
/** A side remark: "Note:", "Tip"; a tip or warning box whatever its first word is `Sentence.aside`. */
export const ASIDE_LINE = new RegExp(`^(?:${cues.asides.join('|')})\\b`, 'i');
/** Share of the question's words (by idf) a heading must hold for the instructions and the menu path under it to answer a how-to question first; 0.3-0.5 measured alike for the menu path. */
export const MENU_HEADING_COVER = 0.5;
/** Weight, for its place in its passage only, of a title or a side remark: the line it introduces or qualifies answers first. */
export const ASIDE_LEAD_WEIGHT = 0.5;

/**
 * Weight, for its place in its passage only, of a line restating the problem a question asks
 * about (see `restatesProblem` in question-kind.ts). Measured on all six sets: smart-tv +5 -1
 * first lines at 0.2-0.3 (+3 -1 at 0.4 and 0.5; a share of 0.45-0.5 alike, 0.55 +3 -1, 0.6
 * +1 -3), no other set moved; +4 -1 once an echo quoted with its follower is left to lead.
 */
export const RESTATE_LEAD_WEIGHT = 0.3;

/** Weight of a line of the kind the question asks for (a value with its unit, a pin, a part number, a definition); a number with no unit (an address, a part code) weighs 1. */
export const KIND_WEIGHT = 1.3;
/** Weight of a line with no number when the question asks for a quantity. */
export const NO_NUMBER_WEIGHT = 0.75;
/** A number standing alone ("16", "4MB", "0.96 inch"), not a digit inside a name ("M5StickV", "ESP32"). */
export const NUMBER = /(?<![\p{L}\p{N}])\d/u;
/**
 * Weight, for its place in its passage only, of a line with no number when the question asks for a
 * quantity: "How big is the battery in the M5StickV AI camera?" was led by "M5StickV AI Camera
 * features ..." (the product's words, which the library does not read as its name) over "... IPS
 * screen, 6-axis IMU, 200mAh Li-po battery". Measured on all six sets: m5stack +1 first line at
 * 0.3-0.6 (none at 0.7), no other question moved. Only where a line of the same passage writes a
 * number: a manual may state the asked quantity in words ("a reading is taken every second").
 * Discounting every line that states no value by the search's test instead (`statesQuantity`) lost
 * pdf-dev a first line: a datasheet row writes its unit in a cell of its own ("Value: 230; Unit: °C").
 */
export const NO_NUMBER_LEAD_WEIGHT = 0.5;
/** Share of the question's words (by idf) a line's opening purpose ("To lock or unlock an app, ...") must hold to name the asked task (0.6 measured alike; at 0.3-0.4 a galaxy-s10 first line was lost). */
export const PURPOSE_COVER = 0.5;
/**
 * Weight of a line whose opening purpose names the asked task (see `purposeOf`). Measured on all
 * six sets with the lead weight: smart-tv +2 first lines at 1 (the lead alone), +3 at 1.1, +3
 * and 2 any lines lost at 1.2-1.3; no other set moved.
 */
export const PURPOSE_WEIGHT = 1.1;
/** Share of the question's topic words (by idf) a line's opening condition must hold to restate the asked problem (smart-tv +6 first lines at 0.2-0.3, +5 at 0.4-0.5). */
export const CONDITION_COVER = 0.3;
/**
 * Weight, for its place in its passage only, of a line telling the reader what they can do (see
 * `tellsReaderCan`): of two lines of about the same score, "You can change the size of the
 * picture displayed on the TV screen." answers "How do I change the picture size?" before a note
 * on it or a run of option names ("Standard Optimized Amplify"). Not when the question asks what
 * something is (the line that opens with it says so), nor, for a how-to question, in a passage
 * that gives an instruction: the step answers how ("1. Open Settings > Sound > Speaker list."
 * over "You can connect a speaker to the TV ..."), and the weight on every passage had the
 * description lead a test's steps. Measured on all six sets: smart-tv +6 first lines at 1.1 (+5
 * at 1.05; at 1.15 and 1.2 +6 and +8 but one lost, a definition list's term the question names,
 * "Movie", with its description); no other set and no any line moved.
 */
export const READER_CAN_LEAD_WEIGHT = 1.1;
/** Weight of a "Label: value" line whose label is what the question asks about. */
export const LABEL_WEIGHT = 1.5;

/** A line with fewer content words (or numbers) of its own than this, beyond the question's, only restates it. */
export const ECHO_NEW_WORDS = 2;

/** Fewest words of a label that, all named by the question, put its passage first. */
export const NAMED_LABEL_WORDS = 2;
/** Weight, for its place in its passage only, of a line whose whole label (of at least NAMED_LABEL_WORDS words) the question names. */
export const WHOLE_LABEL_LEAD_WEIGHT = 1.2;

/**
 * Share of the question's words (by idf) a sub-heading must hold to name the asked section whole:
 * a passage that spans several sections ("Creating a new account", then "Creating a Samsung
 * account using a Facebook account") answers "How to create a Samsung account using a Facebook
 * account?" from the section whose heading names it, not from the one whose line shares most words.
 */
export const WHOLE_SECTION_COVER = 0.9;
/** How much less of the question's words another heading of the passage must hold for the whole-named section to stand out (0.3-0.4 won one first line fewer). */
export const SECTION_COVER_GAP = 0.2;
/**
 * Weight, for its place in its passage only, of a line under the heading that names the question
 * whole (see `WHOLE_SECTION_COVER`). Above the purpose and step weights together (1.1 x 1.6): a
 * line opening with a broader task ("To create a new Samsung account, ...") under a sibling
 * heading led before. Measured on all six sets: smart-tv +7 -1 first lines (a cover of 0.9-0.95
 * alike; 0.5-0.8 won fewer or lost more; a weight of 2.5 one fewer, 4 the same); no other set and
 * no any line moved.
 */
export const WHOLE_SECTION_LEAD_WEIGHT = 3;

/** Weight of a line that is a run of capitalised names, not a sentence. */
export const NAME_RUN_WEIGHT = 0.5;

/**
 * Weight, for its place in its passage only, of the first line under a title line that names the
 * question whole (a sub-heading a PDF converter left as text). Measured on all six sets: smart-tv
 * +1 first line at 1.6 (none lost); at 2 +2 -5, at 3 +3 -7 (a title's opening line led over the
 * instruction or the label line that answers); no other set moved.
 */
export const TITLE_OPENING_LEAD_WEIGHT = 1.6;

/**
 * Weight, for its place in its passage only, of an instruction that writes the action a how-to
 * question asks, its verb then its object in the question's own words (see `askedAction`): "Use
 * the virtual numeric pad to enter numbers." answers "How do I use the virtual numeric pad?"
 * before "Use the button ... to display the virtual numeric pad", a step on the way that shares
 * as many words. Measured on all six sets: smart-tv +1 first line at 1.2-1.6 (none lost), +1 -1
 * at 2; on every line, not only instructions, +2 -2 (a conditional remark, "If ..., you must set
 * the current time manually.", led over "You can set the Clock manually or automatically."); no
 * other set moved.
 */
export const ACTION_LEAD_WEIGHT = 1.3;
