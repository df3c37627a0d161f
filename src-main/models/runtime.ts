import { existsSync } from 'node:fs';
import type { Embedder, Llm, ModelInfo } from './types';
import { discoverModels } from './discovery';

/**
 * Owns the local models: finds them on disk, loads each lazily on first use (Haystack's warm_up),
 * remembers load failures with their reason, and disposes everything on shutdown. The native
 * runtimes are imported dynamically so a process that never uses a model never loads them.
 */

export type ModelState = 'not-loaded' | 'loading' | 'ready' | 'failed';

export interface ModelStatus extends ModelInfo {
  state: ModelState;
  reason?: string;
}

export interface ModelDirs {
  /** Models shipped with the app (`models/` in the repo or installer resources). */
  bundled: string;
  /** Models the user added to the data folder. */
  data: string;
}

type Loaded = { kind: 'llm'; llm: Llm } | { kind: 'embedder'; embedder: Embedder };

export class ModelRuntime {
  private states = new Map<string, { state: ModelState; reason?: string }>();
  private loads = new Map<string, Promise<Loaded>>();
  private known: ModelInfo[] = [];

  constructor(
    private readonly dirs: ModelDirs,
    private readonly options: { threads?: number } = {},
  ) {}

  /** Re-scans the model folders and reports each model with its load state. */
  async list(): Promise<ModelStatus[]> {
    this.known = await discoverModels([
      { path: this.dirs.bundled, source: 'bundled' },
      { path: this.dirs.data, source: 'data' },
    ]);
    return this.known.map((m) => ({ ...m, ...(this.states.get(m.path) ?? { state: 'not-loaded' as const }) }));
  }

  private async find(id: string): Promise<ModelInfo | undefined> {
    const seen = this.known.find((m) => m.id === id);
    // A model listed earlier whose file has gone since (deleted, moved) and is not loaded is looked
    // for again: its load would fail with the native runtime's "file not found", where what the
    // user needs to hear is that the model folders hold no such model any more.
    if (!seen || (this.states.get(seen.path)?.state !== 'ready' && !existsSync(seen.path))) await this.list();
    return this.known.find((m) => m.id === id);
  }

  /** Loads (once) the GGUF chat model with this id. */
  async llm(id: string): Promise<Llm> {
    const info = await this.find(id);
    if (!info || info.format !== 'gguf') throw new Error(`No GGUF model named "${id}" in the model folders.`);
    const loaded = await this.load(info, 'llm', async () => {
      const { loadLlm } = await import('./llm.runtime');
      return { kind: 'llm', llm: await loadLlm(info.path, { threads: this.options.threads }) };
    });
    if (loaded.kind !== 'llm') throw new Error(`"${id}" is loaded as an embedder, not a chat model.`);
    return loaded.llm;
  }

  /** Loads (once) the embedder with this id: an ONNX folder or a GGUF embedding model. */
  async embedder(id: string): Promise<Embedder> {
    const info = await this.find(id);
    if (!info) throw new Error(`No embedding model named "${id}" in the model folders.`);
    const loaded = await this.load(info, 'embedder', async () => {
      if (info.format === 'onnx') {
        const { loadOnnxEmbedder } = await import('./onnx-embedder.runtime');
        return { kind: 'embedder', embedder: await loadOnnxEmbedder(info.path) };
      }
      const { loadGgufEmbedder } = await import('./gguf-embedder.runtime');
      return { kind: 'embedder', embedder: await loadGgufEmbedder(info.path, { threads: this.options.threads }) };
    });
    if (loaded.kind !== 'embedder') throw new Error(`"${id}" is loaded as a chat model, not an embedder.`);
    return loaded.embedder;
  }

  private load(info: ModelInfo, role: string, loader: () => Promise<Loaded>): Promise<Loaded> {
    const key = `${info.path}#${role}`;
    let p = this.loads.get(key);
    if (!p) {
      this.states.set(info.path, { state: 'loading' });
      p = loader().then(
        (loaded) => {
          this.states.set(info.path, { state: 'ready' });
          return loaded;
        },
        (err: unknown) => {
          this.loads.delete(key);
          const reason = err instanceof Error ? err.message : String(err);
          this.states.set(info.path, { state: 'failed', reason });
          throw new Error(`Could not load model "${info.id}": ${reason}`);
        },
      );
      this.loads.set(key, p);
    }
    return p;
  }

  /** Frees every loaded model; safe to call more than once. */
  async dispose(): Promise<void> {
    const loads = [...this.loads.values()];
    this.loads.clear();
    this.states.clear();
    await Promise.all(
      loads.map(async (p) => {
        const loaded = await p.catch(() => null);
        if (loaded?.kind === 'llm') await loaded.llm.dispose();
        if (loaded?.kind === 'embedder') await loaded.embedder.dispose();
      }),
    );
  }
}
