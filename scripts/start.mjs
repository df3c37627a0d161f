#!/usr/bin/env node
// `npm start`: build if the sources changed since the last build, then launch the Electron app.
// Where no Electron binary exists (it is downloaded separately and cannot be on offline
// machines), say so in one line and serve the same UI through the local web bridge instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}

const stamp = path.join(root, 'out', 'renderer', 'index.html');
const sources = ['src-main', 'src-renderer', 'electron.vite.config.ts', 'package.json'].map((p) => newestMtime(path.join(root, p)));
if (!existsSync(stamp) || Math.max(...sources) > newestMtime(path.join(root, 'out'))) {
  console.log('Building ManualMate…');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The build failed; see the messages above.');
    process.exit(build.status ?? 1);
  }
}

/** The Electron binary, without triggering electron's own download-on-require. */
function electronBinary() {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('electron/package.json'));
    const pathFile = path.join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const bin = path.join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

function serveWeb(why) {
  console.log(`Electron is unavailable (${why}); serving the same UI through the local web bridge instead.`);
  const child = spawn(process.execPath, [path.join(root, 'bin', 'manualmate.mjs'), 'serve', ...args], { cwd: root, stdio: 'inherit' });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}

const bin = electronBinary();
if (!bin) {
  serveWeb('no Electron binary in node_modules/electron; run "npx install-electron" on a connected machine to get one');
} else {
  const dataDir = args.find((a) => a.startsWith('--data-dir'));
  const electronArgs = [root, ...(dataDir ? [dataDir.includes('=') ? dataDir : `--data-dir=${args[args.indexOf(dataDir) + 1]}`] : [])];
  const child = spawn(bin, electronArgs, { cwd: root, stdio: ['inherit', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    process.stderr.write(d);
  });
  const started = Date.now();
  child.on('exit', (code, signal) => {
    // A binary that cannot start at all (missing libraries, no display) exits at once: fall back.
    if (code !== 0 && Date.now() - started < 5000) serveWeb(`the Electron binary could not start: ${stderr.trim().split('\n').pop() ?? `exit ${code ?? signal}`}`);
    else process.exit(code ?? 0);
  });
}
