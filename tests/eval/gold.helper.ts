import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseQuestions } from '../../src-main/eval/questions';
import { coveredByNormalized, normalizeForRelevance, prepareAnswers } from '../../src-main/eval/relevance';

/**
 * Every gold answer of a question file whose `contains` string is not in its document under the
 * relevance rule, as `id: contains`; `docsRoot` is the folder the answers' `doc` paths start from.
 */
export async function goldMisses(questionFile: string, docsRoot: string): Promise<string[]> {
  const parsed = parseQuestions(await readFile(questionFile, 'utf8'), path.basename(questionFile));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const texts = new Map<string, string>();
  const missing: string[] = [];
  for (const q of parsed.value) {
    const prepared = prepareAnswers(q.answers);
    for (const [i, a] of q.answers.entries()) {
      const abs = path.join(docsRoot, a.doc);
      if (!texts.has(abs)) texts.set(abs, normalizeForRelevance(await readFile(abs, 'utf8')));
      if (!coveredByNormalized(a.doc, texts.get(abs)!, prepared).includes(i)) missing.push(`${q.id}: ${a.contains}`);
    }
  }
  return missing;
}
