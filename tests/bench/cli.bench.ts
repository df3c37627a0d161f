// CLI start-up: `manualmate --help` and `manualmate search` on a library of radxa-docs +
// esp-dev-kits (660 documents), each as a whole process, beside a bare `node -e 0` timed in the
// same loop (the ratio is what the targets are about). Also `npx manualmate --help` once, to show
// npm's own start-up and that npm prints no warning. Prints one JSON object on stdout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot, sharedDir, tempDir } from '../helpers/temp';

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const RUNS = 15;

function run(args: string[], command = process.execPath): { seconds: number; stdout: string; stderr: string } {
  const t = performance.now();
  const r = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', env: process.env });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { seconds, stdout: r.stdout, stderr: r.stderr };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The bundle must be current, or the bin would run the sources through tsx.
run([path.join(repoRoot, 'scripts', 'build-cli.mjs')]);
const tmp = await tempDir('manualmate-clibench-');
try {
  const data = path.join(tmp.dir, 'data');
  const corpora = ['radxa-docs', 'esp-dev-kits'].map((c) => path.join(sharedDir, 'corpus', c));
  const imported = run([bin, 'import', ...corpora, '--library', 'bench', '--data-dir', data, '--json']);
  const documents = (JSON.parse(imported.stdout) as { summary: { imported: number } }).summary.imported;
  const search = [bin, 'search', 'What power supply does the ROCK 5B need?', '--library', 'bench', '--data-dir', data];
  // Warm the file cache once for each, then interleave so load changes hit all three alike.
  run(['-e', '0']);
  run([bin, '--help']);
  run(search);
  const times = { node: [] as number[], help: [] as number[], search: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    times.node.push(run(['-e', '0']).seconds);
    times.help.push(run([bin, '--help']).seconds);
    times.search.push(run(search).seconds);
  }
  const npx = run(['manualmate', '--help'], 'npx');
  console.log(
    JSON.stringify({
      runs: RUNS,
      documents,
      nodeSeconds: median(times.node),
      helpSeconds: median(times.help),
      searchSeconds: median(times.search),
      npxHelpSeconds: npx.seconds,
      npxWarnings: npx.stderr.split('\n').filter((l) => /npm (warn|WARN)/.test(l)),
    }),
  );
} finally {
  await tmp.cleanup();
}
