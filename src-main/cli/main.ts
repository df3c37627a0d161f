import { parseArgs, type ParseArgsConfig } from 'node:util';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AppError, ChatTurn, ImportSummary, SearchResponse } from '../contract/api';
import { MAX_TOP_K, RETRIEVERS, type Retriever } from '../core/vocabulary';
import { logUnhandledFailures } from '../engine/process-failures';
import type { Engine, EngineDoor } from '../engine/engine';
import { appRoot, resolveDataDir } from '../engine/paths';
import { sameLibraryName } from '../storage/library.store';
import { withCtrlC } from './interrupt';

/**
 * The `manualmate` command line: the same engine as the app, for scripting, evaluation and
 * machines without a display. Exit codes: 0 success, 1 the work failed (with reasons), 2 usage.
 *
 * Only help, version and argument checks are loaded up front: the engine (LanceDB, parsers,
 * model runtimes), the web bridge and eval are imported when a command needs them, so that
 * `--help` or a usage error answers at once (bin/manualmate.mjs runs the bundled form).
 */

type Out = { write(s: string): void };
export interface CliIo {
  stdout: Out;
  stderr: Out;
}

class UsageError extends Error {}

const HELP = `manualmate — offline search and chat over product manuals

Usage: manualmate <command> [options]

Commands:
  import <paths...> --library NAME   Import files and folders (recursively) into a library
  libraries                          List libraries
  documents --library NAME           List the documents of a library
  reindex --library NAME             Rebuild a library's index from its stored documents
  publish --library NAME --to s3://BUCKET/PREFIX
                                     Publish a library to object storage as a new version
  subscribe s3://BUCKET/PREFIX --library NAME
                                     Subscribe to a published library (a read-only offline copy)
  sync --library NAME                Fetch the latest published version of a subscribed library
  search "QUESTION" --library NAME   Search a library (--top-k N, --retriever ${RETRIEVERS.join('|')}, --model M)
  ask "QUESTION" --library NAME      Answer a question with citations
  eval --corpus DIR --questions FILE Evaluate chunking and retrieval configurations
  eval --suite BENCH_DIR             The scorecard: every question file of a bench folder (--sets a,b)
  models                             List the models found in models/ and the data folder
  serve                              Serve the app's UI through the local web bridge

Object storage: endpoint, region and keys from Settings or AWS_ENDPOINT_URL, AWS_REGION,
AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.

Options:
  --data-dir DIR   Where libraries live (or MANUALMATE_DATA_DIR; default: the OS app-data folder)
  --json           Print machine-readable JSON
  -h, --help       Show this help
  -v, --version    Show the version
`;

const COMMON: NonNullable<ParseArgsConfig['options']> = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const COMMANDS: Record<string, { options: NonNullable<ParseArgsConfig['options']>; positionals: 'none' | 'some' | 'one' | 'address' }> = {
  import: { options: { library: { type: 'string' } }, positionals: 'some' },
  libraries: { options: {}, positionals: 'none' },
  documents: { options: { library: { type: 'string' } }, positionals: 'none' },
  reindex: { options: { library: { type: 'string' } }, positionals: 'none' },
  publish: { options: { library: { type: 'string' }, to: { type: 'string' } }, positionals: 'none' },
  subscribe: { options: { library: { type: 'string' } }, positionals: 'address' },
  sync: { options: { library: { type: 'string' } }, positionals: 'none' },
  search: {
    options: { library: { type: 'string' }, 'top-k': { type: 'string' }, retriever: { type: 'string' }, model: { type: 'string', multiple: true } },
    positionals: 'one',
  },
  ask: { options: { library: { type: 'string' }, model: { type: 'string', multiple: true } }, positionals: 'one' },
  eval: {
    options: {
      corpus: { type: 'string', multiple: true },
      questions: { type: 'string' },
      suite: { type: 'string' },
      sets: { type: 'string' },
      ablate: { type: 'boolean' },
      'write-docs': { type: 'string' },
      strategies: { type: 'string' },
      enrich: { type: 'string' },
      retrievers: { type: 'string' },
      'top-k': { type: 'string' },
      out: { type: 'string' },
    },
    positionals: 'none',
  },
  models: { options: {}, positionals: 'none' },
  serve: { options: { port: { type: 'string' }, renderer: { type: 'string' } }, positionals: 'none' },
};

