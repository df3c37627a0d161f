import type { DocumentStatus } from '../../../src-main/contract/api';
import { MD_IMAGE, MD_LINK } from '../../../src-main/core/text';
import { frontMatterEnd } from '../viewer/markdown.plugins';

/** Bytes as a short human size ("1.4 MB"); binary units, one decimal above 1 KB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A count with its noun, singular for one ("1 chunk", "3 merged units"); `plural` when not `noun` + "s". */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** A 0..1 fraction as a whole percent ("42%"), clamped. */
export function formatPercent(fraction: number): string {
  return `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`;
}

const STAGE_LABELS: Record<DocumentStatus, string> = {
  queued: 'Queued',
  parsing: 'Reading',
  chunking: 'Chunking',
  enriching: 'Enriching',
  indexing: 'Indexing',
  ready: 'Ready',
  failed: 'Failed',
};

/** The word shown for a document or import stage. */
export function stageLabel(stage: DocumentStatus): string {
  return STAGE_LABELS[stage];
}

/** Pages as "p. 3" or "pp. 3–5"; empty for formats without pages. */
export function formatPages(pages: readonly number[]): string {
  if (pages.length === 0) return '';
  const first = pages[0]!;
  const last = pages[pages.length - 1]!;
  return first === last ? `p. ${first}` : `pp. ${first}–${last}`;
}

/** A date as local "29 Nov 2026, 14:05". */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * A backslash-escaped ASCII punctuation mark ("135\*240", "A\|B") stands for the mark itself.
 * While the Markdown is stripped each is held as one of the 32 Unicode noncharacters U+FDD0..U+FDEF
 * (reserved for a program's internal use, so never in a manual), which no rule below takes for
 * syntax (an escaped pipe is not a cell border), and put back at the end.
 */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
const HELD = /[\ufdd0-\ufdef]/g;
const hold = (mark: string) => String.fromCharCode(0xfdd0 + PUNCTUATION.indexOf(mark));
const release = (held: string) => PUNCTUATION[held.charCodeAt(0) - 0xfdd0]!;

/**
 * Manual text (Markdown) as plain reading text for previews: a leading front matter, heading
 * marks, list bullets and numbers, emphasis, code ticks, backslash escapes, tag-shaped HTML and
 * table rules removed, image and link syntax reduced to their words, a table row's cells joined by
 * " · " (a preview may start mid-row, so any line with two or more pipes counts as one), blank-line
 * runs collapsed (a line of spaces counts as blank). The result is shown as text, never parsed as
 * HTML.
 */
export function plainText(markdown: string): string {
  // A passage that opens its document starts with the front matter, which the viewer hides too.
  return markdown
    .slice(frontMatterEnd(markdown))
    .replace(ESCAPED, (_, mark: string) => hold(mark))
    .replace(/<\/?[A-Za-z][^<>\n]*>/g, ' ')
    .replace(MD_IMAGE, '$1')
    .replace(MD_LINK, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, '')
    // "- IR transmitter", "2. Remove the cover": a line's bullet or number, not "-20 °C" or "3.3 V".
    .replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/gm, '')
    .replace(/^.*\|.*\|.*$/gm, (row) =>
      row
        .split('|')
        .map((cell) => cell.trim())
        .filter((cell) => cell !== '')
        .join(' · '),
    )
    // A row cut by the preview's edge keeps one pipe at its start or end.
    .replace(/^[ \t]*\|[ \t]*|[ \t]*\|[ \t]*$/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/[ \t]{2,}/g, ' ')
    // A line left holding only spaces (a tag stood alone on it) is blank, so its run collapses too.
    .replace(/^[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(HELD, release)
    .trim();
}

/**
 * `text` cut into the stretches to show marked (a word starting with one of `words`, any case, as
 * the engine found them for the snippet) and the rest, in order; rendered as text either way.
 */
export function markedParts(text: string, words: readonly string[]): { text: string; marked: boolean }[] {
  const usable = words.filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
  if (usable.length === 0 || text === '') return text === '' ? [] : [{ text, marked: false }];
  // Longest first, so "gpio36" is marked whole where "gpio" is asked too.
  const alternatives = [...usable].sort((a, b) => b.length - a.length).join('|');
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})`, 'giu');
  const out: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), marked: false });
    out.push({ text: m[0], marked: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), marked: false });
  return out;
}

/** "2", "2 and 3", "2, 3 and 4". */
const listed = (ns: readonly number[]) => (ns.length === 1 ? `${ns[0]}` : `${ns.slice(0, -1).join(', ')} and ${ns.at(-1)}`);

/**
 * A citation marker whose number names no source of its answer, in words: a language model may
 * number a passage it was never given, and the answer keeps its "[7]" though no chip stands for it.
 */
export function missingSource(n: number): string {
  return `source ${n} not found`;
}

/**
 * An answer's citation markers in words for a screen reader: "fuse [1]. Clean [2][3]" reads
 * "fuse (source 1). Clean (sources 2 and 3)", not "left bracket one right bracket". `cited`: the
 * numbers the answer has a source for; a marker naming none is said as not found ("(source 7 not
 * found)"), as its plain "[7]" on screen is. The chips on screen are labelled "Source n: …"
 * already; this is for text said as a whole (the answer status). `lineEnd`: an extracted answer,
 * whose markers are the one ending each line (`remarkLineEndCitations`); a "[2]" inside a quoted
 * line is the manual's own and is read as written.
 */
export function spokenCitations(text: string, cited: ReadonlySet<number>, lineEnd = false): string {
  return text.replace(lineEnd ? /[ \t]*\[\d{1,3}\](?=[ \t]*$)/gm : /(?:[ \t]*\[\d{1,3}\])+/g, (run) => {
    const ns = [...run.matchAll(/\d+/g)].map((m) => Number(m[0]));
    const found = ns.filter((n) => cited.has(n));
    const missing = ns.filter((n) => !cited.has(n));
    const said = [
      ...(found.length > 0 ? [`${found.length === 1 ? 'source' : 'sources'} ${listed(found)}`] : []),
      ...(missing.length === 1 ? [missingSource(missing[0]!)] : missing.length > 1 ? [`sources ${listed(missing)} not found`] : []),
    ];
    return ` (${said.join('; ')})`;
  });
}
