import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { SearchResponse } from '../../src-main/contract/api';
import { tempDir } from '../helpers/temp';

/**
 * Model-aware retrieval on a small library of sibling manuals that say nearly the same thing:
 * three air conditioners whose fuse, filter and spec tables differ in one value each.
 */

let engine: Engine;
let cleanup: () => Promise<void>;

const specRows = (model: string, fuse: string, weight: string) =>
  [
    '| Item | Value |',
    '| --- | --- |',
    `| Model | ${model} |`,
    '| Cooling capacity | 2.5 kW nominal, 0.9 to 3.2 kW range, inverter controlled compressor |',
    '| Heating capacity | 3.2 kW nominal, 0.9 to 4.5 kW range, at 7 degrees outdoor temperature |',
    '| Power supply | 220-240 V single phase 50 Hz, dedicated circuit with earth leakage breaker |',
    '| Refrigerant | R32, factory charge 0.55 kg, additional charge 20 g per metre beyond 7.5 m |',
    '| Noise level | Indoor 19 to 39 dB(A), outdoor 46 dB(A) at nominal cooling output |',
    `| Control board fuse | ${fuse} slow-blow ceramic fuse, 250 V rated |`,
    `| Net weight | Indoor unit ${weight}, outdoor unit 26 kg |`,
    '| Pipe connections | Liquid 6.35 mm, gas 9.52 mm flare connections |',
  ].join('\n');

const manual = (model: string, fuse: string, weight: string, pin: string) => `# ${model} service manual

## Safety

Disconnect the ${model} from the mains before opening the cover. Only trained technicians may service the refrigerant circuit.

## Specifications

${specRows(model, fuse, weight)}

## Filters

Clean the ${model} air filter every two weeks with lukewarm water and let it dry in the shade before refitting it.

## Service connector

The ${model} service connector exposes the serial console on pin ${pin} (signal UART1_TX_M0) for the diagnostic tool.
`;

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  const dir = path.join(tmp.dir, 'aircon');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'rac-225b.md'), manual('RAC-225B', '10 A', '9 kg', '3'));
  await writeFile(path.join(dir, 'rac-325b.md'), manual('RAC-325B', '15 A', '11 kg', '5'));
  await writeFile(path.join(dir, 'rac-425b.md'), manual('RAC-425B', '20 A', '13 kg', '7'));
  const res = await engine.importPaths('Aircon', [dir]);
  if (!res.ok || res.value.summary.imported !== 3) throw new Error('import failed');
});
afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

async function search(query: string, extra: { models?: string[]; topK?: number } = {}): Promise<SearchResponse> {
  const res = await engine.handlers['search.query']({ library: 'Aircon', query, topK: extra.topK ?? 5, retriever: 'bm25', ...(extra.models ? { models: extra.models } : {}) });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

describe('model-aware search over sibling manuals', () => {
  it('resolves the named model and puts its passage first', async () => {
    for (const [model, fuse] of [['RAC-325B', '15 A'], ['RAC-425B', '20 A'], ['RAC-225B', '10 A']] as const) {
      const r = await search(`What fuse does the ${model} control board take?`);
      expect(r.resolvedModels).toEqual([model]);
      expect(r.results[0]?.signature.model).toBe(model);
      expect(r.results[0]?.text).toContain(`${fuse} slow-blow`);
    }
  });

  it('tolerates how technicians write the model', async () => {
    const r = await search('rac 325 b net weight');
    expect(r.resolvedModels).toEqual(['RAC-325B']);
    expect(r.results[0]?.doc).toBe('aircon/rac-325b.md');
  });

  it('returns a long spec table whole, found through the row that answers', async () => {
    const r = await search('RAC-425B net weight of the indoor unit');
    const top = r.results[0]!;
    expect(top.doc).toBe('aircon/rac-425b.md');
    expect(top.text).toContain('| Cooling capacity |');
    expect(top.text).toContain('Indoor unit 13 kg');
    expect(top.snippet).toContain('13 kg');
    const chunks = await engine.handlers['documents.chunks']({ library: 'Aircon', id: 'aircon/rac-425b.md' });
    if (!chunks.ok) throw new Error(chunks.error.message);
    expect(chunks.value.every((c) => !/\/r\d+$/.test(c.id))).toBe(true);
    expect(chunks.value.map((c) => c.ordinal)).toEqual(chunks.value.map((_, i) => i));
  });

  it('matches identifiers written with underscores from plain words', async () => {
    const r = await search('RAC-225B which pin carries UART1 TX');
    expect(r.results[0]?.text).toContain('UART1_TX_M0');
    expect(r.results[0]?.doc).toBe('aircon/rac-225b.md');
  });

  it('restricts to the models the user filters by', async () => {
    const r = await search('air filter cleaning', { models: ['RAC-425B'], topK: 10 });
    expect(r.results.length).toBeGreaterThan(0);
    expect(new Set(r.results.map((h) => h.signature.model))).toEqual(new Set(['RAC-425B']));
  });

  it('leaves ranking alone when no model is named', async () => {
    const r = await search('air filter lukewarm water', { topK: 10 });
    expect(r.resolvedModels).toEqual([]);
    expect(new Set(r.results.slice(0, 3).map((h) => h.signature.model)).size).toBe(3);
  });
});