async function version(): Promise<string> {
  const pkg = JSON.parse(await fs.readFile(path.join(appRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function requireLibrary(values: Record<string, unknown>): string {
  const lib = values['library'];
  if (typeof lib !== 'string' || lib.trim() === '') throw new UsageError('This command needs --library NAME.');
  return lib;
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '-v' || command === '--version') {
    io.stdout.write(`${await version()}\n`);
    return 0;
  }
  const spec = COMMANDS[command];
  if (!spec) {
    io.stderr.write(`manualmate: unknown command "${command}". Run "manualmate --help" for the list of commands.\n`);
    return 2;
  }
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: rest, options: { ...COMMON, ...spec.options }, allowPositionals: spec.positionals !== 'none', strict: true });
    values = parsed.values as Record<string, unknown>;
    positionals = parsed.positionals;
    if (values['help']) {
      io.stdout.write(HELP);
      return 0;
    }
    if (spec.positionals === 'some' && positionals.length === 0) throw new UsageError(`"${command}" needs at least one path.`);
    if (spec.positionals === 'one' && positionals.length !== 1) throw new UsageError(`"${command}" needs exactly one quoted question.`);
    if (spec.positionals === 'address' && positionals.length !== 1) throw new UsageError(`"${command}" needs one address: s3://bucket/prefix.`);
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/\. To specify a positional argument.*$/, '') : String(err);
    io.stderr.write(`manualmate ${command}: ${message}\nRun "manualmate --help" for usage.\n`);
    return 2;
  }

  const dataDir = resolveDataDir(values['data-dir'] as string | undefined);
  const json = values['json'] === true;
  let engine: Engine | undefined;
  const getEngine = async () => {
    if (!engine) {
      const { createEngine } = await import('../engine/engine');
      engine = createEngine({ dataDir, version: await version(), transport: 'web' });
    }
    return engine;
  };
  try {
    switch (command) {
      case 'import':
        return await cmdImport(await getEngine(), requireLibrary(values), positionals, json, io);
      case 'libraries': {
        const res = await (await getEngine()).api['libraries.list']({});
        if (!res.ok) return reportError(res.error, io);
        if (json) io.stdout.write(`${JSON.stringify({ libraries: res.value })}\n`);
        else if (res.value.length === 0) io.stdout.write(`No libraries yet in ${dataDir}.\n`);
        else
          for (const l of res.value) {
            const sub = l.subscription ? `\tsubscribed: version ${l.subscription.version} of ${l.subscription.source}${l.subscription.newerAvailable ? ` (version ${l.subscription.latestVersion} available)` : ''}` : '';
            io.stdout.write(`${l.name}\t${l.documents} documents\t${l.chunks} chunks\t${l.strategy}${sub}\n`);
          }
        return 0;
      }
      case 'documents': {
        const res = await (await getEngine()).api['documents.list']({ library: requireLibrary(values) });
        if (!res.ok) return reportError(res.error, io);
        if (json) io.stdout.write(`${JSON.stringify({ documents: res.value })}\n`);
        else
          for (const d of res.value)
            io.stdout.write(`${d.status.padEnd(7)} ${d.id}${d.reason ? `  — ${d.reason}` : ''}${d.models.length ? `  [${listModels(d.models)}]` : ''}\n`);
        return 0;
      }
      case 'reindex':
        return await cmdReindex(await getEngine(), requireLibrary(values), json, io);
      case 'publish':
      case 'subscribe':
      case 'sync': {
        const { runTeamCommand } = await import('./team.command');
        return await runTeamCommand(command, await getEngine(), requireLibrary(values), values, positionals, json, io);
      }
      case 'search':
        return await cmdSearch(await getEngine(), values, positionals[0]!, json, io);
      case 'models': {
        const res = await (await getEngine()).api['models.list']({});
        if (!res.ok) return reportError(res.error, io);
        if (json) io.stdout.write(`${JSON.stringify({ models: res.value })}\n`);
        else if (res.value.length === 0) io.stdout.write('No models found. Put GGUF files or ONNX model folders in models/ (see models/README.md).\n');
        else for (const m of res.value) io.stdout.write(`${m.id}\t${m.format}\t${m.kinds.join('+')}\t${(m.sizeBytes / 1e6).toFixed(1)} MB\t${m.source}\n`);
        return 0;
      }
      case 'serve':
        return await cmdServe(await getEngine(), values, io);
      case 'ask':
        return await cmdAsk(await getEngine(), values, positionals[0]!, json, io);
      case 'eval': {
        const { runEvalCommand } = await import('../eval/eval.command');
        return await runEvalCommand(values, io);
      }
      default:
        io.stderr.write(`manualmate ${command}: not available in this version yet.\n`);
        return 1;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`manualmate ${command}: ${err.message}\nRun "manualmate --help" for usage.\n`);
      return 2;
    }
    throw err;
  } finally {
    // A one-shot command folds what it wrote before it exits (see `Engine.dispose`).
    if (command !== 'serve') await engine?.dispose({ finishFolds: true });
  }
}

