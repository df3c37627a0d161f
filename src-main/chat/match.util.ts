import { escapeRe } from '../core/text';
import { UNIT_PATTERN as UNIT } from '../search/stages/answer-line.stage';
import technicalTerms from './data/technical-terms.json';

/**
 * Matching a question's identifiers and values in a quoted line, and telling a part number in
 * it. The units are the search's own (`UNIT_PATTERN`, from search/data/answer-types.json), so
 * chat and search agree on what makes a number a quantity.
 */
/** An identifier that is a value glued to its unit ("5v", "3.3v", "110mah"). */
const VALUE = new RegExp(String.raw`^(\d[\d.]*)(${UNIT})$`, 'iu');
const NUMBER = /^\d[\d.]*$/;

/**
 * The unit the question writes right after a bare number ("3.3" of "the 3.3 V rail" -> "v"), or
 * null when none follows ("error 5", "pin 3"): only then may the number meet a value in a line.
 */
export function unitAfter(question: string, id: string): string | null {
  if (!NUMBER.test(id)) return null;
  const m = new RegExp(String.raw`(?<![\p{L}\p{N}.])${escapeRe(id)}\s?(${UNIT})(?![\p{L}\p{N}])`, 'iu').exec(question);
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * Whether a question's identifier occurs in a lowercased line: as a token, or as a value written
 * with or without a space before its unit ("5V" meets "5 V"; "3.3" asked as "3.3 V", `unit` "v",
 * meets "3.3V"). A bare number meets a value only with the unit the question gives it, so
 * "error 5" does not meet "hold for 5s".
 */
export function containsId(text: string, id: string, unit: string | null = null): boolean {
  if (containsToken(text, id)) return true;
  const value = VALUE.exec(id);
  const body = value ? String.raw`${escapeRe(value[1]!)}\s?${escapeRe(value[2]!)}` : unit !== null && NUMBER.test(id) ? String.raw`${escapeRe(id)}\s?${escapeRe(unit)}` : null;
  return body !== null && new RegExp(String.raw`(?<![\p{L}\p{N}.])${body}(?![\p{L}\p{N}])`, 'iu').test(text);
}

/** Whether `token` occurs in `text` not glued to other letters or digits. */
export function containsToken(text: string, token: string): boolean {
  let at = text.indexOf(token);
  while (at !== -1) {
    const before = text[at - 1];
    const after = text[at + token.length];
    if ((!before || !/[\p{L}\p{N}]/u.test(before)) && (!after || !/[\p{L}\p{N}]/u.test(after))) return true;
    at = text.indexOf(token, at + 1);
  }
  return false;
}

/** A word, compounds joined by "-" or "_" ("ESP32-S3", "GPIO3_A4"): what a part number is looked for in. */
const WORD = /[\p{L}\p{N}]+(?:[-_][\p{L}\p{N}]+)*/gu;
/** A pin, port or bus name or a grade with its number: capitals then one or two digits ("GPIO14", "PA12", "UART0", "USB3", "HDMI2", "IP67", "DDR4", "COM3"). */
const PIN_LIKE = /^[A-Z]{1,6}\d{1,2}$/;
/** A standard's number ("ISO9001", "IEC62368"): a standards body's prefix (data/technical-terms.json) and digits. */
const STANDARD = new RegExp(`^(?:${technicalTerms.standards.join('|')})[-_ ]?\\d`, 'i');

/**
 * Whether a text names a part number: a word of four characters or more that opens with a letter
 * and mixes digits with at least two capitals ("AMS1117", "OV2640", "ST7735S", "ATmega328P",
 * "nRF52840"), and is no pin or signal name ("GPIO14", "GPIO3_A4"), port or grade ("USB3",
 * "IP67") or standard ("ISO9001"). The text is cut into words first and each word tested in
 * code, which keeps the test linear in the text's length (lookaheads run at every position of a
 * long "-----" line were quadratic).
 */
export function namesPart(text: string): boolean {
  for (const [w] of text.matchAll(WORD)) {
    if (w.length < 4 || !/^\p{L}/u.test(w) || w.includes('_') || !/\d/.test(w)) continue;
    if ((w.match(/\p{Lu}/gu) ?? []).length < 2 || PIN_LIKE.test(w) || STANDARD.test(w)) continue;
    return true;
  }
  return false;
}
