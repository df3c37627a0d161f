import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ChatTurn, Conversation, ConversationScope, ConversationSummary } from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { readJson, sweepTempFiles, writeJsonAtomic } from '../storage/atomic-file';

/**
 * Conversations of one library, one JSON file each under `<libraryDir>/conversations/<id>.json`,
 * written atomically (temp file + rename), so a crash leaves the old or the new conversation,
 * never a torn one. Ids are random UUIDs and are validated before they touch a path. Every
 * message keeps its citations. Writes to one conversation are serialized within the process.
 */

export const DEFAULT_TITLE = 'New conversation';
/** Longest title, in characters. */
export const MAX_TITLE_CHARS = 120;
/** The `not-found` of a conversation that is not (or no longer) stored; the engine's door says the same to a question whose conversation was deleted. */
export const CONVERSATION_GONE = 'This conversation no longer exists.';

const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const citationSchema = z.object({
  n: z.number().int(),
  chunkId: z.string(),
  doc: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  pages: z.array(z.number().int()),
  start: z.number().int(),
  end: z.number().int(),
  quote: z.string(),
  model: z.string().nullable(),
});

const turnSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  createdAt: z.string(),
  mode: z.enum(['generated', 'extracted', 'not-found']).optional(),
  citations: z.array(citationSchema).optional(),
  resolvedModels: z.array(z.string()).optional(),
  stopped: z.boolean().optional(),
  clarify: z.array(z.object({ name: z.string(), models: z.array(z.string()) })).optional(),
  // Optional: turns saved before the field existed have none.
  unknownModels: z.array(z.string()).optional(),
});

const scopeSchema = z.object({
  docIds: z.array(z.string().min(1).max(4096)).max(1000).optional(),
  models: z.array(z.string().min(1).max(200)).max(50).optional(),
});

const fileSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  scope: scopeSchema,
  messages: z.array(turnSchema),
});

type ConversationFile = z.infer<typeof fileSchema>;

export interface CreateConversationInput {
  /** Default `DEFAULT_TITLE`; the first question replaces a default title. */
  title?: string;
  scope?: ConversationScope;
}

export interface ConversationStore {
  /** Summaries, most recently updated first; unreadable files are skipped. */
  list(): Promise<ConversationSummary[]>;
  create(input?: CreateConversationInput): Promise<Result<Conversation>>;
  get(id: string): Promise<Result<Conversation>>;
  rename(id: string, title: string): Promise<Result<ConversationSummary>>;
  setScope(id: string, scope: ConversationScope): Promise<Result<Conversation>>;
  delete(id: string): Promise<Result<{ deleted: string }>>;
  /** Appends turns (in order); `title` replaces the title in the same write. */
  append(id: string, turns: readonly ChatTurn[], patch?: { title?: string }): Promise<Result<Conversation>>;
}

/** A new random id for a conversation or a message. */
export function newId(): string {
  return randomUUID();
}

/** True for ids this store could have made; anything else never reaches the file system. */
export function isConversationId(id: string): boolean {
  return ID_RE.test(id);
}

/** A trimmed title within bounds, or an `invalid-input` failure in words. */
export function cleanTitle(title: string): Result<string> {
  const t = title.replace(/\s+/g, ' ').trim();
  if (t === '') return fail('invalid-input', 'A conversation needs a title.');
  if (t.length > MAX_TITLE_CHARS) return fail('invalid-input', `Conversation titles are at most ${MAX_TITLE_CHARS} characters.`);
  return ok(t);
}

/** A scope without empty or repeated entries; absent lists stay absent. */
export function cleanScope(scope: ConversationScope | undefined): Result<ConversationScope> {
  const parsed = scopeSchema.safeParse(scope ?? {});
  if (!parsed.success) return fail('invalid-input', 'A conversation scope lists at most 1000 documents and 50 models.');
  const out: ConversationScope = {};
  const docIds = [...new Set(parsed.data.docIds ?? [])];
  const models = [...new Set(parsed.data.models ?? [])];
  if (docIds.length > 0) out.docIds = docIds;
  if (models.length > 0) out.models = models;
  return ok(out);
}

function toConversation(f: ConversationFile): Conversation {
  return {
    id: f.id,
    title: f.title,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    turns: f.messages.length,
    scope: f.scope,
    messages: f.messages as ChatTurn[],
  };
}