function report(message: string, io: CliIo): number {
  io.stderr.write(`manualmate: ${message}\n`);
  return 1;
}

/** Prints a contract error; input the contract refuses is a usage error (exit 2), the rest exit 1. */
function reportError(error: AppError, io: CliIo): number {
  report(error.message, io);
  return error.code === 'invalid-input' ? 2 : 1;
}

/**
 * Runs long work that Ctrl+C stops through its abort signal (the work ends cleanly, with what it
 * finished), then clears the progress line it wrote on a terminal.
 */
async function untilInterrupted<T>(json: boolean, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await withCtrlC(run);
  } finally {
    if (!json && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  }
}

async function cmdImport(engine: EngineDoor, library: string, paths: string[], json: boolean, io: CliIo): Promise<number> {
  const { importAndWait } = await import('../engine/contract-jobs');
  let lastLine = 0;
  const res = await untilInterrupted(json, (signal) =>
    importAndWait(engine, library, paths, {
      signal,
      onProgress: (p) => {
        if (json || !process.stderr.isTTY) return;
        const now = Date.now();
        if (now - lastLine < 100 && p.done < p.total) return;
        lastLine = now;
        process.stderr.write(`\r${p.done}/${p.total} ${p.stage.padEnd(9)} ${p.file.slice(-60).padEnd(60)}`);
      },
    }),
  );
  if (!res.ok) return reportError(res.error, io);
  const s: ImportSummary = res.value;
  if (json) {
    const { cancelled: _cancelled, ...summary } = s.summary;
    io.stdout.write(`${JSON.stringify({ results: s.results, skipped: s.skipped, summary: { ...summary, skipped: s.skipped.length } })}\n`);
  } else {
    for (const r of s.results) if (r.status === 'failed' || r.status === 'replaced' || r.sameAs !== undefined) io.stdout.write(`${r.status}: ${r.file}${r.reason ? ` — ${r.reason}` : ''}\n`);
    // Each file of a renamed folder carries its note: said once.
    for (const note of new Set(s.results.flatMap((r) => (r.note ? [r.note] : [])))) io.stdout.write(`renamed: ${note}\n`);
    for (const k of s.skipped) io.stdout.write(`skipped: ${k.file} — ${k.reason}\n`);
    const { imported, already, replaced, failed, cancelled } = s.summary;
    io.stdout.write(
      `${imported} imported, ${already} already in library, ${replaced} replaced, ${failed} failed${cancelled ? `, ${cancelled} cancelled` : ''}${s.skipped.length ? `, ${s.skipped.length} skipped` : ''} (library "${library}").\n`,
    );
  }
  return s.summary.failed > 0 || s.summary.cancelled > 0 ? 1 : 0;
}

