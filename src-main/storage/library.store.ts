import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChunkStrategy } from '../core/chunk';
import type { DocFormat, NormalizedDocument } from '../core/document';
import { DEFAULT_PREFIX_OPTIONS, type PrefixOptions } from '../core/prefix';
import type { ErrorCode, Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { DocumentStatus, EnrichMode } from '../contract/api';
import type { SubscriptionState } from '../contract/team';

export type { SubscriptionState };
import { isStrayTemp, readJson, tempName, writeFileAtomic, writeJsonAtomic } from './atomic-file';
import { isPackName, PACK_DIR, packPath, readPacked, readStored, storeTexts, storedBy, storedSize, type PackedText, type PackRange } from './text-pack';
import { ownedHere, tryLock, waitLock } from './lock-file';

/**
 * Libraries on disk: one folder per library under `<dataDir>/libraries/`, holding the original
 * files, the normalized documents, the LanceDB database and small JSON metadata written
 * atomically. A crash at any moment leaves metadata that opens: either the old or the new file.
 *
 *   <lib>/library.json      name, strategy, enrichment, embedder
 *   <lib>/documents.json    one record per document (only `ready` ones have chunks in the index)
 *   <lib>/journal.json      documents whose index rows were being written (crash recovery)
 *   <lib>/originals/...     copies of imported files, by document id (large ones, and older libraries')
 *   <lib>/originals/pack-*.bin an import batch's small original files (`text-pack.ts`)
 *   <lib>/normalized/*.json normalized documents, by content hash (large ones, and older libraries')
 *   <lib>/normalized/pack-*.jsonl an import batch's small normalized documents (`text-pack.ts`)
 *   <lib>/index/            LanceDB
 *
 * Longer than 500 lines for now: a library (`Library`) and the folder of libraries
 * (`LibraryManager`) share this layout; the manager is the part to move to its own file.
 */

export interface LibraryConfig {
  version: 1;
  id: string;
  name: string;
  createdAt: string;
  strategy: ChunkStrategy;
  enrich: EnrichMode;
  /** Embedding model id and dimension the index was built with; null when BM25 only. */
  embedder: { id: string; dimension: number } | null;
  /**
   * What is prefixed to each chunk's keyword-indexed text (CHOP's PFX, MDKeyChunker's section
   * path, keys). `DEFAULT_PREFIX_OPTIONS` (core/prefix.ts) by default: none, since measured on the
   * shared benchmarks it did not help keyword search once ranking is model-aware. Embeddings
   * always get the CHOP signature prefix.
   */
  prefix: Required<PrefixOptions>;
  /** MDKeyChunker stage 3: pack chunks sharing a key into retrieval units. */
  restructure: boolean;
  /**
   * True once chunks were stored without their heuristic nouns, because nothing in the library read
   * them (`readsNouns`, index/library-enrichment.ts); a rebuild with them clears it. Absent: every
   * chunk has them.
   */
  nounsOmitted?: boolean;
  /** `INDEX_VERSION` of the code that built the index; absent in libraries built before versioning (1). */
  indexVersion?: number;
  /** Set on a library subscribed from object storage, which is read-only here (see `storage/remote/`). */
  subscription?: SubscriptionState;
}

/**
 * Whether the library's embedding waits for its chunks' nouns: CHOP embeds each chunk with its
 * signature, so chunks stored without their nouns (`nounsOmitted`) are embedded only once an LLM
 * upgrade has given every chunk its nouns. A subscribed library embeds nothing here. From the
 * config alone, so the background job (`startEmbedding`) and the summary a page reads agree.
 */
export function embeddingWaitsForNouns(config: LibraryConfig): boolean {
  return config.embedder !== null && !config.subscription && config.nounsOmitted === true;
}

/**
 * Version of what import derives from a document and stores: chunk boundaries, signatures, the
 * model vocabulary, the index columns. Bump it with a change that alters them (2: IO boards became
 * models of their own and caption lines name a chunk's model; 3: passage term statistics, which
 * search's answer-line stage weighs words with;
 * 4: documents' ordering codes, which name them for search; 5: "off" counted as a word in the
 * passage and term statistics; 6: structure chunks up to 3000 characters, not 1500; 7: an HTML
 * table cell spanning columns or rows is written into each of them, and a table inside an HTML
 * block is a table, not indented code), so libraries
 * built before the change report
 * `indexOutdated` and are offered a rebuild from their stored documents.
 */
export const INDEX_VERSION = 7;

/** What an opening process writes in the lock file while it sweeps stray temp files: a hold of moments, which writers wait out. */
export const OPENING_LOCK_PURPOSE = 'opening';

/** Settings a new library starts with; also fill fields missing from older library.json files. */
export const LIBRARY_DEFAULTS: Pick<LibraryConfig, 'strategy' | 'enrich' | 'embedder' | 'prefix' | 'restructure'> = {
  strategy: 'structure',
  enrich: 'heuristic',
  embedder: null,
  prefix: { ...DEFAULT_PREFIX_OPTIONS },
  restructure: false,
};

export interface DocumentRecord {
  id: string;
  title: string;
  format: DocFormat | null;
  status: DocumentStatus;
  code?: ErrorCode;
  reason?: string;
  sizeBytes: number;
  pageCount: number | null;
  contentHash: string | null;
  importedAt: string;
  models: string[];
  /** Ordering codes the document gives itself (SKU, part or order number; see `enrich/document-codes.ts`). */
  codes?: string[];
  chunks: number;
  /** Path of the copied original, relative to the library folder: its own file, or the pack holding it. */
  original: string | null;
  /** Set when `original` is a pack of small originals: the file's bytes in it. */
  originalRange?: PackRange;
  /** Where the normalized text is packed; absent: in its own file, `normalized/<contentHash>.json`. */
  normalized?: PackedText;
  /** Enrichment the stored chunks come from (absent: heuristic, from import). */
  enrichedWith?: EnrichMode;
  /**
   * Set when the LLM upgrade to `mode` could not reach this document (its stored text is missing
   * or cannot be read, or chunking it anew failed), with why in words: the upgrade passes it by,
   * and it keeps the chunks it has, until its file is imported again (the mark is dropped, or a
   * new record replaces it when its text was lost), the index is rebuilt or the library is set to
   * another mode. A chunking failure keeps what chunking depended on (`inputs`, see
   * `chunkingInputs` in `index/llm-upgrade.job.ts`): once that changes, the mark lapses and the
   * upgrade tries again (marks written without it hold as before).
   */
  upgradeFailed?: { mode: EnrichMode; reason: string; inputs?: string };
  /** LLM calls and tokens spent enriching this document. */
  llmCalls?: number;
  llmTokens?: number;
}

interface DocumentsFile {
  version: 1;
  documents: DocumentRecord[];
}

/** The lock file in each library folder that says which process writes it (see `engine/writer-lock.ts`). */
export const LIBRARY_LOCK_FILE = 'write.lock';

const NAME_COLLATOR = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The answer for a library name that names none (or one being deleted): one wording everywhere. */
export function noLibrary(name: string): Result<never> {
  return fail('not-found', `There is no library named "${name}".`);
}

/** True when two library names address the same library (names compare case- and accent-insensitively). */
export function sameLibraryName(a: string, b: string): boolean {
  return NAME_COLLATOR.compare(a, b) === 0;
}

/** Per-library serialization of metadata writes within this process. */
class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

export class Library {
  private readonly mutex = new Mutex();
  private docs: Map<string, DocumentRecord> | null = null;
  private docsVersion = 0;
  /**
   * documents.json and library.json as this process last read or wrote them (mtime, size, inode;
   * null: missing), to notice another process's writes. Taken before the file is read, so a write
   * between the two is noticed later rather than missed.
   */
  private docsStamp: string | null;
  private configStamp: string | null;
  /** How many times another process's writes were noticed (`reloadIfChangedOnDisk`). */
  private outsideWrites_ = 0;

  /** `stamps`: of documents.json and library.json as they were when `config` was read (unknown: a first look reloads). */
  constructor(
    readonly dir: string,
    public config: LibraryConfig,
    stamps: { docs: string | null; config: string | null } = { docs: null, config: null },
  ) {
    this.docsStamp = stamps.docs;
    this.configStamp = stamps.config;
  }

  get name(): string {
    return this.config.name;
  }
  get indexDir(): string {
    return path.join(this.dir, 'index');
  }

  /**
   * The index folder to open a store at. A subscribed library's folder is a link that a sync in
   * another process may point at a newer version: its store is opened inside the version folder
   * the link names now, so the files LanceDB opens later still belong to that version (the
   * previous version is kept for such readers until they follow the link, see `engine/team.ts`).
   */
  async storeDir(): Promise<string> {
    if (!this.config.subscription) return this.indexDir;
    return path.join(await fs.realpath(this.dir).catch(() => this.dir), 'index');
  }

  /** True when the index was built by older chunking/enrichment code (see `INDEX_VERSION`). */
  get indexOutdated(): boolean {
    return (this.config.indexVersion ?? 1) < INDEX_VERSION;
  }

  private get documentsFile(): string {
    return path.join(this.dir, 'documents.json');
  }

  private get configFile(): string {
    return path.join(this.dir, 'library.json');
  }

  /** Changes whenever this object changes the document records: a cache key for what is built from them. */
  get documentsVersion(): number {
    return this.docsVersion;
  }

  /**
   * Changes whenever this object notices that another process wrote the library's records or
   * settings (`reloadIfChangedOnDisk`): what an open index compares to know that its table and
   * vocabulary may be older than the library (`LibraryIndex.followDisk`). This process's own
   * writes leave it as it is.
   */
  get outsideWrites(): number {
    return this.outsideWrites_;
  }

  /** All document records, sorted by id. */
  async documents(): Promise<DocumentRecord[]> {
    const map = await this.loadDocs();
    return [...map.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async document(id: string): Promise<DocumentRecord | undefined> {
    return (await this.loadDocs()).get(id);
  }

  /** Inserts or replaces records and persists documents.json atomically, once for the batch. */
  async putDocuments(records: DocumentRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.mutex.run(async () => {
      const map = await this.loadDocs();
      for (const r of records) map.set(r.id, r);
      this.docsVersion++;
      await this.persistDocs(map);
    });
  }

  /** Removes records (and their originals); returns the removed records. */
  async removeDocuments(ids: string[]): Promise<DocumentRecord[]> {
    return this.mutex.run(async () => {
      const map = await this.loadDocs();
      const removed: DocumentRecord[] = [];
      for (const id of ids) {
        const rec = map.get(id);
        if (!rec) continue;
        map.delete(id);
        removed.push(rec);
      }
      if (removed.length > 0) this.docsVersion++;
      if (removed.length > 0) await this.persistDocs(map);
      const used = storedBy(map.values());
      for (const rec of removed) await this.dropUnlisted(rec, used);
      return removed;
    });
  }

  async saveConfig(patch: Partial<Omit<LibraryConfig, 'version' | 'id' | 'createdAt'>>): Promise<void> {
    await this.mutex.run(async () => {
      this.config = { ...this.config, ...patch };
      await writeJsonAtomic(this.configFile, this.config);
      this.configStamp = await stampOf(this.configFile);
    });
  }

  /**
   * Where a record's stored original is, or null when it has none or its path leaves the
   * library's `originals/` folder: a subscribed library's documents.json comes from a bucket, and
   * a record naming "../../.aws/credentials" must not make the viewer read (or removal delete)
   * a file of this computer.
   */
  originalPath(rec: Pick<DocumentRecord, 'original'>): string | null {
    if (!rec.original) return null;
    const root = path.join(this.dir, 'originals');
    const file = path.resolve(this.dir, rec.original);
    return file.startsWith(root + path.sep) ? file : null;
  }

  /** The stored original's size in bytes, or null when it is missing (or its record malformed). */
  async originalSize(rec: Pick<DocumentRecord, 'original' | 'originalRange'>): Promise<number | null> {
    const file = this.originalPath(rec);
    return file ? storedSize(file, rec.originalRange) : null;
  }

  /** The stored original's bytes, or null when it is missing (see `originalSize`). */
  async readOriginal(rec: Pick<DocumentRecord, 'original' | 'originalRange'>): Promise<Buffer | null> {
    const file = this.originalPath(rec);
    return file ? readStored(file, rec.originalRange) : null;
  }

  /**
   * Copies an original into the library (flushed); returns its path relative to the library. Beside
   * one stored under the id (a re-import's listed version) it takes its own name ("a.3f9c2a1b.pdf"):
   * a failed re-import leaves the old one whole (`dropUnlisted` removes it once replaced).
   */
  async storeOriginal(docId: string, bytes: Uint8Array): Promise<string> {
    let rel = path.join('originals', ...docId.split('/'));
    const ext = path.extname(rel);
    if (await fs.stat(path.join(this.dir, rel)).then(() => true, () => false)) rel = `${rel.slice(0, rel.length - ext.length)}.${randomBytes(4).toString('hex')}${ext}`;
    await writeFileAtomic(path.join(this.dir, rel), bytes);
    return rel.split(path.sep).join('/');
  }

  /**
   * Stores normalized documents: those up to `PACK_ENTRY_BYTES` of JSON together in new packs,
   * larger ones each in its own file. Returns, in order, where each packed one is (the record's
   * `normalized`), or null for one stored in its own file. Throws on a write error.
   */
  async storeNormalized(docs: readonly NormalizedDocument[]): Promise<(PackedText | null)[]> {
    const alone = (i: number, text: string) => writeFileAtomic(this.normalizedPath(docs[i]!.contentHash), text, { durable: false });
    return storeTexts(this.dir, docs.length, (i) => JSON.stringify(docs[i]), alone);
  }

  /**
   * A listed document's stored normalized text, under the record's own id and title. Normalized
   * texts are stored by content hash or in packs shared by many documents, and carry the id of the
   * file that stored them: taken as is, another file's rows, vocabulary and LLM upgrade would be
   * written under that id. Null when the record has no text, or it is missing or damaged (e.g.
   * after a power cut).
   */
  async loadNormalized(rec: Pick<DocumentRecord, 'id' | 'title' | 'contentHash' | 'normalized'>): Promise<NormalizedDocument | null> {
    if (!rec.contentHash) return null;
    const doc = rec.normalized
      ? await readPacked(this.dir, rec.normalized).then((t) => (t === null ? null : (JSON.parse(t) as NormalizedDocument))).catch(() => null)
      : await readJson<NormalizedDocument | null>(this.normalizedPath(rec.contentHash), null).catch(() => null);
    return doc ? { ...doc, id: rec.id, title: rec.title } : null;
  }

  /**
   * Whether a listed document's stored normalized text is on disk (its pack long enough for its
   * range, or its file by hash): one stat, not a read. An import of the same bytes takes a
   * document without it as new, so importing the file again restores what was lost.
   */
  async hasStoredText(rec: Pick<DocumentRecord, 'contentHash' | 'normalized'>): Promise<boolean> {
    if (!rec.contentHash) return false;
    const pack = packPath(this.dir, rec.normalized);
    if (rec.normalized && !pack) return false;
    const size = await fs.stat(pack ?? this.normalizedPath(rec.contentHash)).then((st) => st.size, () => -1);
    return rec.normalized ? size >= rec.normalized.offset + rec.normalized.length : size > 0;
  }

  /**
   * Deletes what a record no longer listed (removed, or a replaced version) stored, unless a
   * listed record still uses it: its original (own file or pack) and its normalized text (pack,
   * or own file by hash). `used`: `storedBy` of the listed records, when the caller has it.
   */
  async dropUnlisted(rec: Pick<DocumentRecord, 'original' | 'contentHash' | 'normalized'>, used?: ReturnType<typeof storedBy>): Promise<void> {
    used ??= storedBy((await this.loadDocs()).values());
    const original = this.originalPath(rec);
    if (original && !used.originals.has(rec.original!)) await fs.rm(original, { force: true });
    const pack = packPath(this.dir, rec.normalized);
    if (pack && !used.packs.has(rec.normalized!.file)) await fs.rm(pack, { force: true });
    if (!rec.normalized && rec.contentHash && !used.hashes.has(rec.contentHash)) await fs.rm(this.normalizedPath(rec.contentHash), { force: true });
  }

  private normalizedPath(contentHash: string): string {
    if (!/^[0-9a-f]{64}$/.test(contentHash)) throw new Error(`Bad content hash ${contentHash}`);
    return path.join(this.dir, 'normalized', `${contentHash}.json`);
  }

  /**
   * Removes what interrupted writes left in the library folder: temp files of writers that are
   * gone (in the folder, `originals/` and `normalized/`) and, with `orphans`, originals and
   * normalized texts that no listed document uses and that were written before this process
   * started (by an import killed, or stopped by a full disk, before listing them). Only the
   * library's writer may sweep orphans: the files of an import under way in another process are
   * orphans until its commit lists them. Returns how many files were removed.
   */
  async sweepStrays(options: { orphans?: boolean } = {}): Promise<number> {
    let removed = 0;
    const rm = async (file: string) => {
      await fs.rm(file, { force: true });
      removed++;
    };
    const listing = async (sub: string) =>
      (await fs.readdir(path.join(this.dir, sub), { withFileTypes: true, recursive: true }).catch(() => [])).filter((e) => e.isFile());
    // `parentPath` (Node 20.12+; `path` before) is the folder of an entry of a recursive listing.
    const fileOf = (e: { name: string; parentPath?: string; path?: string }) => path.join(e.parentPath ?? e.path ?? '', e.name);
    const originals = await listing('originals');
    const normalized = await listing('normalized');
    for (const e of [...originals, ...normalized]) if (isStrayTemp(e.name)) await rm(fileOf(e));
    const root = await fs.readdir(this.dir).catch(() => [] as string[]);
    for (const name of root) if (isStrayTemp(name)) await rm(path.join(this.dir, name));
    if (!options.orphans) return removed;
    // Files written since this process started may be another import's of this process, still
    // to be listed (imports of one app can overlap); a killed import's files are older.
    const startedAt = Date.now() - process.uptime() * 1000;
    const old = async (file: string) => ((await fs.stat(file).catch(() => null))?.mtimeMs ?? Infinity) < startedAt;
    const docs = await this.documents();
    const used = storedBy(docs);
    const usedOriginals = new Set([...used.originals].map((o) => path.join(this.dir, o)));
    for (const e of originals) {
      const file = fileOf(e);
      if (!e.name.endsWith('.tmp') && !usedOriginals.has(file) && (await old(file))) await rm(file);
    }
    for (const e of normalized) {
      const hash = /^([0-9a-f]{64})\.json$/.exec(e.name)?.[1];
      const unused = hash ? !used.hashes.has(hash) : isPackName(e.name) && !used.packs.has(`${PACK_DIR}/${e.name}`);
      if (unused && (await old(fileOf(e)))) await rm(fileOf(e));
    }
    return removed;
  }

  /**
   * Runs `work` with `repair` true when this process may finish or undo what an interrupted writer
   * left (a rebuild's folders, a commit's journal): no live process holds the library's lock file
   * (this one takes it meanwhile, as an opening, which writers wait out) or this process holds it.
   * While another live process holds it, those are its writes under way and `repair` is false: a
   * search opening the library deleted the new index of a CLI reindex running beside it.
   */
  async withRepair<T>(work: (repair: boolean) => Promise<T>): Promise<T> {
    const lock = await tryLock(path.join(this.dir, LIBRARY_LOCK_FILE), OPENING_LOCK_PURPOSE);
    if (!lock.ok) return work(lock.owner !== null && ownedHere(lock.owner));
    try {
      return await work(true);
    } finally {
      await lock.release();
    }
  }

  /** Document ids whose index rows were being written when the process last stopped. */
  async journal(): Promise<string[]> {
    return (await readJson<{ docIds: string[] }>(path.join(this.dir, 'journal.json'), { docIds: [] })).docIds;
  }

  async setJournal(docIds: string[]): Promise<void> {
    await writeJsonAtomic(path.join(this.dir, 'journal.json'), { docIds });
  }

  /**
   * Takes in what another process wrote since this one last read or wrote the library's metadata:
   * the cached document list is forgotten when documents.json changed, the settings are read
   * again when library.json did (a subscribed library's settings are its version's, which
   * `engine/team.ts` moves to). Each noticed change counts in `outsideWrites`. Two file stats
   * when nothing changed. Returns whether anything did.
   */
  async reloadIfChangedOnDisk(): Promise<boolean> {
    return this.mutex.run(async () => {
      let changed = false;
      const docs = await stampOf(this.documentsFile);
      if (docs !== this.docsStamp) {
        this.docs = null;
        this.docsStamp = docs;
        this.docsVersion++;
        changed = true;
      }
      const config = await stampOf(this.configFile);
      if (config !== this.configStamp && !this.config.subscription) {
        const read = await readJson<LibraryConfig | null>(this.configFile, null).catch(() => null);
        // A library.json being replaced, or damaged, keeps the settings this process has.
        if (read && read.id === this.config.id && typeof read.name === 'string') this.config = { ...LIBRARY_DEFAULTS, ...read };
        this.configStamp = config;
        changed = true;
      }
      if (changed) this.outsideWrites_++;
      return changed;
    });
  }

  private async loadDocs(): Promise<Map<string, DocumentRecord>> {
    if (!this.docs) {
      const stamp = await stampOf(this.documentsFile);
      // Written by another process since this one last looked: what was built from the old
      // records (an open index among them) is older than the library.
      if (stamp !== this.docsStamp) this.outsideWrites_++;
      const file = await readJson<DocumentsFile>(this.documentsFile, { version: 1, documents: [] });
      this.docs = new Map(file.documents.map((d) => [d.id, d]));
      this.docsStamp = stamp;
    }
    return this.docs;
  }

  private async persistDocs(map: Map<string, DocumentRecord>): Promise<void> {
    const documents = [...map.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await writeJsonAtomic(this.documentsFile, { version: 1, documents } satisfies DocumentsFile);
    this.docsStamp = await stampOf(this.documentsFile);
  }
}

/** The metadata files of a library folder as they are now (see `Library.reloadIfChangedOnDisk`). */
async function stampsOf(dir: string): Promise<{ docs: string | null; config: string | null }> {
  return { docs: await stampOf(path.join(dir, 'documents.json')), config: await stampOf(path.join(dir, 'library.json')) };
}

/** A file as `Library` remembers it (mtime, size, inode), or null when it is missing. */
async function stampOf(file: string): Promise<string | null> {
  const st = await fs.stat(file).catch(() => null);
  return st ? `${st.mtimeMs}:${st.size}:${st.ino}` : null;
}

/**
 * A library folder put aside by a version of ManualMate from before such folders were named like
 * temp files (`tempName`, with the pid of the process at work): `.{id}.creating` while a creation
 * built it, `.{id}.deleting-{random}` once a deletion had renamed it. Their process cannot be known.
 */
const OLD_ASIDE = /^\.lib-[0-9a-f]{12}\.(creating|deleting-[0-9a-f]{6})$/;

/** How long such a folder must have been left untouched before it counts as abandoned. */
const OLD_ASIDE_IDLE_MS = 10 * 60_000;

/**
 * Whether a folder named `OLD_ASIDE` was abandoned: nothing was added to or removed from it for
 * `OLD_ASIDE_IDLE_MS`, and no live process holds the lock file in it. A creation writes its two
 * files in milliseconds and renames the folder at once, so one untouched for minutes was killed. A
 * deletion's folder keeps the mtime of the library it was, so an old one may still be under
 * removal by an older version running now; removing it as well does what that process is doing
 * (its own removal tolerates files already gone), and one whose lock file that process holds is
 * left to it.
 */
async function abandonedAside(dir: string): Promise<boolean> {
  const st = await fs.stat(dir).catch(() => null);
  if (!st?.isDirectory() || Date.now() - st.mtimeMs < OLD_ASIDE_IDLE_MS) return false;
  const lock = await tryLock(path.join(dir, LIBRARY_LOCK_FILE), 'removal of an abandoned folder').catch(() => null);
  if (!lock?.ok) return false;
  await lock.release();
  return true;
}

/** All libraries under one data directory. */
export class LibraryManager {
  private readonly cache = new Map<string, Library>();
  private readonly opening = new Map<string, Promise<Library | undefined>>();

  constructor(readonly dataDir: string) {}

  private get root(): string {
    return path.join(this.dataDir, 'libraries');
  }

  async list(): Promise<Library[]> {
    let entries: string[];
    try {
      entries = await fs.readdir(this.root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const libs: Library[] = [];
    for (const entry of entries) {
      if (entry.startsWith('.')) {
        // A library folder renamed aside by a deletion, or built by a creation, whose process was
        // killed before it finished: listed nowhere, it held its disk space for good.
        if (isStrayTemp(entry) || (OLD_ASIDE.test(entry) && (await abandonedAside(path.join(this.root, entry))))) {
          await fs.rm(path.join(this.root, entry), { recursive: true, force: true });
        }
        continue;
      }
      const lib = await this.open(entry);
      if (lib) libs.push(lib);
    }
    return libs.sort((a, b) => NAME_COLLATOR.compare(a.name, b.name));
  }

  /** Finds a library by name, case-insensitively. */
  async get(name: string): Promise<Library | undefined> {
    return (await this.list()).find((l) => sameLibraryName(l.name, name));
  }

  async require(name: string): Promise<Result<Library>> {
    const lib = await this.get(name);
    return lib ? ok(lib) : noLibrary(name);
  }

  async create(name: string, settings: Partial<typeof LIBRARY_DEFAULTS> = {}): Promise<Result<Library>> {
    // Two processes creating the same name at once (two CLI imports into a new library) would make
    // two folders of one name: the check and the creation run under a short lock of the data folder.
    await fs.mkdir(this.root, { recursive: true });
    const lock = await waitLock(path.join(this.root, '.create.lock'), 'library creation', 10_000);
    if (!lock.ok) return fail('busy', 'Another ManualMate process is creating a library; try again in a moment.');
    try {
      return await this.createLocked(name, settings);
    } finally {
      await lock.release();
    }
  }

  private async createLocked(name: string, settings: Partial<typeof LIBRARY_DEFAULTS>): Promise<Result<Library>> {
    const trimmed = name.trim();
    if (await this.get(trimmed)) return fail('already-exists', `A library named "${trimmed}" already exists.`);
    const id = `lib-${randomBytes(6).toString('hex')}`;
    const dir = path.join(this.root, id);
    const config: LibraryConfig = {
      ...LIBRARY_DEFAULTS,
      ...settings,
      version: 1,
      id,
      name: trimmed,
      createdAt: new Date().toISOString(),
      indexVersion: INDEX_VERSION,
    };
    // Build the library in a hidden folder and rename it into place, so a crash never leaves a
    // half-created library that fails to open.
    // Named like a temp file: the pid in it tells `list` whether its creator still runs.
    const staging = path.join(this.root, tempName(`${id}.creating`));
    await fs.mkdir(staging, { recursive: true });
    await writeJsonAtomic(path.join(staging, 'library.json'), config);
    await writeJsonAtomic(path.join(staging, 'documents.json'), { version: 1, documents: [] } satisfies DocumentsFile);
    await fs.rename(staging, dir);
    const lib = new Library(dir, config, await stampsOf(dir));
    this.cache.set(id, lib);
    return ok(lib);
  }

  async rename(lib: Library, name: string): Promise<Result<Library>> {
    const trimmed = name.trim();
    const clash = await this.get(trimmed);
    if (clash && clash !== lib) return fail('already-exists', `A library named "${trimmed}" already exists.`);
    await lib.saveConfig({ name: trimmed });
    return ok(lib);
  }

  /**
   * Deletes the library's folder: first renamed aside (atomic), then removed. The folder aside is
   * named like a temp file, so `list` removes it when a kill stopped the removal.
   */
  async delete(lib: Library): Promise<void> {
    const trash = path.join(this.root, tempName(`${lib.config.id}.deleting`));
    await fs.rename(lib.dir, trash);
    this.cache.delete(lib.config.id);
    await fs.rm(trash, { recursive: true, force: true });
  }

  /**
   * The one `Library` of a folder. Two lists at once both missed the cache while the first was
   * still reading, and made two instances: a rebuild saved its new index version on one while the
   * list showed the other's stale config ("indexed by an older version" after the rebuild).
   */
  private open(entry: string): Promise<Library | undefined> {
    const cached = this.cache.get(entry);
    if (cached) return Promise.resolve(cached);
    let opening = this.opening.get(entry);
    if (!opening) {
      opening = this.load(entry).finally(() => this.opening.delete(entry));
      this.opening.set(entry, opening);
    }
    return opening;
  }

  private async load(entry: string): Promise<Library | undefined> {
    const dir = path.join(this.root, entry);
    const stamps = await stampsOf(dir);
    const config = await readJson<LibraryConfig | null>(path.join(dir, 'library.json'), null).catch(() => null);
    if (!config || typeof config.name !== 'string') return undefined;
    const lib = new Library(dir, { ...LIBRARY_DEFAULTS, ...config }, stamps);
    // Temp files whose writer is gone are swept, and only when no process holds the library's lock
    // file (another process writing this library has its temp files in flight).
    const free = await tryLock(path.join(dir, LIBRARY_LOCK_FILE), OPENING_LOCK_PURPOSE);
    if (free.ok) {
      try {
        await lib.sweepStrays();
      } finally {
        await free.release();
      }
    }
    this.cache.set(entry, lib);
    return lib;
  }
}
