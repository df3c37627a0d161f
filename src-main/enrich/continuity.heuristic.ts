import type { Chunk, ContinuityDecision, Signature } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { ChunkText, ChunkView } from './chunk-view';
import type { ModelVocabulary } from './model-vocabulary';
import { jaccard } from './text.util';

/**
 * The heuristic continuity decision of CHOP: does a chunk continue the previous chunk's flow?
 * Evidence, in order: new-document markers (a new H1 in a document with several, a "Model:" line,
 * a title page), a new model named by the chunk's headings or tab labels (or repeatedly by its
 * text), the same heading subtree (same section or a subsection of it), lexical similarity. Every decision carries a short reason.
 * Conservative: without evidence of continuity the answer is false (re-extracting is always safe).
 */

export interface ContinuityHeuristicOptions {
  /** Jaccard overlap of content terms at or above which chunks in different sections continue; 0..1. */
  minSimilarity?: number;
}

export interface ContinuityHeuristic {
  readonly name: 'continuity-heuristic';
  readonly options: Readonly<Required<ContinuityHeuristicOptions>>;
  decide(prev: ChunkView, prevSignature: Signature, cur: ChunkView, doc: NormalizedDocument, vocabulary: ModelVocabulary): ContinuityDecision;
  /**
   * Whether `decide` can find `cur` continuous after `prev` with some vocabulary: false when the
   * text alone rules it out (a new-document marker, a new section without shared words). An
   * import reads it before the vocabulary is learned, to prepare only what the answer will need.
   */
  mayContinue(prev: TextPart, cur: TextPart, chunk: Chunk, doc: NormalizedDocument): boolean;
}

/** What `mayContinue` reads of a chunk: its text part (a `ChunkText` or a whole view). */
type TextPart = Pick<ChunkText, 'headings' | 'endPath' | 'terms'>;

const TITLE_PAGE = /\b(?:user'?s? manual|user guide|owner'?s manual|quick start guide|table of contents|service manual)\b/i;
const MODEL_LINE = /^[ \t>*-]*(?:\*\*)?model(?:\s*(?:no\.?|number|name))?(?:\*\*)?\s*[:：]\s*(.+)$/gim;

/** Number of H1 headings per document, cached (documents are immutable once normalized). */
const h1Counts = new WeakMap<NormalizedDocument, number>();
function h1Count(doc: NormalizedDocument): number {
  let n = h1Counts.get(doc);
  if (n === undefined) {
    n = doc.blocks.filter((b) => b.kind === 'heading' && b.level === 1).length;
    h1Counts.set(doc, n);
  }
  return n;
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Creates the heuristic continuity stage; `minSimilarity` defaults to 0.12. */
export function createContinuityHeuristic(options: ContinuityHeuristicOptions = {}): ContinuityHeuristic {
  const minSimilarity = options.minSimilarity ?? 0.12;
  if (!(minSimilarity >= 0 && minSimilarity <= 1)) throw new RangeError('minSimilarity must be within 0..1');
  return {
    name: 'continuity-heuristic',
    options: { minSimilarity },
    decide(prev, prevSignature, cur, doc, vocabulary) {
      const no = (reason: string): ContinuityDecision => ({ continuous: false, reason });
      const prevModel = prevSignature.model;

      // 1. New-document markers.
      const marker = newDocumentMarker(cur, doc);
      if (marker) return no(marker);
      for (const m of cur.chunk.text.matchAll(MODEL_LINE)) {
        const named = vocabulary.findMentions(m[1]!)[0]?.model ?? m[1]!.trim().slice(0, 40);
        if (!prevModel || vocabulary.relation(named, prevModel) === 'none') return no(`"Model:" line names ${named}`);
      }

      // 2. A new model: section-level mentions must be the same model (or a revision of it)...
      const sectionModels = new Set(cur.localMentions.map((m) => m.model));
      const pathChanged = commonPrefix(prev.endPath, cur.chunk.headingPath) < cur.chunk.headingPath.length;
      if (sectionModels.size === 0 && pathChanged) {
        const deepest = cur.pathMentions[cur.pathMentions.length - 1];
        if (deepest) sectionModels.add(deepest.model);
      }
      for (const model of sectionModels) {
        if (!prevModel) return no(`first model named: ${model}`);
        const r = vocabulary.relation(model, prevModel);
        if (r !== 'same' && r !== 'revision') return no(`section names ${model} (previous ${prevModel})`);
      }
      // ...while body text may name relatives, but not repeatedly an unrelated model alone.
      const bodyCounts = new Map<string, number>();
      for (const m of cur.bodyMentions) bodyCounts.set(m.model, (bodyCounts.get(m.model) ?? 0) + 1);
      const namesPrev = prevModel !== null && [...bodyCounts.keys()].some((m) => vocabulary.relation(m, prevModel) !== 'none');
      if (!namesPrev) {
        for (const [model, n] of bodyCounts) {
          if (n >= 2 || !prevModel) {
            return no(prevModel ? `text names ${model} ${n}x, not ${prevModel}` : `first model named: ${model}`);
          }
        }
      }

      // 3 and 4: the same heading subtree, or words carried over.
      return carriedOver(prev, cur.chunk.headingPath, cur.terms, minSimilarity);
    },
    mayContinue(prev, cur, chunk, doc) {
      return newDocumentMarker(cur, doc) === null && carriedOver(prev, chunk.headingPath, cur.terms, minSimilarity).continuous;
    },
  };
}

/** Rule 1 without the vocabulary: why `cur` opens a new document (a new H1 in a document with several, a title page), or null. */
function newDocumentMarker(cur: Pick<ChunkText, 'headings'>, doc: NormalizedDocument): string | null {
  const h1 = cur.headings.find((h) => h.level === 1);
  if (h1 && h1Count(doc) > 1) return `new top-level heading "${h1.text}"`;
  const opening = cur.headings[0];
  if (opening && opening.level <= 2 && TITLE_PAGE.test(opening.text)) return `title page "${opening.text}"`;
  return null;
}

/**
 * Rules 3 and 4, the last word once no model says otherwise. Same heading subtree: the chunk
 * starts in the section the previous chunk ended in, or in a subsection of it. A sibling section
 * is a new topic unless the words carry over (lexical similarity across the boundary).
 */
function carriedOver(prev: Pick<ChunkText, 'endPath' | 'terms'>, b: readonly string[], terms: ReadonlySet<string>, minSimilarity: number): ContinuityDecision {
  const a = prev.endPath;
  const c = commonPrefix(a, b);
  if (c === a.length) {
    if (b.length === 0) return { continuous: true, reason: 'same untitled section' };
    return { continuous: true, reason: b.length === a.length ? `same section "${b.join(' > ')}"` : `subsection of "${a.join(' > ')}"` };
  }
  const sim = jaccard(prev.terms, terms);
  if (sim >= minSimilarity) return { continuous: true, reason: `lexical overlap ${sim.toFixed(2)} across sections` };
  return { continuous: false, reason: `new section "${b[b.length - 1] ?? ''}" (overlap ${sim.toFixed(2)})` };
}