async function cmdReindex(engine: EngineDoor, library: string, json: boolean, io: CliIo): Promise<number> {
  const { rebuildAndWait } = await import('../engine/contract-jobs');
  const res = await untilInterrupted(json, (signal) =>
    rebuildAndWait(engine, library, {
      signal,
      onProgress: (done, total) => {
        if (!json && process.stderr.isTTY) process.stderr.write(`\r${done}/${total} documents`);
      },
    }),
  );
  if (!res.ok) return reportError(res.error, io);
  if (json) io.stdout.write(`${JSON.stringify({ library, ...res.value })}\n`);
  else {
    const { documents, chunks, vectorsKept } = res.value;
    io.stdout.write(`Rebuilt the index of "${library}": ${documents} documents, ${chunks} chunks${vectorsKept > 0 ? `, ${vectorsKept} vectors kept` : ''}.\n`);
  }
  return 0;
}

/** A note on stderr when the library's index predates the current chunking and enrichment. */
async function warnIfOutdated(engine: EngineDoor, library: string, io: CliIo): Promise<void> {
  // The summary's rule (an empty library is never outdated), for the library the name resolves to.
  const listed = await engine.api['libraries.list']({});
  const lib = listed.ok ? listed.value.find((l) => sameLibraryName(l.name, library.trim())) : undefined;
  if (lib?.indexOutdated) {
    io.stderr.write(`Note: "${lib.name}" was indexed by an older version of ManualMate; run "manualmate reindex --library ${JSON.stringify(lib.name)}" for current results.\n`);
  }
}

async function cmdSearch(engine: EngineDoor, values: Record<string, unknown>, query: string, json: boolean, io: CliIo): Promise<number> {
  const topK = values['top-k'] === undefined ? 10 : Number(values['top-k']);
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) throw new UsageError(`--top-k must be a whole number from 1 to ${MAX_TOP_K}.`);
  const retriever = (values['retriever'] as string | undefined) ?? 'bm25';
  if (!(RETRIEVERS as readonly string[]).includes(retriever)) throw new UsageError(`--retriever must be ${RETRIEVERS.slice(0, -1).join(', ')} or ${RETRIEVERS.at(-1)}.`);
  const models = values['model'] as string[] | undefined;
  const res = await engine.api['search.query']({
    library: requireLibrary(values),
    query,
    topK,
    retriever: retriever as Retriever,
    ...(models ? { models } : {}),
  });
  if (!res.ok) return reportError(res.error, io);
  await warnIfOutdated(engine, requireLibrary(values), io);
  const r: SearchResponse = res.value;
  if (json) {
    io.stdout.write(
      `${JSON.stringify({
        query: r.query,
        resolvedModels: r.resolvedModels,
        results: r.results.map((h) => ({ doc: h.doc, text: h.text, score: h.score, pages: h.pages, headingPath: h.headingPath, signature: h.signature })),
      })}\n`,
    );
  } else {
    if (r.resolvedModels.length) io.stdout.write(`Model: ${r.resolvedModels.join(', ')}\n`);
    r.results.forEach((h, i) => {
      const where = [h.headingPath.join(' › '), h.pages.length ? `p. ${h.pages.join('-')}` : ''].filter(Boolean).join(' · ');
      io.stdout.write(`${i + 1}. ${h.doc}${where ? ` — ${where}` : ''}  (${h.score.toFixed(3)})\n   ${h.snippet.replace(/\s+/g, ' ').slice(0, 200)}\n`);
    });
    if (r.results.length === 0) io.stdout.write('No results.\n');
  }
  return 0;
}

