import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../helpers/temp';

/** Lints a snippet as if it lived at `file`, with the project's real config. */
async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (eslint)', () => {
  it('fails when engine code imports electron', async () => {
    expect(await lint('src-main/engine/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([
      expect.stringContaining('only src-main/electron/ may import electron'),
    ]);
  });

  it('lets the Electron shell import electron', async () => {
    expect(await lint('src-main/electron/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([]);
  });

  it('fails when the renderer imports engine code other than the contract and core', async () => {
    const bad = await lint('src-renderer/src/x.ts', "import { createEngine } from '../../src-main/engine/engine';\nexport const a = createEngine;\n");
    expect(bad).toEqual([expect.stringContaining('only to the API contract')]);
    const parsers = await lint('src-renderer/src/x.ts', "import { PARSERS } from '../../src-main/ingest/parsers';\nexport const a = PARSERS;\n");
    expect(parsers).toEqual([expect.stringContaining('only to the API contract')]);
    const good = await lint('src-renderer/src/x.ts', "import { contract } from '../../src-main/contract/api';\nexport const a = contract;\n");
    expect(good).toEqual([]);
    const core = await lint('src-renderer/src/x.ts', "import { SUPPORTED_EXTENSIONS } from '../../src-main/core/formats';\nexport const a = SUPPORTED_EXTENSIONS;\n");
    expect(core).toEqual([]);
  });

  it('fails when code outside storage/model runtime imports native runtimes', async () => {
    expect(await lint('src-main/search/x.ts', "import * as l from '@lancedb/lancedb';\nexport const a = l;\n")).toHaveLength(1);
    expect(await lint('src-main/enrich/x.ts', "import * as l from 'node-llama-cpp';\nexport const a = l;\n")).toHaveLength(1);
    expect(await lint('src-main/chunking/x.ts', "import * as t from '@huggingface/transformers';\nexport const a = t;\n")).toHaveLength(1);
    expect(await lint('src-main/storage/x.ts', "import * as l from '@lancedb/lancedb';\nexport const a = l;\n")).toEqual([]);
    expect(await lint('src-main/models/x.ts', "import * as l from 'node-llama-cpp';\nexport const a = l;\n")).toEqual([]);
    expect(await lint('src-main/models/x.ts', "import * as l from '@lancedb/lancedb';\nexport const a = l;\n")).toHaveLength(1);
  });
});
