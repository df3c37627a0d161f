import { ENRICH_MODES, MAX_TOP_K, RANK_STAGE_NAMES, RETRIEVERS, type EnrichMode, type Retriever } from '../core/vocabulary';
import { z } from 'zod';
import type { AppError, ErrorCode, Result } from '../core/result';
import { ERROR_CODES } from '../core/result';
import { isSafeRelativePath, MAX_RELATIVE_NAME_CHARS, nameCollision } from '../core/import-names';
import type { ChunkStrategy, Signature } from '../core/chunk';
import type { DocFormat } from '../core/document';
import { CHUNK_STRATEGIES } from '../core/chunk';
import { CONTRACT_KEYS, type ContractKey } from './keys';
import { remoteUrl, settingText, type LibrarySubscription, type PublishSummary, type RemoteSettingsView, type SyncSummary } from './team';

/**
 * The one API contract between the engine and every caller (Electron IPC, the web bridge, the
 * renderer's client). `domain.verb -> { input: zod schema, output: type }`. Inputs are validated
 * at the edge by `dispatch`; every call returns `Result<Output>` and never throws across it.
 *
 * Longer than 500 lines: each key's input schema stands beside its output types, so a reader of
 * one call sees all of it; the team keys' types already live in `team.ts`, and the import's
 * (results, progress, uploads) are the next to move out the same way.
 */

export type { AppError, ErrorCode, Result, ChunkStrategy, Signature, DocFormat };
export { CONTRACT_KEYS, type ContractKey };
export type { LibrarySubscription, PublishSummary, RemoteSettingsView, SyncSummary };

/** Phantom marker carrying an output type through the contract map. */
const out = <T>() => undefined as unknown as T;

const libraryName = z
  .string()
  .trim()
  .min(1, 'A library needs a name.')
  .max(80, 'Library names are at most 80 characters.')
  .refine((s) => !/[\\/\0]/.test(s), 'Library names cannot contain slashes.');

const libraryRef = z.object({ library: libraryName }).strict();

/** A document id a path is imported under: relative, `/`-separated, never leaving the library (`import.start`'s `names`). */
const importName = z
  .string()
  .refine(isSafeRelativePath, {
    message: `A name to import under must be a relative path inside the library (no "..", not absolute, at most ${MAX_RELATIVE_NAME_CHARS} characters).`,
    params: { code: 'unsafe-path' },
  });

const conversationId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown conversation.');

const conversationScope = z
  .object({
    docIds: z.array(z.string().min(1).max(4096)).max(1000).optional(),
    models: z.array(z.string().min(1).max(200)).max(50).optional(),
  })
  .strict();

export { ENRICH_MODES, RETRIEVERS, type EnrichMode, type Retriever } from '../core/vocabulary';

// Spelled beside the event schemas, which the renderer bundles without the rest of the contract.
export { DOCUMENT_STATUSES, type DocumentStatus } from './events';
import type { DocumentStatus } from './events';

export interface AppInfo {
  name: string;
  version: string;
  dataDir: string;
  /** Always true: the app makes no network request. */
  offline: true;
  transport: 'electron' | 'web';
}

export interface ModelSummary {
  id: string;
  format: 'gguf' | 'onnx';
  kinds: ('llm' | 'embedder')[];
  sizeBytes: number;
  source: 'bundled' | 'data';
  state: 'not-loaded' | 'loading' | 'ready' | 'failed';
  reason?: string;
}

export interface LibrarySummary {
  name: string;
  documents: number;
  chunks: number;
  strategy: ChunkStrategy;
  enrich: EnrichMode;
  /** Embedding model the library's vectors come from; null: keyword (BM25) search only. */
  embedder: string | null;
  createdAt: string;
  /**
   * True when the index was built by an older version of ManualMate's chunking and enrichment:
   * search works, but with the older chunk signatures. `libraries.rebuild` brings it up to date
   * from the stored documents (nothing is re-imported or lost).
   */
  indexOutdated: boolean;
  /** True while its index is being rebuilt (`libraries.rebuild`, or a chunking change). */
  rebuilding: boolean;
  /**
   * True while the library has an embedder but its chunks were stored without their signature's
   * nouns: embedding waits (a state, not a failure) until the LLM enrichment has reached every
   * document, or the index is rebuilt. Keyword search works meanwhile.
   */
  waitsForNouns: boolean;
  /** Set when the library is subscribed from object storage: read-only here, updated by `libraries.sync`. */
  subscription?: LibrarySubscription;
}