function toSummary(f: ConversationFile): ConversationSummary {
  return { id: f.id, title: f.title, createdAt: f.createdAt, updatedAt: f.updatedAt, turns: f.messages.length };
}

/** Opens the conversation store of the library folder `libraryDir`. */
export function createConversationStore(libraryDir: string): ConversationStore {
  const dir = path.join(libraryDir, 'conversations');
  const fileOf = (id: string): string => path.join(dir, `${id}.json`);
  const locks = new Map<string, Promise<unknown>>();
  let lastStamp = 0;
  let swept = false;

  /** ISO time, strictly increasing within the process so "most recent" orders are total. */
  const now = (): string => {
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    return new Date(lastStamp).toISOString();
  };

  function locked<T>(id: string, task: () => Promise<T>): Promise<T> {
    const prev = locks.get(id) ?? Promise.resolve();
    const run = prev.then(task, task);
    const tail = run.catch(() => undefined);
    locks.set(id, tail);
    void tail.then(() => {
      if (locks.get(id) === tail) locks.delete(id);
    });
    return run;
  }

  async function read(id: string): Promise<Result<ConversationFile>> {
    if (!isConversationId(id)) return fail('invalid-input', 'That is not a conversation id.');
    let raw: unknown;
    try {
      raw = await readJson<unknown>(fileOf(id), null);
    } catch {
      return fail('corrupt', 'This conversation could not be read; its file is damaged.');
    }
    if (raw === null) return fail('not-found', CONVERSATION_GONE);
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success || parsed.data.id !== id) return fail('corrupt', 'This conversation could not be read; its file is damaged.');
    return ok(parsed.data);
  }

  async function write(f: ConversationFile): Promise<void> {
    if (!swept) {
      swept = true;
      await sweepTempFiles(dir);
    }
    await writeJsonAtomic(fileOf(f.id), f);
  }

  function update(id: string, change: (f: ConversationFile) => Result<ConversationFile>): Promise<Result<ConversationFile>> {
    return locked(id, async () => {
      const current = await read(id);
      if (!current.ok) return current;
      const next = change(current.value);
      if (!next.ok) return next;
      await write(next.value);
      return next;
    });
  }

  return {
    async list() {
      let names: string[];
      try {
        names = await fs.readdir(dir);
      } catch {
        return [];
      }
      const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)).filter(isConversationId);
      const files = await Promise.all(ids.map((id) => read(id)));
      return files
        .flatMap((r) => (r.ok ? [toSummary(r.value)] : []))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    },

    async create(input = {}) {
      const title = cleanTitle(input.title ?? DEFAULT_TITLE);
      if (!title.ok) return title;
      const scope = cleanScope(input.scope);
      if (!scope.ok) return scope;
      const stamp = now();
      const f: ConversationFile = { version: 1, id: newId(), title: title.value, createdAt: stamp, updatedAt: stamp, scope: scope.value, messages: [] };
      await locked(f.id, () => write(f));
      return ok(toConversation(f));
    },

    async get(id) {
      const f = await read(id);
      return f.ok ? ok(toConversation(f.value)) : f;
    },

    async rename(id, title) {
      const t = cleanTitle(title);
      if (!t.ok) return t;
      const f = await update(id, (c) => ok({ ...c, title: t.value, updatedAt: now() }));
      return f.ok ? ok(toSummary(f.value)) : f;
    },

    async setScope(id, scope) {
      const s = cleanScope(scope);
      if (!s.ok) return s;
      const f = await update(id, (c) => ok({ ...c, scope: s.value, updatedAt: now() }));
      return f.ok ? ok(toConversation(f.value)) : f;
    },

    delete(id) {
      if (!isConversationId(id)) return Promise.resolve(fail('invalid-input', 'That is not a conversation id.'));
      return locked(id, async () => {
        try {
          await fs.rm(fileOf(id));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fail('not-found', CONVERSATION_GONE);
          throw err;
        }
        return ok({ deleted: id });
      });
    },

    async append(id, turns, patch = {}) {
      let title: string | undefined;
      if (patch.title !== undefined) {
        const t = cleanTitle(patch.title);
        if (!t.ok) return t;
        title = t.value;
      }
      const f = await update(id, (c) => ok({ ...c, ...(title !== undefined ? { title } : {}), messages: [...c.messages, ...turns], updatedAt: now() }));
      return f.ok ? ok(toConversation(f.value)) : f;
    },
  };
}
