import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { useTempEngine } from '../helpers/temp-engine';

describe('a family datasheet searched for one member (real engine and LanceDB)', () => {
  const t = useTempEngine();

  it("finds the member's own table in the family's datasheet, not a sibling's identical one", async () => {
    const { engine, dir } = t;
    const root = path.join(dir, 'ds');
    await mkdir(root, { recursive: true });
    // One datasheet for the family, one table per member, the same rows with other values.
    const member = (code: string, min: string, typ: string) =>
      `## Electrical Characteristics (${code})\n\nRefer to the test circuits.\n\n| Symbol | Parameter | Min. | Typ. | Max. |\n| --- | --- | --- | --- | --- |\n| VO | Output Voltage | ${min} | ${typ} | - |\n`;
    const text = ['# KX78XX/KX78XXA 3-Terminal 1A Positive Voltage Regulator', member('KX7805A', '4.9', '5.0'), member('KX7812A', '11.75', '12.0'), member('KX7824A', '23.5', '24.0')].join('\n');
    await writeFile(path.join(root, 'KX78XX-KX78XXA.md'), text);
    await writeFile(path.join(root, 'QX2000.md'), '# QX2000 Regulator\n\n## Electrical Characteristics\n\n| VO | Output Voltage | 1.2 |\n');
    expect((await engine.importPaths('Parts', [root])).ok).toBe(true);
    const res = await engine.api['search.query']({ library: 'Parts', query: 'KX7824A minimum output voltage', topK: 3, retriever: 'bm25' });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.results[0]!.text).toContain('23.5');
  });
});
