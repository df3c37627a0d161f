import { z } from 'zod';
import type { Chunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { ChunkContext, Chunker } from './chunker';
import { cancelled } from './chunker.result';
import type { CompiledSchema } from './section.classifier';
import {
  bareTitle,
  bestScore,
  dateEvidence,
  headingType,
  labelType,
  scoreSections,
  standaloneHeaderType,
  startsWithDate,
} from './section.classifier';
import type { SectionSchema } from './section.schema';
import type { Unit } from './span.util';
import { assembleGroups, documentUnits, isBlank, unitsLength } from './span.util';
import type { StructuredChunkJson } from './structured.formatter';
import { compiledFor, toStructuredJson } from './structured.formatter';
import { buildCorpusStats, cosineDense, cosineSparse, tfidfVector } from './tfidf';

/**
 * Structural chunks (structural-chunks-design.txt) for semi-structured documents: resumes, spec
 * sheets, service manuals.
 *
 * 1. Physical paragraphs: the markdown-it blocks (never split, so atomic blocks stay whole).
 * 2. Section type per paragraph, first rule that applies: a section header line ("PROJECT
 *    EXPERIENCE", "【项目经历】") names it and the following paragraphs; else the deepest Markdown
 *    heading above it whose title names a section; else, for a paragraph with two dates or a date
 *    range, the best-scoring entry type (job, project, education); else a "Skills: …" label; else
 *    the open entry continues unless another type's keyword density reaches `strongDensity`; else
 *    the densest type when density >= `minDensity`; else the schema's fallback type.
 *    Headings, header-only lines and front matter join the paragraph that follows them.
 * 3. Entries: within an entry type a paragraph with dates starts a new entry once the current one
 *    has dates (a short title line right before such a paragraph starts it instead), so a project
 *    told in three paragraphs is one chunk and two projects are two.
 * 4. Soft merge: adjacent non-entry units of one type merge when cosine > `mergeThreshold` (embedder
 *    when given, else TF-IDF over the library's statistics, else over the document), or when one is
 *    under `minChars`; a merge never exceeds `maxChars`. Entries never merge with each other.
 */

/** Options; `schema` is `manual`, `resume`, a path to a JSON schema file, or a schema object. */
export const structuralOptionsSchema = z
  .strictObject({
    schema: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).default('manual'),
    /** Cosine above which adjacent same-type paragraphs merge (seed: 0.85). */
    mergeThreshold: z.number().min(-1).max(1).default(0.85),
    /** Units shorter than this (characters) merge with a same-type neighbour regardless of similarity. */
    minChars: z.number().int().min(1).default(100),
    /** Soft merges stop at this many characters; single entries or blocks may be longer. */
    maxChars: z.number().int().min(2).default(3000),
    /** Keyword hits per word below which a paragraph's own keywords are ignored. */
    minDensity: z.number().min(0).default(0.02),
    /** Keyword hits per word at which a paragraph leaves an open entry for another type. */
    strongDensity: z.number().min(0).default(0.2),
  })
  .refine((o) => o.minChars < o.maxChars, { message: 'must be smaller than maxChars', path: ['minChars'] })
  .refine((o) => o.minDensity <= o.strongDensity, { message: 'must not exceed strongDensity', path: ['minDensity'] });
export type StructuralOptions = z.output<typeof structuralOptionsSchema>;

/** A `structural` chunk: the section type and the structured JSON ride along with the chunk. */
export interface StructuralChunk extends Chunk {
  sectionType: string;
  structured: StructuredChunkJson;
}

interface Group {
  units: Unit[];
  type: string;
  headerOnly: boolean;
  hasDate: boolean;
}

const TITLE_LINE_MAX = 80;

