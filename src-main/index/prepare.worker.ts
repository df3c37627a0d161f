import { parentPort } from 'node:worker_threads';
import type { Chunker } from '../chunking/chunker';
import { CodedError } from '../core/result';
import { warmTagger } from '../enrich/cnm.heuristic';
import { createChunker } from '../chunking/chunker.registry';
import { LibraryEnrichment } from './library-enrichment';
import { prepareDocument } from './prepare';
import type { FromWorker, PrepareState, ToWorker } from './prepare-protocol';

/**
 * A prepare worker (`prepare-pool.ts`): restores the batch's vocabulary once per state it is
 * sent, then chunks, enriches and prefixes each document it is given, exactly as the import's
 * thread would (`prepare.ts`).
 */

const port = parentPort;
if (!port) throw new Error('prepare.worker.ts runs as a worker thread only');

let current: { version: number; state: PrepareState; enrichment: LibraryEnrichment; chunker: Chunker } | null = null;

/** The library's chunker (its settings were validated when the library was configured). */
function chunkerOf(state: PrepareState): Chunker {
  const made = createChunker(state.strategy, {});
  if (!made.ok) throw new CodedError(made.error.code, made.error.message);
  return made.value;
}

function send(message: FromWorker): void {
  port!.postMessage(message);
}

port.on('message', async (m: ToWorker) => {
  if (m.type === 'state') {
    current = { version: m.state.version, state: m.state, enrichment: LibraryEnrichment.restore(m.state.enrichment), chunker: chunkerOf(m.state) };
    // The tagger only for a library that reads heuristic nouns (`readsNouns`).
    if (m.state.settings.nouns) warmTagger();
    return;
  }
  try {
    if (!current || current.version !== m.version) throw new Error(`prepare worker: no state for version ${m.version}`);
    const p = await prepareDocument(current.enrichment, current.chunker, current.state.settings, m.doc, {});
    send({ type: 'done', key: m.key, ok: true, value: { chunks: p.chunks, models: p.models, rows: p.rows } });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    send({ type: 'done', key: m.key, ok: false, error: { name: e.name, code: err instanceof CodedError ? err.code : null, message: e.message } });
  }
});

send({ type: 'ready' });
