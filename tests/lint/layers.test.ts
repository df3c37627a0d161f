import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../helpers/temp';

/** Lints a snippet as if it lived at `file`, with the project's real config; all messages. */
async function lint(file: string, code: string): Promise<{ ruleId: string | null; message: string }[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? []).map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

const layerErrors = async (file: string, code: string) => (await lint(file, code)).filter((m) => m.ruleId === 'manualmate/layer-order').map((m) => m.message);

describe('engine layers (eslint)', () => {
  it('rejects a chat/ file that loads LanceDB with a dynamic import', async () => {
    const errors = await layerErrors('src-main/chat/x.ts', "export async function f() {\n  return await import('@lancedb/lancedb');\n}\n");
    expect(errors).toEqual([expect.stringContaining('Only src-main/storage/ may load @lancedb/lancedb')]);
  });

  it('lets storage/ load LanceDB with a dynamic import', async () => {
    expect(await layerErrors('src-main/storage/x.ts', "export const l = () => import('@lancedb/lancedb');\n")).toEqual([]);
  });

  it('rejects a dynamic import of electron or node-llama-cpp outside their folders', async () => {
    expect(await layerErrors('src-main/engine/x.ts', "export const e = () => import('electron');\n")).toHaveLength(1);
    expect(await layerErrors('src-main/search/x.ts', "export const e = () => import('node-llama-cpp');\n")).toHaveLength(1);
    expect(await layerErrors('src-main/models/x.ts', "export const e = () => import('node-llama-cpp');\n")).toEqual([]);
  });

  it('rejects a storage/ file importing chat/, statically, as a re-export or dynamically', async () => {
    const statics = await layerErrors('src-main/storage/x.ts', "import { retrieve } from '../chat/retrieve';\nexport const r = retrieve;\n");
    expect(statics).toEqual([expect.stringContaining('src-main/storage/ (layer 1) may not import src-main/chat/ (layer 4)')]);
    expect(await layerErrors('src-main/storage/x.ts', "export { retrieve } from '../chat/retrieve';\n")).toHaveLength(1);
    expect(await layerErrors('src-main/storage/x.ts', "export const r = () => import('../chat/retrieve');\n")).toHaveLength(1);
  });

  it('allows imports of the same layer and of the layers below', async () => {
    expect(await layerErrors('src-main/chat/x.ts', "import { search } from '../search/searcher';\nimport { ok } from '../core/result';\nexport const a = [search, ok];\n")).toEqual([]);
    expect(await layerErrors('src-main/index/x.ts', "import { search } from '../search/searcher';\nexport const a = search;\n")).toEqual([]);
  });

  it('orders every layer: search may not import chat, engine or a door', async () => {
    for (const upper of ['chat/retrieve', 'engine/engine', 'cli/main']) {
      expect(await layerErrors('src-main/search/x.ts', `import * as m from '../${upper}';\nexport const a = m;\n`), upper).toHaveLength(1);
    }
  });

  it('rejects an import() whose specifier it cannot read', async () => {
    expect(await layerErrors('src-main/engine/x.ts', 'export const load = (name: string) => import(name);\n')).toEqual([expect.stringContaining('string literal')]);
  });
});
