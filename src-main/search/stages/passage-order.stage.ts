import type { ChunkHit, ChunkRecord } from '../../storage/chunk-store';
import type { RankStage } from './stage';
import { coverageRerank } from './term-coverage.stage';
import { weighByAnswerLine } from './answer-line.stage';
import { weighByModel } from './model-weight.stage';

/**
 * Within-document passage order. The question mixes words that say which manual ("atom lite",
 * a model code, the words of a document's title) with words that say which passage ("RGB LED
 * type"). BM25 scores both in one sum, so inside the right manual the passage that repeats the
 * manual's name (its introduction) beats the table row that answers. Here the documents the
 * question names best keep the places their hits won in the list (the document-level decision
 * stays with the earlier stages), and their passages are put into those places in the order of
 * a second BM25 search for the passage words alone (`RankContext.passage`), weighed by their
 * model and their best line where those stages run.
 */
export function orderPassages(
  hits: ChunkHit[],
  passage: { words: string; docs: ReadonlySet<string>; scores: ReadonlyMap<string, number> } | null,
  views: Map<string, ChunkRecord> = new Map(),
  /** Further weighting of a document's passages before they take its places (best first in, best first out). */
  reweigh: (members: ChunkHit[]) => ChunkHit[] = (h) => h,
): ChunkHit[] {
  if (!passage || passage.docs.size === 0 || passage.scores.size === 0) return hits;
  const out = [...hits];
  for (const doc of passage.docs) {
    const slots: number[] = [];
    hits.forEach((h, i) => {
      if (h.record.docId === doc) slots.push(i);
    });
    if (slots.length < 2) continue;
    // The passage words' BM25, scaled like the first stage's by their coverage and proximity.
    const members = reweigh(
      coverageRerank(
        slots.map((i) => ({ record: hits[i]!.record, score: passage.scores.get(hits[i]!.record.id) ?? 0 })),
        passage.words,
        views,
      ),
    );
    slots.forEach((i, k) => {
      out[i] = { record: members[k]!.record, score: hits[i]!.score };
    });
  }
  return out;
}

/** `orderPassages` as a stage; runs after every stage that moves documents. */
export const passageOrderStage: RankStage<'passage-order'> = {
  name: 'passage-order',
  describes: "orders the passages of the documents the question names by the question's passage words, their model and their best line",
  run: (hits, ctx) =>
    orderPassages(hits, ctx.passage, ctx.matchedView, (members) => {
      // Inside a manual the named model still counts (a FAQ page has a section per model), and so
      // does the line that answers: the passage words alone cannot tell twin sections apart.
      const weighed = ctx.enabled.has('model-weight') ? weighByModel(members, ctx.analysis, ctx.vocabulary) : members;
      return ctx.enabled.has('answer-line') ? weighByAnswerLine(weighed, ctx.topical, ctx.idf) : weighed;
    }),
};
