/** Shared builders for storage tests: records with sensible defaults, temp folders, unit vectors. */

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChunkInput, ChunkStore } from '../../src-main/storage/chunk-store';
import { openLanceStore, type LanceStoreOptions } from '../../src-main/storage/lance.store';

/** A plain chunk record of `docId` at `ordinal`; `indexedText` defaults to `text`. */
export function record(docId: string, ordinal: number, text: string, extra: Partial<ChunkInput> = {}): ChunkInput {
  return {
    id: `${docId}#${ordinal}`,
    docId,
    ordinal,
    text,
    indexedText: text,
    headingPath: ['Manual', `Section ${ordinal}`],
    pageStart: ordinal + 1,
    pageEnd: ordinal + 1,
    start: ordinal * 100,
    end: ordinal * 100 + text.length,
    strategy: 'structure',
    sectionType: null,
    category: null,
    nouns: [],
    model: null,
    signatureSource: null,
    continuous: null,
    key: null,
    keywords: [],
    entities: [],
    questions: [],
    relatedKeys: [],
    title: null,
    summary: null,
    members: [],
    ...extra,
  };
}

/** A fresh temp folder; removed by the returned cleanup. */
export async function tempDir(prefix = 'mm-store-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** Opens a store and fails the test with the error message when opening fails. */
export async function mustOpen(dir: string, opts: LanceStoreOptions = {}): Promise<ChunkStore> {
  const result = await openLanceStore(dir, opts);
  if (!result.ok) throw new Error(`openLanceStore failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** A unit vector of `dim` dimensions pointing along `axis` (cosine 1 with itself, 0 with others). */
export function axis(dim: number, index: number): number[] {
  return Array.from({ length: dim }, (_, i) => (i === index ? 1 : 0));
}

/**
 * Stores and temp folders of one test file, all closed and removed by `closeAll` (call it in
 * afterEach): `open` gives a fresh store in its own folder, `folder` a bare folder, `track` hands
 * over a store opened by hand.
 */
export function storeScope(): {
  open(options?: LanceStoreOptions): Promise<{ dir: string; store: ChunkStore }>;
  folder(): Promise<string>;
  track<S extends ChunkStore>(store: S): S;
  closeAll(): Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  const stores: ChunkStore[] = [];
  const folder = async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    return dir;
  };
  const track = <S extends ChunkStore>(store: S): S => {
    stores.push(store);
    return store;
  };
  return {
    folder,
    track,
    async open(options = {}) {
      const dir = await folder();
      return { dir, store: track(await mustOpen(dir, options)) };
    },
    async closeAll() {
      for (const store of stores.splice(0)) await store.close();
      for (const cleanup of cleanups.splice(0)) await cleanup();
    },
  };
}
