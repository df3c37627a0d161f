import { readFileSync, readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { DocFormat } from '../core/formats';
import { documentCodes } from '../enrich/document-codes';
import { LEARNING_EXTRACT_MAX_CHARS, learningExtract } from '../enrich/learning-extract';
import { parseDocument } from './parsers';
import { threadTicks, type ParseTask, type PoolMessage, type WorkerMessage, type WorkerParseResult } from './parse-protocol';

/**
 * A parse worker (`parse-pool.ts`): parses the files of each task it is sent, one after the other,
 * and reports each file's start (with this thread's CPU time, so the pool can stop a parse that
 * runs over its budget) and its result, with what learning needs from the document alone
 * (`learningExtract`) when the file's task asks for it (the import's thread is then the busier
 * side: `LibraryIndex.extractsAhead`). It holds no state between files.
 */

const port = parentPort;
if (!port) throw new Error('parse.worker.ts runs as a worker thread only');

// pdf.js inflates a PDF's streams through DecompressionStream where there is one, and with its own
// inflate where there is none. Node's runs each of a file's thousands of small streams through web
// streams and the libuv thread pool; pdf.js's own inflate read the same text of pdf-dev with 16%
// less CPU. This thread only parses, so nothing else here needs the class.
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;

/** This thread's `/proc` entry ("pid/task/tid"), where the kernel keeps its CPU time; null off Linux. */
function threadEntry(): string | null {
  try {
    return readlinkSync('/proc/thread-self');
  } catch {
    return null;
  }
}

const entry = threadEntry();

/** CPU time this thread has used, in clock ticks, or null where `/proc` is not there. */
function cpuTicks(): number | null {
  if (!entry) return null;
  try {
    return threadTicks(readFileSync('/proc/thread-self/stat', 'latin1'));
  } catch {
    return null;
  }
}

/**
 * Formats whose parse is short next to learning them: this thread makes their extract when asked. A
 * PDF's or DOCX's parse is the import's longest step, which the import's thread waits for anyway,
 * so their documents are learned there in full.
 */
const EXTRACT_FORMATS: ReadonlySet<DocFormat> = new Set<DocFormat>(['markdown', 'html', 'txt']);

/** `result` with its document's learning extract and codes; without them when making them throws (the import's thread then makes its own). */
function withExtract(result: Extract<WorkerParseResult, { ok: true }>): WorkerParseResult {
  try {
    return { ...result, extract: learningExtract(result.doc), codes: documentCodes(result.doc) };
  } catch {
    return result;
  }
}

function send(message: WorkerMessage): void {
  port!.postMessage(message);
}

// The pool sends a worker its next files while it parses its last one (`parse-pool.ts`): tasks
// are parsed one after the other, in the order they came, never two files at once.
const tasks: ParseTask[] = [];
let running = false;
/** Keys of sent files whose import was cancelled before they started (see `SkipTask`). */
const skipped = new Set<number>();

port.on('message', (message: PoolMessage) => {
  if (message.type === 'skip') {
    for (const key of message.keys) skipped.add(key);
    return;
  }
  tasks.push(message);
  if (!running) void runTasks();
});

/** A turn of the event loop, so a `SkipTask` that came while the last file parsed is read first. */
const messagesRead = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function runTasks(): Promise<void> {
  running = true;
  for (let task = tasks.shift(); task; task = tasks.shift()) await runTask(task);
  running = false;
}

async function runTask(task: ParseTask): Promise<void> {
  for (const file of task.files) {
    await messagesRead();
    if (skipped.delete(file.key)) {
      send({ type: 'skipped', key: file.key });
      continue;
    }
    send({ type: 'start', key: file.key, cpuTicks: cpuTicks() });
    let result: WorkerParseResult;
    try {
      result = await parseDocument({ bytes: file.bytes, fileName: file.fileName });
      if (result.ok && result.doc.text.length > task.maxTextChars) {
        const chars = (n: number) => `${Math.round(n / 1e6)} million characters`;
        result = {
          ok: false,
          code: 'too-large',
          reason: `The file is too large to import (limit ${chars(task.maxTextChars)} of text): it holds ${chars(result.doc.text.length)}.`,
        };
      }
      if (file.extract && result.ok && EXTRACT_FORMATS.has(result.doc.format) && result.doc.text.length <= LEARNING_EXTRACT_MAX_CHARS) result = withExtract(result);
    } catch (err) {
      result = { ok: false, code: 'corrupt', reason: `The file could not be read: ${err instanceof Error ? err.message : String(err)}` };
    }
    send({ type: 'done', key: file.key, result });
  }
}

send({ type: 'ready', thread: entry });
