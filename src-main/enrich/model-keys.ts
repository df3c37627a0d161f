import type { ModelToken } from './text.util';
import { joinable } from './text.util';

/**
 * Word sets and key rules shared by both halves of the model vocabulary: observing one document
 * (model-observation.ts) and deriving the library's models from all of them (model-derivation.ts,
 * model-names.ts, model-mentions.ts). Keys themselves are made by `nameKey` and `modelTokens`
 * (text.util.ts).
 */

/** Words that name a document's role, not a product; stripped from file stems and titles. */
export const GENERIC_WORDS = new Set(
  (
    'user users guide guides manual manuals readme index introduction intro overview getting started quick ' +
    'start doc docs documentation reference datasheet en english series family handbook instruction ' +
    'instructions owner owners operating service the of for and'
  ).split(' '),
);
/** Words that may sit between a model name and its revision ("Kaluga-1 Kit v1.3"). */
const REVISION_FILLERS = new Set(['kit', 'board', 'module', 'dev']);
/** Separate words that turn a model into a member of it ("ROCK 5T Industrial"; "CM5 IO", the carrier board of the CM5 module). */
export const SUFFIX_WORDS = new Set(['+', 'pro', 'lite', 'max', 'mini', 'ultra', 'industrial', 'se', '5g', 'lte', 'io']);

/**
 * The family pattern of a name written with placeholder digits, as datasheets name a series:
 * "LM78XX" (an upper-case run of two or more X after a digit), "CH32V30x" or "CH32X3x5" (a lower-case
 * x after a digit in an otherwise upper-case code). Each placeholder stands for one digit; one or
 * two letters may follow the code ("LM7812A"). Null for names without placeholders ("CH32X035":
 * a single upper-case X is a letter of the name).
 */
export function familyPattern(raw: string): RegExp | null {
  if (!/\d/.test(raw) || !/[xX]/.test(raw)) return null;
  const upper = /\p{Lu}/u.test(raw.replace(/x/g, ''));
  let out = '';
  let placeholders = 0;
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k]!;
    const afterDigit = k > 0 && (/\d/.test(raw[k - 1]!) || out.endsWith('\\d'));
    const upperRun = c === 'X' && (raw[k + 1] === 'X' || raw[k - 1] === 'X');
    if (afterDigit && ((c === 'x' && upper) || upperRun)) {
      out += '\\d';
      placeholders++;
    } else out += c.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return placeholders > 0 ? new RegExp(`^${out}[a-z]{0,2}$`) : null;
}

/** Longest name, in tokens ("ESP-Module-Prog-SUB-01&04" has 6). */
export const MAX_WINDOW = 7;

/** Revisions written right after token `end` ("v1.1", "V4", "v4/v4.1", "Kit v1.3"). */
export function revisionsAfter(text: string, toks: readonly ModelToken[], end: number): string[] {
  const out: string[] = [];
  let k = end + 1;
  const next = toks[k];
  if (next && next.kind === 'word' && REVISION_FILLERS.has(next.norm) && joinable(text.slice(toks[k - 1]!.end, next.start))) k++;
  while (k < toks.length && toks[k]!.kind === 'rev') {
    const gap = text.slice(toks[k - 1]!.end, toks[k]!.start);
    if (!(joinable(gap) || /^\s*\/\s*$/.test(gap))) break;
    out.push(toks[k]!.norm);
    k++;
  }
  return out;
}

export function bump<K extends string>(rec: Record<K, number>, key: K, by = 1): void {
  rec[key] = (rec[key] ?? 0) + by;
}