async function cmdAsk(engine: EngineDoor, values: Record<string, unknown>, question: string, json: boolean, io: CliIo): Promise<number> {
  const library = requireLibrary(values);
  const models = values['model'] as string[] | undefined;
  // A one-off conversation: created, asked once and deleted, all through the contract.
  const conversation = await engine.api['chat.create']({ library, ...(models ? { scope: { models } } : {}) });
  if (!conversation.ok) return reportError(conversation.error, io);
  const id = conversation.value.id;
  const unsubscribe = engine.subscribe((e) => {
    if (!json && e.type === 'chat.token' && e.conversationId === id) io.stdout.write(e.text);
  });
  // Ctrl+C sends one stop: the engine's `chat.ask` has the question from the call on, before it
  // reads the library and opens its index, so a stop at any moment of the answer finds it.
  const onSigint = () => void engine.api['chat.stop']({ library, id });
  process.once('SIGINT', onSigint);
  let res;
  try {
    res = await engine.api['chat.ask']({ library, id, question });
  } finally {
    process.removeListener('SIGINT', onSigint);
    unsubscribe();
    await engine.api['chat.delete']({ library, id });
  }
  // Ctrl+C before the answer's first word (also while the engine still read the library) is
  // `cancelled`, nothing answered, nothing stored: reported as "Stopped before answering." with exit
  // code 1; after it, the partial answer is printed, marked stopped.
  if (!res.ok) return reportError(res.error, io);
  const turn: ChatTurn = res.value;
  if (json) {
    io.stdout.write(`${JSON.stringify({ question, answer: turn.text, mode: turn.mode, resolvedModels: turn.resolvedModels ?? [], unknownModels: turn.unknownModels ?? [], stopped: turn.stopped ?? false, citations: turn.citations ?? [], ...(turn.clarify ? { clarify: turn.clarify } : {}) })}\n`);
    return 0;
  }
  io.stdout.write(turn.stopped ? '\n[stopped]\n' : '\n');
  if (turn.resolvedModels?.length) io.stdout.write(`\nModel: ${turn.resolvedModels.join(', ')}\n`);
  if (turn.citations?.length) {
    io.stdout.write('\nSources:\n');
    for (const c of turn.citations) {
      const where = [c.headingPath.join(' › '), c.pages.length ? `p. ${c.pages.join('-')}` : ''].filter(Boolean).join(' · ');
      io.stdout.write(`[${c.n}] ${c.doc}${where ? ` — ${where}` : ''}\n    "${c.quote.replace(/\s+/g, ' ').slice(0, 200)}"\n`);
    }
  }
  return 0;
}

async function cmdServe(engine: Engine, values: Record<string, unknown>, io: CliIo): Promise<number> {
  const port = values['port'] === undefined ? 0 : Number(values['port']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number.');
  const rendererDir = path.resolve((values['renderer'] as string | undefined) ?? path.join(appRoot(), 'out', 'renderer'));
  try {
    await fs.access(path.join(rendererDir, 'index.html'));
  } catch {
    return report(`The UI is not built (${rendererDir} has no index.html). Run "npm run build" or "npm start".`, io);
  }
  logUnhandledFailures((line) => io.stderr.write(`${line}\n`));
  const { startWebBridge } = await import('../bridge/web-bridge');
  const bridge = await startWebBridge({ handlers: engine.handlers, subscribe: engine.subscribe, rendererDir, uploadsDir: engine.uploadsDir, port, log: (m) => io.stderr.write(`${m}\n`) });
  io.stdout.write(`ManualMate is serving its UI at ${bridge.url}\n`);
  void engine.resumeBackground().catch((err: unknown) => io.stderr.write(`Resuming background work failed: ${err instanceof Error ? err.message : String(err)}\n`));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await bridge.close();
  await engine.dispose();
  return 0;
}

/** Models shown per document in the text listing; `--json` has them all. */
const LISTED_MODELS = 8;

/** A document's models for one line: the first few and how many more (a parts list may name thousands). */
function listModels(models: readonly string[]): string {
  const shown = models.slice(0, LISTED_MODELS).join(', ');
  return models.length > LISTED_MODELS ? `${shown}, +${models.length - LISTED_MODELS} more` : shown;
}
