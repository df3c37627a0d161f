import { z } from 'zod/mini';
import { ERROR_CODES } from '../core/result';
import type { ChatTurn, Citation, ModelChoice, EngineEvent, ImportFileResult, ImportProgress, ImportSkipped, ImportSummary } from './api';

/**
 * The engine's events as zod schemas, so the renderer checks what reaches it the way the engine
 * checks its inputs (`validateInput`): a malformed or unknown event is dropped at the edge instead
 * of reaching the store. The types in `api.ts` stay the one description of the events; each schema
 * here is asserted at compile time to describe exactly its type, so neither can change alone.
 * Imports only zod and core's vocabularies: the renderer bundles this file.
 */

/** Where a document is in its import, first to last. */
export const DOCUMENT_STATUSES = ['queued', 'parsing', 'chunking', 'enriching', 'indexing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** True when a value of `A` is a `B` and a `B` is an `A`: the schema and the type describe the same values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when `T` is `true`: where a schema and its type disagree, the error names the pair. */
type Assert<T extends true> = T;

/**
 * zod/mini, not the contract's zod: the renderer bundles this file, and zod/mini (English
 * messages included) adds some 50 kB to it where zod's classic API adds 175. It leaves messages
 * out unless given a locale;
 * English is passed to each check rather than set globally.
 */
const english = z.locales.en();

const errorCode = z.enum(ERROR_CODES);
const documentStatus = z.enum(DOCUMENT_STATUSES);

const importProgress = z.object({
  file: z.string(),
  stage: documentStatus,
  fraction: z.number(),
  done: z.number(),
  total: z.number(),
  reason: z.optional(z.string()),
  note: z.optional(z.string()),
  path: z.optional(z.string()),
});

const importFileResult = z.object({
  file: z.string(),
  status: z.enum(['imported', 'already', 'replaced', 'failed', 'cancelled']),
  reason: z.optional(z.string()),
  code: z.optional(errorCode),
  sameAs: z.optional(z.string()),
  note: z.optional(z.string()),
});

const importSkipped = z.object({ file: z.string(), reason: z.string() });

const importSummary = z.object({
  results: z.array(importFileResult),
  skipped: z.array(importSkipped),
  summary: z.object({ imported: z.number(), already: z.number(), replaced: z.number(), failed: z.number(), cancelled: z.number() }),
});

const citation = z.object({
  n: z.number(),
  chunkId: z.string(),
  doc: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  pages: z.array(z.number()),
  start: z.number(),
  end: z.number(),
  quote: z.string(),
  model: z.nullable(z.string()),
});

const modelChoice = z.object({ name: z.string(), models: z.array(z.string()) });

const chatTurn = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  createdAt: z.string(),
  mode: z.optional(z.enum(['generated', 'extracted', 'not-found'])),
  citations: z.optional(z.array(citation)),
  resolvedModels: z.optional(z.array(z.string())),
  stopped: z.optional(z.boolean()),
  clarify: z.optional(z.array(modelChoice)),
  unknownModels: z.optional(z.array(z.string())),
});

/** One schema per event kind (`EngineEvent['type']`); the map's keys are checked against the kinds below. */
export const ENGINE_EVENT_SCHEMAS = {
  'import.progress': z.extend(importProgress, { type: z.literal('import.progress'), jobId: z.string(), library: z.string() }),
  'import.done': z.object({ type: z.literal('import.done'), jobId: z.string(), library: z.string(), summary: importSummary }),
  'import.failed': z.object({ type: z.literal('import.failed'), jobId: z.string(), library: z.string(), message: z.string() }),
  'library.changed': z.object({ type: z.literal('library.changed'), library: z.string() }),
  'index.progress': z.object({
    type: z.literal('index.progress'),
    library: z.string(),
    task: z.enum(['embedding', 'enriching', 'rebuilding']),
    done: z.number(),
    total: z.number(),
    error: z.optional(z.string()),
  }),
  'chat.token': z.object({ type: z.literal('chat.token'), library: z.string(), conversationId: z.string(), messageId: z.string(), text: z.string() }),
  'chat.done': z.object({ type: z.literal('chat.done'), library: z.string(), conversationId: z.string(), message: chatTurn }),
} as const satisfies { [K in EngineEvent['type']]: z.ZodMiniType };

type EventOf<K extends EngineEvent['type']> = Extract<EngineEvent, { type: K }>;
type Schemas = typeof ENGINE_EVENT_SCHEMAS;

// Compile-time agreement of every schema with its type in api.ts (a field added, dropped, retyped
// or made optional on one side only fails `npm run typecheck` here).
export type EventSchemasAgree = [
  Assert<Same<z.output<typeof importProgress>, ImportProgress>>,
  Assert<Same<z.output<typeof importFileResult>, ImportFileResult>>,
  Assert<Same<z.output<typeof importSkipped>, ImportSkipped>>,
  Assert<Same<z.output<typeof importSummary>, ImportSummary>>,
  Assert<Same<z.output<typeof citation>, Citation>>,
  Assert<Same<z.output<typeof modelChoice>, ModelChoice>>,
  Assert<Same<z.output<typeof chatTurn>, ChatTurn>>,
  Assert<Same<keyof Schemas, EngineEvent['type']>>,
  Assert<Same<z.output<Schemas['import.progress']>, EventOf<'import.progress'>>>,
  Assert<Same<z.output<Schemas['import.done']>, EventOf<'import.done'>>>,
  Assert<Same<z.output<Schemas['import.failed']>, EventOf<'import.failed'>>>,
  Assert<Same<z.output<Schemas['library.changed']>, EventOf<'library.changed'>>>,
  Assert<Same<z.output<Schemas['index.progress']>, EventOf<'index.progress'>>>,
  Assert<Same<z.output<Schemas['chat.token']>, EventOf<'chat.token'>>>,
  Assert<Same<z.output<Schemas['chat.done']>, EventOf<'chat.done'>>>,
];

/** The event kinds the renderer understands, in the order of `ENGINE_EVENT_SCHEMAS`. */
export const ENGINE_EVENT_KINDS = Object.keys(ENGINE_EVENT_SCHEMAS) as EngineEvent['type'][];

function isEventKind(kind: string): kind is EngineEvent['type'] {
  return Object.hasOwn(ENGINE_EVENT_SCHEMAS, kind);
}

/**
 * A checked engine event, or why it is not one: `kind` is its `type` when it has a string one
 * (else "(no kind)"), `why` a sentence naming the first field that is wrong. The event returned
 * is zod's copy: fields no type declares are left out.
 */
export type CheckedEvent = { ok: true; event: EngineEvent } | { ok: false; kind: string; why: string };

/** Checks one value that claims to be an engine event against its kind's schema. */
export function checkEngineEvent(raw: unknown): CheckedEvent {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, kind: '(no kind)', why: `it is ${raw === null || raw === undefined ? String(raw) : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`}, not an object` };
  }
  const kind: unknown = (raw as { type?: unknown }).type;
  if (typeof kind !== 'string') return { ok: false, kind: '(no kind)', why: 'it has no "type" naming its kind' };
  if (!isEventKind(kind)) return { ok: false, kind, why: 'this version of ManualMate does not know that kind' };
  const parsed = (ENGINE_EVENT_SCHEMAS[kind] as z.ZodMiniType<EngineEvent>).safeParse(raw, { error: english.localeError });
  if (parsed.success) return { ok: true, event: parsed.data };
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return { ok: false, kind, why: `${where}${first?.message ?? 'it does not match its kind'}` };
}