export interface DocumentSummary {
  /** Document id: path relative to the parent of the imported folder. */
  id: string;
  title: string;
  format: DocFormat | null;
  status: DocumentStatus;
  /** Why it failed, in words; set when status is `failed`. */
  reason?: string;
  /** What kind of failure, when status is `failed` and the engine recorded it (see `isPermanentImportFailure`). */
  code?: ErrorCode;
  sizeBytes: number;
  pageCount: number | null;
  chunks: number;
  models: string[];
  importedAt: string;
  /** Set when the stored chunks come from an LLM enrichment upgrade, with the work it took (model tokens). */
  enrichment?: { mode: EnrichMode; llmCalls: number; llmTokens: number };
  /**
   * Said about a ready document, in words: why the library's LLM enrichment passes it by (its
   * stored text was lost, or chunking it anew failed), while that holds; once what it depended on
   * changed (the embedder put back or another chosen, the mode changed) the next upgrade tries it again.
   */
  notice?: string;
}

export interface ImportFileResult {
  file: string;
  status: 'imported' | 'already' | 'replaced' | 'failed' | 'cancelled';
  reason?: string;
  /** What kind of failure, for a failed file whose kind the engine knows (see `isPermanentImportFailure`). */
  code?: ErrorCode;
  /** For a file `already` there under another name: the document (or earlier file of the import) with the same bytes. */
  sameAs?: string;
  /** Why `file` is not the name it was named by (another of that name is in the import: "manual (2).md"), in words. */
  note?: string;
}

/** A file a folder import left out, and why ("unsupported type .xyz", "hidden", "symlink outside the folder"). */
export interface ImportSkipped {
  file: string;
  reason: string;
}

export interface ImportSummary {
  results: ImportFileResult[];
  /** What the named folders held that was not imported; never counted as failed. */
  skipped: ImportSkipped[];
  summary: { imported: number; already: number; replaced: number; failed: number; cancelled: number };
}

export interface SearchHit {
  chunkId: string;
  doc: string;
  title: string;
  text: string;
  /**
   * Compares results within the ranked list only (its first results, see searcher.ts POOL): the
   * results past it come in the first stage's order and keep its scores, which may be higher.
   */
  score: number;
  pages: number[];
  headingPath: string[];
  start: number;
  end: number;
  signature: Signature;
  snippet: string;
}

export interface SearchResponse {
  query: string;
  resolvedModels: string[];
  retriever: Retriever;
  results: SearchHit[];
  /** The query's words a result list marks where a word of its snippets starts with one (lower case). */
  highlight: string[];
}

/** One stored chunk (or merged unit) as the chunk inspector shows it. */
export interface ChunkDetail {
  id: string;
  ordinal: number;
  /** The text shown and cited. */
  text: string;
  /** What the keyword index sees: the library's keyword prefix (none by default) + `text`. */
  indexedText: string;
  /** CHOP's PFX(CNM), prefixed to the text before embedding. */
  prefix: string;
  headingPath: string[];
  pages: number[];
  start: number;
  end: number;
  signature: Signature;
  signatureSource: 'extracted' | 'inherited' | null;
  /**
   * The signature's nouns were not computed: nothing in the library reads them until an
   * embedding model is set, which fills them in first.
   */
  nounsOmitted: boolean;
  /** Continuity with the previous chunk; null for a first chunk. */
  continuous: boolean | null;
  sectionType: string | null;
  key: string | null;
  keywords: string[];
  entities: string[];
  /** Members of a merged unit (empty for a plain chunk). */
  members: { ordinal: number; start: number; end: number; pageStart: number | null; pageEnd: number | null }[];
}

