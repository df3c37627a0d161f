import { z } from 'zod';
import type { NormalizedDocument } from '../core/document';
import { ok } from '../core/result';
import type { Chunker } from './chunker';
import { cancelled } from './chunker.result';
import type { Unit } from './span.util';
import { assembleGroups, documentUnits, isBlank, unitsLength } from './span.util';

/**
 * MDKeyChunker stage 1: structure-aware chunking over the markdown-it blocks.
 *
 * Rules, in order:
 * - headings, lists, tables, code, blockquotes, front matter (and raw HTML blocks) are never split;
 *   a paragraph longer than `maxChars` is split into runs of whole sentences (a paragraph is not a
 *   semantic unit in manuals converted from PDF, where one "paragraph" can be a whole page), and
 *   a sentence longer than `maxChars` into runs of whole words, and a word longer than that into
 *   pieces (`wordPieces`: not inside a surrogate pair, before a combining mark or beside a joiner);
 * - units accumulate while the chunk stays within `maxChars`; a heading closes the current chunk
 *   only once it holds non-heading content of at least `minChars`, so a small section merges
 *   forward into the next one; headings are carried into the next chunk rather than left at the
 *   end of one;
 * - a chunk still under `minChars` (the last one, or one squeezed between oversized neighbours)
 *   merges backward into the previous chunk when the result stays within `maxChars`.
 *
 * Exact exceptions to `minChars <= size <= maxChars` (size = first unit start to last unit end):
 * - over `maxChars`: the chunk holds exactly one non-heading unit (an atomic block, or a piece
 *   of a word that runs on past characters joined to its last one, at most twice the max),
 *   possibly preceded by headings;
 * - under `minChars`: the document has one chunk, or merging with either neighbour would exceed
 *   `maxChars`.
 * Only the document's last chunk may end with a heading.
 */

/**
 * The soft maximum a chunk grows to by default, in characters. MDKeyChunker's stage 1 stops at
 * 1500 and its stage 3 packs chunks sharing a key into retrieval units of up to 3000; without an
 * LLM there are no keys to pack by, so the chunker itself goes up to the retrieval unit's size.
 * Measured on every shared set (docs/benchmarks.md), against 1500: smart-tv Hit@1 +.035,
 * m5stack +.017, no set lower (2000 and 2500 gain less and 2000 costs pdf-dev a question; 4000
 * costs dev one). `maxChars: 1500` gives the paper's chunks.
 */
export const STRUCTURE_MAX_CHARS = 3000;

/** Options: `minChars` and `maxChars` in characters; `maxChars` is soft (atomic blocks may exceed it). */
export const structureOptionsSchema = z
  .strictObject({
    minChars: z.number().int().min(1).default(100),
    maxChars: z.number().int().min(2).default(STRUCTURE_MAX_CHARS),
  })
  .refine((o) => o.minChars < o.maxChars, {
    message: 'must be smaller than maxChars',
    path: ['minChars'],
  });
export type StructureOptions = z.output<typeof structureOptionsSchema>;

const isHeading = (u: Unit): boolean => u.block.kind === 'heading';

/**
 * Groups units by the rules above. What the rules ask of the open chunk (does it have body text,
 * how many headings end it) is kept as units arrive rather than rescanned at each one: a run of
 * bare headings (a parts list with thousands of "# H123" lines) made the rescans quadratic.
 */
function groupStructure(units: readonly Unit[], o: StructureOptions): Unit[][] {
  const groups: Unit[][] = [];
  let cur: Unit[] = [];
  /** Units of `cur` that are not headings. */
  let body = 0;
  /** Headings at the end of `cur`: they move on with the content they introduce. */
  let trailing = 0;

  const add = (u: Unit): void => {
    cur.push(u);
    if (isHeading(u)) trailing++;
    else {
      body++;
      trailing = 0;
    }
  };
  /** Closes the chunk before its trailing headings, which open the next one with `u`. */
  const close = (u: Unit): void => {
    const cut = cur.length - trailing;
    groups.push(cur.slice(0, cut));
    cur = cur.slice(cut);
    body = 0;
    add(u);
  };

  for (const u of units) {
    if (cur.length === 0) {
      add(u);
      continue;
    }
    if (isHeading(u)) {
      const cut = cur.length - trailing;
      if (body > 0 && cur[cut - 1]!.end - cur[0]!.start >= o.minChars) close(u);
      else add(u);
      continue;
    }
    if (body === 0 || u.end - cur[0]!.start <= o.maxChars) add(u);
    else close(u);
  }
  if (cur.length > 0) groups.push(cur);
  return mergeSmallBackward(groups, o);
}

/**
 * A chunk still under `minChars` joins the previous chunk when the result fits `maxChars`. (Merging
 * forward is already done by the grouping: a heading does not close a chunk under `minChars`, and a
 * chunk closed by size could not take the next unit anyway.)
 */
function mergeSmallBackward(groups: Unit[][], o: StructureOptions): Unit[][] {
  const out: Unit[][] = [];
  for (const g of groups) {
    const prev = out[out.length - 1];
    // A loop, not push(...g): a group of 100,000+ units would overflow the call's argument list.
    if (prev && unitsLength(g) < o.minChars && g[g.length - 1]!.end - prev[0]!.start <= o.maxChars) for (const u of g) prev.push(u);
    else out.push([...g]);
  }
  return out;
}

/** Creates the `structure` chunker from validated options. */
export function createStructureChunker(options: StructureOptions): Chunker {
  return {
    strategy: 'structure',
    options,
    async chunk(doc: NormalizedDocument, ctx = {}) {
      if (ctx.signal?.aborted) return cancelled();
      if (isBlank(doc)) return ok([]);
      const units = documentUnits(doc, { splitParagraphsAbove: options.maxChars });
      return ok(assembleGroups(doc, groupStructure(units, options), 'structure'));
    },
  };
}
