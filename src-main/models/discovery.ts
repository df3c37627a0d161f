/**
 * Finds the models a user dropped into the model folders: GGUF files (chat or embedding models for
 * node-llama-cpp) and ONNX model folders (transformers.js layout: `config.json` + `onnx/*.onnx`).
 */
import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ModelInfo, ModelKind } from './types';

/** A folder to search and where it sits (shipped with the app, or the user's data folder). */
export interface ModelDir {
  path: string;
  source: ModelInfo['source'];
}

/**
 * Folder levels searched below each model dir: `models/x.gguf`, `models/org/name/onnx/...`
 * (the transformers.js local layout) and one level more for users who nest a download folder.
 */
const MAX_DEPTH = 3;

/** GGUF architectures that are encoders: they produce embeddings and cannot chat. */
const EMBEDDER_ARCHITECTURES = new Set([
  'bert',
  'nomic-bert',
  'nomic-bert-moe',
  'jina-bert-v2',
  'jina-bert-v3',
  'modern-bert',
  'neo-bert',
  'roberta',
  'xlm-roberta',
  't5encoder',
]);
/** GGUF architectures that are not usable as text models at all (vision projectors, audio). */
const NON_TEXT_ARCHITECTURES = new Set(['clip', 'wav-tokenizer-dec']);

const SPLIT_PART = /-(\d{5})-of-(\d{5})\.gguf$/i;

/**
 * Lists the GGUF files and ONNX model folders under `dirs`, sorted by id (then path). Missing or
 * unreadable dirs and files that are not models are skipped, never reported as errors.
 */
export async function discoverModels(dirs: ModelDir[]): Promise<ModelInfo[]> {
  const found: ModelInfo[] = [];
  for (const dir of dirs) await walk(path.resolve(dir.path), dir.source, 0, found);
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function walk(dir: string, source: ModelInfo['source'], depth: number, out: ModelInfo[]): Promise<void> {
  const names = await readdir(dir).catch(() => undefined);
  if (!names) return;
  names.sort();
  for (const name of names) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => undefined);
    if (!info) continue;
    if (info.isFile() && name.toLowerCase().endsWith('.gguf')) {
      const model = await describeGguf(full, name, names, dir, info, source);
      if (model) out.push(model);
    } else if (info.isDirectory()) {
      const onnx = await describeOnnxFolder(full, name, source);
      if (onnx) out.push(onnx);
      else if (depth + 1 < MAX_DEPTH) await walk(full, source, depth + 1, out);
    }
  }
}

async function describeGguf(
  file: string,
  name: string,
  siblings: string[],
  dir: string,
  info: Stats,
  source: ModelInfo['source'],
): Promise<ModelInfo | undefined> {
  let sizeBytes = info.size;
  const split = SPLIT_PART.exec(name);
  if (split) {
    // A model split into parts is listed once, by its first part (the one llama.cpp opens).
    if (Number(split[1]) !== 1) return undefined;
    const prefix = name.slice(0, split.index);
    for (const sibling of siblings) {
      if (sibling !== name && sibling.startsWith(prefix) && SPLIT_PART.test(sibling)) {
        sizeBytes += (await stat(path.join(dir, sibling)).catch(() => undefined))?.size ?? 0;
      }
    }
  }
  const kinds = await knownGgufKinds(file, name, info);
  if (!kinds) return undefined;
  return { id: name, format: 'gguf', path: file, sizeBytes, source, kinds };
}

/**
 * GGUF files' roles as last read from their headers, by path, with the file's identity then (inode,
 * size, modification and change times: a file replaced or rewritten changes its change time, which
 * no copy tool sets back). The folders are scanned often (every models listing, and a documents
 * listing while an upgrade mark kept its chunking inputs: `inputsForMarks`), and a header read
 * opens the file and parses its metadata. Only a header that was read is kept: a read that failed
 * (a file being copied, locked by a scanner, not readable yet) is tried again at the next listing.
 * Bounded: the oldest entry goes first.
 */
const headerKinds = new Map<string, { stamp: string; kinds: ModelKind[] | undefined }>();
const HEADER_KINDS_MAX = 256;

async function knownGgufKinds(file: string, name: string, info: Stats): Promise<ModelKind[] | undefined> {
  const stamp = `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  const known = headerKinds.get(file);
  if (known?.stamp === stamp) return known.kinds;
  const metadata = await ggufMetadata(file);
  if (metadata === null) return undefined;
  const kinds = ggufKinds(metadata, name);
  headerKinds.delete(file);
  headerKinds.set(file, { stamp, kinds });
  if (headerKinds.size > HEADER_KINDS_MAX) headerKinds.delete(headerKinds.keys().next().value!);
  return kinds;
}

/** A GGUF's header metadata, or null when it cannot be read as one. */
async function ggufMetadata(file: string): Promise<Record<string, unknown> | null> {
  try {
    // Imported on demand: node-llama-cpp takes ~200 ms to import, wasted when no GGUF is present.
    const { readGgufFileInfo } = await import('node-llama-cpp');
    // Only the header is read; the large vocabulary arrays are skipped, not kept.
    const info = await readGgufFileInfo(file, {
      sourceType: 'filesystem',
      readTensorInfo: false,
      spliceSplitFiles: false,
      logWarnings: false,
      ignoreKeys: ['tokenizer.ggml.tokens', 'tokenizer.ggml.scores', 'tokenizer.ggml.token_type', 'tokenizer.ggml.merges'],
    });
    return info.metadata as unknown as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The roles a GGUF can play, from its header's metadata; undefined when it is not a text model. */
function ggufKinds(metadata: Record<string, unknown>, name: string): ModelKind[] | undefined {
  const general = metadata.general as { architecture?: unknown } | undefined;
  const architecture = typeof general?.architecture === 'string' ? general.architecture : undefined;
  if (!architecture || NON_TEXT_ARCHITECTURES.has(architecture)) return undefined;
  const archMeta = metadata[architecture] as { pooling_type?: unknown; causal_attention?: unknown } | undefined;
  // Decoder-based embedding models (e.g. Qwen3-Embedding) declare a pooling type or turn off
  // causal attention; their file names say "embed" as a last hint.
  if (
    EMBEDDER_ARCHITECTURES.has(architecture) ||
    archMeta?.pooling_type !== undefined ||
    archMeta?.causal_attention === false ||
    /embed/i.test(name)
  ) {
    return ['embedder'];
  }
  return ['llm'];
}

async function describeOnnxFolder(folder: string, name: string, source: ModelInfo['source']): Promise<ModelInfo | undefined> {
  const config = await stat(path.join(folder, 'config.json')).catch(() => undefined);
  if (!config?.isFile()) return undefined;
  const onnxFiles = (await readdir(path.join(folder, 'onnx')).catch(() => [] as string[])).filter((f) => f.endsWith('.onnx'));
  if (onnxFiles.length === 0) return undefined;
  return { id: name, format: 'onnx', path: folder, sizeBytes: await folderSize(folder, 2), source, kinds: ['embedder'] };
}

async function folderSize(folder: string, depth: number): Promise<number> {
  let total = 0;
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (depth > 0) total += await folderSize(full, depth - 1);
    } else {
      total += (await stat(full).catch(() => undefined))?.size ?? 0;
    }
  }
  return total;
}
