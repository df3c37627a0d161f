import { z } from 'zod';
import type { NormalizedDocument } from '../core/document';
import { fail, ok } from '../core/result';
import type { Chunker } from './chunker';
import { cancelled } from './chunker.result';
import type { Unit } from './span.util';
import { assembleGroups, documentUnits, isBlank } from './span.util';
import { cosineDense } from './tfidf';

/**
 * The paper baseline "cosine chunking" (CHOP): split the text into sentences, embed each, and cut
 * wherever two adjacent sentences are less similar than `threshold`. Sentences come from
 * paragraphs; a table, list or code block counts as one "sentence" because splitting a table row
 * at a period is not a sentence boundary. `maxChars` only guards against one endless chunk when a
 * document is uniformly similar; it never splits a unit, but a "sentence" longer than it (a list
 * of codes without a stop) is cut at spaces into units of at most that length.
 */

/** Message shown when semantic chunking is asked for without an embedding model. */
export const SEMANTIC_NEEDS_EMBEDDER = 'Semantic chunking needs an embedding model; add one in Settings › Models.';

/** Options: `threshold` is a cosine similarity in [-1, 1]; `maxChars` a soft cap in characters. */
export const semanticOptionsSchema = z.strictObject({
  threshold: z.number().min(-1).max(1).default(0.35),
  maxChars: z.number().int().min(1).default(2000),
});
export type SemanticOptions = z.output<typeof semanticOptionsSchema>;

/** Creates the `semantic` chunker; it needs `ctx.embedder` at chunk time ('unavailable' otherwise). */
export function createSemanticChunker(options: SemanticOptions): Chunker {
  return {
    strategy: 'semantic',
    options,
    async chunk(doc: NormalizedDocument, ctx = {}) {
      if (ctx.signal?.aborted) return cancelled();
      const embedder = ctx.embedder;
      if (!embedder) return fail('unavailable', SEMANTIC_NEEDS_EMBEDDER);
      if (isBlank(doc)) return ok([]);
      const units = documentUnits(doc, { sentences: true, splitParagraphsAbove: options.maxChars });
      let vectors: Float32Array[];
      try {
        vectors = await embedder.embed(
          units.map((u) => doc.text.slice(u.start, u.end)),
          ctx.signal ? { signal: ctx.signal } : undefined,
        );
      } catch (err) {
        if (ctx.signal?.aborted) return cancelled();
        return fail('model-failed', `The embedding model failed while chunking ${doc.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (ctx.signal?.aborted) return cancelled();
      if (vectors.length !== units.length) {
        return fail('model-failed', `The embedding model returned ${vectors.length} vectors for ${units.length} sentences.`);
      }
      const groups: Unit[][] = [];
      let cur: Unit[] = [];
      units.forEach((u, i) => {
        if (cur.length > 0) {
          const similar = cosineDense(vectors[i - 1]!, vectors[i]!) >= options.threshold;
          const fits = u.end - cur[0]!.start <= options.maxChars;
          if (!similar || !fits) {
            groups.push(cur);
            cur = [];
          }
        }
        cur.push(u);
      });
      if (cur.length > 0) groups.push(cur);
      return ok(assembleGroups(doc, groups, 'semantic'));
    },
  };
}