/** A document's normalized text, for the source viewer (rendered as sanitized Markdown, never raw HTML). */
export interface DocumentSource {
  id: string;
  title: string;
  format: DocFormat;
  text: string;
  pageCount: number | null;
  /** Offsets where each page starts in `text` (page 1 first); empty for formats without pages. */
  pageStarts: number[];
}

/** The original file, for formats the renderer draws itself (PDF via pdf.js). */
export interface DocumentOriginal {
  fileName: string;
  mime: string;
  base64: string;
}

/** Where an answer's [n] points: one stored chunk (a member of a merged unit resolves to itself). */
export interface Citation {
  /** The number used in the answer text: [1], [2], ... */
  n: number;
  chunkId: string;
  doc: string;
  title: string;
  headingPath: string[];
  pages: number[];
  /** Offsets of the quoted passage in the document's normalized text. */
  start: number;
  end: number;
  /** The passage as stored (shown on hover, highlighted in the source viewer). */
  quote: string;
  model: string | null;
}

export interface ChatTurn {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  createdAt: string;
  /** Assistant turns: how the answer was made. `extracted` answers quote the manuals verbatim. */
  mode?: 'generated' | 'extracted' | 'not-found';
  citations?: Citation[];
  /** The model(s) the question was resolved to (named, inherited from earlier, or chosen in scope). */
  resolvedModels?: string[];
  /** True when generation was stopped by the user before it finished. */
  stopped?: boolean;
  /**
   * Set when the answer is a question back (with `mode: 'not-found'`, no citations): each name the
   * question wrote that the library has no manual for, and the library models whose names it
   * begins, one of which the user is asked to name ("Foo X2": the Foo X2 Pro 5G or the Foo X2
   * Max 5G).
   */
  clarify?: ModelChoice[];
  /**
   * Assistant turns: the names the question wrote, as written, that no manual of the library is
   * for ("ZX-900", "Foo X2 Lite", "Bar Z5"), whether the answer then said only that, asked which
   * model, or answered for the models it did name. Absent when there were none, and on turns saved
   * before the field existed. Not a product code the manuals never print, which may be the asked
   * product's own number (the answer comes, saying no manual mentions it).
   */
  unknownModels?: string[];
}

/** A model name a question wrote, and the library models (2 to 5, the library's spelling) it may mean. */
export interface ModelChoice {
  name: string;
  models: string[];
}