/** Classifies every unit and groups them into sections and entries (steps 2 and 3 above). */
function groupSections(doc: NormalizedDocument, units: readonly Unit[], compiled: CompiledSchema, o: StructuralOptions): Group[] {
  const { schema } = compiled;
  const isEntry = (t: string): boolean => compiled.byType.get(t)?.spec.entry ?? false;
  const firstEntry = schema.sections.find((s) => s.entry)?.type ?? null;
  const headingCache = new Map<string, string | null>();
  const titleType = (title: string): string | null => {
    let t = headingCache.get(title);
    if (t === undefined) {
      t = headingType(compiled, bareTitle(title))?.type ?? null;
      headingCache.set(title, t);
    }
    return t;
  };
  const pathType = (path: readonly string[]): string | null => {
    for (let i = path.length - 1; i >= 0; i--) {
      const t = titleType(path[i]!);
      if (t) return t;
    }
    return null;
  };

  const texts = units.map((u) => doc.text.slice(u.start, u.end));
  const evidence = texts.map((t) => dateEvidence(t));
  const groups: Group[] = [];
  let pseudoCtx: string | undefined;

  const addHeader = (u: Unit, type: string): void => {
    const cur = groups[groups.length - 1];
    if (cur?.headerOnly) {
      cur.units.push(u);
      cur.type = type;
    } else groups.push({ units: [u], type, headerOnly: true, hasDate: false });
  };

  units.forEach((u, i) => {
    const text = texts[i]!;
    const ev = evidence[i]!;
    if (u.block.kind === 'heading') {
      pseudoCtx = undefined;
      addHeader(u, pathType(u.block.headingPath) ?? schema.fallbackType);
      return;
    }
    // Front matter is metadata about what follows, like a heading.
    if (u.block.kind === 'frontmatter') {
      addHeader(u, schema.fallbackType);
      return;
    }
    const prose = u.block.kind === 'paragraph' || u.block.kind === 'html';
    const lines = text.split('\n');
    const firstLine = lines[0] ?? '';
    const header = prose ? standaloneHeaderType(compiled, firstLine) : null;
    if (header) {
      pseudoCtx = header;
      if (lines.slice(1).every((l) => l.trim() === '')) {
        addHeader(u, header);
        return;
      }
    }
    const ctx = pseudoCtx ?? pathType(u.block.headingPath);
    const cur = groups[groups.length - 1];
    const openEntry = cur && !cur.headerOnly && isEntry(cur.type) ? cur.type : null;
    const scores = scoreSections(compiled, text);
    const label = prose && !header ? labelType(compiled, firstLine) : null;

    let type: string;
    if (header) type = header;
    else if (ctx) type = ctx;
    else if (ev.dated && firstEntry) type = bestScore(scores, isEntry)?.type ?? openEntry ?? firstEntry;
    else if (label) type = label;
    else if (openEntry && !((bestScore(scores, (t) => !isEntry(t))?.density ?? 0) >= o.strongDensity)) type = openEntry;
    else {
      const best = bestScore(scores);
      type = best && best.density >= o.minDensity ? best.type : schema.fallbackType;
    }

    if (!cur) {
      groups.push({ units: [u], type, headerOnly: false, hasDate: ev.dated });
      return;
    }
    if (cur.headerOnly) {
      cur.units.push(u);
      cur.type = type;
      cur.headerOnly = false;
      cur.hasDate = ev.dated;
      return;
    }
    let join = false;
    if (type === cur.type && isEntry(type)) {
      const next = units[i + 1];
      // "Emotional Companion AI Agent" alone, then "Jan 2026 – Feb 2026 | Lead": the title opens the entry.
      const titleLine =
        prose &&
        lines.length === 1 &&
        text.length <= TITLE_LINE_MAX &&
        !ev.dated &&
        !/[.。!！?？;；]$/u.test(text) &&
        next?.block.kind === 'paragraph' &&
        evidence[i + 1]!.dated &&
        startsWithDate(texts[i + 1]!);
      join = !(cur.hasDate && (ev.dated || titleLine));
    }
    if (join) {
      cur.units.push(u);
      cur.hasDate ||= ev.dated;
    } else groups.push({ units: [u], type, headerOnly: false, hasDate: ev.dated });
  });

  // A trailing heading (nothing after it) belongs to what precedes it.
  const last = groups[groups.length - 1];
  const beforeLast = groups[groups.length - 2];
  if (last?.headerOnly && beforeLast) {
    beforeLast.units.push(...last.units);
    groups.pop();
  }
  return groups;
}

/** Adjacent groups that could soft-merge if similar enough: same non-entry type, within `maxChars`. */
function mergeCandidates(groups: readonly Group[], compiled: CompiledSchema, o: StructuralOptions): boolean[] {
  return groups.map((g, i) => {
    const prev = groups[i - 1];
    return (
      prev !== undefined &&
      prev.type === g.type &&
      !(compiled.byType.get(g.type)?.spec.entry ?? false) &&
      g.units[g.units.length - 1]!.end - prev.units[0]!.start <= o.maxChars
    );
  });
}

