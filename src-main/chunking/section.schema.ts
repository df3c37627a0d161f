import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import manualSchemaJson from './schemas/manual.schema.json';
import resumeSchemaJson from './schemas/resume.schema.json';

/**
 * Section schemas for the `structural` chunker are data, not code: JSON files listing each section
 * type's heading words, body keywords and optional regex patterns. Two ship with the app (`resume`,
 * `manual`); a user may point to their own file, which is validated here with zod.
 */

const regexSource = z.string().min(1).refine(
  (p) => {
    try {
      new RegExp(p, 'giu');
      return true;
    } catch {
      return false;
    }
  },
  { message: 'is not a valid regular expression' },
);

const sectionSpec = z.strictObject({
  /** Machine name emitted as `section_type`, e.g. `troubleshooting`. */
  type: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be lowercase letters, digits and underscores'),
  /** Human label. */
  label: z.string().min(1),
  /** Words of a section title ("Specifications", "项目经历"); a short line containing one is a section header. */
  headings: z.array(z.string().min(1)).default([]),
  /** Body keywords; matched case-insensitively on word boundaries (substring match for CJK). */
  keywords: z.array(z.string().min(1)).default([]),
  /** Extra regex sources whose matches count as keyword hits (e.g. error codes `E\d{2}`). */
  patterns: z.array(regexSource).default([]),
  /** Dated entries (jobs, projects): paragraphs with two dates or a date range start a new entry, one chunk each. */
  entry: z.boolean().default(false),
});

/** The zod schema a section-schema file must satisfy. */
export const sectionSchemaSchema = z
  .strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    /** Section type for paragraphs that match nothing. */
    fallbackType: z.string().regex(/^[a-z][a-z0-9_]*$/).default('other'),
    /** Section type whose keywords are reported as `skills` in the structured JSON (resume: `skills`). */
    skillsType: z.string().nullable().default(null),
    sections: z.array(sectionSpec).min(1),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.sections.forEach((sec, i) => {
      if (seen.has(sec.type)) ctx.addIssue({ code: 'custom', message: `duplicate section type "${sec.type}"`, path: ['sections', i, 'type'] });
      seen.add(sec.type);
      if (sec.headings.length + sec.keywords.length + sec.patterns.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'needs at least one heading, keyword or pattern', path: ['sections', i] });
      }
    });
    if (seen.has(s.fallbackType)) ctx.addIssue({ code: 'custom', message: 'must differ from every section type', path: ['fallbackType'] });
    if (s.skillsType !== null && !seen.has(s.skillsType)) {
      ctx.addIssue({ code: 'custom', message: `names no section type ("${s.skillsType}")`, path: ['skillsType'] });
    }
  });

/** A validated section schema. */
export type SectionSchema = z.output<typeof sectionSchemaSchema>;
/** One section type of a schema. */
export type SectionSpec = SectionSchema['sections'][number];

/** Names of the schemas shipped with the app. */
export const BUILTIN_SCHEMAS = ['manual', 'resume'] as const;
export type BuiltinSchemaName = (typeof BUILTIN_SCHEMAS)[number];

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; ');
}

/** Validates parsed JSON as a section schema ('invalid-input' with the offending fields otherwise). */
export function parseSectionSchema(json: unknown, origin = 'The section schema'): Result<SectionSchema> {
  const parsed = sectionSchemaSchema.safeParse(json);
  if (!parsed.success) return fail('invalid-input', `${origin} is not valid: ${describe(parsed.error)}.`);
  return ok(parsed.data);
}

const builtins: Record<BuiltinSchemaName, unknown> = { manual: manualSchemaJson, resume: resumeSchemaJson };

/** A schema shipped with the app. */
export function builtinSectionSchema(name: BuiltinSchemaName): SectionSchema {
  const parsed = parseSectionSchema(builtins[name], `The built-in "${name}" schema`);
  // A shipped schema that does not validate is a bug, not an expected outcome.
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/**
 * Resolves `manual`, `resume`, or a path to a user's JSON schema file (read synchronously: a small
 * file read once when the chunker is built). Missing file -> 'not-found'; bad JSON or shape -> 'invalid-input'.
 */
export function loadSectionSchema(nameOrPath: string): Result<SectionSchema> {
  if ((BUILTIN_SCHEMAS as readonly string[]).includes(nameOrPath)) return ok(builtinSectionSchema(nameOrPath as BuiltinSchemaName));
  let raw: string;
  try {
    raw = readFileSync(nameOrPath, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail('not-found', `No section schema file at ${nameOrPath}.`);
    return fail('unreadable', `The section schema file ${nameOrPath} could not be read (${code ?? 'error'}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return fail('invalid-input', `The section schema file ${nameOrPath} is not valid JSON: ${(err as Error).message}.`);
  }
  return parseSectionSchema(json, `The section schema file ${nameOrPath}`);
}
