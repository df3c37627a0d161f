import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { sharedDir } from '../helpers/temp';
const root = process.argv[2]!;
const engine = createEngine({ dataDir: path.join(root, 'data'), bundledModelsDir: '/nonexistent' });
let chunks = 0, copy = 0;
while (chunks < 100000) {
  const dir = path.join(root, 'copies', `c${copy}`);
  await mkdir(dir, { recursive: true });
  for (const name of ['radxa-docs', 'esp-dev-kits']) await cp(path.join(sharedDir, 'corpus', name), path.join(dir, `${name}-${copy}`), { recursive: true });
  const res = await engine.importPaths('bench', [path.join(dir, `radxa-docs-${copy}`), path.join(dir, `esp-dev-kits-${copy}`)]);
  if (!res.ok) throw new Error(res.error.message);
  const libs = await engine.handlers['libraries.list']({});
  chunks = libs.ok ? (libs.value[0]?.chunks ?? 0) : 0;
  console.log(copy, chunks);
  copy++;
}
await engine.idle();
await engine.dispose();
