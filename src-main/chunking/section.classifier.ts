import type { SectionSchema, SectionSpec } from './section.schema';

/**
 * Keyword-density and date-pattern scoring for the `structural` chunker (structural-chunks-design):
 * density = keyword hits / paragraph length in words (a CJK character counts as one word), and two
 * dates or a date range mark an experience/project entry. Hand-written: it is a few regexes.
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_ALL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const WORDS = /[\p{L}\p{N}]+/gu;
const SPACED_WORD_CHAR = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{N}_]';

const MONTH = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const YEAR = '(?:19|20)\\d{2}';
const ONE_DATE = [
  `${YEAR}\\s*年\\s*\\d{1,2}\\s*月`,
  `${YEAR}\\s*[./-]\\s*\\d{1,2}(?!\\d)`,
  `(?<!\\d)\\d{1,2}\\s*/\\s*${YEAR}`,
  `(?<![\\p{L}])(?:${MONTH})\\.?\\s+${YEAR}`,
].join('|');
const OPEN_END = '至今|现在|present|now|current|today';
const DATE_RE = new RegExp(`(?:${ONE_DATE})`, 'giu');
const RANGE_RE = new RegExp(
  `(${ONE_DATE}|(?<!\\d)${YEAR})\\s*(?:-|–|—|~|～|至|到|to|until)\\s*(${ONE_DATE}|${YEAR}(?!\\d)|${OPEN_END})`,
  'giu',
);

/** A section type compiled into regexes once per schema. */
export interface CompiledSection {
  spec: SectionSpec;
  headings: RegExp[];
  keywords: RegExp[];
  /** Lowercased keyword -> keyword as written in the schema. */
  keywordNames: Map<string, string>;
  patterns: RegExp[];
}

/** A schema ready for scoring. */
export interface CompiledSchema {
  schema: SectionSchema;
  sections: CompiledSection[];
  byType: Map<string, CompiledSection>;
}

/** Per-type score of a text. */
export interface SectionScore {
  type: string;
  /** Keyword and pattern hits divided by the text length in words. */
  density: number;
  hits: number;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Word-bounded alternation for Latin-script phrases, plain alternation for CJK ones (no spaces between words). */
function alternations(words: readonly string[]): RegExp[] {
  const sorted = [...new Set(words)].sort((a, b) => b.length - a.length);
  const cjk = sorted.filter((w) => CJK.test(w)).map(escape);
  const latin = sorted.filter((w) => !CJK.test(w)).map((w) => escape(w).replace(/\s+/g, '\\s+'));
  const out: RegExp[] = [];
  // Word edges count only alphabetic scripts written with spaces: "使用Python和Redis" matches both.
  if (latin.length > 0) out.push(new RegExp(`(?<!${SPACED_WORD_CHAR})(?:${latin.join('|')})(?!${SPACED_WORD_CHAR})`, 'giu'));
  if (cjk.length > 0) out.push(new RegExp(`(?:${cjk.join('|')})`, 'gu'));
  return out;
}

/** Compiles a validated schema (keywords case-insensitive, `patterns` case-sensitive as written). */
export function compileSchema(schema: SectionSchema): CompiledSchema {
  const sections = schema.sections.map((spec) => ({
    spec,
    headings: alternations(spec.headings),
    keywords: alternations(spec.keywords),
    keywordNames: new Map(spec.keywords.map((k) => [k.toLowerCase().replace(/\s+/g, ' '), k])),
    patterns: spec.patterns.map((p) => new RegExp(p, 'gu')),
  }));
  return { schema, sections, byType: new Map(sections.map((s) => [s.spec.type, s])) };
}

/** Length of a text in words: runs of letters/digits, each CJK character counting as one word. */
export function wordCount(text: string): number {
  const cjk = text.match(CJK_ALL)?.length ?? 0;
  const rest = text.replace(CJK_ALL, ' ').match(WORDS)?.length ?? 0;
  return cjk + rest;
}

function countMatches(res: readonly RegExp[], text: string): number {
  let n = 0;
  for (const re of res) for (const _ of text.matchAll(re)) n++;
  return n;
}

/** Keyword density of `text` for every section type, in schema order. */
export function scoreSections(compiled: CompiledSchema, text: string): SectionScore[] {
  const words = Math.max(1, wordCount(text));
  return compiled.sections.map((s) => {
    const hits = countMatches(s.keywords, text) + countMatches(s.patterns, text);
    return { type: s.spec.type, density: hits / words, hits };
  });
}

/** The highest-density score (first in schema order on ties), or null when nothing matched. */
export function bestScore(scores: readonly SectionScore[], filter?: (type: string) => boolean): SectionScore | null {
  let best: SectionScore | null = null;
  for (const s of scores) {
    if (s.hits === 0 || (filter && !filter(s.type))) continue;
    if (!best || s.density > best.density) best = s;
  }
  return best;
}

/** Keywords of `section` found in `text`, as written in the schema, in order of first appearance. */
export function matchedKeywords(section: CompiledSection, text: string): string[] {
  const found: { at: number; name: string }[] = [];
  const seen = new Set<string>();
  for (const re of section.keywords) {
    for (const m of text.matchAll(re)) {
      const key = m[0].toLowerCase().replace(/\s+/g, ' ');
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({ at: m.index, name: section.keywordNames.get(key) ?? m[0] });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.name);
}

/**
 * Section type named by a title ("Project Experience", "【项目经历】"), by the longest heading phrase
 * it contains, so "project experience" beats "experience". Null when no heading phrase matches.
 */
export function headingType(compiled: CompiledSchema, title: string): { type: string; covered: number } | null {
  let best: { type: string; covered: number } | null = null;
  for (const s of compiled.sections) {
    for (const re of s.headings) {
      for (const m of title.matchAll(re)) {
        if (!best || m[0].length > best.covered) best = { type: s.spec.type, covered: m[0].length };
      }
    }
  }
  return best;
}

const DECORATION = /[#*_>`~【】[\]()（）:：|=—–·•●■◆▶►\-\s]+/gu;
/** A leading list enumerator of a title: `1.`, `2)`, `一、`, `IV.`. */
export const ENUMERATOR = /^\s*(?:\d{1,2}[.)、]|[一二三四五六七八九十]{1,3}[、.]|[IVX]{1,4}\.)\s*/u;

