import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine } from '../../src-main/engine/engine';
import { LIBRARY_LOCK_FILE } from '../../src-main/engine/writer-lock';
import { tryLock } from '../../src-main/storage/lock-file';
import { LibraryManager, OPENING_LOCK_PURPOSE } from '../../src-main/storage/library.store';
import { SUPPORTED_EXTENSIONS } from '../../src-main/ingest/parsers';
import { corpusRoots, repoRoot, tempDir } from '../helpers/temp';
import { holdInAnotherProcess, killed } from '../helpers/lock-holder';
import { runNode, type NodeRun } from '../helpers/run-node';

/**
 * One writer per library across processes (the lock file) and one import at a time inside an app
 * (the queue). Real processes: the CLI as users run it, and a holder process killed with SIGKILL.
 */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');

function run(args: string[]): Promise<NodeRun> {
  return runNode([bin, ...args]);
}

/** Every listed document once, each ready one with exactly its chunks, no chunk id twice. */
async function checkLibrary(dataDir: string, library: string, expectedIds: string[]): Promise<void> {
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(dataDir, 'no-models') });
  try {
    const libs = await engine.handlers['libraries.list']({});
    expect(libs.ok && libs.value.filter((l) => l.name === library).length, 'libraries of that name').toBe(1);
    const lib = (await engine.libraries.get(library))!;
    const docs = await lib.documents();
    expect(docs.map((d) => d.id).sort()).toEqual([...expectedIds].sort());
    const index = await engine.indexes.open(lib);
    const chunkIds: string[] = [];
    for (const d of docs) {
      expect(d.status, d.id).toBe('ready');
      const rows = await index.listChunks(d.id);
      expect(rows.length, `${d.id} rows`).toBe(d.chunks);
      chunkIds.push(...rows.map((r) => r.id));
    }
    expect(new Set(chunkIds).size).toBe(chunkIds.length);
    const listed = await engine.handlers['search.query']({ library, query: 'power supply', topK: 100, retriever: 'bm25' });
    expect(listed.ok).toBe(true);
    if (listed.ok) for (const hit of listed.value.results) expect(expectedIds, `searchable row of an unlisted document ${hit.doc}`).toContain(hit.doc);
  } finally {
    await engine.dispose();
  }
}

/** The document ids an import of `folder` gives its importable files. */
async function filesOf(folder: string, top: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && SUPPORTED_EXTENSIONS.includes(path.extname(e.name).slice(1).toLowerCase())).map((e) => path.posix.join(top, path.relative(folder, path.join(e.parentPath, e.name)).split(path.sep).join('/')));
}