/**
 * Cosine between each candidate group and the one before it (NaN elsewhere). Only groups in a
 * candidate pair are embedded, so a document of all-different sections costs no model call.
 */
async function similarities(
  doc: NormalizedDocument,
  groups: readonly Group[],
  candidate: readonly boolean[],
  ctx: ChunkContext,
): Promise<Result<number[]>> {
  const sims = groups.map(() => Number.NaN);
  const needed = [...new Set(candidate.flatMap((c, i) => (c ? [i - 1, i] : [])))];
  if (needed.length === 0) return ok(sims);
  const textOf = (i: number): string => doc.text.slice(groups[i]!.units[0]!.start, groups[i]!.units[groups[i]!.units.length - 1]!.end);
  if (ctx.embedder) {
    let vectors: Float32Array[];
    try {
      vectors = await ctx.embedder.embed(needed.map(textOf), ctx.signal ? { signal: ctx.signal } : undefined);
    } catch (err) {
      if (ctx.signal?.aborted) return cancelled();
      return fail('model-failed', `The embedding model failed while chunking ${doc.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (vectors.length !== needed.length) return fail('model-failed', `The embedding model returned ${vectors.length} vectors for ${needed.length} paragraphs.`);
    const byGroup = new Map(needed.map((g, k) => [g, vectors[k]!]));
    candidate.forEach((c, i) => {
      if (c) sims[i] = cosineDense(byGroup.get(i - 1)!, byGroup.get(i)!);
    });
    return ok(sims);
  }
  const stats = ctx.corpus ?? buildCorpusStats(groups.map((_, i) => textOf(i)));
  const byGroup = new Map(needed.map((g) => [g, tfidfVector(textOf(g), stats)]));
  candidate.forEach((c, i) => {
    if (c) sims[i] = cosineSparse(byGroup.get(i - 1)!, byGroup.get(i)!);
  });
  return ok(sims);
}

function softMerge(groups: readonly Group[], candidate: readonly boolean[], sims: readonly number[], o: StructuralOptions): Group[] {
  const out: Group[] = [];
  groups.forEach((g, i) => {
    const prev = out[out.length - 1];
    // `candidate` was computed on the unmerged groups; re-check the size against the grown chunk.
    const canMerge =
      prev !== undefined &&
      candidate[i] === true &&
      g.units[g.units.length - 1]!.end - prev.units[0]!.start <= o.maxChars &&
      (sims[i]! > o.mergeThreshold || unitsLength(groups[i - 1]!.units) < o.minChars || unitsLength(g.units) < o.minChars);
    if (canMerge) prev.units.push(...g.units);
    else out.push({ ...g, units: [...g.units] });
  });
  return out;
}

/** Creates the `structural` chunker from validated options and a resolved section schema. */
export function createStructuralChunker(options: StructuralOptions, schema: SectionSchema): Chunker {
  const compiled = compiledFor(schema);
  return {
    strategy: 'structural',
    options: { ...options, schema: schema.id },
    async chunk(doc: NormalizedDocument, ctx: ChunkContext = {}): Promise<Result<StructuralChunk[]>> {
      if (ctx.signal?.aborted) return cancelled();
      if (isBlank(doc)) return ok([]);
      const groups = groupSections(doc, documentUnits(doc), compiled, options);
      const candidate = mergeCandidates(groups, compiled, options);
      const sims = await similarities(doc, groups, candidate, ctx);
      if (!sims.ok) return sims;
      if (ctx.signal?.aborted) return cancelled();
      const merged = softMerge(groups, candidate, sims.value, options);
      const chunks = assembleGroups(
        doc,
        merged.map((g) => g.units),
        'structural',
        merged.map((g) => g.type),
      );
      const seq = new Map<string, number>();
      return ok(
        chunks.map((c) => {
          const sectionType = c.sectionType ?? schema.fallbackType;
          const n = (seq.get(sectionType) ?? 0) + 1;
          seq.set(sectionType, n);
          const chunk = { ...c, sectionType };
          return { ...chunk, structured: toStructuredJson(chunk, doc, schema, n) };
        }),
      );
    },
  };
}