/** A title stripped of Markdown marks, brackets, colons and a leading "1." / "一、" enumerator. */
export function bareTitle(line: string): string {
  return line.replace(ENUMERATOR, '').replace(DECORATION, ' ').trim();
}

/**
 * Section type when `line` is a stand-alone section header in plain text ("PROJECT EXPERIENCE",
 * "【项目经历】", "Skills:"): short, and mostly made of one heading phrase.
 */
export function standaloneHeaderType(compiled: CompiledSchema, line: string): string | null {
  const bare = bareTitle(line);
  if (bare.length === 0 || bare.length > 40) return null;
  const h = headingType(compiled, bare);
  return h && h.covered * 2 >= bare.length ? h.type : null;
}

/**
 * Section type named by a "Label: value" line whose label is almost only a heading phrase
 * ("Skills: Python, C++", "专业技能：…"; not "Skills used: …" inside a project), else null.
 */
export function labelType(compiled: CompiledSchema, line: string): string | null {
  const m = /^\s*([^:：\n]{1,30})[:：]\s*\S/u.exec(line);
  if (!m) return null;
  const bare = bareTitle(m[1]!);
  const h = bare.length > 0 ? headingType(compiled, bare) : null;
  return h && h.covered * 4 >= bare.length * 3 ? h.type : null;
}

/** Date evidence of a text: number of dates and whether it holds a range (`2019年3月 - 至今`, `Mar 2021 – Jun 2022`). */
export function dateEvidence(text: string): { dates: number; range: boolean; dated: boolean } {
  const dates = text.match(DATE_RE)?.length ?? 0;
  RANGE_RE.lastIndex = 0;
  const range = RANGE_RE.test(text);
  RANGE_RE.lastIndex = 0;
  return { dates, range, dated: range || dates >= 2 };
}

const LEADING_DATE_RE = new RegExp(`^[\\s(（\\[【|*_]*(?:${ONE_DATE}|${YEAR}(?!\\d))`, 'iu');

/** True when a text begins with a date ("Jan 2026 – Feb 2026 | Lead"), i.e. a date line without its own title. */
export function startsWithDate(text: string): boolean {
  return LEADING_DATE_RE.test(text);
}

/** A date as `YYYY-MM` (or `YYYY`), or `present` for an open end; null when unparseable. */
export function normalizeDate(raw: string): string | null {
  const s = raw.trim().toLowerCase();
  if (new RegExp(`^(?:${OPEN_END})$`, 'iu').test(s)) return 'present';
  const pad = (m: string): string => m.padStart(2, '0');
  let m = /^((?:19|20)\d{2})\s*年\s*(\d{1,2})\s*月$/u.exec(s) ?? /^((?:19|20)\d{2})\s*[./-]\s*(\d{1,2})$/u.exec(s);
  if (m) return `${m[1]}-${pad(m[2]!)}`;
  m = /^(\d{1,2})\s*\/\s*((?:19|20)\d{2})$/u.exec(s);
  if (m) return `${m[2]}-${pad(m[1]!)}`;
  m = new RegExp(`^(${MONTH})\\.?\\s+((?:19|20)\\d{2})$`, 'iu').exec(s);
  if (m) {
    const month = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(m[1]!.slice(0, 3)) + 1;
    return `${m[2]}-${pad(String(month))}`;
  }
  m = /^((?:19|20)\d{2})$/u.exec(s);
  return m ? m[1]! : null;
}

/** The period a text describes: its first date range, else its first two dates, else its only date. */
export function extractPeriod(text: string): { from: string | null; to: string | null } {
  RANGE_RE.lastIndex = 0;
  const r = RANGE_RE.exec(text);
  RANGE_RE.lastIndex = 0;
  if (r) return { from: normalizeDate(r[1]!), to: normalizeDate(r[2]!) };
  const dates = text.match(DATE_RE) ?? [];
  return { from: dates[0] ? normalizeDate(dates[0]) : null, to: dates[1] ? normalizeDate(dates[1]) : null };
}

/** Removes dates and date ranges from a line (for titles). */
export function stripDates(line: string): string {
  return line.replace(RANGE_RE, ' ').replace(DATE_RE, ' ');
}