export interface ConversationScope {
  /** Restrict retrieval to these documents. */
  docIds?: string[];
  /** Restrict retrieval to these models. */
  models?: string[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  turns: number;
}

export interface Conversation extends ConversationSummary {
  scope: ConversationScope;
  messages: ChatTurn[];
}

export interface AppSettings {
  /** GGUF model id used for chat; null answers extractively. */
  chatModel: string | null;
  /** Object storage for team libraries (the AWS environment variables fill what is left empty). */
  remote?: RemoteSettingsView;
}

/** Where one file of an import stands. */
export interface ImportProgress {
  file: string;
  stage: DocumentStatus;
  /** 0..1 for this file. */
  fraction: number;
  /** Files finished so far and in total, for overall progress. */
  done: number;
  total: number;
  reason?: string;
  /** Why `file` is not the name it was named by (`ImportFileResult.note`); on its `queued` event. */
  note?: string;
  /**
   * The file on this computer `file` is read from, on its `queued` event: in an import of paths
   * (`import.start`) only, the paths the caller named or files inside them. A Retry imports it
   * again by this path under `file` (`import.start`'s `names`), where the name the engine gave a
   * second file or folder of one name ("v1.2 (2)/...") does not say which path it came from.
   * Never for an upload: the page names no path on this computer.
   */
  path?: string;
}

/**
 * Events pushed from the engine to the renderer (IPC `webContents.send` or server-sent events).
 * The renderer checks each against its schema in `events.ts`, which must describe this type exactly.
 */
export type EngineEvent =
  | ({ type: 'import.progress'; jobId: string; library: string } & ImportProgress)
  | { type: 'import.done'; jobId: string; library: string; summary: ImportSummary }
  /** The import job itself crashed (a bug, not a bad file): documents already committed stay. */
  | { type: 'import.failed'; jobId: string; library: string; message: string }
  | { type: 'library.changed'; library: string }
  | {
      type: 'index.progress';
      library: string;
      /** Background work that upgrades chunks in place while search keeps working. */
      task: 'embedding' | 'enriching' | 'rebuilding';
      done: number;
      total: number;
      /** Set when the task stopped early, in words. */
      error?: string;
    }
  | { type: 'chat.token'; library: string; conversationId: string; messageId: string; text: string }
  | { type: 'chat.done'; library: string; conversationId: string; message: ChatTurn };

export const contract = {
  'app.info': { input: z.object({}).strict(), output: out<AppInfo>() },
  'models.list': { input: z.object({}).strict(), output: out<ModelSummary[]>() },
  'libraries.list': { input: z.object({}).strict(), output: out<LibrarySummary[]>() },
  /**
   * Creates an empty library. Settings left out take a new library's defaults (structure chunks,
   * heuristic enrichment, no embedder, no keyword prefix, no key packing); an embedder is loaded
   * once to record its dimension ('not-found' / 'model-failed' when it cannot be).
   */
  'libraries.create': {
    input: z
      .object({
        name: libraryName,
        strategy: z.enum(CHUNK_STRATEGIES).optional(),
        enrich: z.enum(ENRICH_MODES).optional(),
        /** Embedding model id (from models.list), or null for BM25 only. */
        embedder: z.string().min(1).max(300).nullable().optional(),
        /** What is prefixed to each chunk's keyword-indexed text (core/prefix.ts); parts left out are off. */
        prefix: z.object({ signature: z.boolean(), headingPath: z.boolean(), keys: z.boolean() }).partial().strict().optional(),
        /** MDKeyChunker stage 3: pack chunks sharing a key into one retrieval unit. */
        restructure: z.boolean().optional(),
      })
      .strict(),
    output: out<LibrarySummary>(),
  },
  'libraries.rename': {
    input: z.object({ library: libraryName, name: libraryName }).strict(),
    output: out<LibrarySummary>(),
  },
  'libraries.delete': { input: libraryRef, output: out<{ deleted: string }>() },
  /**
   * Rebuilds the library's index from its stored documents in the background: the model
   * vocabulary is learned again and every document is chunked, enriched and indexed with the
   * current code into a new index, which replaces the old one only when complete (search keeps
   * using the old one meanwhile). Progress: `index.progress` with task 'rebuilding' (done/total in
   * documents); `library.changed` when it is swapped in. Fails with 'busy' while an import or
   * another rebuild of the library runs.
   */
  'libraries.rebuild': { input: libraryRef, output: out<{ jobId: string }>() },
  /** Stops a running rebuild; the library keeps its previous index. `cancelled` is false when none ran. */
  'libraries.cancelRebuild': { input: libraryRef, output: out<{ cancelled: boolean }>() },
  'libraries.configure': {
    input: z
      .object({
        library: libraryName,
        strategy: z.enum(CHUNK_STRATEGIES).optional(),
        enrich: z.enum(ENRICH_MODES).optional(),
        /** Embedding model id (from models.list), or null for BM25 only. */
        embedder: z.string().min(1).max(300).nullable().optional(),
      })
      .strict(),
    output: out<LibrarySummary>(),
  },
  'documents.list': { input: libraryRef, output: out<DocumentSummary[]>() },
  'documents.remove': {
    input: z.object({ library: libraryName, id: z.string().min(1).max(4096) }).strict(),
    output: out<{ removed: string }>(),
  },
  'documents.chunks': {
    input: z.object({ library: libraryName, id: z.string().min(1).max(4096) }).strict(),
    output: out<ChunkDetail[]>(),
  },
  'documents.source': {
    input: z.object({ library: libraryName, id: z.string().min(1).max(4096) }).strict(),
    output: out<DocumentSource>(),
  },
  'documents.original': {
    input: z.object({ library: libraryName, id: z.string().min(1).max(4096) }).strict(),
    output: out<DocumentOriginal>(),
  },
  /**
   * Imports files a browser page uploaded: the web bridge streamed each one (`PUT /upload`) into a
   * staging folder named by `uploadId`; this imports that tree under the files' relative names and
   * removes it. The page never names a path on this computer.
   */
  'import.upload': {
    input: z
      .object({
        library: libraryName,
        uploadId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'The upload id is not valid.'),
      })
      .strict(),
    output: out<{ jobId: string }>(),
  },
  /**
   * Imports files and folders by path. Electron passes only paths its shell granted (picked or
   * dropped); the web bridge refuses this call (a browser uploads instead). Fails with `busy`
   * ("library busy: another import is running") while another process writes the library; within
   * one app, imports into a library run one after another.
   */
  'import.start': {
    input: z
      .object({
        library: libraryName,
        paths: z.array(z.string().min(1).max(4096)).min(1, 'Choose at least one file or folder.').max(10_000),
        /**
         * The document id each path is imported under (a folder's: the id its files' ids start
         * with), in the order of `paths`; by default the path's own name, numbered when two share
         * one ("manual (2).md"). How a Retry imports a file again under the id it failed under,
         * which its path alone does not give (a renamed file, a file inside a dropped folder).
         */
        names: z.array(importName).max(10_000).optional(),
      })
      .strict()
      .superRefine(({ paths, names }, ctx) => {
        if (names === undefined) return;
        if (names.length !== paths.length) ctx.addIssue({ code: 'custom', path: ['names'], message: `Give one name for each path: ${paths.length} paths, ${names.length} names.` });
        else {
          const collision = nameCollision(names);
          if (collision) ctx.addIssue({ code: 'custom', path: ['names'], message: collision, params: { code: 'already-exists' } });
        }
      }),
    output: out<{ jobId: string }>(),
  },
  'import.cancel': { input: z.object({ jobId: z.string().min(1).max(100) }).strict(), output: out<{ cancelled: boolean }>() },
  'chat.list': { input: libraryRef, output: out<ConversationSummary[]>() },
  'chat.create': {
    input: z.object({ library: libraryName, title: z.string().max(120).optional(), scope: conversationScope.optional() }).strict(),
    output: out<Conversation>(),
  },
  'chat.get': { input: z.object({ library: libraryName, id: conversationId }).strict(), output: out<Conversation>() },
  'chat.rename': {
    input: z.object({ library: libraryName, id: conversationId, title: z.string().trim().min(1, 'A conversation needs a title.').max(120) }).strict(),
    output: out<ConversationSummary>(),
  },
  'chat.scope': {
    input: z.object({ library: libraryName, id: conversationId, scope: conversationScope }).strict(),
    output: out<Conversation>(),
  },
  'chat.delete': { input: z.object({ library: libraryName, id: conversationId }).strict(), output: out<{ deleted: string }>() },
  'chat.ask': {
    input: z.object({ library: libraryName, id: conversationId, question: z.string().trim().min(1, 'Type a question.').max(2000) }).strict(),
    output: out<ChatTurn>(),
  },
  'chat.stop': { input: z.object({ library: libraryName, id: conversationId }).strict(), output: out<{ stopped: boolean }>() },
  'chat.export': {
    input: z.object({ library: libraryName, id: conversationId }).strict(),
    output: out<{ fileName: string; markdown: string }>(),
  },
  'settings.get': { input: z.object({}).strict(), output: out<AppSettings>() },
  'settings.update': {
    input: z.object({ chatModel: z.string().min(1).max(300).nullable() }).strict(),
    output: out<AppSettings>(),
  },
  /**
   * Publishes the library to object storage as a new version (`PublishSummary.version`): its
   * documents, texts, enrichment and index, uploaded by content so a new version sends only the
   * files that changed. 'busy' when another publisher made that version first (nothing is
   * overwritten) or the library is being written; 'unavailable' offline or without credentials.
   */
  'libraries.publish': { input: z.object({ library: libraryName, to: remoteUrl }).strict(), output: out<PublishSummary>() },
  /** Subscribes to a published library as a new, read-only library named `library`, fetching its latest version. */
  'libraries.subscribe': { input: z.object({ source: remoteUrl, library: libraryName }).strict(), output: out<SyncSummary>() },
  /** Fetches a subscribed library's latest version (only new files) and swaps it in; search keeps working meanwhile. */
  'libraries.sync': { input: libraryRef, output: out<SyncSummary>() },
  /** Looks for a newer published version of a subscribed library (fails soft: an offline look is recorded in `checkError`). */
  'libraries.checkRemote': { input: libraryRef, output: out<LibrarySummary>() },
  /** Saves the object-storage settings; `secretAccessKey` left out keeps the stored one, null clears it. */
  'settings.remote': {
    input: z
      .object({
        endpoint: settingText(500)
          .refine((v) => v === null || /^https?:\/\/\S+$/.test(v), 'The endpoint is an http(s) URL, e.g. http://minio.local:9000.')
          .refine((v) => v === null || !/^https?:\/\/[^/]*@/.test(v), 'The endpoint must not hold a user name or password; enter the keys in their own fields.'),
        region: settingText(64),
        accessKeyId: settingText(256),
        secretAccessKey: settingText(512).optional(),
      })
      .strict(),
    output: out<AppSettings>(),
  },
  /**
   * Loads what a library's first search needs (its model vocabulary, document names, row index)
   * ahead of it: the renderer asks when a library is opened, so a large library's first question
   * does not wait a second for them. Reads nothing the user sees.
   */
  'search.prepare': { input: z.object({ library: libraryName }).strict(), output: out<{ prepared: true }>() },
  'search.query': {
    input: z
      .object({
        library: libraryName,
        query: z.string().trim().min(1, 'Type a question.').max(2000),
        topK: z.number().int().min(1).max(MAX_TOP_K).default(10),
        retriever: z.enum(RETRIEVERS).default('bm25'),
        models: z.array(z.string().max(200)).max(50).optional(),
        docIds: z.array(z.string().max(4096)).max(1000).optional(),
        /** Ranking stages to run (default: all); the scorecard's ablation leaves one out at a time. */
        stages: z.array(z.enum(RANK_STAGE_NAMES)).max(RANK_STAGE_NAMES.length).optional(),
      })
      .strict(),
    output: out<SearchResponse>(),
  },
} as const satisfies Record<ContractKey, { input: z.ZodType; output: unknown }>;

