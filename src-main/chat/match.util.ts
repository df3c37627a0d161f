import { escapeRe } from '../core/text';
import { UNIT_PATTERN as UNIT } from '../search/stages/answer-line.stage';

/**
 * Matching a question's identifiers and values in a quoted line. The units are the search's own
 * (`UNIT_PATTERN`, from search/data/answer-types.json), so chat and search agree on what makes a
 * number a quantity.
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
