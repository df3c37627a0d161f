import type { Chunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { CompiledSchema } from './section.classifier';
import {
  bareTitle,
  compileSchema,
  ENUMERATOR,
  extractPeriod,
  headingType,
  labelType,
  matchedKeywords,
  standaloneHeaderType,
  stripDates,
} from './section.classifier';
import type { SectionSchema } from './section.schema';
import { pageRange } from '../core/chunk';

/**
 * The structured JSON form of a `structural` chunk, in the shape of the seed's example
 * (structural-chunks-design.txt): one object per section or per dated entry.
 */

/** A structural chunk as JSON; `period` dates are `YYYY-MM`, `YYYY` or `present`; pages are 1-based. */
export interface StructuredChunkJson {
  chunk_id: string;
  doc_id: string;
  section_type: string;
  title: string | null;
  period: { from: string | null; to: string | null };
  role: string[];
  skills: string[];
  content: string;
  source: { file: string; page: number[] };
}

const compiledCache = new WeakMap<SectionSchema, CompiledSchema>();

/** Compiles a schema once and reuses it for later calls with the same object. */
export function compiledFor(schema: SectionSchema): CompiledSchema {
  let c = compiledCache.get(schema);
  if (!c) {
    c = compileSchema(schema);
    compiledCache.set(schema, c);
  }
  return c;
}

const MAX_TITLE = 80;
const FRONT_MATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const SEGMENT_SPLIT = /\s*(?:[|｜•·\t]|\s{2,})\s*/u;
const NAME_LABEL = /^\s*([^:：\n]{1,20}?(?:名称|name|title))\s*[:：]\s*(.+)$/iu;
const LABEL = /^\s*([^:：\n]{1,20})[:：]\s*(.+)$/u;
const ROLE = /(?<![\p{L}])(?:roles?|my role|角色|担任角色)\s*[:：]\s*([^|｜\n]+)/iu;

const EDGE_DECORATION = /^[#*_>`~【】[\]()（）:：|=—–·•●■◆▶►\-\s]+|[#*_>`~【】[\]()（）:：|=—–·•●■◆▶►\-\s]+$/gu;

/** A title without Markdown marks and edge decoration; inner punctuation ("A — B", "B.Sc.") stays. */
function cleanTitle(s: string): string | null {
  const t = s.replace(ENUMERATOR, '').replace(/\*\*|__|`/g, '').replace(EDGE_DECORATION, '').replace(/\s+/g, ' ').trim();
  return t.length > 0 && t.length <= MAX_TITLE ? t : null;
}

/** The title of a dated entry: its first line that is not a section header, without dates and trailing fields. */
function entryTitle(compiled: CompiledSchema, lines: readonly string[]): string | null {
  for (const line of lines) {
    if (standaloneHeaderType(compiled, line) !== null) continue;
    const named = NAME_LABEL.exec(line);
    const label = LABEL.exec(line);
    let candidate = named ? named[2]! : label && labelType(compiled, line) === null && !/^\s*#/.test(line) ? label[2]! : line;
    candidate = stripDates(candidate).split(SEGMENT_SPLIT).find((seg) => bareTitle(seg).length > 0) ?? '';
    return cleanTitle(candidate);
  }
  return null;
}

/** The title of a section: its leading Markdown heading, section header or "Label:" label. */
function sectionTitle(compiled: CompiledSchema, lines: readonly string[]): string | null {
  const first = lines[0];
  if (first === undefined) return null;
  if (/^\s*#{1,6}\s/.test(first) || standaloneHeaderType(compiled, first) !== null) return cleanTitle(first);
  const label = LABEL.exec(first);
  if (label && headingType(compiled, label[1]!) !== null) return cleanTitle(label[1]!);
  return null;
}

/**
 * Builds the structured JSON of a chunk: `title` from the entry's first line or the section's
 * header (else the heading path, else the schema label), `period` from the first date range,
 * `skills` from the schema's `skillsType` keywords, `role` from a "Role:" / "角色：" field.
 * `seq` numbers chunks of the same type within the document (1-based) for `chunk_id`.
 */
export function toStructuredJson(
  chunk: Chunk,
  doc: NormalizedDocument,
  schema: SectionSchema,
  seq = chunk.ordinal + 1,
): StructuredChunkJson {
  const compiled = compiledFor(schema);
  const type = chunk.sectionType ?? schema.fallbackType;
  const section = compiled.byType.get(type);
  const lines = chunk.text
    .replace(FRONT_MATTER, '')
    .split('\n')
    .filter((l) => l.trim().length > 0);
  const title =
    (section?.spec.entry ? entryTitle(compiled, lines) : sectionTitle(compiled, lines)) ??
    chunk.headingPath[chunk.headingPath.length - 1] ??
    section?.spec.label ??
    null;
  const roleMatch = ROLE.exec(chunk.text);
  const role = roleMatch
    ? roleMatch[1]!
        .split(/\s*(?:[,，、/;；]|\band\b)\s*/u)
        .map((r) => r.trim().replace(/[.。]$/u, ''))
        .filter((r) => r.length > 0)
    : [];
  const skillsSection = schema.skillsType ? compiled.byType.get(schema.skillsType) : undefined;
  const pages = pageRange(chunk.pageStart, chunk.pageEnd);
  return {
    chunk_id: `${doc.id}#${type}_${String(seq).padStart(2, '0')}`,
    doc_id: doc.id,
    section_type: type,
    title,
    period: section?.spec.entry ? extractPeriod(chunk.text) : { from: null, to: null },
    role,
    skills: skillsSection ? matchedKeywords(skillsSection, chunk.text) : [],
    content: chunk.text.trim(),
    source: { file: doc.id, page: pages },
  };
}
