import { z } from 'zod';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { GoldAnswer } from './relevance';
import { normalizeForRelevance } from './relevance';

/**
 * Question files (DESIGN.md): JSONL, one question a line,
 * `{"id","query","answers":[{"doc","contains","page"?}], ...}`; other keys (kind, section, distractors)
 * are kept but not used by the metrics. Blank lines are ignored.
 */

export interface Question {
  id: string;
  query: string;
  /** At least one; `doc` is the path relative to the corpus folder's parent. */
  answers: GoldAnswer[];
  /** Free-form grouping such as `pinout` or `paraphrased`, when the file gives one. */
  kind?: string;
}

const answerSchema = z.object({
  doc: z.string('"doc" must be a string').trim().min(1, '"doc" must not be empty'),
  contains: z.string('"contains" must be a string').refine((s) => normalizeForRelevance(s) !== '', '"contains" must have text in it'),
  page: z.number('"page" must be a number').int('"page" must be a whole number').min(1, '"page" is 1-based').optional(),
});

const questionSchema = z.looseObject({
  id: z.union([z.string().trim().min(1), z.number()], '"id" must be a non-empty string or a number'),
  query: z.string('"query" must be a string').trim().min(1, '"query" must not be empty'),
  answers: z.array(answerSchema, '"answers" must be an array').min(1, '"answers" must hold at least one answer'),
  kind: z.string('"kind" must be a string').optional(),
});

/**
 * Parses a question file's text. Fails with 'invalid-input' naming the first bad line (1-based):
 * not JSON, missing or wrong fields, an empty file, or an id used twice.
 */
export function parseQuestions(text: string, fileName = 'the question file'): Result<Question[]> {
  const questions: Question[] = [];
  const ids = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const where = `${fileName}, line ${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      return fail('invalid-input', `${where} is not valid JSON (${err instanceof Error ? err.message : String(err)}).`);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('invalid-input', `${where} is not a JSON object.`);
    const parsed = questionSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
      return fail('invalid-input', `${where}: ${issue?.message ?? 'the question is malformed'}${at}.`);
    }
    const id = String(parsed.data.id);
    const previous = ids.get(id);
    if (previous !== undefined) return fail('invalid-input', `${where}: the id "${id}" is already used on line ${previous}.`);
    ids.set(id, i + 1);
    questions.push({
      id,
      query: parsed.data.query,
      answers: parsed.data.answers.map((a) => ({ doc: a.doc.trim(), contains: a.contains, ...(a.page !== undefined ? { page: a.page } : {}) })),
      ...(parsed.data.kind !== undefined ? { kind: parsed.data.kind } : {}),
    });
  }
  if (questions.length === 0) return fail('invalid-input', `${fileName} holds no questions.`);
  return ok(questions);
}