export type Contract = typeof contract;
export type Input<K extends ContractKey> = z.input<Contract[K]['input']>;
export type ParsedInput<K extends ContractKey> = z.output<Contract[K]['input']>;
export type Output<K extends ContractKey> = Contract[K]['output'];

/** What the renderer calls: one async function per contract key. */
export type Api = { [K in ContractKey]: (input: Input<K>) => Promise<Result<Output<K>>> };

/** What the engine implements: one handler per key, receiving validated input. */
export type Handlers = { [K in ContractKey]: (input: ParsedInput<K>) => Promise<Result<Output<K>>> };

/** The bridge surface exposed to the renderer: the API plus an event subscription. */
export interface RendererBridge {
  api: Api;
  /** Subscribes to engine events; returns an unsubscribe function. */
  onEvent(listener: (event: EngineEvent) => void): () => void;
}

/** Validates raw input for `key`; returns the parsed value or an `invalid-input` error in words. */
export function validateInput<K extends ContractKey>(key: K, raw: unknown): Result<ParsedInput<K>> {
  const schema = contract[key].input as unknown as z.ZodType<ParsedInput<K>>;
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? ` (${first.path.join('.')})` : '';
  // A check that knows what kind of refusal it is says so (`params.code`: an unsafe name, a name taken).
  const said: unknown = first?.code === 'custom' ? first.params?.code : undefined;
  const code = (ERROR_CODES as readonly unknown[]).includes(said) ? (said as ErrorCode) : 'invalid-input';
  return { ok: false, error: { code, message: `${first?.message ?? 'Invalid request.'}${where}` } };
}

export function isContractKey(key: string): key is ContractKey {
  return (CONTRACT_KEYS as readonly string[]).includes(key);
}