describe('one writer per library across processes', () => {
  it('tells a second CLI import "library busy" while another process holds the library, and takes over the lock once that process is killed', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    try {
      const source = path.join(corpusRoots.fixture, 'esp-dev-kits');
      const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
      const created = await engine.handlers['libraries.create']({ name: 'Boards' });
      const dir = (await engine.libraries.get('Boards'))!.dir;
      await engine.dispose();
      expect(created.ok).toBe(true);

      const lockFile = path.join(dir, LIBRARY_LOCK_FILE);
      const other = await holdInAnotherProcess(lockFile);
      try {
        const busy = await run(['import', source, '--library', 'Boards', '--data-dir', tmp.dir, '--json']);
        expect(busy.code).toBe(1);
        expect(busy.stderr).toMatch(/library busy: another import is running in "Boards" \(process \d+/);
        expect(busy.stdout).toBe('');
      } finally {
        await killed(other);
      }
      // The holder died without letting go: its lock file is still there, and stale.
      expect(existsSync(lockFile)).toBe(true);
      const after = await run(['import', source, '--library', 'Boards', '--data-dir', tmp.dir, '--json']);
      expect(after.stderr).toBe('');
      expect(after.code).toBe(0);
      expect(existsSync(lockFile)).toBe(false);
      await checkLibrary(tmp.dir, 'Boards', await filesOf(source, 'esp-dev-kits'));
    } finally {
      await tmp.cleanup();
    }
  });

  it('leaves the temp files of a process writing the library alone when opening it, and sweeps them once that process is gone', { timeout: 60_000 }, async () => {
    const tmp = await tempDir();
    try {
      const created = await new LibraryManager(tmp.dir).create('Writing');
      if (!created.ok) throw new Error(created.error.message);
      const dir = created.value.dir;
      const inFlight = path.join(dir, '.documents.json.4242.cafe.tmp');
      await writeFile(inFlight, '{"version":1,');
      const other = await holdInAnotherProcess(path.join(dir, LIBRARY_LOCK_FILE));
      try {
        expect((await new LibraryManager(tmp.dir).list()).map((l) => l.name)).toEqual(['Writing']);
        expect(existsSync(inFlight)).toBe(true);
      } finally {
        await killed(other);
      }
      expect((await new LibraryManager(tmp.dir).list()).map((l) => l.name)).toEqual(['Writing']);
      expect(existsSync(inFlight)).toBe(false);
      expect(existsSync(path.join(dir, LIBRARY_LOCK_FILE))).toBe(false);
    } finally {
      await tmp.cleanup();
    }
  });

  it('leaves the index a CLI reindex is building alone when another process opens the library to search', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    try {
      const source = path.join(corpusRoots.fixture, 'radxa-docs');
      const cli = (args: string[]) => [bin, ...args, '--library', 'Boards', '--data-dir', tmp.dir, '--json'];
      expect((await runNode(cli(['import', source]))).code).toBe(0);
      const dir = (await new LibraryManager(tmp.dir).get('Boards'))!.dir;
      const staging = path.join(dir, 'index.next');
      // The reindex is stopped (SIGSTOP) as soon as its new index folder exists, and goes on once the search has run.
      const reindex = spawn(process.execPath, cli(['reindex']), { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      reindex.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => reindex.on('exit', (code) => resolve(code)));
      while (!existsSync(staging) && reindex.exitCode === null) await new Promise((r) => setTimeout(r, 2));
      reindex.kill('SIGSTOP');
      try {
        expect(existsSync(staging), 'the reindex got to its new index folder').toBe(true);
        const search = await runNode(cli(['search', 'power supply']));
        expect(search.stderr).toBe('');
        expect(search.code).toBe(0);
        expect(existsSync(staging), 'the rebuild under way keeps its folder').toBe(true);
      } finally {
        reindex.kill('SIGCONT');
        await exited;
      }
      expect(await exited, stderr).toBe(0);
      expect(stderr).toBe('');
      await checkLibrary(tmp.dir, 'Boards', await filesOf(source, 'radxa-docs'));
      expect(existsSync(staging)).toBe(false);
    } finally {
      await tmp.cleanup();
    }
  });

  it("leaves a commit that another process has under way alone when opening the library, and repairs it once that process is gone", { timeout: 60_000 }, async () => {
    const tmp = await tempDir();
    try {
      const source = path.join(corpusRoots.fixture, 'esp-dev-kits');
      let engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
      const imported = await engine.importPaths('Boards', [source]);
      const dir = (await engine.libraries.get('Boards'))!.dir;
      await engine.dispose();
      if (!imported.ok) throw new Error(imported.error.message);
      // A writer's commit under way: the journal names a document whose rows are written and that documents.json does not list yet.
      const docsFile = path.join(dir, 'documents.json');
      const stored = JSON.parse(await readFile(docsFile, 'utf8')) as { documents: { id: string }[] };
      const inFlight = stored.documents.pop()!.id;
      await writeFile(docsFile, JSON.stringify(stored));
      await writeFile(path.join(dir, 'journal.json'), JSON.stringify({ docIds: [inFlight] }));
      const rowsOf = async (id: string) => {
        engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
        try {
          return (await (await engine.indexes.open((await engine.libraries.get('Boards'))!)).listChunks(id)).length;
        } finally {
          await engine.dispose();
        }
      };
      const other = await holdInAnotherProcess(path.join(dir, LIBRARY_LOCK_FILE));
      try {
        expect(await rowsOf(inFlight), 'rows of the commit under way').toBeGreaterThan(0);
        expect(JSON.parse(await readFile(path.join(dir, 'journal.json'), 'utf8'))).toEqual({ docIds: [inFlight] });
      } finally {
        await killed(other);
      }
      // Its writer was killed before listing the document: the next opener drops its rows.
      expect(await rowsOf(inFlight)).toBe(0);
      await checkLibrary(tmp.dir, 'Boards', stored.documents.map((d) => d.id));
    } finally {
      await tmp.cleanup();
    }
  });

  it('two CLI imports started together into a new library: one imports, the other is told the library is busy or runs after it; every document is listed once, no row doubled', { timeout: 180_000 }, async () => {
    const tmp = await tempDir();
    try {
      // Several copies, so the first import is still running when the second asks.
      const folder = path.join(tmp.dir, 'boards');
      for (let i = 1; i <= 4; i++) await cp(path.join(corpusRoots.fixture, 'radxa-docs'), path.join(folder, `copy-${i}`), { recursive: true });
      const args = ['import', folder, '--library', 'Twice', '--data-dir', tmp.dir, '--json'];
      const [a, b] = await Promise.all([run(args), run(args)]);
      const outcomes = [a, b].map((r) => (r.code === 0 ? 'imported' : /library busy: another import is running/.test(r.stderr) && r.code === 1 ? 'busy' : `failed ${r.code}: ${r.stderr}`));
      expect(outcomes.filter((o) => o === 'imported').length).toBeGreaterThanOrEqual(1);
      expect(outcomes.every((o) => o === 'imported' || o === 'busy'), outcomes.join(' / ')).toBe(true);
      for (const r of [a, b].filter((x) => x.code === 0)) {
        const summary = JSON.parse(r.stdout) as { summary: { failed: number } };
        expect(summary.summary.failed).toBe(0);
      }
      await checkLibrary(tmp.dir, 'Twice', await filesOf(folder, 'boards'));
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('an app and a CLI writing one library in turn', () => {
  it('keeps the documents a CLI imported while the app had the library open, when the app writes next', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const app = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      const esp = path.join(corpusRoots.fixture, 'esp-dev-kits');
      const radxa = path.join(corpusRoots.fixture, 'radxa-docs');
      const first = await app.importPaths('Shared', [esp]);
      expect(first.ok).toBe(true);
      await app.idle();
      // The app has the document list in memory; another process adds to it.
      const cli = await run(['import', radxa, '--library', 'Shared', '--data-dir', tmp.dir, '--json']);
      expect(cli.code, cli.stderr).toBe(0);
      const espIds = await filesOf(esp, 'esp-dev-kits');
      const removed = await app.handlers['documents.remove']({ library: 'Shared', id: espIds[0]! });
      expect(removed.ok).toBe(true);
      await app.dispose();
      await checkLibrary(tmp.dir, 'Shared', [...espIds.slice(1), ...(await filesOf(radxa, 'radxa-docs'))]);
    } finally {
      await app.dispose();
      await tmp.cleanup();
    }
  });
});

describe('imports inside one app', () => {
  it('runs three import.start calls into one library one after another, in the order they were made', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      const folders: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const f = path.join(tmp.dir, `batch-${i}`);
        await cp(path.join(corpusRoots.fixture, 'radxa-docs'), f, { recursive: true });
        folders.push(f);
      }
      const seen: string[] = [];
      const finished: string[] = [];
      engine.subscribe((e: EngineEvent) => {
        if (e.type === 'import.progress' && seen.at(-1) !== e.jobId) seen.push(e.jobId);
        if (e.type === 'import.done') finished.push(e.jobId);
      });
      // Three clicks: each call returns at once with its job id, while the jobs before it still run.
      const ids: string[] = [];
      for (const f of folders) {
        const s = await engine.handlers['import.start']({ library: 'Queue', paths: [f] });
        ids.push(s.ok ? s.value.jobId : s.error.message);
      }
      expect(finished).toEqual([]);
      await engine.idle();
      // Each job's progress is one run, and the runs come in call order: never two at once.
      expect(seen).toEqual(ids);
      expect(finished).toEqual(ids);
      const expected = (await Promise.all(folders.map((f, i) => filesOf(f, `batch-${i + 1}`)))).flat();
      await engine.dispose();
      await checkLibrary(tmp.dir, 'Queue', expected);
    } finally {
      await engine.dispose();
      await tmp.cleanup();
    }
  });

  it('waits out a process that is only opening the library instead of calling it busy', async () => {
    const tmp = await tempDir();
    const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      await engine.handlers['libraries.create']({ name: 'Opened' });
      const lib = (await engine.libraries.get('Opened'))!;
      // What another process's opening writes while it sweeps stray temp files.
      const opening = await tryLock(path.join(lib.dir, LIBRARY_LOCK_FILE), OPENING_LOCK_PURPOSE);
      if (!opening.ok) throw new Error('lock not taken');
      const letGo = new Promise<void>((resolve) => setTimeout(() => void opening.release().then(resolve), 300));
      const res = await engine.importPaths('Opened', [path.join(corpusRoots.fixture, 'esp-dev-kits')]);
      await letGo;
      expect(res.ok, res.ok ? '' : res.error.message).toBe(true);
      expect(res.ok && res.value.summary.imported).toBeGreaterThan(0);
    } finally {
      await engine.dispose();
      await tmp.cleanup();
    }
  });

  it('answers import.start with a busy error in words while another holder has the library, and imports once it lets go', async () => {
    const tmp = await tempDir();
    const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      await engine.handlers['libraries.create']({ name: 'Held' });
      const lib = (await engine.libraries.get('Held'))!;
      const other = await tryLock(path.join(lib.dir, LIBRARY_LOCK_FILE), 'import');
      expect(other.ok).toBe(true);
      const source = path.join(corpusRoots.fixture, 'esp-dev-kits');
      const refused = await engine.handlers['import.start']({ library: 'Held', paths: [source] });
      expect(refused).toMatchObject({ ok: false, error: { code: 'busy', message: expect.stringMatching(/^library busy: another import is running/) } });
      expect(await engine.handlers['documents.remove']({ library: 'Held', id: 'x.md' })).toMatchObject({ ok: false, error: { code: 'busy' } });
      if (other.ok) await other.release();
      const res = await engine.importPaths('Held', [source]);
      expect(res.ok && res.value.summary.imported).toBeGreaterThan(0);
      // Folding the new rows into the indexes holds the lock file for its write too.
      await engine.idle();
      expect(existsSync(path.join(lib.dir, LIBRARY_LOCK_FILE))).toBe(false);
    } finally {
      await engine.dispose();
      await tmp.cleanup();
    }
  });
});
