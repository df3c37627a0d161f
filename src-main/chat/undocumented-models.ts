import type { ModelVocabulary } from '../enrich/model-vocabulary';
import { documentedExtension, type QueryAnalysis } from '../search/query-analysis';
import type { UnknownModel } from './model-guard';
import type { ChatIndex } from './retrieve';

/**
 * Models the library mentions but has no manual for, though a manual of a model with a longer
 * name has ("S20+" beside the Galaxy S20+ 5G's manual): the question is answered for that model,
 * and says so (`readAsExtended` in retrieve.ts, the note in chat.service.ts).
 */

/**
 * The question's mentions of a model no manual is about whose name the words of exactly one
 * documented model's name begin ("S20+", "Galaxy S20 Plus": the library has the Galaxy S20+ 5G's
 * manual, and mentions the S20+ only in other manuals' text; `documentedExtension`), as names the
 * library has no manual for, extended to that model: answered for it, saying so, rather than from
 * whichever manual the search ranks first for a model none is about. Not when the question names
 * that model too ("the Foo X2 and the Foo X2 Pro 5G" compares them).
 */
export function undocumentedMentions(question: string, analysis: QueryAnalysis, vocabulary: ModelVocabulary): UnknownModel[] {
  const out: UnknownModel[] = [];
  for (const m of analysis.mentions) {
    if (!analysis.models.includes(m.model)) continue;
    const fuller = documentedExtension(question, m, vocabulary);
    if (!fuller || analysis.models.includes(fuller.name)) continue;
    out.push({ text: m.text, kind: 'sibling', key: vocabulary.lookup(m.model)?.key ?? '', start: m.start, end: m.end, fuller: { mentioned: m.model, documented: fuller.name } });
  }
  return out;
}

/**
 * Whether a stored chunk is about `model` (its signature's model): a combined manual's section
 * ("## Foo X3" in a legacy guide) is, though no document is. The search is limited to that
 * model's chunks, so any hit is one; a failed search counts as one, which keeps the answer as it
 * was (from the search, for the model asked).
 */
export async function chunksAbout(index: Pick<ChatIndex, 'search'>, model: string): Promise<boolean> {
  const found = await index.search(model, { topK: 1, retriever: 'bm25', models: [model] });
  return !found.ok || found.value.results.length > 0;
}
