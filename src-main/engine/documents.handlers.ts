import path from 'node:path';
import type { EngineEvent, Handlers } from '../contract/api';
import { fail, ok } from '../core/result';
import { DEFAULT_MAX_FILE_BYTES, megabytes, sizeOver } from '../ingest/import-limits';
import type { LibraryIndexes } from '../index/library-indexes';
import { inputsForMarks, libraryChunkingInputs, markHolds } from '../index/llm-upgrade.job';
import type { ModelRuntime } from '../models/runtime';
import type { LibraryManager } from '../storage/library.store';
import { chunkDetail, documentSummary, mimeOf, pageStarts } from './presenters';
import type { WriterLock } from './writer-lock';

/**
 * The `documents.*` handlers: a library's documents listed and removed, and one document's chunks,
 * normalized text and original file for the viewer. Imports are imports.handlers.ts's.
 */

// Largest original the viewer is sent: what an import accepts by default (it is sent whole, as base64).
const MAX_ORIGINAL_BYTES = DEFAULT_MAX_FILE_BYTES;

/** What the document handlers share with the engine (`createEngine` makes them). */
export interface DocumentsContext {
  libraries: LibraryManager;
  indexes: LibraryIndexes;
  /** Asked only for a listing whose LLM-upgrade marks kept chunking inputs (`inputsForMarks`). */
  models: ModelRuntime;
  lock: WriterLock;
  emit: (event: EngineEvent) => void;
}

type DocumentKeys = 'documents.list' | 'documents.remove' | 'documents.chunks' | 'documents.source' | 'documents.original';

export function documentHandlers(ctx: DocumentsContext): Pick<Handlers, DocumentKeys> {
  const { libraries, indexes, models, lock, emit } = ctx;

  async function readyDocument(library: string, id: string) {
    const lib = await libraries.require(library);
    if (!lib.ok) return lib;
    const rec = await lib.value.document(id);
    if (!rec) return fail<never>('not-found', `There is no document "${id}" in ${lib.value.name}.`);
    return ok({ lib: lib.value, rec });
  }

  return {
    'documents.list': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const records = await lib.value.documents();
      const { enrich: mode } = lib.value.config;
      // A mark's reason is said while it holds, as the upgrade will judge it. The chunking inputs
      // scan the models folders: looked up once per listing, and only when a mark that would be
      // shown kept them (listings come every few hundred milliseconds during an import).
      const shown = records.filter((d) => d.status === 'ready' && d.upgradeFailed?.mode === mode);
      const inputs = await inputsForMarks(shown, () => libraryChunkingInputs(lib.value.config, models));
      return ok(records.map((d) => documentSummary(d, markHolds(d, mode, inputs))));
    },

    'documents.remove': async ({ library, id }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const admitted = await lock.admit(lib.value, 'writer', 'removal');
      if (!admitted.ok) return admitted;
      try {
        const rec = await lib.value.document(id);
        if (!rec) return fail('not-found', `There is no document "${id}" in ${lib.value.name}.`);
        const index = await indexes.open(lib.value);
        await index.remove([id], () => lib.value.removeDocuments([id]));
      } finally {
        admitted.value.claim();
        await admitted.value.hold();
      }
      emit({ type: 'library.changed', library: lib.value.name });
      return ok({ removed: id });
    },

    'documents.chunks': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const index = await indexes.open(found.value.lib);
      const nounsOmitted = found.value.lib.config.nounsOmitted === true;
      return ok((await index.listChunks(id)).map((r) => chunkDetail(r, nounsOmitted)));
    },

    'documents.source': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const { lib, rec } = found.value;
      const doc = await lib.loadNormalized(rec);
      if (!doc) return fail('not-found', `The text of "${id}" is not available; import the file again.`);
      return ok({ id: doc.id, title: doc.title, format: doc.format, text: doc.text, pageCount: doc.pageCount, pageStarts: pageStarts(doc) });
    },

    'documents.original': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const { lib, rec } = found.value;
      if (!rec.original) return fail('not-found', `The original file of "${id}" is not stored.`);
      const file = lib.originalPath(rec);
      if (!file) return fail('corrupt', `The record of "${id}" names its original outside the library folder; it is not opened.`);
      const size = await lib.originalSize(rec);
      if (size === null) return fail('not-found', `The original file of "${id}" is missing from the library folder.`);
      if (size > MAX_ORIGINAL_BYTES) return fail('too-large', `The original file of "${id}" is ${sizeOver(size, MAX_ORIGINAL_BYTES)}, more than the viewer opens (${megabytes(MAX_ORIGINAL_BYTES)}).`);
      const bytes = await lib.readOriginal(rec);
      if (!bytes) return fail('not-found', `The original file of "${id}" is missing from the library folder.`);
      return ok({ fileName: path.posix.basename(rec.id), mime: mimeOf(rec.format), base64: bytes.toString('base64') });
    },
  };
}
